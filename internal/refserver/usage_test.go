package refserver_test

import (
	"testing"
	"time"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Usage and list cost (docs/session-events-wire.md 8): nano-dollar
// arithmetic, half-up cents, active time from the running periods.

func TestListCostArithmetic(t *testing.T) {
	f := newEvFixture(t)
	// The worked example of docs/session-events-wire.md 8.2 without its cache
	// reads: opus,
	// 3571 input and 727 output tokens is 28,824,000 nUSD; 3.1 s active
	// adds (3100×400+9)/18 = 68,889 nUSD: 28,892,889 nUSD, "3" cents.
	opus := f.agentWith(t, "o", "vendor-opus-5-5", "")
	sid := f.sessionOf(t, opus, "")
	f.script(t, sid, []rs.Step{rs.Say("a", rs.Tokens(3571, 727)), rs.Hold()})
	f.post(t, sid, msgEvent("go"))
	f.clock.Advance(3100 * time.Millisecond)
	must(t, f.srv.ReleaseSession(sid))
	usage := ofType(f.log(t, sid), "session.usage")[0]["usage"].(map[string]any)
	if usage["active_seconds"] != 3.1 || usage["input_tokens"] != float64(3571) || usage["output_tokens"] != float64(727) ||
		mustMarshal(usage["list_cost"]) != `{"amount":"3","currency":"USD"}` {
		t.Fatalf("usage %v", usage)
	}
	s := f.session(t, sid)
	if mustMarshal(s["stats"]) != `{"active_seconds":3.1,"duration_seconds":3.1}` || mustMarshal(s["usage"]) != mustMarshal(usage) {
		t.Fatalf("session %v", s)
	}
	// Idle time is not active: duration grows, active does not.
	f.clock.Advance(time.Second)
	f.post(t, sid, msgEvent("again"))
	if s := f.session(t, sid); mustMarshal(s["stats"]) != `{"active_seconds":3.1,"duration_seconds":4.1}` {
		t.Fatalf("stats %v", s["stats"])
	}

	// Rounding is half up on the exact value: haiku at 100 nUSD per input
	// token, 50,000 tokens is 5,000,000 nUSD, half a cent: "1".
	haiku := f.sessionID(t, "")
	f.script(t, haiku, []rs.Step{rs.Say("h", rs.Tokens(49999, 0))}, []rs.Step{rs.Say("h", rs.Tokens(1, 0))})
	f.post(t, haiku, msgEvent("x"))
	if got := mustMarshal(f.session(t, haiku)["usage"].(map[string]any)["list_cost"]); got != `{"amount":"0","currency":"USD"}` {
		t.Fatalf("just under half a cent: %s", got)
	}
	f.post(t, haiku, msgEvent("y"))
	if got := mustMarshal(f.session(t, haiku)["usage"].(map[string]any)["list_cost"]); got != `{"amount":"1","currency":"USD"}` {
		t.Fatalf("half a cent: %s", got)
	}

	// speed fast doubles every token price; model_usage carries the speed.
	fast := f.createAgentJSON(t, `{"name":"fast","model":{"id":"vendor-sonnet-5-5","speed":"fast"}}`)["id"].(string)
	sid = f.sessionOf(t, fast, "")
	f.script(t, sid, []rs.Step{rs.Say("f", rs.Tokens(0, 500))}) // 5,000,000 nUSD, doubled: 1 cent
	f.post(t, sid, msgEvent("x"))
	end := ofType(f.log(t, sid), "span.model_request_end")[0]
	if end["model_usage"].(map[string]any)["speed"] != "fast" ||
		mustMarshal(f.session(t, sid)["usage"].(map[string]any)["list_cost"]) != `{"amount":"1","currency":"USD"}` {
		t.Fatalf("fast %v / %v", end, f.session(t, sid)["usage"])
	}
}
