package toolrunner_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

var allowingToolset = agents.AgentToolset{DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(agents.PolicyAlwaysAllow)}}

// selfHosted makes f's next sessions run on a self-hosted environment,
// whose sandbox tools the client runs.
func (f *fixture) selfHosted(tb testing.TB) {
	tb.Helper()
	e, err := f.client.Environments.Create(ctx, environments.CreateParams{Name: "worker", Config: environments.SelfHostedConfig{}})
	require.NoError(tb, err)
	f.envID = e.ID
}

type bashInput struct {
	Command string `json:"command"`
}

// shell is a bash tool that records its calls.
type shell struct {
	mu       sync.Mutex
	commands []string
	calls    []string // CallID of each call
	sessions []string // SessionID of each call
}

func (s *shell) tool() tool.Tool {
	return tool.Must(tool.New("bash", "Runs a command.", func(ctx context.Context, in bashInput) (tool.Result, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.commands = append(s.commands, in.Command)
		s.calls = append(s.calls, toolrunner.CallID(ctx))
		s.sessions = append(s.sessions, toolrunner.SessionID(ctx))
		return tool.Text("ran: " + in.Command), nil
	}))
}

func (s *shell) callIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...)
}

func bash(command string) refserver.Step {
	return refserver.UseTool("bash", map[string]any{"command": command})
}

// toolResults maps each agent.tool_use id to its user.tool_result events.
func toolResults(evs []sessions.Event) map[string][]*sessions.ToolResultEvent {
	out := map[string][]*sessions.ToolResultEvent{}
	for _, r := range eventsOf[*sessions.ToolResultEvent](evs) {
		out[r.ToolUseID] = append(out[r.ToolUseID], r)
	}
	return out
}

// onlyUse returns the one agent.tool_use of evs.
func onlyUse(tb testing.TB, evs []sessions.Event) *sessions.AgentToolUseEvent {
	tb.Helper()
	uses := eventsOf[*sessions.AgentToolUseEvent](evs)
	require.Len(tb, uses, 1)
	return uses[0]
}

// waitUse waits for the session's first agent.tool_use.
func (f *fixture) waitUse(tb testing.TB, sessionID string) *sessions.AgentToolUseEvent {
	tb.Helper()
	var use *sessions.AgentToolUseEvent
	eventually(tb, func() bool {
		if uses := eventsOf[*sessions.AgentToolUseEvent](f.history(tb, sessionID)); len(uses) > 0 {
			use = uses[0]
		}
		return use != nil
	}, "a tool call in %s", sessionID)
	return use
}

// TestSandboxToolAllowed: an allowed sandbox call is run once, in a
// context that names its call and session, and answered with one
// user.tool_result holding the tool's result.
func TestSandboxToolAllowed(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, allowingToolset)
	id := f.session(t, a, []refserver.Step{bash("ls -l"), refserver.Say("Done.")})
	var sh shell
	r := newRunner(t, f, nil, toolrunner.WithSandboxTools(sh.tool()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "List the files.")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)

	use := onlyUse(t, evs)
	require.Equal(t, sessions.PermissionAllow, use.EvaluatedPermission)
	rs := toolResults(evs)[use.ID]
	require.Len(t, rs, 1)
	require.Equal(t, "ran: ls -l", text(rs[0].Content))
	require.False(t, rs[0].IsError)
	require.Len(t, toolResults(evs), 1)
	require.Empty(t, eventsOf[*sessions.AgentToolResultEvent](evs), "the client ran it")
	require.Empty(t, eventsOf[*sessions.CustomToolResultEvent](evs))
	require.Equal(t, []string{"ls -l"}, sh.commands)
	require.Equal(t, []string{use.ID}, sh.calls)
	require.Equal(t, []string{id}, sh.sessions, "SessionID(ctx)")
	require.Empty(t, toolrunner.SessionID(ctx), "not a tool call's context")
}

// TestSandboxToolAsks: a sandbox call that asks runs once a confirmation
// allows it, whether the runner's WithConfirm or the application sent it;
// a denied one never runs.
func TestSandboxToolAsks(t *testing.T) {
	for _, tt := range []struct {
		name    string
		confirm func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision // nil: the test allows
		runs    bool
	}{
		{"allowed with WithConfirm", func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision { return toolrunner.Allow() }, true},
		{"allowed by the application", nil, true},
		{"denied with WithConfirm", func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision {
			return toolrunner.Deny("Not on the build machine.")
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.selfHosted(t)
			a := f.agent(t, nil, askingToolset)
			id := f.session(t, a, []refserver.Step{bash("make"), refserver.Say("Done.")})
			var sh shell
			opts := []toolrunner.Option{toolrunner.WithSandboxTools(sh.tool())}
			if tt.confirm != nil {
				opts = append(opts, toolrunner.WithConfirm(tt.confirm))
			}
			r := newRunner(t, f, nil, opts...)
			rc, stop := context.WithCancel(ctx)
			defer stop()
			wait := running(t, r, rc, id)
			f.say(t, id, "Build it.")
			if tt.confirm == nil {
				f.send(t, id, sessions.Allow(f.waitUse(t, id).ID))
			}
			evs := f.waitTurns(t, id, 1)
			stop()
			require.ErrorIs(t, wait(), context.Canceled)

			use := onlyUse(t, evs)
			require.Equal(t, sessions.PermissionAsk, use.EvaluatedPermission)
			confs := eventsOf[*sessions.ToolConfirmationEvent](evs)
			require.Len(t, confs, 1)
			rs := toolResults(evs)
			if !tt.runs {
				require.Empty(t, sh.commands, "a denied call is not run")
				require.Empty(t, rs)
				denied := eventsOf[*sessions.AgentToolResultEvent](evs)
				require.Len(t, denied, 1)
				require.True(t, denied[0].IsError)
				require.Equal(t, "Not on the build machine.", text(denied[0].Content))
				return
			}
			require.Equal(t, sessions.ConfirmationAllow, confs[0].Result)
			require.Equal(t, []string{use.ID}, sh.callIDs())
			require.Len(t, rs, 1)
			require.Len(t, rs[use.ID], 1)
			require.Equal(t, "ran: make", text(rs[use.ID][0].Content))
			require.Empty(t, eventsOf[*sessions.AgentToolResultEvent](evs))
		})
	}
}

// TestSandboxToolNotInTheSetIsLeftAlone: a call of a sandbox tool the
// runner was not given is left to other consumers.
func TestSandboxToolNotInTheSetIsLeftAlone(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, allowingToolset)
	id := f.session(t, a, []refserver.Step{refserver.UseTool("read", map[string]any{"file_path": "/etc/hosts"}), bash("ls"), refserver.Say("Done.")})
	var sh shell
	var l logs
	r := newRunner(t, f, nil, toolrunner.WithSandboxTools(sh.tool()), toolrunner.WithLogger(l.logger()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Read the hosts file.")
	read := f.waitUse(t, id)
	require.Equal(t, agents.ToolRead, read.Name)
	eventually(t, func() bool { return l.has("left to other consumers", read.ID) }, "the runner to pass on the call")
	require.Empty(t, toolResults(f.history(t, id)), "the runner sent no answer")

	f.send(t, id, sessions.ToolResult(read.ID, "127.0.0.1 localhost"))
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	rs := toolResults(evs)
	require.Len(t, rs, 2)
	require.Len(t, rs[read.ID], 1)
	require.Equal(t, "127.0.0.1 localhost", text(rs[read.ID][0].Content))
	require.Equal(t, []string{"ls"}, sh.commands)
}

// TestSandboxRestartMidCall: a runner closed while its sandbox tool runs
// leaves the call pending; the next runner reconciles, runs it once, and
// the history holds one user.tool_result.
func TestSandboxRestartMidCall(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, allowingToolset)
	id := f.session(t, a, []refserver.Step{bash("make"), refserver.Say("Built.")})

	b := newBlocker()
	first := newRunner(t, f, nil, toolrunner.WithSandboxTools(b.anyInputTool("bash")))
	require.NoError(t, first.Add(id))
	f.say(t, id, "Build it.")
	pending := b.waitStarted(t)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	require.ErrorIs(t, first.Close(cancelled), context.Canceled)
	require.ErrorIs(t, b.waitEnded(t), toolrunner.ErrClosed)
	require.Empty(t, toolResults(f.history(t, id)), "nothing was answered")

	var sh shell
	second := newRunner(t, f, nil, toolrunner.WithSandboxTools(sh.tool()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, second, rc, id)
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Equal(t, []string{pending}, sh.callIDs(), "the pending call, by its id, once")
	require.Len(t, eventsOf[*sessions.ToolResultEvent](evs), 1)
	require.Equal(t, "ran: make", text(toolResults(evs)[pending][0].Content))
}

// TestSandboxConfirmedCallFoundByReconciliation: a call allowed while no
// runner followed the session still waits for its result; a runner that
// starts then runs it, although a confirmation is recorded for it.
func TestSandboxConfirmedCallFoundByReconciliation(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, askingToolset)
	id := f.session(t, a, []refserver.Step{bash("make test"), refserver.Say("Tested.")})
	f.say(t, id, "Test it.")
	use := f.waitUse(t, id)
	f.send(t, id, sessions.Allow(use.ID))

	var sh shell
	r := newRunner(t, f, nil, toolrunner.WithSandboxTools(sh.tool()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Equal(t, []string{use.ID}, sh.callIDs())
	rs := toolResults(evs)
	require.Len(t, rs, 1)
	require.Len(t, rs[use.ID], 1)
	require.Equal(t, "ran: make test", text(rs[use.ID][0].Content))
}

// TestSandboxInterrupt: an interrupt cancels a running sandbox tool; its
// late result is refused and the history holds none.
func TestSandboxInterrupt(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, allowingToolset)
	id := f.session(t, a, []refserver.Step{bash("sleep 1000"), refserver.Say("unreachable")})
	b := newBlocker()
	var l logs
	r := newRunner(t, f, nil, toolrunner.WithSandboxTools(b.anyInputTool("bash")), toolrunner.WithLogger(l.logger()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Wait.")
	callID := b.waitStarted(t)
	f.send(t, id, sessions.Interrupt())
	require.ErrorContains(t, b.waitEnded(t), "closed by an interrupt")
	eventually(t, func() bool { return l.has("no longer pending", callID) }, "the late answer to be refused")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Empty(t, toolResults(evs))
}

// TestSandboxUnsentAnswer: a sandbox result the runner could not get
// recorded is reported as a user.tool_result the application can send.
func TestSandboxUnsentAnswer(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, allowingToolset)
	id := f.session(t, a, []refserver.Step{bash("make"), refserver.Say("Built.")})
	b := newBlocker()
	var e ends
	var l logs
	r := newRunner(t, f, nil, toolrunner.WithSandboxTools(b.anyInputTool("bash")), e.option(), toolrunner.WithLogger(l.logger()))
	require.NoError(t, r.Add(id))
	f.say(t, id, "Build it.")
	callID := b.waitStarted(t)
	failSends(f, id, 1<<20, "60000")
	close(b.release)
	eventually(t, func() bool { return l.has("WARN", "sending the answer failed; retrying", callID) }, "the answer to fail")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	require.ErrorIs(t, r.Close(cancelled), context.Canceled)

	errs := e.of(id)
	require.Len(t, errs, 1)
	var unsent *toolrunner.UnsentError
	require.ErrorAs(t, errs[0], &unsent)
	want := toolrunner.UnsentAnswer{CallID: callID, Tool: "bash", Result: tool.Text("released"), Sandbox: true}
	require.Equal(t, []toolrunner.UnsentAnswer{want}, unsent.Answers)
	require.IsType(t, sessions.ToolResultParam{}, want.Param())

	f.env.Server.ClearFaults()
	f.send(t, id, unsent.Answers[0].Param())
	rs := toolResults(f.waitTurns(t, id, 1))[callID]
	require.Len(t, rs, 1)
	require.Equal(t, "released", text(rs[0].Content))
}

// TestRequestOptionsReachTheServer: the runner reads the history, follows
// the stream and sends answers with its request options: here a key of
// its own, while its client's key is refused.
func TestRequestOptionsReachTheServer(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, allowingToolset)
	id := f.session(t, a, []refserver.Step{bash("ls"), refserver.Say("Done.")})
	key, err := f.env.Server.CreateAPIKey(refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: f.env.Seed.UserID, Name: "worker"})
	require.NoError(t, err)
	refused := f.env.Client(t, option.WithAPIKey("sk-refused"))

	var sh shell
	without, err := toolrunner.New(refused.Sessions, nil, toolrunner.WithSandboxTools(sh.tool()))
	require.NoError(t, err)
	require.ErrorIs(t, without.Run(ctx, id), apierror.ErrAuthentication, "the client's key alone is refused")
	require.NoError(t, without.Close(ctx))

	r, err := toolrunner.New(refused.Sessions, nil, toolrunner.WithSandboxTools(sh.tool()),
		toolrunner.WithRequestOptions(option.WithAPIKey(key.Secret)))
	require.NoError(t, err)
	defer func() { require.NoError(t, r.Close(ctx)) }()
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "List the files.")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Len(t, toolResults(evs)[onlyUse(t, evs).ID], 1)
}

// TestSandboxSpan: a sandbox call's span is vendor.tool_use <tool>, a
// child of the span in Run's context.
func TestSandboxSpan(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, allowingToolset)
	id := f.session(t, a, []refserver.Step{bash("ls"), refserver.Say("Done.")})
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer func() { require.NoError(t, tp.Shutdown(ctx)) }()
	var sh shell
	r := newRunner(t, f, nil, toolrunner.WithSandboxTools(sh.tool()), toolrunner.WithTracerProvider(tp))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	rc, worker := tp.Tracer("worker").Start(rc, "serve session")
	wait := running(t, r, rc, id)
	f.say(t, id, "List the files.")
	evs := f.waitTurns(t, id, 1)
	eventually(t, func() bool { return len(toolSpans(rec)) == 1 }, "the tool's span to end")
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	worker.End()

	use := onlyUse(t, evs)
	s := toolSpans(rec)[0]
	require.Equal(t, "vendor.tool_use bash", s.Name())
	require.Equal(t, trace.SpanKindInternal, s.SpanKind())
	require.Equal(t, worker.SpanContext().SpanID(), s.Parent().SpanID(), "a child of Run's span")
	require.Equal(t, worker.SpanContext().TraceID(), s.SpanContext().TraceID())
	m := spantest.Attrs(s)
	require.Equal(t, "execute_tool", m[attr.GenAIOperationName].AsString())
	require.Equal(t, "bash", m[attr.GenAIToolName].AsString())
	require.Equal(t, use.ID, m[attr.GenAIToolCallID].AsString())
	require.Equal(t, "function", m[attr.GenAIToolType].AsString())
	require.Equal(t, id, m[attr.SessionID].AsString())
}

func TestNewRefusesBadSandboxTools(t *testing.T) {
	f := newFixture(t)
	var c counter
	var sh shell
	var verr *apierror.ValidationError
	_, err := toolrunner.New(f.client.Sessions, nil, toolrunner.WithSandboxTools(sh.tool(), c.tool("lookup_order")))
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "sandbox_tools[1].name", verr.Field)
	require.Contains(t, verr.Rule, "must be a sandbox tool (bash, read, write, edit, glob or grep)")

	_, err = toolrunner.New(f.client.Sessions, nil, toolrunner.WithSandboxTools(sh.tool(), sh.tool()))
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "sandbox_tools[1].name", verr.Field)
	require.Contains(t, verr.Rule, "unique")

	_, err = toolrunner.New(f.client.Sessions, nil, toolrunner.WithSandboxTools(tool.Tool{}))
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "sandbox_tools[0]", verr.Field)
}

// TestSandboxCallAnsweredElsewhere: a user.tool_result from another
// consumer answers the call: the runner's tool is cancelled, and the
// history holds that one answer.
func TestSandboxCallAnsweredElsewhere(t *testing.T) {
	f := newFixture(t)
	f.selfHosted(t)
	a := f.agent(t, nil, allowingToolset)
	id := f.session(t, a, []refserver.Step{bash("make"), refserver.Say("Built.")})
	b := newBlocker()
	r := newRunner(t, f, nil, toolrunner.WithSandboxTools(b.anyInputTool("bash")))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Build it.")
	callID := b.waitStarted(t)
	f.send(t, id, sessions.ToolResult(callID, "built by hand"))
	require.ErrorContains(t, b.waitEnded(t), "answered by another consumer")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	rs := toolResults(evs)[callID]
	require.Len(t, rs, 1)
	require.Equal(t, "built by hand", text(rs[0].Content))
}
