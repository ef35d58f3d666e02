package toolrunner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

var ctx = context.Background()

// waitTimeout bounds every wait of a test, so that a lost call fails it
// instead of hanging it.
const waitTimeout = time.Minute

// fixture is a reference server, a client, and an environment for
// sessions.
type fixture struct {
	env    *reftest.Env
	client *agentplatform.Client
	envID  string
}

func newFixture(tb testing.TB, opts ...refserver.Option) *fixture {
	tb.Helper()
	env := reftest.New(tb, opts...)
	f := &fixture{env: env, client: env.Client(tb)}
	e, err := f.client.Environments.Create(ctx, environments.CreateParams{Name: "tools"})
	require.NoError(tb, err)
	f.envID = e.ID
	return f
}

// agent creates an agent whose custom tools are tools, plus extra.
func (f *fixture) agent(tb testing.TB, tools []tool.Tool, extra ...agents.Tool) *agents.Agent {
	tb.Helper()
	p := agents.CreateParams{Name: "Support", Model: agents.ModelID(models.VendorHaiku55),
		Tools: append(agents.FromTools(tools...), extra...)}
	for _, t := range extra {
		if ts, ok := t.(agents.MCPToolset); ok {
			p.MCPServers = append(p.MCPServers, agents.MCPServer{Name: ts.MCPServerName, URL: "https://mcp.example.com/sse"})
		}
	}
	a, err := f.client.Agents.Create(ctx, p)
	require.NoError(tb, err)
	return a
}

// session starts an idle session of a, whose turns are scripted.
func (f *fixture) session(tb testing.TB, a *agents.Agent, turns ...[]refserver.Step) string {
	tb.Helper()
	s, err := f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(a.ID), EnvironmentID: f.envID})
	require.NoError(tb, err)
	if len(turns) > 0 {
		require.NoError(tb, f.env.Server.ScriptSession(s.ID, turns...))
	}
	return s.ID
}

func (f *fixture) send(tb testing.TB, sessionID string, events ...sessions.EventParam) {
	tb.Helper()
	_, err := f.client.Sessions.Events.Send(ctx, sessionID, sessions.SendParams{Events: events})
	require.NoError(tb, err)
}

// say starts a turn.
func (f *fixture) say(tb testing.TB, sessionID, text string) {
	tb.Helper()
	f.send(tb, sessionID, sessions.UserMessage(text))
}

// history is the session's whole history, oldest first.
func (f *fixture) history(tb testing.TB, sessionID string) []sessions.Event {
	tb.Helper()
	var out []sessions.Event
	for ev, err := range f.client.Sessions.Events.All(ctx, sessionID, sessions.EventListParams{Order: sessions.OrderAsc}) {
		require.NoError(tb, err)
		out = append(out, ev)
	}
	return out
}

// turnsEnded counts the turns of the session that ended (end_turn idles).
func turnsEnded(evs []sessions.Event) int {
	n := 0
	for _, ev := range evs {
		if idle, ok := ev.(*sessions.SessionStatusIdleEvent); ok {
			if _, ok := idle.StopReason.(sessions.StopEndTurn); ok {
				n++
			}
		}
	}
	return n
}

// waitTurns waits until n turns of the session have ended, and returns the
// history.
func (f *fixture) waitTurns(tb testing.TB, sessionID string, n int) []sessions.Event {
	tb.Helper()
	var evs []sessions.Event
	eventually(tb, func() bool {
		evs = f.history(tb, sessionID)
		return turnsEnded(evs) >= n
	}, "turn %d of %s to end", n, sessionID)
	return evs
}

// eventually polls cond until it holds, or fails the test.
func eventually(tb testing.TB, cond func() bool, msg string, args ...any) {
	tb.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out waiting for "+msg, args...)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// eventsOf returns the events of type T.
func eventsOf[T sessions.Event](evs []sessions.Event) []T {
	var out []T
	for _, ev := range evs {
		if v, ok := ev.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// results maps each answered call id to its answers.
func results(evs []sessions.Event) map[string][]*sessions.CustomToolResultEvent {
	out := map[string][]*sessions.CustomToolResultEvent{}
	for _, r := range eventsOf[*sessions.CustomToolResultEvent](evs) {
		out[r.CustomToolUseID] = append(out[r.CustomToolUseID], r)
	}
	return out
}

// onlyResult returns the one answer of the one custom tool call in evs.
func onlyResult(tb testing.TB, evs []sessions.Event) *sessions.CustomToolResultEvent {
	tb.Helper()
	uses := eventsOf[*sessions.AgentCustomToolUseEvent](evs)
	require.Len(tb, uses, 1)
	rs := results(evs)[uses[0].ID]
	require.Len(tb, rs, 1, "answers of %s", uses[0].ID)
	return rs[0]
}

func text(blocks []sessions.ContentBlock) string { return sessions.Text(blocks) }

// running runs r on a session in the background; the returned function
// waits for Run's result.
func running(tb testing.TB, r *toolrunner.Runner, c context.Context, sessionID string) func() error {
	tb.Helper()
	errc := make(chan error, 1)
	go func() { errc <- r.Run(c, sessionID) }()
	var once sync.Once
	var err error
	wait := func() error {
		once.Do(func() {
			select {
			case err = <-errc:
			case <-time.After(waitTimeout):
				tb.Fatalf("Run of %s did not return", sessionID)
			}
		})
		return err
	}
	return wait
}

// newRunner creates a runner closed when the test ends.
func newRunner(tb testing.TB, f *fixture, tools []tool.Tool, opts ...toolrunner.Option) *toolrunner.Runner {
	tb.Helper()
	r, err := toolrunner.New(f.client.Sessions, tools, opts...)
	require.NoError(tb, err)
	tb.Cleanup(func() {
		c, cancel := context.WithTimeout(ctx, waitTimeout)
		defer cancel()
		require.NoError(tb, r.Close(c))
	})
	return r
}

// Tools of the tests.

type orderInput struct {
	OrderID string `json:"order_id"`
}

// counter is a tool that counts its calls by input.
type counter struct {
	mu    sync.Mutex
	calls []string // the order ids, in call order
	ids   []string // CallID of each call
	total atomic.Int64
}

func (c *counter) tool(name string) tool.Tool {
	return tool.Must(tool.New(name, "Looks up an order.", func(ctx context.Context, in orderInput) (tool.Result, error) {
		c.mu.Lock()
		c.calls = append(c.calls, in.OrderID)
		c.ids = append(c.ids, toolrunner.CallID(ctx))
		c.mu.Unlock()
		c.total.Add(1)
		return tool.Text(name + ": order " + in.OrderID + " shipped"), nil
	}))
}

func (c *counter) orders() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

func (c *counter) callIDs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.ids...)
}

// blocker is a tool that signals when it starts and runs until released or
// cancelled.
type blocker struct {
	started chan string        // the CallID of each call, as it starts
	release chan struct{}      // closed to let calls return
	ended   chan error         // context.Cause of a cancelled call, or nil
	ignore  bool               // keep running after cancellation, until released
	result  func() tool.Result // what a released call returns
}

func newBlocker() *blocker {
	return &blocker{started: make(chan string, 100), release: make(chan struct{}), ended: make(chan error, 100),
		result: func() tool.Result { return tool.Text("released") }}
}

func (b *blocker) tool(name string) tool.Tool {
	return tool.Must(tool.New(name, "Takes its time.", func(ctx context.Context, _ orderInput) (tool.Result, error) {
		return b.run(ctx)
	}))
}

// anyInputTool is b as a tool that takes any input: a sandbox tool.
func (b *blocker) anyInputTool(name string) tool.Tool {
	return tool.Must(tool.NewRaw(name, "Takes its time.", json.RawMessage(`{"type":"object"}`),
		func(ctx context.Context, _ json.RawMessage) (tool.Result, error) { return b.run(ctx) }))
}

func (b *blocker) run(ctx context.Context) (tool.Result, error) {
	b.started <- toolrunner.CallID(ctx)
	if b.ignore {
		<-b.release
		b.ended <- nil
		return b.result(), nil
	}
	select {
	case <-b.release:
		b.ended <- nil
		return b.result(), nil
	case <-ctx.Done():
		b.ended <- context.Cause(ctx)
		return tool.Result{}, ctx.Err()
	}
}

// waitStarted waits for the next call to start and returns its id.
func (b *blocker) waitStarted(tb testing.TB) string {
	tb.Helper()
	select {
	case id := <-b.started:
		return id
	case <-time.After(waitTimeout):
		tb.Fatal("the tool did not start")
		return ""
	}
}

func (b *blocker) waitEnded(tb testing.TB) error {
	tb.Helper()
	select {
	case err := <-b.ended:
		return err
	case <-time.After(waitTimeout):
		tb.Fatal("the tool did not end")
		return nil
	}
}

// useOrder is a scripted call of a tool with an order id.
func useOrder(name, orderID string) refserver.Step {
	return refserver.UseCustomTool(name, map[string]any{"order_id": orderID})
}

// orderCalls is a turn of n calls of the tool name, orders "0" to "n-1",
// ended by the agent saying last.
func orderCalls(name string, n int, last string) []refserver.Step {
	steps := make([]refserver.Step, 0, n+1)
	for i := range n {
		steps = append(steps, useOrder(name, fmt.Sprint(i)))
	}
	return append(steps, refserver.Say(last))
}

// logs records what a runner logs.
type logs struct {
	mu      sync.Mutex
	records []string // "LEVEL message key=value …"
}

func (l *logs) logger() *slog.Logger { return slog.New(&logHandler{l: l}) }

func (l *logs) has(sub ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
outer:
	for _, r := range l.records {
		for _, s := range sub {
			if !strings.Contains(r, s) {
				continue outer
			}
		}
		return true
	}
	return false
}

func (l *logs) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.records...)
}

type logHandler struct {
	l     *logs
	attrs []slog.Attr
}

func (h *logHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *logHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.Level, r.Message)
	for _, a := range h.attrs {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
	}
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	h.l.mu.Lock()
	h.l.records = append(h.l.records, b.String())
	h.l.mu.Unlock()
	return nil
}

func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &logHandler{l: h.l, attrs: append(append([]slog.Attr(nil), h.attrs...), attrs...)}
}

func (h *logHandler) WithGroup(string) slog.Handler { return h }
