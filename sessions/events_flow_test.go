package sessions_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// The session state machine of docs/session-events-wire.md 6, driven
// through the SDK: each test scripts the agent, sends events and reads the
// stream.

func TestNormalTurn(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	tl := f.tail(t, s.ID, sessions.StreamParams{EventDeltas: []sessions.EventType{sessions.EventAgentMessage}})
	f.script(t, s.ID, []refserver.Step{refserver.Say("Order #1234 shipped yesterday.")})

	echo := f.send(t, s.ID, sessions.UserMessage("Where is my order #1234?"))
	require.Len(t, echo, 1)
	msg := echo[0].(*sessions.UserMessageEvent)
	require.Regexp(t, sevtID, msg.ID)
	require.Equal(t, start, msg.ProcessedAt)
	require.Empty(t, msg.ThreadID)
	require.Equal(t, []sessions.ContentBlock{sessions.TextBlock{Text: "Where is my order #1234?"}}, msg.Content)

	got := tl.untilIdle()
	require.Equal(t, []string{ // docs/session-events-wire.md 6.3
		"user.message", "session.status_running", "span.model_request_start",
		"event_start", "event_delta", "agent.message", "span.model_request_end",
		"session.usage", "session.status_idle",
	}, typesOf(got))
	require.Empty(t, cmp.Diff(echo[0], got[0]), "the stream delivers the echo as Send returned it")
	reply := only[*sessions.AgentMessageEvent](t, got)
	require.Equal(t, "Order #1234 shipped yesterday.", sessions.Text(reply.Content))
	startEv := only[*sessions.EventStart](t, got)
	require.Equal(t, sessions.PreviewedEvent{Type: sessions.EventAgentMessage, ID: reply.ID}, startEv.Event)
	delta := only[*sessions.EventDelta](t, got)
	require.Equal(t, reply.ID, delta.EventID)
	require.Equal(t, sessions.ContentDelta{Type: "content_delta", Index: 0, Content: sessions.TextBlock{Text: "Order #1234 shipped yesterday."}}, delta.Delta)

	span := only[*sessions.SpanModelRequestEndEvent](t, got)
	require.Equal(t, got[2].(sessions.PersistedEvent).Meta().ID, span.ModelRequestStartID)
	require.False(t, span.IsError)
	require.Equal(t, sessions.ModelUsage{InputTokens: 1000, OutputTokens: 100, Speed: "standard"}, span.ModelUsage)
	usage := only[*sessions.SessionUsageEvent](t, got)
	require.Equal(t, int64(1000), usage.Usage.InputTokens)
	require.Equal(t, int64(100), usage.Usage.OutputTokens)
	require.Nil(t, usage.Budget)
	idle := got[len(got)-1].(*sessions.SessionStatusIdleEvent)
	require.Equal(t, sessions.StopEndTurn{}, idle.StopReason)
	require.Nil(t, idle.StopDetails)

	// The history holds the same events, previews aside.
	page, err := f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{})
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(withoutPreviews(got), page.Data))

	sess, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	require.Equal(t, sessions.StatusIdle, sess.Status)
}

func TestCustomToolRoundTrip(t *testing.T) {
	f := newFixture(t)
	s := f.sessionWith(t, lookupOrder)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		refserver.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}),
		refserver.Say("It arrives Friday."),
	})
	f.send(t, s.ID, sessions.UserMessage("Where is order #1234?"))

	got := tl.untilIdle()
	require.Equal(t, []string{
		"user.message", "session.status_running", "span.model_request_start",
		"agent.custom_tool_use", "span.model_request_end", "session.usage", "session.status_idle",
	}, typesOf(got))
	use := only[*sessions.AgentCustomToolUseEvent](t, got)
	require.Equal(t, "lookup_order", use.Name)
	require.JSONEq(t, `{"order_id":"1234"}`, string(use.Input))
	require.Empty(t, use.ThreadID)
	require.Equal(t, sessions.StopRequiresAction{EventIDs: []string{use.ID}}, idleReason(t, got))

	echo := f.send(t, s.ID, sessions.CustomToolResult(use.ID, `{"status":"shipped","eta":"Friday"}`))
	result := echo[0].(*sessions.CustomToolResultEvent)
	require.Equal(t, use.ID, result.CustomToolUseID)
	require.Equal(t, []sessions.ContentBlock{sessions.TextBlock{Text: `{"status":"shipped","eta":"Friday"}`}}, result.Content)
	require.False(t, result.IsError)

	got = tl.untilIdle()
	require.Equal(t, []string{
		"user.custom_tool_result", "session.status_running", "span.model_request_start",
		"agent.message", "span.model_request_end", "session.usage", "session.status_idle",
	}, typesOf(got))
	require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))

	// Answered once; a second answer conflicts.
	_, err := f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.CustomToolError(use.ID, "again")}})
	reftest.RequireConflict(t, err, "events[0].custom_tool_use_id: custom tool use `"+use.ID+"` is not awaiting a result")
}

func TestToolConfirmation(t *testing.T) {
	f := newFixture(t)
	s := f.sessionWith(t, askingToolset)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID,
		[]refserver.Step{
			refserver.Say("Let me look."),
			refserver.UseTool("bash", map[string]any{"command": "grep -rn TODO src/"}, refserver.ToolOutput("src/main.go:12: // TODO: retry", false)),
			refserver.Say("One TODO."),
		},
		[]refserver.Step{
			refserver.UseTool("bash", map[string]any{"command": "rm -rf /"}),
			refserver.Say("Understood."),
		})

	t.Run("allow", func(t *testing.T) {
		f.send(t, s.ID, sessions.UserMessage("Find the TODOs."))
		got := tl.untilIdle()
		require.Equal(t, []string{ // docs/session-events-wire.md 6.4
			"user.message", "session.status_running", "span.model_request_start",
			"agent.message", "agent.tool_use", "span.model_request_end",
			"session.usage", "session.status_idle",
		}, typesOf(got))
		use := only[*sessions.AgentToolUseEvent](t, got)
		require.Equal(t, agents.ToolBash, use.Name)
		require.Equal(t, sessions.PermissionAsk, use.EvaluatedPermission)
		require.Equal(t, sessions.AlwaysAskEvaluation{}, use.Evaluation)
		in, err := use.ToolInput()
		require.NoError(t, err)
		require.Equal(t, agents.BashInput{Command: "grep -rn TODO src/"}, in)
		require.Equal(t, sessions.StopRequiresAction{EventIDs: []string{use.ID}}, idleReason(t, got))

		echo := f.send(t, s.ID, sessions.Allow(use.ID))
		require.Equal(t, &sessions.ToolConfirmationEvent{
			EventMeta: sessions.EventMeta{ID: echo[0].(sessions.PersistedEvent).Meta().ID, ProcessedAt: start},
			Result:    sessions.ConfirmationAllow, ToolUseID: use.ID,
		}, echo[0])
		got = tl.untilIdle()
		require.Equal(t, []string{"user.tool_confirmation", "session.status_running", "agent.tool_result", "span.model_request_start"},
			typesOf(got)[:4])
		result := only[*sessions.AgentToolResultEvent](t, got)
		require.Equal(t, use.ID, result.ToolUseID)
		require.Equal(t, "src/main.go:12: // TODO: retry", sessions.Text(result.Content))
		require.False(t, result.IsError)
		require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
	})

	t.Run("deny", func(t *testing.T) {
		f.send(t, s.ID, sessions.UserMessage("Clean up."))
		use := only[*sessions.AgentToolUseEvent](t, tl.untilIdle())
		reason := strings.Repeat("n", 10000) // the longest message allowed
		echo := f.send(t, s.ID, sessions.Deny(use.ID, reason))
		confirmation := echo[0].(*sessions.ToolConfirmationEvent)
		require.Equal(t, sessions.ConfirmationDeny, confirmation.Result)
		require.Equal(t, reason, confirmation.DenyMessage)

		got := tl.untilIdle()
		result := only[*sessions.AgentToolResultEvent](t, got)
		require.True(t, result.IsError)
		require.Equal(t, reason, sessions.Text(result.Content), "the model is told why")
		require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))

		_, err := f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.Allow(use.ID)}})
		reftest.RequireConflict(t, err, "events[0].tool_use_id: tool use `"+use.ID+"` is not awaiting confirmation")
	})
}

func TestMCPToolConfirmation(t *testing.T) {
	f := newFixture(t)
	s := f.sessionWith(t, mcpTools)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		refserver.UseMCPTool("example-mcp", "create_issue", map[string]any{"title": "Flaky test"}, refserver.ToolOutput("Created issue #88", false)),
	})
	f.send(t, s.ID, sessions.UserMessage("File it."))
	got := tl.untilIdle()
	use := only[*sessions.AgentMCPToolUseEvent](t, got)
	require.Equal(t, "create_issue", use.Name)
	require.Equal(t, "example-mcp", use.MCPServerName)
	require.JSONEq(t, `{"title":"Flaky test"}`, string(use.Input))
	require.Equal(t, sessions.PermissionAsk, use.EvaluatedPermission, "MCP toolsets ask by default")
	require.Equal(t, sessions.AlwaysAskEvaluation{}, use.Evaluation)
	require.Equal(t, sessions.StopRequiresAction{EventIDs: []string{use.ID}}, idleReason(t, got))

	f.send(t, s.ID, sessions.Allow(use.ID))
	got = tl.untilIdle()
	result := only[*sessions.AgentMCPToolResultEvent](t, got)
	require.Equal(t, use.ID, result.MCPToolUseID)
	require.Equal(t, "Created issue #88", sessions.Text(result.Content))
	require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
}

func TestAutoVerdicts(t *testing.T) {
	f := newFixture(t)
	s := f.sessionWith(t, autoToolset)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	input := map[string]any{"file_path": "/workspace/notes.md", "content": "draft"}
	f.script(t, s.ID,
		[]refserver.Step{refserver.UseTool("write", input, refserver.Verdict("allow")), refserver.Say("Written.")},
		[]refserver.Step{refserver.UseTool("write", input, refserver.Verdict("deny")), refserver.Say("Not written.")},
		[]refserver.Step{refserver.UseTool("write", input, refserver.Verdict("ask"))},
		[]refserver.Step{refserver.UseTool("write", input)},
	)
	turn := func(t *testing.T) ([]sessions.Event, *sessions.AgentToolUseEvent) {
		f.send(t, s.ID, sessions.UserMessage("Write the notes."))
		got := tl.untilIdle()
		use := only[*sessions.AgentToolUseEvent](t, got)
		in, err := use.ToolInput()
		require.NoError(t, err)
		require.Equal(t, agents.WriteInput{FilePath: "/workspace/notes.md", Content: "draft"}, in)
		return got, use
	}

	t.Run("allow: the server runs it", func(t *testing.T) {
		got, use := turn(t)
		require.Equal(t, sessions.PermissionAllow, use.EvaluatedPermission)
		require.Equal(t, sessions.AutoEvaluation{EvaluatedPermission: sessions.AutoPermission{Type: sessions.PermissionAllow}}, use.Evaluation)
		result := only[*sessions.AgentToolResultEvent](t, got)
		require.False(t, result.IsError)
		require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
	})
	t.Run("deny: not run, the turn goes on", func(t *testing.T) {
		got, use := turn(t)
		require.Equal(t, sessions.PermissionDeny, use.EvaluatedPermission)
		require.Equal(t, sessions.AutoEvaluation{EvaluatedPermission: sessions.AutoPermission{Type: sessions.PermissionDeny, ReasonCode: "high_risk"}}, use.Evaluation)
		result := only[*sessions.AgentToolResultEvent](t, got)
		require.True(t, result.IsError)
		require.Equal(t, "This tool call was judged high-risk and was not run.", sessions.Text(result.Content))
		require.Equal(t, "Not written.", sessions.Text(only[*sessions.AgentMessageEvent](t, got).Content))
		require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
	})
	for _, name := range []string{"ask", "unscripted"} {
		t.Run(name+": the client decides", func(t *testing.T) {
			_, use := turn(t)
			require.Equal(t, sessions.PermissionAsk, use.EvaluatedPermission)
			require.Equal(t, sessions.AutoEvaluation{EvaluatedPermission: sessions.AutoPermission{Type: sessions.PermissionAsk, ReasonCode: "indeterminate"}}, use.Evaluation)
			f.send(t, s.ID, sessions.Deny(use.ID, ""))
			result := only[*sessions.AgentToolResultEvent](t, tl.untilIdle())
			require.Equal(t, "The user denied this tool call.", sessions.Text(result.Content))
		})
	}
}

func TestSelfHostedToolResult(t *testing.T) {
	f := newFixture(t)
	env, err := f.client.Environments.Create(ctx, environments.CreateParams{Name: "worker", Config: environments.SelfHostedConfig{}})
	require.NoError(t, err)
	a := f.newAgent(t, agents.CreateParams{Name: "Ops", Model: f.agent.Model, Tools: []agents.Tool{allowedTools}})
	s := f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(a.ID), EnvironmentID: env.ID})
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls -l"}), refserver.Say("Two files.")})

	f.send(t, s.ID, sessions.UserMessage("List the files."))
	got := tl.untilIdle()
	use := only[*sessions.AgentToolUseEvent](t, got)
	require.Equal(t, sessions.PermissionAllow, use.EvaluatedPermission)
	require.Equal(t, sessions.StopRequiresAction{EventIDs: []string{use.ID}}, idleReason(t, got), "the client runs sandbox tools")
	require.Empty(t, all[*sessions.AgentToolResultEvent](got))

	echo := f.send(t, s.ID, sessions.ToolResult(use.ID, "total 8\n-rw-r--r-- 1 agent agent 120 README.md"), sessions.SystemMessage("Be brief."))
	require.Len(t, echo, 2)
	result := echo[0].(*sessions.ToolResultEvent)
	require.Equal(t, use.ID, result.ToolUseID)
	require.Equal(t, "total 8\n-rw-r--r-- 1 agent agent 120 README.md", sessions.Text(result.Content))
	require.False(t, result.IsError)
	require.Equal(t, "Be brief.", sessions.Text(echo[1].(*sessions.SystemMessageEvent).Content))
	got = tl.untilIdle()
	require.Empty(t, all[*sessions.AgentToolResultEvent](got), "no agent.tool_result for a client-run tool")
	require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
}

func TestInterrupt(t *testing.T) {
	f := newFixture(t)
	s := f.sessionWith(t, lookupOrder)
	tl := f.previews(t, s.ID)
	f.script(t, s.ID,
		[]refserver.Step{refserver.SayChunks("Working ", "on it"), refserver.Hold()},
		[]refserver.Step{refserver.UseCustomTool("lookup_order", map[string]any{"order_id": "1"})},
	)

	t.Run("a running turn", func(t *testing.T) {
		f.send(t, s.ID, sessions.UserMessage("Go."))
		tl.until(func(ev sessions.Event) bool {
			d, ok := ev.(*sessions.EventDelta)
			return ok && sessions.Text([]sessions.ContentBlock{d.Delta.Content}) == "on it"
		})
		echo := f.send(t, s.ID, sessions.Interrupt())
		require.Equal(t, sessions.EventInterrupt, echo[0].Type())
		require.Empty(t, echo[0].(*sessions.InterruptEvent).ThreadID, "every thread")

		got := tl.untilIdle()
		require.Equal(t, sessions.EventType("user.interrupt"), got[0].Type())
		span := only[*sessions.SpanModelRequestEndEvent](t, got)
		require.False(t, span.IsError, "an interrupt is not a failure")
		require.Empty(t, all[*sessions.AgentMessageEvent](got), "a request cut short emits no buffered event")
		require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
		sess, err := f.client.Sessions.Get(ctx, s.ID)
		require.NoError(t, err)
		require.Equal(t, sessions.StatusIdle, sess.Status)
	})

	t.Run("an idle session: closes pending calls", func(t *testing.T) {
		f.send(t, s.ID, sessions.UserMessage("Look it up."))
		use := only[*sessions.AgentCustomToolUseEvent](t, tl.untilIdle())
		f.send(t, s.ID, sessions.Interrupt())
		_, err := f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.CustomToolResult(use.ID, "late")}})
		reftest.RequireConflict(t, err, "is not awaiting a result")
	})
}

func TestDefineOutcome(t *testing.T) {
	f := newFixture(t)
	s := f.sessionWith(t, allowedTools)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		refserver.Hold(),
		// Two model requests (a tool call ends the first), each evaluated.
		refserver.Say("Draft.", refserver.Outcome("needs_revision", "The totals are missing.")),
		refserver.UseTool("bash", map[string]any{"command": "ls"}),
		refserver.Say("Final.", refserver.Outcome("satisfied", "All criteria met.")),
	})

	echo := f.send(t, s.ID, sessions.DefineOutcome("A report exists.", sessions.TextRubric("report.md has totals")))
	outcome := echo[0].(*sessions.DefineOutcomeEvent)
	require.Regexp(t, `^outc_01[0-9A-Za-z]{22}$`, outcome.OutcomeID)
	require.Equal(t, "A report exists.", outcome.Description)
	require.Equal(t, sessions.TextRubric("report.md has totals"), outcome.Rubric)
	require.Equal(t, 3, outcome.MaxIterations, "resolved")

	// One outcome at a time.
	_, err := f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.DefineOutcome("Another.", sessions.TextRubric("r"))}})
	reftest.RequireConflict(t, err, "events[0]: an outcome is already active; interrupt it first")
	require.NoError(t, f.env.Server.ReleaseSession(s.ID))

	got := tl.untilIdle()
	starts := all[*sessions.SpanOutcomeEvaluationStartEvent](got)
	ends := all[*sessions.SpanOutcomeEvaluationEndEvent](got)
	require.Len(t, starts, 2)
	require.Len(t, ends, 2)
	for i, end := range ends {
		require.Equal(t, outcome.OutcomeID, end.OutcomeID)
		require.Equal(t, i, end.Iteration)
		require.Equal(t, starts[i].ID, end.OutcomeEvaluationStartID)
		require.Equal(t, sessions.ModelUsage{InputTokens: 500, OutputTokens: 50, Speed: "standard"}, end.Usage)
	}
	require.Equal(t, sessions.OutcomeNeedsRevision, ends[0].Result)
	require.Equal(t, "The totals are missing.", ends[0].Explanation)
	require.Equal(t, sessions.OutcomeSatisfied, ends[1].Result)
	require.Len(t, all[*sessions.SessionStatusIdleEvent](got), 1, "no idle between revisions")
	require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))

	sess, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	require.Len(t, sess.OutcomeEvaluations, 1)
	require.Equal(t, sessions.OutcomeEvaluation{
		Type: "outcome_evaluation", OutcomeID: outcome.OutcomeID, Description: "A report exists.",
		Explanation: "All criteria met.", Iteration: 1, Result: sessions.OutcomeSatisfied, CompletedAt: ends[1].ProcessedAt,
	}, sess.OutcomeEvaluations[0])
}

func TestBudgetStopAndResume(t *testing.T) {
	f := newFixture(t)
	a := f.newAgent(t, agents.CreateParams{Name: "Spender", Model: f.agent.Model, Tools: []agents.Tool{allowedTools}})
	s := f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(a.ID), EnvironmentID: f.envID, Budget: &sessions.Budget{MaxListCost: money.USD(1)}})
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		// 100000 input and 10000 output tokens of Haiku cost 1.5 cents, more
		// than the budget of 1 cent: the next request does not start.
		refserver.Say("First.", refserver.Tokens(100000, 10000)),
		refserver.UseTool("bash", map[string]any{"command": "ls"}),
		refserver.Say("Second."),
	})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	got := tl.untilIdle()
	n := len(got)
	require.Equal(t, []string{"session.thread_status_idle", "session.usage", "session.status_idle"}, typesOf(got[n-3:]))
	paused := got[n-3].(*sessions.SessionThreadStatusIdleEvent)
	require.Regexp(t, `^sthr_01[0-9A-Za-z]{22}$`, paused.ThreadID, "the primary thread")
	require.Equal(t, "Spender", paused.AgentName)
	require.Equal(t, sessions.StopBudgetReached{}, paused.StopReason)
	usage := got[n-2].(*sessions.SessionUsageEvent)
	require.Equal(t, money.USD(2), usage.Usage.ListCost)
	require.Equal(t, &sessions.Budget{Type: sessions.BudgetLimit, MaxListCost: money.USD(1)}, usage.Budget)
	require.Equal(t, sessions.StopBudgetReached{}, idleReason(t, got))

	// Paused: work is refused, an interrupt is accepted and ignored.
	_, err := f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("More.")}})
	reftest.RequireInvalid(t, err, "events[0].type: session is at its budget")
	require.Empty(t, f.send(t, s.ID, sessions.Interrupt()), "not recorded, not echoed")

	// Raising the budget resumes the turn.
	_, err = f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.USD(500)))})
	require.NoError(t, err)
	got = tl.untilIdle()
	require.Equal(t, []string{"session.updated", "session.status_running"}, typesOf(got[:2]))
	updated := got[0].(*sessions.SessionUpdatedEvent)
	require.Equal(t, param.Value(sessions.Limit(money.USD(500))), updated.Budget)
	require.Nil(t, updated.Agent)
	require.Nil(t, updated.Metadata)
	require.True(t, updated.Title.IsZero(), "unchanged keys are absent")
	require.Equal(t, "Second.", sessions.Text(only[*sessions.AgentMessageEvent](t, got).Content))
	require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
}

func TestFailedRequest(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Fail("model_overloaded_error", "The model is overloaded.")})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	got := tl.untilIdle()
	span := only[*sessions.SpanModelRequestEndEvent](t, got)
	require.True(t, span.IsError)
	failure := only[*sessions.SessionErrorEvent](t, got)
	require.Equal(t, sessions.SessionError{Type: "model_overloaded_error", Message: "The model is overloaded.", RetryStatus: sessions.RetryExhausted{}}, failure.Error)
	require.Equal(t, []string{"session.error", "session.usage", "session.status_idle"}, typesOf(got[len(got)-3:]))
	require.Equal(t, sessions.StopRetriesExhausted{}, idleReason(t, got))
}

func TestRefusal(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Refuse("I can't help with that.")})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	got := tl.untilIdle()
	idle := got[len(got)-1].(*sessions.SessionStatusIdleEvent)
	require.Equal(t, sessions.StopRefusal{}, idle.StopReason)
	require.Equal(t, sessions.RefusalDetails{Explanation: "I can't help with that."}, idle.StopDetails)
}

// TestUnknownEventType: a type this SDK does not know reaches the caller
// whole, on the stream and in the history.
func TestUnknownEventType(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		refserver.Emit("plan.revised", map[string]any{"plan_id": "plan_1", "phases": []any{"plan", map[string]any{"n": 2}}}),
		refserver.Say("Done."),
	})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	got := tl.untilIdle()
	unknown := only[*sessions.UnknownEvent](t, got)
	require.Equal(t, sessions.EventType("plan.revised"), unknown.Type())
	require.Regexp(t, sevtID, unknown.ID)
	require.Equal(t, start, unknown.ProcessedAt)
	var fields map[string]any
	require.NoError(t, json.Unmarshal(unknown.JSON, &fields))
	require.Equal(t, map[string]any{
		"id": unknown.ID, "processed_at": "2026-03-15T10:00:00.000000Z", "type": "plan.revised",
		"plan_id": "plan_1", "phases": []any{"plan", map[string]any{"n": float64(2)}},
	}, fields)
	b, err := json.Marshal(unknown)
	require.NoError(t, err)
	require.JSONEq(t, string(unknown.JSON), string(b), "it marshals back as received")

	page, err := f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{Types: []sessions.EventType{"plan.revised"}})
	require.NoError(t, err)
	require.Empty(t, cmp.Diff([]sessions.Event{unknown}, page.Data))
}

// TestThreadEvents: a coordinator's child thread shows on the session
// stream through its lifecycle events.
func TestThreadEvents(t *testing.T) {
	f := newFixture(t)
	reviewer := f.newAgent(t, agents.CreateParams{Name: "code-reviewer", Model: f.agent.Model})
	lead := f.newAgent(t, agents.CreateParams{Name: "lead", Model: f.agent.Model,
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(reviewer.ID)}}})
	s := f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(lead.ID), EnvironmentID: f.envID})
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Spawn("code-reviewer", refserver.Say("Two issues."))})
	f.send(t, s.ID, sessions.UserMessage("Review the diff."))

	got := tl.until(isType(sessions.EventAgentThreadMessageReceived))
	created := only[*sessions.SessionThreadCreatedEvent](t, got)
	child := created.ThreadID
	require.Regexp(t, `^sthr_01[0-9A-Za-z]{22}$`, child)
	require.Equal(t, "code-reviewer", created.AgentName)
	require.Empty(t, created.WorkflowRunID)
	sent := only[*sessions.AgentThreadMessageSentEvent](t, got)
	require.Equal(t, child, sent.ToSessionThreadID)
	require.Equal(t, "code-reviewer", sent.ToAgentName)
	require.Equal(t, child, only[*sessions.SessionThreadStatusRunningEvent](t, got).ThreadID)
	childIdle := only[*sessions.SessionThreadStatusIdleEvent](t, got)
	require.Equal(t, child, childIdle.ThreadID)
	require.Equal(t, sessions.StopEndTurn{}, childIdle.StopReason)
	received := got[len(got)-1].(*sessions.AgentThreadMessageReceivedEvent)
	require.Equal(t, child, received.FromSessionThreadID)
	require.Equal(t, "code-reviewer", received.FromAgentName)
	require.Equal(t, "Two issues.", sessions.Text(received.Content))
}
