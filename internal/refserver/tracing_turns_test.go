package refserver_test

import (
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	rs "github.com/agentplatform/agentplatform-go/internal/refserver"
)

// One vendor.session.turn span per stay of a thread in running
// (docs/session-events-wire.md 6.2): a thread that goes idle to wait for
// the client, or pauses at the budget, ends its span; the request that
// makes it run again parents the next one.

// A turn that waits for a custom tool result or a confirmation: the first
// stay ends with requires_action under the request that started it, the
// second is under the request that carried the answer.
func TestTraceTurnPerStayInRunning(t *testing.T) {
	cases := []struct {
		name   string
		step   rs.Step
		useOf  string // the event type of the call
		answer func(id string) string
	}{
		{"custom tool", rs.UseCustomTool("lookup_order", nil), "agent.custom_tool_use",
			func(id string) string { return customResult(id, "order 7") }},
		{"confirmation", rs.UseTool("bash", map[string]any{"command": "ls"}), "agent.tool_use",
			func(id string) string { return confirmation(id, "allow") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, exp := tracedEvFixture(t)
			sid := f.toolsSession(t, f.envID)
			f.script(t, sid, []rs.Step{tc.step, rs.Say("found it")})
			exp.Reset()
			f.post(t, sid, msgEvent("go"))
			spans := exp.GetSpans()
			first := onlySpan(t, spans, "vendor.sessions.events.send")
			waiting := onlySpan(t, spans, "vendor.session.turn")
			wantSpan(t, waiting, trace.SpanKindInternal, codes.Ok)
			wantParent(t, waiting, first)
			wantAttrs(t, waiting, map[attribute.Key]any{attr.SessionTurnStopReason: "requires_action",
				attr.GenAIConversationID: f.srv.PrimaryThreadForTest(sid)})
			wantParent(t, onlySpan(t, spans, "vendor.model_request"), waiting)
			if waiting.EndTime.After(first.EndTime) {
				t.Fatal("the waiting stay outlived its request")
			}

			exp.Reset()
			use := ofType(f.log(t, sid), tc.useOf)[0]["id"].(string)
			f.post(t, sid, tc.answer(use))
			spans = exp.GetSpans()
			second := onlySpan(t, spans, "vendor.sessions.events.send")
			resumed := onlySpan(t, spans, "vendor.session.turn")
			wantSpan(t, resumed, trace.SpanKindInternal, codes.Ok)
			wantParent(t, resumed, second)
			wantAttrs(t, resumed, map[attribute.Key]any{attr.SessionTurnStopReason: "end_turn", attr.GenAIAgentName: "tools"})
			wantParent(t, onlySpan(t, spans, "vendor.model_request"), resumed)
		})
	}
}

// A thread whose answer arrives at the budget cap goes from waiting to
// paused without running: no span in that request. The Update Session
// that raises the budget parents the stay it resumes, whose input is the
// answer.
func TestTraceTurnWaitingThenPausedAtBudget(t *testing.T) {
	f, exp := tracedEvFixture(t, rs.WithContentCapture(true))
	sid := f.budgetSession(t, rs.Think("costly", rs.Tokens(1000, 1000)), rs.UseCustomTool("lookup_order", nil))
	f.post(t, sid, msgEvent("go"))
	spans := exp.GetSpans()
	waiting := onlySpan(t, spans, "vendor.session.turn")
	wantParent(t, waiting, onlySpan(t, spans, "vendor.sessions.events.send"))
	wantAttrs(t, waiting, map[attribute.Key]any{attr.SessionTurnStopReason: "requires_action"})

	exp.Reset()
	use := ofType(f.log(t, sid), "agent.custom_tool_use")[0]["id"].(string)
	f.post(t, sid, customResult(use, "found"))
	if stopReasonOf(last(f.log(t, sid))) != `{"type":"budget_reached"}` {
		t.Fatalf("not paused: %v", last(f.log(t, sid)))
	}
	if spans := exp.GetSpans(); len(spansNamed(spans, "vendor.session.turn")) != 0 {
		t.Fatalf("a stay without running: %v", spanNames(spans))
	}

	exp.Reset()
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid, `{"budget":{"type":"limit","max_list_cost":{"amount":"500","currency":"USD"}}}`))
	spans = exp.GetSpans()
	resumed := onlySpan(t, spans, "vendor.session.turn")
	wantSpan(t, resumed, trace.SpanKindInternal, codes.Ok)
	wantParent(t, resumed, onlySpan(t, spans, "vendor.sessions.update"))
	wantAttrs(t, resumed, map[attribute.Key]any{attr.SessionTurnStopReason: "end_turn"})
	wantParent(t, onlySpan(t, spans, "vendor.model_request"), resumed)
	wantContent(t, resumed, attr.GenAIInputMessages, `[{"role":"tool","parts":[{"type":"tool_call_response","id":"`+use+
		`","response":[{"type":"text","content":"found"}]}]}]`)
	wantContent(t, resumed, attr.GenAIOutputMessages,
		`[{"role":"assistant","finish_reason":"stop","parts":[{"type":"text","content":"after the pause"}]}]`)
}

// A Hold stays in running: one span from the request that started the
// turn until the release ends it.
func TestTraceTurnHeldAndReleased(t *testing.T) {
	f, exp := tracedEvFixture(t)
	sid := f.sessionOf(t, f.agent, "")
	f.script(t, sid, []rs.Step{rs.Say("working"), rs.Hold(), rs.Say("done")})
	exp.Reset()
	f.post(t, sid, msgEvent("go"))
	send := onlySpan(t, exp.GetSpans(), "vendor.sessions.events.send")
	if n := len(spansNamed(exp.GetSpans(), "vendor.session.turn")); n != 0 {
		t.Fatal("a held turn ended")
	}
	must(t, f.srv.ReleaseSession(sid))
	spans := exp.GetSpans()
	turn := onlySpan(t, spans, "vendor.session.turn")
	wantSpan(t, turn, trace.SpanKindInternal, codes.Ok)
	wantParent(t, turn, send)
	wantAttrs(t, turn, map[attribute.Key]any{attr.SessionTurnStopReason: "end_turn"})
	for _, mr := range spansNamed(spans, "vendor.model_request") {
		wantParent(t, mr, turn)
	}
}

// A deployment run's turn that waits on the client: its first stay is
// under the run, the next under the request that answers.
func TestTraceDeploymentRunWaitingTurn(t *testing.T) {
	f, exp := tracedEvFixture(t)
	agent := f.agentWith(t, "tools", sonnet, toolsAgent)
	id := f.deploymentID(t, `"agent":"`+agent+`"`)
	exp.Reset()
	sid := wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+id+"/run", ""))["session_id"].(string)
	spans := exp.GetSpans()
	waiting := onlySpan(t, spans, "vendor.session.turn")
	wantParent(t, waiting, onlySpan(t, spans, "vendor.deployments.run"))
	wantAttrs(t, waiting, map[attribute.Key]any{attr.SessionTurnStopReason: "requires_action"})

	exp.Reset()
	use := ofType(f.log(t, sid), "agent.custom_tool_use")[0]["id"].(string)
	f.post(t, sid, customResult(use, "ok"))
	spans = exp.GetSpans()
	resumed := onlySpan(t, spans, "vendor.session.turn")
	wantParent(t, resumed, onlySpan(t, spans, "vendor.sessions.events.send"))
	wantAttrs(t, resumed, map[attribute.Key]any{attr.SessionTurnStopReason: "end_turn"})
}
