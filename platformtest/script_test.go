package platformtest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Each step constructor, and each option, shows in the session's history as
// documented.
func TestScriptedSteps(t *testing.T) {
	toolset := func(policy agents.PermissionPolicyType) agents.CreateParams {
		return agents.CreateParams{Tools: []agents.Tool{agents.AgentToolset{
			DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(policy)},
		}}}
	}
	for _, tc := range []struct {
		name  string
		agent agents.CreateParams
		steps []platformtest.Step
		check func(t *testing.T, events []sessions.Event)
	}{
		{
			name:  "Say",
			steps: []platformtest.Step{platformtest.Say("Hello.")},
			check: func(t *testing.T, events []sessions.Event) {
				msgs := find[*sessions.AgentMessageEvent](events)
				require.Len(t, msgs, 1)
				require.Equal(t, "Hello.", sessions.Text(msgs[0].Content))
				require.IsType(t, sessions.StopEndTurn{}, lastIdle(t, events))
			},
		},
		{
			name:  "SayChunks and Think",
			steps: []platformtest.Step{platformtest.Think("Hm."), platformtest.SayChunks("Hel", "lo.")},
			check: func(t *testing.T, events []sessions.Event) {
				require.Len(t, find[*sessions.AgentThinkingEvent](events), 1)
				msgs := find[*sessions.AgentMessageEvent](events)
				require.Len(t, msgs, 1)
				require.Equal(t, "Hello.", sessions.Text(msgs[0].Content))
			},
		},
		{
			name:  "Tokens",
			steps: []platformtest.Step{platformtest.Say("Hello.").With(platformtest.Tokens(12, 34))},
			check: func(t *testing.T, events []sessions.Event) {
				ends := find[*sessions.SpanModelRequestEndEvent](events)
				require.Len(t, ends, 1)
				require.Equal(t, int64(12), ends[0].ModelUsage.InputTokens)
				require.Equal(t, int64(34), ends[0].ModelUsage.OutputTokens)
			},
		},
		{
			name:  "UseTool with ToolOutput",
			agent: toolset(agents.PolicyAlwaysAllow),
			steps: []platformtest.Step{
				platformtest.UseTool("bash", map[string]any{"command": "ls"}).With(platformtest.ToolOutput("report.md", false)),
				platformtest.Say("There is a report."),
			},
			check: func(t *testing.T, events []sessions.Event) {
				uses := find[*sessions.AgentToolUseEvent](events)
				require.Len(t, uses, 1)
				require.Equal(t, agents.ToolBash, uses[0].Name)
				require.JSONEq(t, `{"command":"ls"}`, string(uses[0].Input))
				results := find[*sessions.AgentToolResultEvent](events)
				require.Len(t, results, 1)
				require.Equal(t, "report.md", sessions.Text(results[0].Content))
				require.IsType(t, sessions.StopEndTurn{}, lastIdle(t, events))
			},
		},
		{
			name:  "UseTool waits for a confirmation",
			agent: toolset(agents.PolicyAlwaysAsk),
			steps: []platformtest.Step{platformtest.UseTool("bash", map[string]any{"command": "rm -rf /"})},
			check: func(t *testing.T, events []sessions.Event) {
				uses := find[*sessions.AgentToolUseEvent](events)
				require.Len(t, uses, 1)
				require.Equal(t, sessions.PermissionAsk, uses[0].EvaluatedPermission)
				stop, ok := lastIdle(t, events).(sessions.StopRequiresAction)
				require.True(t, ok)
				require.Equal(t, []string{uses[0].ID}, stop.EventIDs)
			},
		},
		{
			name:  "Verdict",
			agent: toolset(agents.PolicyAuto),
			steps: []platformtest.Step{
				platformtest.UseTool("bash", map[string]any{"command": "ls"}).With(platformtest.Verdict(sessions.PermissionDeny)),
			},
			check: func(t *testing.T, events []sessions.Event) {
				uses := find[*sessions.AgentToolUseEvent](events)
				require.Len(t, uses, 1)
				require.Equal(t, sessions.PermissionDeny, uses[0].EvaluatedPermission)
			},
		},
		{
			name: "UseMCPTool",
			agent: agents.CreateParams{
				MCPServers: []agents.MCPServer{{Name: "docs", URL: "https://mcp.example.com/sse"}},
				Tools:      []agents.Tool{agents.MCPToolset{MCPServerName: "docs"}},
			},
			steps: []platformtest.Step{platformtest.UseMCPTool("docs", "search", map[string]any{"q": "refunds"})},
			check: func(t *testing.T, events []sessions.Event) {
				uses := find[*sessions.AgentMCPToolUseEvent](events)
				require.Len(t, uses, 1)
				require.Equal(t, "search", uses[0].Name)
				require.IsType(t, sessions.StopRequiresAction{}, lastIdle(t, events), "MCP tools ask by default")
			},
		},
		{
			name:  "Refuse",
			steps: []platformtest.Step{platformtest.Refuse("Not something I can help with.")},
			check: func(t *testing.T, events []sessions.Event) {
				require.IsType(t, sessions.StopRefusal{}, lastIdle(t, events))
				idles := find[*sessions.SessionStatusIdleEvent](events)
				details, ok := idles[len(idles)-1].StopDetails.(sessions.RefusalDetails)
				require.True(t, ok)
				require.Contains(t, details.Explanation, "Not something I can help with.")
			},
		},
		{
			name:  "Fail",
			steps: []platformtest.Step{platformtest.Fail("model_overloaded_error", "Overloaded.")},
			check: func(t *testing.T, events []sessions.Event) {
				errs := find[*sessions.SessionErrorEvent](events)
				require.Len(t, errs, 1)
				require.Equal(t, "model_overloaded_error", errs[0].Error.Type)
				require.Equal(t, "Overloaded.", errs[0].Error.Message)
				require.IsType(t, sessions.RetryExhausted{}, errs[0].Error.RetryStatus)
				require.IsType(t, sessions.StopRetriesExhausted{}, lastIdle(t, events))
			},
		},
		{
			name:  "Reschedule",
			steps: []platformtest.Step{platformtest.Reschedule("", ""), platformtest.Say("Retried.")},
			check: func(t *testing.T, events []sessions.Event) {
				require.Len(t, find[*sessions.SessionStatusRescheduledEvent](events), 1)
				errs := find[*sessions.SessionErrorEvent](events)
				require.Len(t, errs, 1)
				require.Equal(t, "unknown_error", errs[0].Error.Type)
				require.IsType(t, sessions.RetryRetrying{}, errs[0].Error.RetryStatus)
				msgs := find[*sessions.AgentMessageEvent](events)
				require.Len(t, msgs, 1)
				require.Equal(t, "Retried.", sessions.Text(msgs[0].Content))
			},
		},
		{
			name:  "Terminate",
			steps: []platformtest.Step{platformtest.Terminate("", "")},
			check: func(t *testing.T, events []sessions.Event) {
				require.IsType(t, &sessions.SessionStatusTerminatedEvent{}, events[len(events)-1])
			},
		},
		{
			name:  "Emit",
			steps: []platformtest.Step{platformtest.Emit("agent.hologram", map[string]any{"shape": "cube"})},
			check: func(t *testing.T, events []sessions.Event) {
				unknown := find[*sessions.UnknownEvent](events)
				require.Len(t, unknown, 1)
				require.Equal(t, sessions.EventType("agent.hologram"), unknown[0].EventType)
				require.Contains(t, string(unknown[0].JSON), `"shape":"cube"`)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			sid := f.session(t, f.agent(t, tc.agent).ID)
			require.NoError(t, f.srv.ScriptSession(sid, tc.steps))
			f.send(t, sid, sessions.UserMessage("Go."))
			tc.check(t, f.history(t, sid))
		})
	}
}

// A terminated session refuses every later write.
func TestTerminatedSessionRefusesWrites(t *testing.T) {
	f := newFixture(t)
	sid := f.session(t, f.agent(t, agents.CreateParams{}).ID)
	require.NoError(t, f.srv.ScriptSession(sid, []platformtest.Step{platformtest.Terminate("", "")}))
	f.send(t, sid, sessions.UserMessage("Go."))
	_, err := f.client.Sessions.Events.Send(ctx, sid, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage("Again.")},
	})
	apiErr, ok := errors.AsType[*apierror.Error](err)
	require.True(t, ok, "%v", err)
	require.Equal(t, 409, apiErr.StatusCode)
}

// Each turn-starting event takes the next queued turn; with none left the
// agent falls back to its default answer.
func TestTurnsAreTakenInOrder(t *testing.T) {
	f := newFixture(t)
	sid := f.session(t, f.agent(t, agents.CreateParams{}).ID)
	require.NoError(t, f.srv.ScriptSession(sid,
		[]platformtest.Step{platformtest.Say("First.")},
		[]platformtest.Step{platformtest.Say("Second.")}))
	for _, text := range []string{"one", "two", "three"} {
		f.send(t, sid, sessions.UserMessage(text))
	}
	var got []string
	for _, m := range find[*sessions.AgentMessageEvent](f.history(t, sid)) {
		got = append(got, sessions.Text(m.Content))
	}
	require.Equal(t, []string{"First.", "Second.", "You said: three"}, got)
}

// ScriptAgent applies to the sessions created afterwards, not before.
func TestScriptAgent(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, agents.CreateParams{})
	before := f.session(t, a.ID)
	require.NoError(t, f.srv.ScriptAgent(a.ID, []platformtest.Step{platformtest.Say("Scripted.")}))
	after1, after2 := f.session(t, a.ID), f.session(t, a.ID)
	for sid, want := range map[string]string{before: "You said: hi", after1: "Scripted.", after2: "Scripted."} {
		f.send(t, sid, sessions.UserMessage("hi"))
		msgs := find[*sessions.AgentMessageEvent](f.history(t, sid))
		require.Len(t, msgs, 1)
		require.Equal(t, want, sessions.Text(msgs[0].Content))
	}
}

// Hold keeps the turn running until ReleaseSession.
func TestHoldAndRelease(t *testing.T) {
	f := newFixture(t)
	sid := f.session(t, f.agent(t, agents.CreateParams{}).ID)
	require.NoError(t, f.srv.ScriptSession(sid, []platformtest.Step{platformtest.Hold(), platformtest.Say("Released.")}))
	f.send(t, sid, sessions.UserMessage("Go."))
	s, err := f.client.Sessions.Get(ctx, sid)
	require.NoError(t, err)
	require.Equal(t, sessions.StatusRunning, s.Status)
	require.Empty(t, find[*sessions.AgentMessageEvent](f.history(t, sid)))

	require.NoError(t, f.srv.ReleaseSession(sid))
	events := f.history(t, sid)
	require.Len(t, find[*sessions.AgentMessageEvent](events), 1)
	require.IsType(t, sessions.StopEndTurn{}, lastIdle(t, events))
	require.ErrorContains(t, f.srv.ReleaseSession(sid), "no held turn")
}

// Spawn starts a child thread of a roster agent, running its own steps.
func TestSpawn(t *testing.T) {
	f := newFixture(t)
	researcher := f.agent(t, agents.CreateParams{Name: "Researcher"})
	lead := f.agent(t, agents.CreateParams{Name: "Lead", Multiagent: agents.Coordinator{
		Agents: []agents.RosterEntry{agents.AgentID(researcher.ID)},
	}})
	sid := f.session(t, lead.ID)
	require.NoError(t, f.srv.ScriptSession(sid, []platformtest.Step{
		platformtest.Spawn("Researcher", platformtest.Say("Found it.")),
		platformtest.Say("Asked the researcher."),
	}))
	f.send(t, sid, sessions.UserMessage("Go."))
	events := f.history(t, sid)
	created := find[*sessions.SessionThreadCreatedEvent](events)
	require.Len(t, created, 1)
	require.Equal(t, "Researcher", created[0].AgentName)
	reports := find[*sessions.AgentThreadMessageReceivedEvent](events)
	require.Len(t, reports, 1)
	require.Equal(t, "Researcher", reports[0].FromAgentName)
	require.Equal(t, "Found it.", sessions.Text(reports[0].Content))
	msgs := find[*sessions.AgentMessageEvent](events)
	require.Len(t, msgs, 1)
	require.Equal(t, "Asked the researcher.", sessions.Text(msgs[0].Content))
}

// Scripting mistakes are errors of this package, not the server's.
func TestScriptErrors(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, agents.CreateParams{})
	sid := f.session(t, a.ID)
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"unknown session", f.srv.ScriptSession("sesn_missing", []platformtest.Step{platformtest.Say("x")}), `session "sesn_missing" not found`},
		{"unknown agent", f.srv.ScriptAgent("agent_missing", []platformtest.Step{platformtest.Say("x")}), `agent "agent_missing" not found`},
		{"tool input not an object", f.srv.ScriptSession(sid, []platformtest.Step{platformtest.UseCustomTool("lookup", []int{1})}), "must encode as a JSON object"},
		{"empty Say", f.srv.ScriptSession(sid, []platformtest.Step{platformtest.Say("")}), "must not be empty"},
		{"Spawn outside the roster", f.srv.ScriptSession(sid, []platformtest.Step{platformtest.Spawn("Nobody")}), "roster"},
		{"option on a step without options", f.srv.ScriptSession(sid, []platformtest.Step{
			platformtest.UseCustomTool("nope", nil).With(platformtest.Tokens(1, 1)),
		}), "UseCustomTool takes no step options"},
		{"zero step", f.srv.ScriptSession(sid, []platformtest.Step{{}}), "zero Step"},
		{"inside Spawn", f.srv.ScriptSession(sid, []platformtest.Step{
			platformtest.Spawn("Researcher", platformtest.Hold().With(platformtest.Tokens(1, 1))),
		}), "Hold takes no step options"},
		{"release without a session", f.srv.ReleaseSession("sesn_missing"), "not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorContains(t, tc.err, tc.want)
			require.True(t, strings.HasPrefix(tc.err.Error(), "platformtest: "), tc.err.Error())
			require.NotContains(t, tc.err.Error(), "refserver")
		})
	}
}

// Outcome scripts the grader's verdicts on a user.define_outcome.
func TestOutcome(t *testing.T) {
	f := newFixture(t)
	sid := f.session(t, f.agent(t, agents.CreateParams{}).ID)
	require.NoError(t, f.srv.ScriptSession(sid, []platformtest.Step{
		platformtest.Say("Draft.").With(platformtest.Outcome(sessions.OutcomeNeedsRevision, "Too short.")),
		platformtest.Say("Final.").With(platformtest.Outcome(sessions.OutcomeSatisfied, "Complete.")),
	}))
	f.send(t, sid, sessions.DefineOutcome("Write the report.", sessions.TextRubric("It is complete.")))

	var verdicts []string
	for _, e := range find[*sessions.SpanOutcomeEvaluationEndEvent](f.history(t, sid)) {
		verdicts = append(verdicts, string(e.Result)+": "+e.Explanation)
	}
	require.Equal(t, []string{"needs_revision: Too short.", "satisfied: Complete."}, verdicts)
}
