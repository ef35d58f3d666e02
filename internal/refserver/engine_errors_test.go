package refserver_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Errors and retries (docs/session-events-wire.md 6.6, 6.9, 4.9, 4.11): the
// Reschedule and Terminate steps, and what a terminated session allows
// (docs/session-events-wire.md 2.3, 3.3; docs/managed-agents-wire.md 6.6, 6.8).

// spanUsageTotals sums input and output tokens over the span ends of events.
func spanUsageTotals(events []map[string]any) (input, output float64) {
	for _, ev := range ofType(events, "span.model_request_end") {
		u := ev["model_usage"].(map[string]any)
		input += u["input_tokens"].(float64)
		output += u["output_tokens"].(float64)
	}
	return input, output
}

func TestRescheduleStep(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.script(t, sid, []rs.Step{rs.Say("lost"), rs.Reschedule("model_overloaded_error", "The model is overloaded."), rs.Say("Retried.")})
	s := f.stream(t, sid, "?event_deltas=agent.message")
	f.post(t, sid, msgEvent("go"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.status_rescheduled", "session.status_running",
		"span.model_request_start", "agent.message", "span.model_request_end", "session.usage", "session.status_idle")
	// The failed request: no buffered event, an error span with the usage
	// of a failed request; the retry is a new request.
	failed := events[3]
	if failed["model_request_start_id"] != events[2]["id"] || failed["is_error"] != true ||
		mustMarshal(failed["model_usage"]) != `{"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"input_tokens":1000,"output_tokens":0,"speed":"standard"}` {
		t.Fatalf("failed span %v", failed)
	}
	requireKeys(t, events[4], "id", "processed_at", "type", "error")
	if mustMarshal(events[4]["error"]) != `{"message":"The model is overloaded.","retry_status":{"type":"retrying"},"type":"model_overloaded_error"}` {
		t.Fatalf("session.error %v", events[4])
	}
	requireKeys(t, events[5], "id", "processed_at", "type")
	requireKeys(t, events[6], "id", "processed_at", "type")
	if events[9]["model_request_start_id"] != events[7]["id"] || events[9]["is_error"] != false ||
		mustMarshal(events[8]["content"]) != `[{"text":"Retried.","type":"text"}]` || stopReasonOf(last(events)) != `{"type":"end_turn"}` {
		t.Fatalf("retry %v", events[7:])
	}
	// The stream: the dropped message's preview is closed by the error
	// span; the rest is the log.
	frames := s.until(t, "session.status_idle")
	if types := frameTypes(frames); !slices.Equal(types, []string{"user.message", "session.status_running", "span.model_request_start",
		"event_start", "event_delta", "span.model_request_end", "session.error", "session.status_rescheduled", "session.status_running",
		"span.model_request_start", "event_start", "event_delta", "agent.message", "span.model_request_end", "session.usage", "session.status_idle"}) {
		t.Fatalf("frames %q", types)
	}
	// Usage: both requests, once each; the session shows what session.usage did.
	in, out := spanUsageTotals(events)
	got := f.session(t, sid)
	u := got["usage"].(map[string]any)
	if in != 2000 || out != 100 || u["input_tokens"] != in || u["output_tokens"] != out ||
		mustMarshal(u) != mustMarshal(ofType(events, "session.usage")[0]["usage"]) || got["status"] != "idle" {
		t.Fatalf("session %v", got)
	}

	// Held after the retry: running; defaults for empty values; with
	// nothing after the retry the turn ends there.
	n := len(events)
	f.script(t, sid, []rs.Step{rs.Reschedule("", ""), rs.Hold()})
	f.post(t, sid, msgEvent("again"))
	events = f.logFrom(t, sid, n)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.status_rescheduled", "session.status_running")
	if mustMarshal(events[4]["error"]) != `{"message":"The model request failed.","retry_status":{"type":"retrying"},"type":"unknown_error"}` {
		t.Fatalf("defaults %v", events[4])
	}
	if got := f.session(t, sid); got["status"] != "running" {
		t.Fatalf("held after the retry: %v", got["status"])
	}
	wantConflict(t, f.ma(t, "DELETE", sessionsPath+"/"+sid, ""), "conflict_error", "session_id: session is running; interrupt it first")
	f.clock.Advance(2 * time.Second)
	must(t, f.srv.ReleaseSession(sid))
	wantTypes(t, f.logFrom(t, sid, n+7), "session.usage", "session.status_idle")
	if got := f.session(t, sid); got["status"] != "idle" || mustMarshal(got["stats"]) != `{"active_seconds":2,"duration_seconds":2}` {
		t.Fatalf("after the release %v", got)
	}
}

// TestRescheduleRetryMeetsTheBudget: the retry is a model request like any
// other, checked against the budget first (docs/session-events-wire.md 6.8).
func TestRescheduleRetryMeetsTheBudget(t *testing.T) {
	f := newEvFixture(t)
	// The failed request carries its steps' Tokens: 1.2 cents on sonnet.
	sid := f.budgetSession(t, rs.Say("lost", rs.Tokens(1000, 1000)), rs.Reschedule("model_overloaded_error", "Overloaded."))
	f.post(t, sid, msgEvent("go"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.status_rescheduled", "session.status_running",
		"session.thread_status_idle", "session.usage", "session.status_idle")
	if stopReasonOf(last(events)) != `{"type":"budget_reached"}` ||
		mustMarshal(events[8]["usage"].(map[string]any)["list_cost"]) != `{"amount":"1","currency":"USD"}` {
		t.Fatalf("pause %v", events[7:])
	}
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid, `{"budget":null}`))
	after := f.logFrom(t, sid, len(events))
	wantTypes(t, after, "session.updated", "session.status_running", "span.model_request_start", "agent.message",
		"span.model_request_end", "session.usage", "session.status_idle")
}

func TestTerminateStep(t *testing.T) {
	f := newEvFixture(t)
	f.srv.PutFilesForTest(f.seed.DefaultWorkspaceID, "file_1")
	sid := f.sessionID(t, `,"resources":[{"type":"file","file_id":"file_1"}]`)
	one := sessionsPath + "/" + sid
	rsc := f.listResources(t, sid, "").ids()[0]
	// The steps after Terminate and the queued turns never run.
	f.script(t, sid, []rs.Step{rs.Hold(), rs.Say("lost"), rs.Terminate("billing_error", "The organization is out of credit."), rs.Say("never")},
		[]rs.Step{rs.Say("never either")})
	s := f.stream(t, sid, "")
	f.post(t, sid, msgEvent("go"))
	f.clock.Advance(2 * time.Second)
	must(t, f.srv.ReleaseSession(sid))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.status_terminated")
	if events[3]["is_error"] != true || events[5]["processed_at"] != testStart.Add(2*time.Second).Format("2006-01-02T15:04:05.000000Z") {
		t.Fatalf("failed span %v / %v", events[3], events[5])
	}
	if mustMarshal(events[4]["error"]) != `{"message":"The organization is out of credit.","retry_status":{"type":"terminal"},"type":"billing_error"}` {
		t.Fatalf("session.error %v", events[4])
	}
	requireKeys(t, events[5], "id", "processed_at", "type")

	// The open stream ends right after session.status_terminated; a new
	// one is a 200 that ends at once.
	if types := frameTypes(s.until(t, "session.status_terminated")); len(types) != len(events) {
		t.Fatalf("frames %q", types)
	}
	if err := s.wantEnd(t); err != nil {
		t.Fatalf("end: %v", err)
	}
	if err := f.stream(t, sid, "?event_deltas=agent.message").wantEnd(t); err != nil {
		t.Fatalf("new stream: %v", err)
	}

	// Usage and stats: the failed request and the held time, settled at
	// the termination.
	got := f.session(t, sid)
	u := got["usage"].(map[string]any)
	if got["status"] != "terminated" || u["input_tokens"] != float64(1000) || u["output_tokens"] != float64(0) ||
		u["active_seconds"] != float64(2) || mustMarshal(got["stats"]) != `{"active_seconds":2,"duration_seconds":2}` {
		t.Fatalf("terminated session %v", got)
	}
	if data := wantOK(t, f.ma(t, "GET", sessionsPath+"?statuses=terminated", ""))["data"].([]any); len(data) != 1 {
		t.Fatalf("statuses=terminated: %v", data)
	}

	// Every write is 409 (docs/session-events-wire.md 3.3, 6.6, 6.8), nothing
	// recorded.
	conflict := "session_id: session `" + sid + "` is terminated"
	for _, r := range []response{
		f.send(t, sid, msgEvent("hello?")),
		f.send(t, sid, interruptAll),
		f.send(t, sid, `{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"}}`),
		f.ma(t, "POST", one, `{"title":"x"}`),
		f.ma(t, "POST", one, `{"metadata":{"a":"b"}}`),
		f.ma(t, "POST", one, `{"budget":null}`),
		f.ma(t, "POST", one, `{"agent":{"tools":[]}}`),
		f.ma(t, "POST", one+"/resources", `{"type":"file","file_id":"file_2"}`),
		f.ma(t, "POST", one+"/resources/"+rsc, `{"authorization_token":"t"}`),
		f.ma(t, "DELETE", one+"/resources/"+rsc, ""),
	} {
		wantConflict(t, r, "conflict_error", conflict)
	}
	if len(f.log(t, sid)) != len(events) {
		t.Fatal("a refused request recorded events")
	}
	if err := f.srv.ReleaseSession(sid); err == nil {
		t.Fatal("released a terminated session")
	}
	// Reads work: the session, its resources, its events.
	wantOK(t, f.ma(t, "GET", one+"/resources/"+rsc, ""))
	if p := f.listEvents(t, sid, ""); len(p.Data) != len(events) || p.NextPage != nil {
		t.Fatalf("list %v", p)
	}
	if p := f.listEvents(t, sid, "?types=session.status_terminated"); len(p.Data) != 1 {
		t.Fatalf("list by type %v", p)
	}

	// Archive is allowed and keeps the status; usage and stats stay as
	// they were at the termination.
	f.clock.Advance(5 * time.Second)
	archived := wantOK(t, f.ma(t, "POST", one+"/archive", ""))
	if archived["status"] != "terminated" || archived["archived_at"] == nil ||
		mustMarshal(archived["stats"]) != mustMarshal(got["stats"]) || mustMarshal(archived["usage"]) != mustMarshal(got["usage"]) {
		t.Fatalf("archived %v", archived)
	}
	if len(f.log(t, sid)) != len(events) {
		t.Fatal("archive recorded events")
	}
	wantOK(t, f.ma(t, "DELETE", one, ""))
	wantError(t, f.ma(t, "GET", one, ""), http.StatusNotFound, "not_found_error", "Session `"+sid+"` not found.")
}

// TestTerminateStopsEveryThread: a held child thread and a coordinator's
// pending custom tool call stop without events of their own.
func TestTerminateStopsEveryThread(t *testing.T) {
	f := newEvFixture(t)
	sid := f.coordinatorSession(t)
	if err := f.srv.ScriptSession(sid, []rs.Step{rs.Spawn("reviewer", rs.Terminate("", ""))}); err == nil ||
		!strings.Contains(err.Error(), "only on the primary thread") {
		t.Fatalf("Terminate in a child: %v", err)
	}
	if err := f.srv.ScriptSession(sid, []rs.Step{rs.Spawn("reviewer", rs.Reschedule("", ""))}); err == nil {
		t.Fatal("Reschedule in a child: no error")
	}
	f.script(t, sid, []rs.Step{rs.Spawn("reviewer", rs.Hold()), rs.Terminate("", "")})
	f.post(t, sid, msgEvent("review"))
	events := f.log(t, sid)
	wantTypes(t, events, "user.message", "session.status_running", "session.thread_created", "agent.thread_message_sent",
		"session.thread_status_running", "span.model_request_start", "span.model_request_end", "session.error", "session.status_terminated")
	if mustMarshal(events[7]["error"]) != `{"message":"The model request failed.","retry_status":{"type":"terminal"},"type":"unknown_error"}` {
		t.Fatalf("defaults %v", events[7])
	}
	if err := f.srv.ReleaseSession(sid); err == nil {
		t.Fatal("the child's Hold survived the termination")
	}
	if got := f.session(t, sid); got["status"] != "terminated" {
		t.Fatalf("status %v", got["status"])
	}
	// No session.status_idle, even for the thread that never ended.
	if len(f.log(t, sid)) != len(events) {
		t.Fatalf("events after the termination: %v", f.logFrom(t, sid, len(events)))
	}
}

// TestTerminatedAtCreation: initial events whose turn terminates. The
// response is the state right after acceptance (running); the turn then
// runs inside the request.
func TestTerminatedAtCreation(t *testing.T) {
	f := newEvFixture(t)
	must(t, f.srv.ScriptAgent(f.agent, []rs.Step{rs.Terminate("", "")}))
	created := wantOK(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"initial_events":[`+msgEvent("go")+`]`)))
	sid := created["id"].(string)
	if created["status"] != "running" {
		t.Fatalf("created %v", created)
	}
	wantTypes(t, f.log(t, sid), "user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.status_terminated")
	if got := f.session(t, sid); got["status"] != "terminated" {
		t.Fatalf("status %v", got["status"])
	}
}

// TestDeploymentRunOfATerminatingAgent: the run records the session's
// creation, which succeeded; what the session did next is the session's
// (docs/managed-agents-wire.md 8.7): no run error, and a scheduled fire does not pause the
// deployment.
func TestDeploymentRunOfATerminatingAgent(t *testing.T) {
	f := newEvFixture(t)
	must(t, f.srv.ScriptAgent(f.agent, []rs.Step{rs.Terminate("model_request_failed_error", "Unrecoverable.")}))
	id := f.deploymentID(t, `"schedule":{"type":"cron","expression":"*/5 * * * *","timezone":"UTC"}`)
	path := deploymentsPath + "/" + id
	run := wantOK(t, f.ma(t, "POST", path+"/run", ""))
	sid, _ := run["session_id"].(string)
	if sid == "" || run["error"] != nil {
		t.Fatalf("run %v", run)
	}
	if got := f.session(t, sid); got["status"] != "terminated" || got["deployment_id"] != id {
		t.Fatalf("session %v", got)
	}
	wantTypes(t, f.log(t, sid), "user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.status_terminated")

	f.clock.Set(testStart.Truncate(5 * time.Minute).Add(5 * time.Minute))
	runs := f.runsOf(t, id)
	fired := runs[len(runs)-1]
	if len(runs) != 2 || fired.TriggerContext.Type != "schedule" || fired.SessionID == nil || fired.Error != nil {
		t.Fatalf("runs %+v", runs)
	}
	if got := f.session(t, *fired.SessionID); got["status"] != "terminated" {
		t.Fatalf("fired session %v", got)
	}
	if d := wantOK(t, f.ma(t, "GET", path, "")); d["status"] != "active" {
		t.Fatalf("deployment %v", d)
	}
}
