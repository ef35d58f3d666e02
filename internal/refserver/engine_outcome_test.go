package refserver_test

import (
	"strings"
	"testing"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Outcomes (docs/session-events-wire.md 6.7, 4.14).

func outcomeEvent(extra string) string {
	return `{"type":"user.define_outcome","description":"Build it","rubric":{"type":"text","content":"works"}` + extra + `}`
}

func TestOutcomeDefault(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	data := f.post(t, sid, outcomeEvent(`,"max_iterations":null`))
	oid := data[0]["outcome_id"].(string)
	if data[0]["max_iterations"] != float64(3) || !strings.HasPrefix(oid, "outc_") {
		t.Fatalf("echo %v", data[0])
	}
	events := f.log(t, sid)
	wantTypes(t, events, "user.define_outcome", "session.status_running", "span.model_request_start", "agent.message",
		"span.model_request_end", "span.outcome_evaluation_start", "span.outcome_evaluation_end", "session.usage", "session.status_idle")
	if mustMarshal(events[3]["content"]) != `[{"text":"Working on the outcome: Build it","type":"text"}]` {
		t.Fatalf("message %v", events[3])
	}
	start, end := events[5], events[6]
	requireKeys(t, start, "id", "processed_at", "type", "outcome_id", "iteration")
	requireKeys(t, end, "id", "processed_at", "type", "outcome_id", "outcome_evaluation_start_id", "iteration", "result", "explanation", "usage")
	if start["outcome_id"] != oid || start["iteration"] != float64(0) || end["outcome_evaluation_start_id"] != start["id"] ||
		end["result"] != "satisfied" || mustMarshal(end["usage"]) != `{"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"input_tokens":500,"output_tokens":50,"speed":"standard"}` {
		t.Fatalf("evaluation %v / %v", start, end)
	}
	evals := f.session(t, sid)["outcome_evaluations"].([]any)
	if len(evals) != 1 || mustMarshal(evals[0]) != mustMarshal(map[string]any{"type": "outcome_evaluation", "outcome_id": oid,
		"description": "Build it", "explanation": "The deliverable meets the rubric.", "iteration": 0, "result": "satisfied", "completed_at": testNow}) {
		t.Fatalf("outcome_evaluations %v", evals)
	}
	// The grader's usage counts: 1000 + 500 input tokens.
	if u := f.session(t, sid)["usage"].(map[string]any); u["input_tokens"] != float64(1500) {
		t.Fatalf("usage %v", u)
	}
	// Over: a new outcome is accepted.
	f.post(t, sid, outcomeEvent(""))
}

func TestOutcomeRevisionsAndMaxIterations(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.script(t, sid,
		[]rs.Step{rs.Say("draft", rs.Outcome("needs_revision", "missing tests")), rs.Say("final", rs.Outcome("satisfied", "good"))},
		[]rs.Step{rs.Say("d1", rs.Outcome("needs_revision", "a")), rs.Say("d2", rs.Outcome("needs_revision", "b")), rs.Say("d3")},
		[]rs.Step{rs.Say("x", rs.Outcome("failed", "the rubric does not apply")), rs.Say("never")},
	)
	f.post(t, sid, outcomeEvent(""))
	events := f.log(t, sid)
	wantTypes(t, events, "user.define_outcome", "session.status_running",
		"span.model_request_start", "agent.message", "span.model_request_end", "span.outcome_evaluation_start", "span.outcome_evaluation_end",
		"span.model_request_start", "agent.message", "span.model_request_end", "span.outcome_evaluation_start", "span.outcome_evaluation_end",
		"session.usage", "session.status_idle")
	ends := ofType(events, "span.outcome_evaluation_end")
	if ends[0]["result"] != "needs_revision" || ends[0]["explanation"] != "missing tests" || ends[1]["iteration"] != float64(1) || ends[1]["result"] != "satisfied" {
		t.Fatalf("ends %v", ends)
	}
	// max_iterations 1: the second evaluation is max_iterations_reached;
	// the work goes on without further evaluation.
	n := len(events)
	f.post(t, sid, outcomeEvent(`,"max_iterations":1`))
	events = f.logFrom(t, sid, n)
	ends = ofType(events, "span.outcome_evaluation_end")
	if len(ends) != 2 || ends[1]["result"] != "max_iterations_reached" || ends[1]["iteration"] != float64(1) ||
		len(ofType(events, "agent.message")) != 3 || last(events)["type"] != "session.status_idle" {
		t.Fatalf("events %q / %v", typesOf(events), ends)
	}
	// A terminal result ends the turn where it stands.
	n += len(events)
	f.post(t, sid, outcomeEvent(""))
	events = f.logFrom(t, sid, n)
	if len(ofType(events, "agent.message")) != 1 || ofType(events, "span.outcome_evaluation_end")[0]["result"] != "failed" {
		t.Fatalf("events %q", typesOf(events))
	}
	evals := f.session(t, sid)["outcome_evaluations"].([]any)
	if len(evals) != 3 || evals[1].(map[string]any)["result"] != "max_iterations_reached" || evals[2].(map[string]any)["result"] != "failed" {
		t.Fatalf("outcome_evaluations %v", evals)
	}
}

// An outcome defined while a turn runs is worked on by that turn; an
// interrupt ends it without an evaluation.
func TestOutcomeDuringATurn(t *testing.T) {
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.script(t, sid, []rs.Step{rs.Hold(), rs.Say("done")}, []rs.Step{rs.Hold()})
	f.post(t, sid, msgEvent("start"))
	f.post(t, sid, outcomeEvent(""))
	must(t, f.srv.ReleaseSession(sid))
	if ends := ofType(f.log(t, sid), "span.outcome_evaluation_end"); len(ends) != 1 || ends[0]["result"] != "satisfied" {
		t.Fatalf("events %q", typesOf(f.log(t, sid)))
	}
	f.post(t, sid, outcomeEvent("")) // takes the held turn
	n := len(f.log(t, sid))
	f.post(t, sid, interruptAll)
	wantTypes(t, f.logFrom(t, sid, n), "user.interrupt", "session.usage", "session.status_idle")
	if len(f.session(t, sid)["outcome_evaluations"].([]any)) != 1 {
		t.Fatal("an interrupted outcome was recorded as evaluated")
	}
	f.post(t, sid, outcomeEvent("")) // no outcome is active any more
}
