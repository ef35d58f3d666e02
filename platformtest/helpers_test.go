package platformtest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

var ctx = context.Background()

// fixture is a server, its client and an environment, as an application's
// test would start them.
type fixture struct {
	srv    *platformtest.Server
	client *agentplatform.Client
	envID  string
}

func newFixture(t *testing.T, opts ...platformtest.Option) *fixture {
	t.Helper()
	srv, client := platformtest.New(t, opts...)
	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "test"})
	require.NoError(t, err)
	return &fixture{srv: srv, client: client, envID: env.ID}
}

// agent creates an agent; p's Name and Model default.
func (f *fixture) agent(t *testing.T, p agents.CreateParams) *agents.Agent {
	t.Helper()
	if p.Name == "" {
		p.Name = "Support"
	}
	if p.Model == nil {
		p.Model = agents.ModelID(models.VendorHaiku55)
	}
	a, err := f.client.Agents.Create(ctx, p)
	require.NoError(t, err)
	return a
}

// session starts an idle session of the agent.
func (f *fixture) session(t *testing.T, agentID string) string {
	t.Helper()
	s, err := f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(agentID), EnvironmentID: f.envID})
	require.NoError(t, err)
	return s.ID
}

// send sends events; the turn they start runs before it returns.
func (f *fixture) send(t *testing.T, sessionID string, events ...sessions.EventParam) {
	t.Helper()
	_, err := f.client.Sessions.Events.Send(ctx, sessionID, sessions.SendParams{Events: events})
	require.NoError(t, err)
}

// history lists the session's events, oldest first.
func (f *fixture) history(t *testing.T, sessionID string) []sessions.Event {
	t.Helper()
	var out []sessions.Event
	for ev, err := range f.client.Sessions.Events.All(ctx, sessionID, sessions.EventListParams{}) {
		require.NoError(t, err)
		out = append(out, ev)
	}
	return out
}

// find returns the events of type T in events.
func find[T sessions.Event](events []sessions.Event) []T {
	var out []T
	for _, ev := range events {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

// lastIdle returns the stop reason of the session's last idle event.
func lastIdle(t *testing.T, events []sessions.Event) sessions.StopReason {
	t.Helper()
	idles := find[*sessions.SessionStatusIdleEvent](events)
	require.NotEmpty(t, idles, "the session never went idle")
	return idles[len(idles)-1].StopReason
}

// count returns how many recorded requests have the method and path.
func count(srv *platformtest.Server, method, path string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}
