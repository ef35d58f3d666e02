package refserver_test

import (
	"strings"
	"testing"
	"time"

	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Sessions created by deployments run their initial events through the
// same engine (docs/managed-agents-wire.md 8.5; docs/session-events-wire.md 6.2),
// scripted per agent with ScriptAgent.

func TestDeploymentSessionsRunTheirInitialEvents(t *testing.T) {
	f := newEvFixture(t)
	must(t, f.srv.ScriptAgent(f.agent, []rs.Step{rs.Say("Report compiled.")}))
	outcome := `{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"}}`
	id := f.deploymentID(t, `"initial_events":[`+outcome+`,`+userMessage+`,{"type":"system.message","content":[{"type":"text","text":"ctx"}]}]`,
		`"schedule":{"type":"cron","expression":"*/5 * * * *","timezone":"UTC"}`)
	path := deploymentsPath + "/" + id
	var sessions []string
	for range 2 {
		run := wantOK(t, f.ma(t, "POST", path+"/run", ""))
		sessions = append(sessions, run["session_id"].(string))
	}
	for _, sid := range sessions {
		events := f.log(t, sid)
		wantTypes(t, events, "user.define_outcome", "user.message", "system.message", "session.status_running",
			"span.model_request_start", "agent.message", "span.model_request_end", "span.outcome_evaluation_start",
			"span.outcome_evaluation_end", "session.usage", "session.status_idle")
		// Each session of the agent gets the scripted turns.
		if !strings.Contains(mustMarshal(events[5]["content"]), "Report compiled.") ||
			!strings.HasPrefix(events[0]["outcome_id"].(string), "outc_") || events[0]["max_iterations"] != float64(3) {
			t.Fatalf("events %v", events)
		}
		if s := f.session(t, sid); s["status"] != "idle" || len(s["outcome_evaluations"].([]any)) != 1 {
			t.Fatalf("session %v", s)
		}
	}
	// The deployment's stored events are unchanged (no outcome_id).
	d := wantOK(t, f.ma(t, "GET", path, ""))
	if strings.Contains(mustMarshal(d["initial_events"]), "outcome_id") {
		t.Fatalf("stored events %v", d["initial_events"])
	}
	// A scheduled fire runs too, dated at its occurrence.
	f.clock.Set(testStart.Truncate(5 * time.Minute).Add(5 * time.Minute))
	runs := f.runsOf(t, id)
	fired := runs[len(runs)-1]
	if fired.TriggerContext.Type != "schedule" || fired.SessionID == nil {
		t.Fatalf("runs %+v", runs)
	}
	events := f.log(t, *fired.SessionID)
	if last(events)["type"] != "session.status_idle" || last(events)["processed_at"] != fired.CreatedAt {
		t.Fatalf("fired session %v", last(events))
	}
}
