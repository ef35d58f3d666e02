package sessions_test

import (
	"context"
	"iter"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// streamTimeout bounds every wait on a stream, so that a missing event
// fails the test instead of hanging it.
const streamTimeout = 2 * time.Minute

// tail reads a session's stream step by step.
type tail struct {
	t      *testing.T
	stream *sessions.EventStream
	next   func() (sessions.Event, error, bool)
}

// tail opens a stream of the session, closed when the test ends.
func (f *fixture) tail(t *testing.T, sessionID string, params sessions.StreamParams) *tail {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, streamTimeout)
	st, err := f.client.Sessions.Events.Stream(c, sessionID, params)
	if err != nil {
		cancel()
		require.NoError(t, err)
	}
	next, stop := iter.Pull2(st.Events())
	t.Cleanup(func() {
		stop()
		_ = st.Close()
		cancel()
	})
	return &tail{t: t, stream: st, next: next}
}

// previews opens a stream with previews of both kinds.
func (f *fixture) previews(t *testing.T, sessionID string) *tail {
	return f.tail(t, sessionID, sessions.StreamParams{EventDeltas: []sessions.EventType{sessions.EventAgentMessage, sessions.EventAgentThinking}})
}

// until reads events until one satisfies done, and returns them, that one
// included.
func (tl *tail) until(done func(sessions.Event) bool) []sessions.Event {
	tl.t.Helper()
	var got []sessions.Event
	for {
		ev, err, ok := tl.next()
		require.True(tl.t, ok, "the stream ended after %v", typesOf(got))
		require.NoError(tl.t, err, "after %v", typesOf(got))
		got = append(got, ev)
		if done(ev) {
			return got
		}
	}
}

// untilIdle reads through the next session.status_idle.
func (tl *tail) untilIdle() []sessions.Event {
	return tl.until(isType(sessions.EventSessionStatusIdle))
}

func isType(typ sessions.EventType) func(sessions.Event) bool {
	return func(ev sessions.Event) bool { return ev.Type() == typ }
}

func typesOf(evs []sessions.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = string(ev.Type())
	}
	return out
}

// withoutPreviews keeps the persisted events.
func withoutPreviews(evs []sessions.Event) []sessions.Event {
	var out []sessions.Event
	for _, ev := range evs {
		if _, ok := ev.(sessions.PersistedEvent); ok {
			out = append(out, ev)
		}
	}
	return out
}

func eventIDs(evs []sessions.Event) []string {
	out := []string{}
	for _, ev := range evs {
		if pe, ok := ev.(sessions.PersistedEvent); ok {
			out = append(out, pe.Meta().ID)
		}
	}
	return out
}

// only returns the single event of type T among evs.
func only[T sessions.Event](t *testing.T, evs []sessions.Event) T {
	t.Helper()
	var found []T
	for _, ev := range evs {
		if v, ok := ev.(T); ok {
			found = append(found, v)
		}
	}
	require.Len(t, found, 1, "events %v", typesOf(evs))
	return found[0]
}

// all returns the events of type T among evs.
func all[T sessions.Event](evs []sessions.Event) []T {
	var out []T
	for _, ev := range evs {
		if v, ok := ev.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// idleReason returns the stop reason of the last event, a
// session.status_idle.
func idleReason(t *testing.T, evs []sessions.Event) sessions.StopReason {
	t.Helper()
	require.NotEmpty(t, evs)
	idle, ok := evs[len(evs)-1].(*sessions.SessionStatusIdleEvent)
	require.True(t, ok, "%T", evs[len(evs)-1])
	return idle.StopReason
}

func (f *fixture) send(t *testing.T, sessionID string, events ...sessions.EventParam) []sessions.Event {
	t.Helper()
	echo, err := f.client.Sessions.Events.Send(ctx, sessionID, sessions.SendParams{Events: events})
	require.NoError(t, err)
	return echo
}

func (f *fixture) script(t *testing.T, sessionID string, turns ...[]refserver.Step) {
	t.Helper()
	require.NoError(t, f.env.Server.ScriptSession(sessionID, turns...))
}

// sessionWith starts an idle session of a new agent with tools.
func (f *fixture) sessionWith(t *testing.T, tools ...agents.Tool) *sessions.Session {
	t.Helper()
	p := agents.CreateParams{Name: "Support", Model: agents.ModelID(models.VendorHaiku55), Tools: tools}
	for _, tool := range tools {
		if ts, ok := tool.(agents.MCPToolset); ok {
			p.MCPServers = append(p.MCPServers, agents.MCPServer{Name: ts.MCPServerName, URL: "https://mcp.example.com/sse"})
		}
	}
	a := f.newAgent(t, p)
	return f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(a.ID), EnvironmentID: f.envID})
}

// running returns a session whose turn is held running until the test
// releases or interrupts it.
func (f *fixture) running(t *testing.T, p sessions.CreateParams) *sessions.Session {
	t.Helper()
	s := f.newSession(t, p)
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{refserver.Hold()})
	f.send(t, s.ID, sessions.UserMessage("Take your time."))
	tl.until(isType(sessions.EventSessionStatusRunning))
	got, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	require.Equal(t, sessions.StatusRunning, got.Status)
	return got
}

var (
	lookupOrder = agents.CustomTool{Name: "lookup_order", Description: "Looks up an order.", InputSchema: agents.InputSchema{
		Properties: map[string]any{"order_id": map[string]any{"type": "string"}}, Required: []string{"order_id"},
	}}
	askingToolset = agents.AgentToolset{DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)}}
	allowedTools  = agents.AgentToolset{DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(agents.PolicyAlwaysAllow)}}
	autoToolset   = agents.AgentToolset{DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(agents.PolicyAuto)}}
	mcpTools      = agents.MCPToolset{MCPServerName: "example-mcp"}
)

var sevtID = `^sevt_01[0-9A-Za-z]{22}$`
