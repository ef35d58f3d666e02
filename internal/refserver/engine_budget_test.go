package refserver_test

import (
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Budget stop and resume (docs/session-events-wire.md 6.8, 8.2).

const budget1c = `,"budget":{"type":"limit","max_list_cost":{"amount":"1","currency":"USD"}}`

// budgetSession is a sonnet session capped at 1 cent whose first turn's
// first request costs 1.2 cents (1000 + 1000 tokens at $2/$10 per M).
func (f evFixture) budgetSession(t *testing.T, first ...rs.Step) string {
	t.Helper()
	agent := f.agentWith(t, "spender", "vendor-sonnet-5-5", toolsAgent)
	sid := f.sessionOf(t, agent, budget1c)
	f.script(t, sid, append(first, rs.Say("after the pause")))
	return sid
}

func TestBudgetStopAndRaise(t *testing.T) {
	f := newEvFixture(t)
	sid := f.budgetSession(t, rs.UseTool("read", nil, rs.Tokens(1000, 1000)))
	f.post(t, sid, msgEvent("go"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "agent.tool_use",
		"span.model_request_end", "agent.tool_result", "session.thread_status_idle", "session.usage", "session.status_idle")
	if events[6]["session_thread_id"] != f.srv.PrimaryThreadForTest(sid) || stopReasonOf(events[6]) != `{"type":"budget_reached"}` ||
		stopReasonOf(events[8]) != `{"type":"budget_reached"}` {
		t.Fatalf("pause %v / %v", events[6], events[8])
	}
	if u := events[7]["usage"].(map[string]any); mustMarshal(u["list_cost"]) != `{"amount":"1","currency":"USD"}` ||
		mustMarshal(events[7]["budget"]) != `{"max_list_cost":{"amount":"1","currency":"USD"},"type":"limit"}` {
		t.Fatalf("usage %v", events[7])
	}
	// Work is refused with the 400 of docs/session-events-wire.md 6.8; an
	// interrupt is accepted and ignored.
	at := "events[0].type: session is at its budget; only `user.tool_confirmation`, `user.tool_result`, `user.custom_tool_result`, `user.interrupt` are accepted"
	wantInvalid(t, f.send(t, sid, msgEvent("more")), at)
	wantInvalid(t, f.send(t, sid, `{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"}}`), at)
	n := len(f.log(t, sid))
	if data := f.post(t, sid, interruptAll); len(data) != 0 || len(f.log(t, sid)) != n {
		t.Fatalf("interrupt at the budget: %v", data)
	}
	// budget_not_raised compares with the cost the session shows (1.2
	// cents is 1).
	path := sessionsPath + "/" + sid
	wantInvalid(t, f.ma(t, "POST", path, `{"budget":{"type":"limit","max_list_cost":{"amount":"1","currency":"USD"}}}`),
		"budget: budget_not_raised: max_list_cost must be above the consumed list cost 1")
	// Another change does not resume it.
	wantOK(t, f.ma(t, "POST", path, `{"title":"t"}`))
	wantTypes(t, f.logFrom(t, sid, n), "session.updated")
	if mustMarshal(f.logFrom(t, sid, n)[0]) != mustMarshal(map[string]any{"id": f.logFrom(t, sid, n)[0]["id"], "processed_at": testNow,
		"type": "session.updated", "title": "t"}) {
		t.Fatalf("session.updated %v", f.logFrom(t, sid, n)[0])
	}
	// Raising it resumes the turn in the Update Session request.
	got := wantOK(t, f.ma(t, "POST", path, `{"budget":{"type":"limit","max_list_cost":{"amount":"500","currency":"USD"}}}`))
	if got["status"] != "idle" {
		t.Fatalf("status %v (the resumed turn ran to its end)", got["status"])
	}
	events = f.logFrom(t, sid, n+1)
	wantTypes(t, events, "session.updated", "session.status_running", "span.model_request_start", "agent.message",
		"span.model_request_end", "session.usage", "session.status_idle")
	if mustMarshal(events[0]["budget"]) != `{"max_list_cost":{"amount":"500","currency":"USD"},"type":"limit"}` ||
		stopReasonOf(last(events)) != `{"type":"end_turn"}` {
		t.Fatalf("resume %v", events)
	}
}

func TestBudgetRemovedResumes(t *testing.T) {
	f := newEvFixture(t)
	sid := f.budgetSession(t, rs.Think("costly", rs.Tokens(1000, 1000)), rs.UseCustomTool("lookup_order", nil))
	f.post(t, sid, msgEvent("go"))
	use := ofType(f.log(t, sid), "agent.custom_tool_use")[0]["id"].(string)
	if stopReasonOf(last(f.log(t, sid))) != `{"event_ids":["`+use+`"],"type":"requires_action"}` {
		t.Fatalf("idle %v", last(f.log(t, sid)))
	}
	// The request that crossed the cap ended in a call: the answer is
	// recorded without a model request, and the session pauses.
	n := len(f.log(t, sid))
	f.post(t, sid, customResult(use, "found"))
	events := f.logFrom(t, sid, n)
	wantTypes(t, events, "user.custom_tool_result", "session.thread_status_idle", "session.usage", "session.status_idle")
	if stopReasonOf(last(events)) != `{"type":"budget_reached"}` {
		t.Fatalf("pause %v", last(events))
	}
	n += len(events)
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid, `{"budget":null}`))
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "session.updated", "session.status_running", "span.model_request_start", "agent.message",
		"span.model_request_end", "session.usage", "session.status_idle")
	if string(f.srv.SessionEventsForTest(sid)[n]) != `{"id":"`+events[0]["id"].(string)+`","processed_at":"`+testNow+`","type":"session.updated","budget":null}` ||
		events[5]["budget"] != nil {
		t.Fatalf("updated %s", f.srv.SessionEventsForTest(sid)[n])
	}
}

// A message sent at or over the cap, before any pause: the turn starts and
// pauses before its first request.
func TestBudgetPausesBeforeTheFirstRequest(t *testing.T) {
	f := newEvFixture(t)
	sid := f.budgetSession(t, rs.Say("expensive", rs.Tokens(1000, 1000)))
	f.post(t, sid, msgEvent("one"))
	if stopReasonOf(last(f.log(t, sid))) != `{"type":"end_turn"}` {
		t.Fatalf("the crossing request ended the turn: %v", last(f.log(t, sid)))
	}
	n := len(f.log(t, sid))
	f.post(t, sid, msgEvent("two"))
	wantTypes(t, f.logFrom(t, sid, n), "user.message", "session.status_running", "session.thread_status_idle", "session.usage", "session.status_idle")
	wantInvalid(t, f.send(t, sid, msgEvent("three")),
		"events[0].type: session is at its budget; only `user.tool_confirmation`, `user.tool_result`, `user.custom_tool_result`, `user.interrupt` are accepted")
}
