package sessions_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/vaults"
)

var ctx = context.Background()

// start is the frozen time of the server's clock.
var start = time.Date(2026, time.March, 15, 10, 0, 0, 0, time.UTC)

// Ids the tests use. The fixture stores a file under fileID and each of
// fixtureFiles (a file resource must name an existing file of the
// workspace); vaultID names no vault, for calls refused before any lookup
// (fixture.newVaults makes real ones).
const (
	fileID  = "file_011CNha8iCJcU1wXNR6q4V8w"
	vaultID = "vlt_011CZkZDLs7fYzm1hXNPeRjv"
	repoURL = "https://github.com/example-org/example-repo"
)

// fixtureFiles are more file ids the fixture stores, for tests that attach
// several files.
var fixtureFiles = []string{"file_02", "file_03", "file_04"}

// fixture is a server with a manual clock, a client, and what every
// session needs: an agent (on a priced model) and an environment.
type fixture struct {
	env    *reftest.Env
	client *agentplatform.Client
	clock  *refserver.ManualClock
	agent  *agents.Agent
	envID  string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	clock := refserver.NewManualClock(start)
	env := reftest.New(t, refserver.WithClock(clock))
	f := &fixture{env: env, client: env.Client(t), clock: clock}
	env.PutFiles(t, append([]string{fileID}, fixtureFiles...)...)
	f.agent = f.newAgent(t, agents.CreateParams{Name: "Researcher", Model: agents.ModelID(models.VendorHaiku55)})
	e, err := f.client.Environments.Create(ctx, environments.CreateParams{Name: "python"})
	require.NoError(t, err)
	f.envID = e.ID
	return f
}

// newVaults creates n vaults and returns their ids: a session's or
// deployment's vault_ids must name usable vaults of the workspace.
func (f *fixture) newVaults(t *testing.T, n int) []string {
	t.Helper()
	out := make([]string, n)
	for i := range out {
		v, err := f.client.Vaults.Create(ctx, vaults.CreateParams{DisplayName: fmt.Sprint("vault ", i)})
		require.NoError(t, err)
		out[i] = v.ID
	}
	return out
}

func (f *fixture) newAgent(t *testing.T, p agents.CreateParams) *agents.Agent {
	t.Helper()
	a, err := f.client.Agents.Create(ctx, p)
	require.NoError(t, err)
	return a
}

func (f *fixture) newStore(t *testing.T, name, description string) *memorystores.MemoryStore {
	t.Helper()
	st, err := f.client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: name, Description: description})
	require.NoError(t, err)
	return st
}

// params returns the smallest create request for the fixture's agent.
func (f *fixture) params() sessions.CreateParams {
	return sessions.CreateParams{Agent: agents.AgentID(f.agent.ID), EnvironmentID: f.envID}
}

func (f *fixture) newSession(t *testing.T, p sessions.CreateParams) *sessions.Session {
	t.Helper()
	s, err := f.client.Sessions.Create(ctx, p)
	require.NoError(t, err)
	return s
}

// sent returns how many requests the server has received.
func (f *fixture) sent() int { return len(f.env.Server.Requests()) }

// rosterAgent is the definition a session holds for a.
func rosterAgent(a *agents.Agent) agents.RosterAgent {
	return agents.RosterAgent{
		ID: a.ID, Version: a.Version, Name: a.Name,
		Description: a.Description, System: a.System, Model: a.Model,
		Tools: a.Tools, MCPServers: a.MCPServers, Skills: a.Skills,
		ExecutionIdentity: a.ExecutionIdentity,
	}
}

func ids(ss []sessions.Session) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.ID
	}
	return out
}

func rep(n int) string { return strings.Repeat("a", n) }

func pairs(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[fmt.Sprint("k", i)] = "v"
	}
	return m
}

// resourceID returns the id of any known resource variant.
func resourceID(t *testing.T, r sessions.Resource) string {
	t.Helper()
	switch r := r.(type) {
	case sessions.FileResource:
		return r.ID
	case sessions.RepositoryResource:
		return r.ID
	case sessions.MemoryStoreResource:
		return r.ID
	}
	t.Fatalf("unexpected resource %T", r)
	return ""
}

// withoutIDs blanks the server-assigned ids of resources, after checking
// their form, so that a whole list compares with cmp.
func withoutIDs(t *testing.T, rs []sessions.Resource) []sessions.Resource {
	t.Helper()
	out := make([]sessions.Resource, len(rs))
	for i, r := range rs {
		require.Regexp(t, `^sesrsc_01[0-9A-Za-z]{22}$`, resourceID(t, r))
		switch r := r.(type) {
		case sessions.FileResource:
			r.ID = ""
			out[i] = r
		case sessions.RepositoryResource:
			r.ID = ""
			out[i] = r
		case sessions.MemoryStoreResource:
			r.ID = ""
			out[i] = r
		}
	}
	return out
}

func memorystoresRename(name string) memorystores.UpdateParams {
	return memorystores.UpdateParams{Name: name}
}

func environmentsParams(name string) environments.CreateParams {
	return environments.CreateParams{Name: name}
}
