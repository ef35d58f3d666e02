package deployments_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/vaults"
)

var ctx = context.Background()

// start is a Thursday noon (UTC) before New York springs forward on
// Sunday 2026-03-08.
var start = time.Date(2026, time.March, 5, 12, 0, 0, 0, time.UTC)

// fileID and file_02 are files the fixture stores (a file resource must
// name an existing file of the workspace); vaultID names no vault, for
// calls refused before any lookup (fixture.newVaults makes real ones).
const (
	fileID  = "file_011CNha8iCJcU1wXNR6q4V8w"
	vaultID = "vlt_011CZkZDLs7fYzm1hXNPeRjv"
	repoURL = "https://github.com/example-org/example-repo"
	// nightly fires at 02:30 New York time, a wall-clock time that does
	// not exist on 2026-03-08.
	nightly  = "30 2 * * *"
	newYork  = "America/New_York"
	unknownD = "depl_011CZkZcDH3vPqd7xnEfwTai"
)

// utc is a shorthand for instants of March 2026.
func utc(day, hour, minute int) time.Time {
	return time.Date(2026, time.March, day, hour, minute, 0, 0, time.UTC)
}

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
	env.PutFiles(t, fileID, "file_02")
	f.agent = f.newAgent(t, "reporter")
	f.envID = f.newEnvironment(t, "python")
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

func (f *fixture) newAgent(t *testing.T, name string) *agents.Agent {
	t.Helper()
	a, err := f.client.Agents.Create(ctx, agents.CreateParams{Name: name, Model: agents.ModelID(models.VendorHaiku55)})
	require.NoError(t, err)
	return a
}

func (f *fixture) newEnvironment(t *testing.T, name string) string {
	t.Helper()
	e, err := f.client.Environments.Create(ctx, environments.CreateParams{Name: name})
	require.NoError(t, err)
	return e.ID
}

// params returns the smallest create request for the fixture's agent.
func (f *fixture) params() deployments.CreateParams {
	return deployments.CreateParams{
		Name:          "Daily report",
		Agent:         agents.AgentID(f.agent.ID),
		EnvironmentID: f.envID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Compile the report.")},
	}
}

// scheduled returns params firing nightly in New York.
func (f *fixture) scheduled() deployments.CreateParams {
	p := f.params()
	p.Schedule = &deployments.ScheduleParam{Expression: nightly, Timezone: newYork}
	return p
}

func (f *fixture) newDeployment(t *testing.T, p deployments.CreateParams) *deployments.Deployment {
	t.Helper()
	d, err := f.client.Deployments.Create(ctx, p)
	require.NoError(t, err)
	return d
}

func (f *fixture) get(t *testing.T, id string) *deployments.Deployment {
	t.Helper()
	d, err := f.client.Deployments.Get(ctx, id)
	require.NoError(t, err)
	return d
}

// runs lists every run matching p, newest first.
func (f *fixture) runs(t *testing.T, p deployments.RunListParams) []*deployments.Run {
	t.Helper()
	var out []*deployments.Run
	for r, err := range f.client.Deployments.Runs.All(ctx, p) {
		require.NoError(t, err)
		out = append(out, r)
	}
	return out
}

// scheduledAt returns when each run's schedule fired.
func scheduledAt(t *testing.T, runs []*deployments.Run) []time.Time {
	t.Helper()
	out := make([]time.Time, len(runs))
	for i, r := range runs {
		trig, ok := r.TriggerContext.(deployments.ScheduleTrigger)
		require.True(t, ok, "run %s: trigger %T", r.ID, r.TriggerContext)
		out[i] = trig.ScheduledAt
	}
	return out
}

func (f *fixture) sent() int { return len(f.env.Server.Requests()) }

func rep(n int) string { return strings.Repeat("a", n) }

func pairs(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[fmt.Sprint("k", i)] = "v"
	}
	return m
}

func depIDs(ds []deployments.Deployment) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.ID
	}
	return out
}

func runIDs(rs []*deployments.Run) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// rawEqual compares unknown variants by JSON value, not by bytes.
var rawEqual = cmp.Comparer(func(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
})
