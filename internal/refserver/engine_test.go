package refserver_test

import (
	"net/http"
	"strings"
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// The engine's turns (docs/session-events-wire.md 6.2, 6.3, 4.9–4.13): the
// default agent, scripted steps, and the order of what a turn emits.

func TestDefaultTurn(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	data := f.post(t, sid, msgEvent("hi"))
	if len(data) != 1 {
		t.Fatalf("data %v", data)
	}
	requireKeys(t, data[0], "id", "processed_at", "type", "content")
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "agent.thinking",
		"agent.message", "span.model_request_end", "session.usage", "session.status_idle")
	if mustMarshal(events[0]) != mustMarshal(data[0]) {
		t.Fatalf("the echo differs from the response: %v vs %v", events[0], data[0])
	}
	requireKeys(t, events[3], "id", "processed_at", "type")
	if mustMarshal(events[4]["content"]) != `[{"text":"You said: hi","type":"text"}]` {
		t.Fatalf("agent.message %v", events[4])
	}
	end := events[5]
	requireKeys(t, end, "id", "processed_at", "type", "model_request_start_id", "is_error", "model_usage")
	if end["model_request_start_id"] != events[2]["id"] || end["is_error"] != false ||
		mustMarshal(end["model_usage"]) != `{"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"input_tokens":1000,"output_tokens":100,"speed":"standard"}` {
		t.Fatalf("span end %v", end)
	}
	usage := events[6]
	requireKeys(t, usage, "id", "processed_at", "type", "usage", "budget")
	if u := usage["usage"].(map[string]any); u["input_tokens"] != float64(1000) || u["output_tokens"] != float64(100) || usage["budget"] != nil {
		t.Fatalf("session.usage %v", usage)
	}
	idle := events[7]
	requireKeys(t, idle, "id", "processed_at", "type", "stop_reason", "stop_details")
	if stopReasonOf(idle) != `{"type":"end_turn"}` || idle["stop_details"] != nil {
		t.Fatalf("idle %v", idle)
	}
	for i, ev := range events {
		if !strings.HasPrefix(ev["id"].(string), "sevt_") || ev["processed_at"] != testNow {
			t.Fatalf("event %d: %v", i, ev)
		}
	}
	s := f.session(t, sid)
	if s["status"] != "idle" || s["usage"].(map[string]any)["input_tokens"] != float64(1000) {
		t.Fatalf("session %v", s)
	}
}

// The quickstart: an agent with a custom tool, no script.
func TestDefaultCustomToolTurn(t *testing.T) {
	f := newEvFixture(t)
	agent := f.agentWith(t, "helper", "vendor-sonnet-5-5", `,"tools":[{"type":"custom","name":"lookup_order","description":"Look up.",
		"input_schema":{"type":"object","properties":{"order_id":{"type":"string"},"count":{"type":"integer"},"ok":{"type":"boolean"},
		"tags":{"type":"array"},"meta":{"type":"object"},"any":{}},"required":["order_id"]}}]`)
	sid := f.sessionOf(t, agent, "")
	f.post(t, sid, msgEvent("1234"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "agent.custom_tool_use",
		"span.model_request_end", "session.usage", "session.status_idle")
	use := events[3]
	requireKeys(t, use, "id", "processed_at", "type", "name", "input", "session_thread_id")
	if use["name"] != "lookup_order" || use["session_thread_id"] != nil ||
		!strings.Contains(string(f.srv.SessionEventsForTest(sid)[3]), `"input":{"order_id":"1234","count":0,"ok":false,"tags":[],"meta":{},"any":null}`) {
		t.Fatalf("custom tool use %v", use)
	}
	useID := use["id"].(string)
	if stopReasonOf(events[6]) != `{"event_ids":["`+useID+`"],"type":"requires_action"}` || f.session(t, sid)["status"] != "idle" {
		t.Fatalf("idle %v", events[6])
	}
	data := f.post(t, sid, customResult(useID, "shipped"))
	requireKeys(t, data[0], "id", "processed_at", "type", "custom_tool_use_id", "content", "is_error", "session_thread_id")
	if data[0]["is_error"] != false || data[0]["session_thread_id"] != nil {
		t.Fatalf("echo %v", data[0])
	}
	after := f.logFrom(t, sid, 7)
	wantTypes(t, after, "user.custom_tool_result", "session.status_running", "span.model_request_start", "agent.message",
		"span.model_request_end", "session.usage", "session.status_idle")
	if mustMarshal(after[3]["content"]) != `[{"text":"The lookup_order tool returned: shipped","type":"text"}]` ||
		stopReasonOf(last(after)) != `{"type":"end_turn"}` {
		t.Fatalf("reply %v", after)
	}
	// Later turns are the plain default.
	f.post(t, sid, msgEvent("thanks"))
	if got := ofType(f.logFrom(t, sid, 14), "agent.message"); len(got) != 1 || !strings.Contains(mustMarshal(got[0]), "You said: thanks") {
		t.Fatalf("second turn %v", got)
	}
}

func TestScriptedRequestShapes(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.script(t, sid,
		[]rs.Step{rs.Say("a", rs.Tokens(10, 20)), rs.Think("t"), rs.SayChunks("x", "y"), rs.Firehose(3)},
		[]rs.Step{rs.Say("p"), rs.Fail("model_overloaded_error", "The model is overloaded.")},
		[]rs.Step{rs.Say("before"), rs.Refuse("cannot help with that")},
		[]rs.Step{rs.Emit("vendor.future_event", map[string]any{"foo": 1, "type": "ignored", "id": "x"}), rs.Say("after")},
	)
	f.post(t, sid, msgEvent("one"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "agent.message", "agent.thinking",
		"agent.message", "agent.message", "agent.message", "agent.message", "span.model_request_end", "session.usage", "session.status_idle")
	var texts []string
	for _, ev := range ofType(events, "agent.message") {
		texts = append(texts, ev["content"].([]any)[0].(map[string]any)["text"].(string))
	}
	if strings.Join(texts, "|") != "a|xy|message 1|message 2|message 3" {
		t.Fatalf("texts %q", texts)
	}
	if u := events[9]["model_usage"].(map[string]any); u["input_tokens"] != float64(10) || u["output_tokens"] != float64(20) {
		t.Fatalf("Tokens: %v", u)
	}

	// Fail: no buffered event, an error span, session.error, retries_exhausted.
	n := len(events)
	f.post(t, sid, msgEvent("two"))
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.usage", "session.status_idle")
	if events[3]["is_error"] != true || mustMarshal(events[3]["model_usage"].(map[string]any)["output_tokens"]) != `0` {
		t.Fatalf("failed span %v", events[3])
	}
	if mustMarshal(events[4]["error"]) != `{"message":"The model is overloaded.","retry_status":{"type":"exhausted"},"type":"model_overloaded_error"}` ||
		stopReasonOf(events[6]) != `{"type":"retries_exhausted"}` {
		t.Fatalf("error %v, idle %v", events[4], events[6])
	}

	// Refuse: the request completes; the turn stops with refusal details.
	n += len(events)
	f.post(t, sid, msgEvent("three"))
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "agent.message",
		"span.model_request_end", "session.usage", "session.status_idle")
	if stopReasonOf(last(events)) != `{"type":"refusal"}` ||
		mustMarshal(last(events)["stop_details"]) != `{"category":null,"explanation":"cannot help with that","type":"refusal"}` {
		t.Fatalf("refusal %v", last(events))
	}

	// Emit: any type, as is, outside model requests.
	n += len(events)
	f.post(t, sid, msgEvent("four"))
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.message", "session.status_running", "vendor.future_event", "span.model_request_start",
		"agent.message", "span.model_request_end", "session.usage", "session.status_idle")
	requireKeys(t, events[2], "id", "processed_at", "type", "foo")
	// Nothing queued any more: the default agent.
	n += len(events)
	f.post(t, sid, msgEvent("five"))
	if got := ofType(f.logFrom(t, sid, n), "agent.message"); len(got) != 1 || !strings.Contains(mustMarshal(got[0]), "You said: five") {
		t.Fatalf("default after the script: %v", got)
	}
}

func TestHoldAndRelease(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.script(t, sid, []rs.Step{rs.SayChunks("a"), rs.Hold(), rs.Say("b")})
	if err := f.srv.ReleaseSession(sid); err == nil {
		t.Fatal("released a session with no held turn")
	}
	f.post(t, sid, msgEvent("go"))
	wantTypes(t, f.log(t, sid), "user.message", "session.status_running", "span.model_request_start")
	if got := f.session(t, sid); got["status"] != "running" {
		t.Fatalf("status %v", got["status"])
	}
	// While running: a message is taken by the running turn (no new
	// status event); the agent cannot be updated; the session not deleted.
	f.post(t, sid, msgEvent("also"))
	wantConflict(t, f.ma(t, "POST", sessionsPath+"/"+sid, `{"agent":{"tools":[]}}`), "conflict_error", "agent: session is running; interrupt it first")
	wantConflict(t, f.ma(t, "DELETE", sessionsPath+"/"+sid, ""), "conflict_error", "session_id: session is running; interrupt it first")
	must(t, f.srv.ReleaseSession(sid))
	wantTypes(t, f.log(t, sid), "user.message", "session.status_running", "span.model_request_start", "user.message",
		"agent.message", "agent.message", "span.model_request_end", "session.usage", "session.status_idle")
	wantOK(t, f.ma(t, "DELETE", sessionsPath+"/"+sid, ""))
	if err := f.srv.ReleaseSession(sid); err == nil {
		t.Fatal("released a deleted session")
	}
}

func TestScriptErrors(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	for name, turn := range map[string][]rs.Step{
		"verdict":      {rs.UseTool("bash", nil, rs.Verdict("maybe"))},
		"empty say":    {rs.Say("")},
		"zero step":    {{}},
		"input":        {rs.UseTool("bash", []int{1})},
		"no name":      {rs.UseMCPTool("", "x", nil)},
		"emit type":    {rs.Emit("a\nb", nil)},
		"firehose":     {rs.Firehose(0)},
		"not a roster": {rs.Spawn("helper")},
	} {
		if err := f.srv.ScriptSession(sid, turn); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := f.srv.ScriptSession("sesn_nope"); err == nil {
		t.Error("unknown session")
	}
	if err := f.srv.ScriptAgent("agent_nope"); err == nil {
		t.Error("unknown agent")
	}
	// Nothing was queued by the failed calls.
	f.post(t, sid, msgEvent("x"))
	if got := ofType(f.log(t, sid), "agent.message"); len(got) != 1 || !strings.Contains(mustMarshal(got[0]), "You said: x") {
		t.Fatalf("%v", got)
	}
	wantError(t, f.send(t, "sesn_nope", msgEvent("x")), http.StatusNotFound, "not_found_error", "Session `sesn_nope` not found.")
}
