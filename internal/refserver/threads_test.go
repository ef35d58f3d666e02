package refserver_test

import (
	"encoding/json"
	"strings"
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Threads and interrupts (docs/session-events-wire.md 7, 6.5): a
// coordinator's child threads on the session stream, their calls that wait
// on the client, and interrupting all threads or one.

// coordinatorSession creates a worker agent "reviewer" (haiku) and a
// coordinator "lead" (sonnet) whose roster holds it, and a session of the
// coordinator.
func (f evFixture) coordinatorSession(t *testing.T) string {
	t.Helper()
	worker := f.agentWith(t, "reviewer", "vendor-haiku-5-5", `,"tools":[{"type":"custom","name":"check","description":"c","input_schema":{"type":"object"}}]`)
	lead := f.agentWith(t, "lead", "vendor-sonnet-5-5", `,"multiagent":{"type":"coordinator","agents":["`+worker+`"]},
		"tools":[{"type":"custom","name":"approve","description":"a","input_schema":{"type":"object"}}]`)
	return f.sessionOf(t, lead, "")
}

func TestSpawnThread(t *testing.T) {
	f := newEvFixture(t)
	sid := f.coordinatorSession(t)
	f.script(t, sid, []rs.Step{rs.Say("delegating"), rs.Spawn("reviewer", rs.Think("reading"), rs.Say("LGTM")), rs.Say("done")})
	f.post(t, sid, msgEvent("review the diff"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "agent.message", "span.model_request_end",
		"session.thread_created", "agent.thread_message_sent", "session.thread_status_running", "session.thread_status_idle",
		"agent.thread_message_received", "span.model_request_start", "agent.message", "span.model_request_end",
		"session.usage", "session.status_idle")
	created := events[5]
	child := created["session_thread_id"].(string)
	requireKeys(t, created, "id", "processed_at", "type", "session_thread_id", "agent_name", "workflow_run_id")
	if !strings.HasPrefix(child, "sthr_") || created["agent_name"] != "reviewer" || created["workflow_run_id"] != nil {
		t.Fatalf("thread_created %v", created)
	}
	if mustMarshal(events[6]) != mustMarshal(map[string]any{"id": events[6]["id"], "processed_at": testNow, "type": "agent.thread_message_sent",
		"to_session_thread_id": child, "to_agent_name": "reviewer", "content": []any{map[string]any{"type": "text", "text": "review the diff"}}}) {
		t.Fatalf("message sent %v", events[6])
	}
	if mustMarshal(events[7]) != mustMarshal(map[string]any{"id": events[7]["id"], "processed_at": testNow,
		"type": "session.thread_status_running", "session_thread_id": child, "agent_name": "reviewer"}) {
		t.Fatalf("thread running %v", events[7])
	}
	requireKeys(t, events[8], "id", "processed_at", "type", "session_thread_id", "agent_name", "stop_reason", "stop_details")
	if stopReasonOf(events[8]) != `{"type":"end_turn"}` || events[8]["session_thread_id"] != child {
		t.Fatalf("thread idle %v", events[8])
	}
	if events[9]["from_session_thread_id"] != child || events[9]["from_agent_name"] != "reviewer" ||
		mustMarshal(events[9]["content"]) != `[{"text":"LGTM","type":"text"}]` {
		t.Fatalf("report %v", events[9])
	}
	// The child's own work is on its thread, not the session stream.
	var own []map[string]any
	for _, raw := range f.srv.ThreadEventsForTest(sid, child) {
		var m map[string]any
		must(t, json.Unmarshal(raw, &m))
		own = append(own, m)
	}
	wantTypes(t, own, "span.model_request_start", "agent.thinking", "agent.message", "span.model_request_end")
	// Each thread at its own model: two sonnet requests and one haiku.
	u := f.session(t, sid)["usage"].(map[string]any)
	if u["input_tokens"] != float64(3000) || u["output_tokens"] != float64(300) {
		t.Fatalf("usage %v", u)
	}
}

func TestThreadBlockersAndReports(t *testing.T) {
	f := newEvFixture(t)
	sid := f.coordinatorSession(t)
	f.script(t, sid, []rs.Step{rs.Spawn("reviewer", rs.UseCustomTool("check", nil), rs.Say("checked")), rs.UseCustomTool("approve", nil), rs.Say("end")})
	f.post(t, sid, msgEvent("go"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "session.thread_created", "agent.thread_message_sent",
		"session.thread_status_running", "agent.custom_tool_use", "session.thread_status_idle", "span.model_request_start",
		"agent.custom_tool_use", "span.model_request_end", "session.usage", "session.status_idle")
	child := events[2]["session_thread_id"].(string)
	childCall, primaryCall := events[5], events[8]
	if childCall["session_thread_id"] != child || primaryCall["session_thread_id"] != nil {
		t.Fatalf("cross-posted %v / %v", childCall, primaryCall)
	}
	cid, pid := childCall["id"].(string), primaryCall["id"].(string)
	if stopReasonOf(events[6]) != `{"event_ids":["`+cid+`"],"type":"requires_action"}` ||
		stopReasonOf(events[11]) != `{"event_ids":["`+cid+`","`+pid+`"],"type":"requires_action"}` {
		t.Fatalf("idle %v / %v", events[6], events[11])
	}
	// Answering the primary's call: it runs to the end of its turn; the
	// session idles again with the child's call left.
	n := len(events)
	f.post(t, sid, customResult(pid, "approved"))
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.custom_tool_result", "session.status_running", "span.model_request_start", "agent.message",
		"span.model_request_end", "session.usage", "session.status_idle")
	if stopReasonOf(last(events)) != `{"event_ids":["`+cid+`"],"type":"requires_action"}` {
		t.Fatalf("idle %v", last(events))
	}
	// Answering the child's: routed to it; its report starts a turn of
	// the idle coordinator.
	n += len(events)
	data := f.post(t, sid, customResult(cid, "fine"))
	if data[0]["session_thread_id"] != child {
		t.Fatalf("echo %v", data[0])
	}
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.custom_tool_result", "session.status_running", "session.thread_status_running",
		"session.thread_status_idle", "agent.thread_message_received", "span.model_request_start", "agent.message",
		"span.model_request_end", "session.usage", "session.status_idle")
	if !strings.Contains(mustMarshal(events[6]["content"]), "reviewer reported: checked") || stopReasonOf(last(events)) != `{"type":"end_turn"}` {
		t.Fatalf("report turn %v", events)
	}
}

func TestInterruptOneThreadOrAll(t *testing.T) {
	f := newEvFixture(t)
	sid := f.coordinatorSession(t)
	f.script(t, sid, []rs.Step{rs.Spawn("reviewer", rs.SayChunks("thinking"), rs.Hold()), rs.Say("waiting"), rs.Hold()})
	f.post(t, sid, msgEvent("go"))
	child := ofType(f.log(t, sid), "session.thread_created")[0]["session_thread_id"].(string)
	n := len(f.log(t, sid))
	// Only the child: its in-flight request is cancelled on its own
	// thread; the session keeps running.
	data := f.post(t, sid, `{"type":"user.interrupt","session_thread_id":"`+child+`"}`)
	if data[0]["session_thread_id"] != child {
		t.Fatalf("echo %v", data[0])
	}
	events := f.logFrom(t, sid, n)
	wantTypes(t, events, "user.interrupt", "session.thread_status_idle")
	if stopReasonOf(events[1]) != `{"type":"end_turn"}` || f.session(t, sid)["status"] != "running" {
		t.Fatalf("after the child's interrupt %v", events)
	}
	own := f.srv.ThreadEventsForTest(sid, child)
	if !strings.Contains(string(own[len(own)-1]), `"type":"span.model_request_end"`) || strings.Contains(string(own[len(own)-1]), `"is_error":true`) {
		t.Fatalf("child log %s", own)
	}
	// The primary's thread id is a thread of the session too; its Hold
	// came inside the request that says "waiting", cut short now.
	primary := f.srv.PrimaryThreadForTest(sid)
	n += len(events)
	f.post(t, sid, `{"type":"user.interrupt","session_thread_id":"`+primary+`"}`)
	wantTypes(t, f.logFrom(t, sid, n), "user.interrupt", "span.model_request_end", "session.usage", "session.status_idle")
	// On an idle session with nothing pending an interrupt changes nothing.
	n = len(f.log(t, sid))
	f.post(t, sid, interruptAll)
	wantTypes(t, f.logFrom(t, sid, n), "user.interrupt")
}

func TestInterruptClosesPendingCalls(t *testing.T) {
	f := newEvFixture(t)
	sid := f.toolsSession(t, f.envID)
	f.script(t, sid, []rs.Step{rs.UseTool("bash", nil)}, []rs.Step{rs.UseCustomTool("lookup_order", nil)})
	f.post(t, sid, msgEvent("one"))
	bash := ofType(f.log(t, sid), "agent.tool_use")[0]["id"].(string)
	n := len(f.log(t, sid))
	f.post(t, sid, interruptAll)
	events := f.logFrom(t, sid, n)
	wantTypes(t, events, "user.interrupt", "agent.tool_result", "session.usage", "session.status_idle")
	if events[1]["tool_use_id"] != bash || events[1]["is_error"] != true ||
		mustMarshal(events[1]["content"]) != `[{"text":"Tool execution was interrupted before completion. Please retry.","type":"text"}]` ||
		stopReasonOf(events[3]) != `{"type":"end_turn"}` {
		t.Fatalf("closed %v", events)
	}
	wantConflict(t, f.send(t, sid, confirmation(bash, "allow")), "conflict_error",
		"events[0].tool_use_id: tool use `"+bash+"` is not awaiting confirmation")
	// A custom call just stops being pending.
	f.post(t, sid, msgEvent("two"))
	custom := ofType(f.log(t, sid), "agent.custom_tool_use")[0]["id"].(string)
	n = len(f.log(t, sid))
	f.post(t, sid, interruptAll)
	wantTypes(t, f.logFrom(t, sid, n), "user.interrupt", "session.usage", "session.status_idle")
	wantConflict(t, f.send(t, sid, customResult(custom, "late")), "conflict_error",
		"events[0].custom_tool_use_id: custom tool use `"+custom+"` is not awaiting a result")
}
