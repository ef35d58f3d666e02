package refserver_test

import (
	"net/http"
	"strings"
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// V1 Send Events (docs/session-events-wire.md 2.1, 3): shapes, state rules
// (400 vs 409), atomicity, echo forms.

func TestSendEventsShapes(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	path := eventsPath(sid)
	n := func(k int) string { return strings.Repeat("x", k) }
	conf := func(extra string) string {
		return `{"type":"user.tool_confirmation","tool_use_id":"sevt_1","result":"deny"` + extra + `}`
	}
	sys := `{"type":"system.message","content":[{"type":"text","text":"ctx"}]}`
	placement := "system.message must be the last event and follow a user.message, user.tool_result or user.custom_tool_result"
	cases := []struct{ body, message string }{
		{`{}`, "events: is required"},
		{`{"events":null}`, "events: must not be null"},
		{`{"events":{}}`, "events: must be an array"},
		{`{"events":[]}`, "events: must have between 1 and 50 items"},
		{`{"events":[` + jsonItems(51, func(int) string { return msgEvent("m") }) + `]}`, "events: must have between 1 and 50 items"},
		{`{"events":[` + msgEvent("m") + `],"x":1}`, "x: unknown field"},
		{`{"events":[{}]}`, "events[0].type: is required"},
		{`{"events":[7]}`, "events[0]: must be an object"},
		{`{"events":[{"type":"agent.message"}]}`, "events[0].type: must be one of `user.message`, `user.interrupt`, `user.tool_confirmation`, " +
			"`user.custom_tool_result`, `user.tool_result`, `user.define_outcome`, `system.message`"},
		{`{"events":[{"type":"user.message"}]}`, "events[0].content: is required"},
		{`{"events":[{"type":"user.message","content":[]}]}`, "events[0].content: must have at least 1 item"},
		{`{"events":[{"type":"user.message","content":[{"type":"image","source":{}}]}]}`, "events[0].content[0].type: must be one of `text`"},
		{`{"events":[{"type":"user.message","content":[{"type":"text","text":""}]}]}`, "events[0].content[0].text: must be at least 1 character"},
		{`{"events":[{"type":"user.message","content":[{"type":"text","text":"a"}],"x":1}]}`, "events[0].x: unknown field"},
		{`{"events":[{"type":"user.interrupt","session_thread_id":5}]}`, "events[0].session_thread_id: must be a string"},
		{`{"events":[{"type":"user.tool_confirmation","tool_use_id":"sevt_1"}]}`, "events[0].result: is required"},
		{`{"events":[{"type":"user.tool_confirmation","tool_use_id":"sevt_1","result":"maybe"}]}`, "events[0].result: must be one of `allow`, `deny`"},
		{`{"events":[{"type":"user.tool_confirmation","result":"allow"}]}`, "events[0].tool_use_id: is required"},
		{`{"events":[{"type":"user.tool_confirmation","result":"allow","tool_use_id":""}]}`, "events[0].tool_use_id: must be between 1 and 128 characters"},
		{`{"events":[{"type":"user.tool_confirmation","result":"allow","tool_use_id":"` + n(129) + `"}]}`, "events[0].tool_use_id: must be between 1 and 128 characters"},
		{`{"events":[` + conf(`,"deny_message":"`+n(10001)+`"`) + `]}`, "events[0].deny_message: must be at most 10000 characters"},
		{`{"events":[{"type":"user.tool_confirmation","tool_use_id":"sevt_1","result":"allow","deny_message":"no"}]}`,
			"events[0].deny_message: only allowed when result is `deny`"},
		{`{"events":[` + conf(`,"session_thread_id":null`) + `]}`, "events[0].session_thread_id: unknown field"},
		{`{"events":[{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_1","content":"text"}]}`, "events[0].content: must be an array"},
		{`{"events":[{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_1","content":null}]}`, "events[0].content: must not be null"},
		{`{"events":[{"type":"user.custom_tool_result","content":[]}]}`, "events[0].custom_tool_use_id: is required"},
		{`{"events":[{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_1","is_error":"yes"}]}`, "events[0].is_error: must be a boolean"},
		{`{"events":[{"type":"user.custom_tool_result","custom_tool_use_id":"sevt_1","content":[{"type":"document"}]}]}`,
			"events[0].content[0].type: must be one of `text`"},
		{`{"events":[{"type":"user.tool_result","tool_use_id":"sevt_1","session_thread_id":"sthr_1"}]}`, "events[0].session_thread_id: unknown field"},
		{`{"events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"},"max_iterations":21}]}`,
			"events[0].max_iterations: must be between 1 and 20"},
		{`{"events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"url"}}]}`, "events[0].rubric.type: must be one of `text`, `file`"},
		{`{"events":[` + sys + `]}`, "events[0]: " + placement},
		{`{"events":[` + msgEvent("m") + `,` + sys + `,` + msgEvent("m") + `]}`, "events[1]: " + placement},
		{`{"events":[` + interruptAll + `,` + sys + `]}`, "events[1]: " + placement},
		{`{"events":[` + msgEvent("m") + `,` + sys + `,` + sys + `]}`, "events[1]: " + placement},
		{`{"events":[` + msgEvent("m") + `,{"type":"system.message","content":[]}]}`, "events[1].content: must have between 1 and 1000 items"},
		{`{"events":[` + msgEvent("m") + `,{"type":"system.message","content":[` +
			jsonItems(1001, func(int) string { return `{"type":"text","text":"t"}` }) + `]}]}`, "events[1].content: must have between 1 and 1000 items"},
		{`{"events":[` + msgEvent("m") + `,{"type":"system.message","content":[{"type":"image"}]}]}`, "events[1].content[0].type: must be one of `text`"},
	}
	for _, tc := range cases {
		wantInvalid(t, f.ma(t, "POST", path, tc.body), tc.message)
	}
	if len(f.log(t, sid)) != 0 {
		t.Fatalf("a refused request recorded events: %q", typesOf(f.log(t, sid)))
	}
	// The bounds themselves are accepted.
	f.post(t, sid, jsonItems(50, func(int) string { return msgEvent("m") }))
	f.post(t, sid, msgEvent("m"), `{"type":"system.message","content":[`+jsonItems(1000, func(int) string { return `{"type":"text","text":"t"}` })+`]}`)
	wantError(t, f.ma(t, "POST", eventsPath("sesn_nope"), `{"events":[`+msgEvent("m")+`]}`), http.StatusNotFound, "not_found_error", "Session `sesn_nope` not found.")
	wantInvalid(t, f.do(t, "POST", path, `{"events":[`+msgEvent("m")+`]}`), "vendor-beta: this endpoint requires the beta value `managed-agents-2026-04-01`")
}

func TestSendEventsStateRules(t *testing.T) {
	f := newEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid, []rs.Step{rs.UseTool("bash", nil), rs.Say("ok")}, []rs.Step{rs.UseCustomTool("lookup_order", nil), rs.Say("ok")})
	f.post(t, sid, msgEvent("go"))
	bash := ofType(f.log(t, sid), "agent.tool_use")[0]["id"].(string)
	conflict := func(r response, message string) { t.Helper(); wantConflict(t, r, "conflict_error", message) }

	wantInvalid(t, f.send(t, sid, confirmation("sevt_nope", "allow")), "events[0].tool_use_id: no tool use `sevt_nope` in this session")
	wantInvalid(t, f.send(t, sid, confirmation(bash, "allow"), confirmation(bash, "deny")), "events[1].tool_use_id: duplicate tool use `"+bash+"`")
	wantInvalid(t, f.send(t, sid, customResult(bash, "x")), "events[0].custom_tool_use_id: no custom tool use `"+bash+"` in this session")
	wantInvalid(t, f.send(t, sid, `{"type":"user.interrupt","session_thread_id":"sthr_nope"}`),
		"events[0].session_thread_id: thread `sthr_nope` not found in this session")
	// A system.message accompanying a user.message while the session waits
	// on the client is 409; with a tool result it is fine.
	conflict(f.send(t, sid, msgEvent("hm"), `{"type":"system.message","content":[{"type":"text","text":"ctx"}]}`),
		"events[1]: session is waiting on tool confirmations or results; system.message must accompany a tool result")
	// Atomic: one bad event, nothing recorded.
	n := len(f.log(t, sid))
	wantInvalid(t, f.send(t, sid, msgEvent("fine"), confirmation("sevt_nope", "allow")), "events[1].tool_use_id: no tool use `sevt_nope` in this session")
	if len(f.log(t, sid)) != n {
		t.Fatal("a refused request recorded events")
	}
	// Checked against the state after the earlier events of the request:
	// the interrupt closes the call, so answering it after is 409.
	conflict(f.send(t, sid, interruptAll, confirmation(bash, "allow")), "events[1].tool_use_id: tool use `"+bash+"` is not awaiting confirmation")
	// A message while blocked is accepted and held
	// (docs/session-events-wire.md 3.3).
	f.post(t, sid, msgEvent("meanwhile"))
	if got := f.session(t, sid); got["status"] != "idle" {
		t.Fatalf("status %v", got["status"])
	}
	f.post(t, sid, confirmation(bash, "allow"))
	custom := ofType(f.log(t, sid), "agent.custom_tool_use")
	if len(custom) != 0 {
		t.Fatalf("the held message started a turn: %v", custom)
	}
	// The custom tool turn; its result may carry a system.message.
	f.post(t, sid, msgEvent("next"))
	cid := ofType(f.log(t, sid), "agent.custom_tool_use")[0]["id"].(string)
	wantInvalid(t, f.send(t, sid, customResult(cid, "a"), customResult(cid, "b")), "events[1].custom_tool_use_id: duplicate tool use `"+cid+"`")
	wantInvalid(t, f.send(t, sid, confirmation(cid, "allow")), "events[0].tool_use_id: no tool use `"+cid+"` in this session")
	f.post(t, sid, customResult(cid, "a"), `{"type":"system.message","content":[{"type":"text","text":"ctx"}]}`)

	// Outcomes: one at a time.
	outcome := `{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"}}`
	conflict(f.send(t, sid, outcome, outcome), "events[1]: an outcome is already active; interrupt it first")
	f.script(t, sid, []rs.Step{rs.Hold()})
	data := f.post(t, sid, outcome)
	if data[0]["max_iterations"] != float64(3) || !strings.HasPrefix(data[0]["outcome_id"].(string), "outc_") {
		t.Fatalf("echo %v", data[0])
	}
	conflict(f.send(t, sid, outcome), "events[0]: an outcome is already active; interrupt it first")
	f.post(t, sid, interruptAll, outcome) // the interrupt ends the outcome first

	// Archived, terminated, deleted.
	f.post(t, sid, interruptAll)
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/archive", ""))
	conflict(f.send(t, sid, msgEvent("x")), "session_id: session `"+sid+"` is archived")
	done := f.sessionID(t, "")
	f.terminate(t, done)
	conflict(f.send(t, done, msgEvent("x")), "session_id: session `"+done+"` is terminated")
	wantOK(t, f.ma(t, "DELETE", sessionsPath+"/"+done, ""))
	wantError(t, f.send(t, done, msgEvent("x")), http.StatusNotFound, "not_found_error", "Session `"+done+"` not found.")
}

func TestSendEventsEchoesAndIdempotency(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	r := f.ma(t, "POST", eventsPath(sid), `{"events":[{"content":[{"text":"hi","type":"text"}],"type":"user.message"},{"type":"user.interrupt"}]}`,
		withHeader("Idempotency-Key", "k1"))
	raw := string(r.body)
	// The sender's key order is kept after processed_at; server-filled
	// keys come last.
	if !strings.Contains(raw, `"processed_at":"`+testNow+`","content":[{"text":"hi","type":"text"}],"type":"user.message"}`) ||
		!strings.Contains(raw, `"type":"user.interrupt","session_thread_id":null}`) {
		t.Fatalf("echo %s", raw)
	}
	n := len(f.log(t, sid))
	again := f.ma(t, "POST", eventsPath(sid), `{"events":[{"content":[{"text":"hi","type":"text"}],"type":"user.message"},{"type":"user.interrupt"}]}`,
		withHeader("Idempotency-Key", "k1"))
	if string(again.body) != raw || again.header.Get("idempotent-replayed") != "true" || len(f.log(t, sid)) != n {
		t.Fatalf("replay %s", again.body)
	}
	// [message, interrupt]: the interrupt drops the queued message, so no
	// turn started; [interrupt, message] starts one after it.
	wantTypes(t, f.log(t, sid), "user.message", "user.interrupt")
	f.post(t, sid, interruptAll, msgEvent("now"))
	wantTypes(t, f.logFrom(t, sid, 2), "user.interrupt", "user.message", "session.status_running", "span.model_request_start",
		"agent.thinking", "agent.message", "span.model_request_end", "session.usage", "session.status_idle")
}
