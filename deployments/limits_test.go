package deployments_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

type limitCase struct {
	name  string
	call  func() error
	field string // "" when the server accepts the call
}

func runLimitCases(t *testing.T, f *fixture, cases []limitCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := f.sent()
			err := tc.call()
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			reftest.RequireLocal(t, err, tc.field)
			require.Equal(t, before, f.sent(), "nothing is sent")
		})
	}
}

func messages(n int) []sessions.EventParam {
	out := make([]sessions.EventParam, n)
	for i := range out {
		out[i] = sessions.UserMessage(fmt.Sprint("message ", i))
	}
	return out
}

// fileIDs are n file ids; putFiles stores them on the fixture's server.
func fileIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("file_%04d", i)
	}
	return out
}

// files are n file resources, of fileIDs(n).
func files(n int) []sessions.ResourceParam {
	out := make([]sessions.ResourceParam, n)
	for i, id := range fileIDs(n) {
		out[i] = sessions.FileResourceParam{FileID: id}
	}
	return out
}

// madeUpVaultIDs are n vault ids of the right form that name no vault,
// for calls refused before anything is looked up.
func madeUpVaultIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("vlt_%04d", i)
	}
	return out
}

func TestCreateLimits(t *testing.T) {
	f := newFixture(t)
	f.env.PutFiles(t, fileIDs(500)...)
	fifty := f.newVaults(t, 50)
	create := func(edit func(*deployments.CreateParams)) func() error {
		return func() error {
			p := f.params()
			edit(&p)
			_, err := f.client.Deployments.Create(ctx, p)
			return err
		}
	}
	schedule := func(expr, tz string) func(*deployments.CreateParams) {
		return func(p *deployments.CreateParams) {
			p.Schedule = &deployments.ScheduleParam{Expression: expr, Timezone: tz}
		}
	}
	runLimitCases(t, f, []limitCase{
		{"agent missing", create(func(p *deployments.CreateParams) { p.Agent = nil }), "agent"},
		{"agent with overrides", create(func(p *deployments.CreateParams) {
			p.Agent = sessions.AgentWithOverrides{AgentReference: f.agent.Reference()}
		}), "agent"},
		{"agent reference without id", create(func(p *deployments.CreateParams) { p.Agent = agents.AgentReference{} }), "agent.id"},
		{"environment_id empty", create(func(p *deployments.CreateParams) { p.EnvironmentID = "" }), "environment_id"},
		{"environment_id 129", create(func(p *deployments.CreateParams) { p.EnvironmentID = "env_" + rep(125) }), "environment_id"},

		{"name 256", create(func(p *deployments.CreateParams) { p.Name = rep(256) }), ""},
		{"name 257", create(func(p *deployments.CreateParams) { p.Name = rep(257) }), "name"},
		{"name empty", create(func(p *deployments.CreateParams) { p.Name = "" }), "name"},
		{"description 2048", create(func(p *deployments.CreateParams) { p.Description = rep(2048) }), ""},
		{"description 2049", create(func(p *deployments.CreateParams) { p.Description = rep(2049) }), "description"},

		{"initial_events missing", create(func(p *deployments.CreateParams) { p.InitialEvents = nil }), "initial_events"},
		{"initial_events 1", create(func(p *deployments.CreateParams) { p.InitialEvents = messages(1) }), ""},
		{"initial_events 50", create(func(p *deployments.CreateParams) { p.InitialEvents = messages(50) }), ""},
		{"initial_events 51", create(func(p *deployments.CreateParams) { p.InitialEvents = messages(51) }), "initial_events"},
		{"event text empty", create(func(p *deployments.CreateParams) {
			p.InitialEvents = []sessions.EventParam{sessions.UserMessage("a"), sessions.UserMessage("")}
		}), "initial_events[1].content[0].text"},
		{"system message placement", create(func(p *deployments.CreateParams) {
			p.InitialEvents = []sessions.EventParam{sessions.SystemMessage("s"), sessions.UserMessage("a")}
		}), "initial_events[0]"},
		{"system message after user", create(func(p *deployments.CreateParams) {
			p.InitialEvents = []sessions.EventParam{sessions.UserMessage("a"), sessions.SystemMessage("s")}
		}), ""},

		{"resources 500", create(func(p *deployments.CreateParams) { p.Resources = files(500) }), ""},
		{"resources 501", create(func(p *deployments.CreateParams) { p.Resources = files(501) }), "resources"},
		{"resource mount path 4097", create(func(p *deployments.CreateParams) {
			p.Resources = []sessions.ResourceParam{sessions.RepositoryResourceParam{URL: repoURL, MountPath: "/" + rep(4096)}}
		}), "resources[0].mount_path"},
		{"resource token 4097", create(func(p *deployments.CreateParams) {
			p.Resources = []sessions.ResourceParam{sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: param.Secret(rep(4097))}}
		}), "resources[0].authorization_token"},

		{"vault_ids 50", create(func(p *deployments.CreateParams) { p.VaultIDs = fifty }), ""},
		{"vault_ids 51", create(func(p *deployments.CreateParams) { p.VaultIDs = madeUpVaultIDs(51) }), "vault_ids"},

		{"metadata 16 pairs", create(func(p *deployments.CreateParams) { p.Metadata = pairs(16) }), ""},
		{"metadata 17 pairs", create(func(p *deployments.CreateParams) { p.Metadata = pairs(17) }), "metadata"},
		{"metadata key 65", create(func(p *deployments.CreateParams) { p.Metadata = map[string]string{rep(65): "v"} }), "metadata"},
		{"metadata value 513", create(func(p *deployments.CreateParams) { p.Metadata = map[string]string{"k": rep(513)} }), "metadata.k"},

		{"budget 0", create(func(p *deployments.CreateParams) { p.Budget = &sessions.Budget{MaxListCost: money.USD(0)} }), "budget.max_list_cost.amount"},
		{"budget malformed", create(func(p *deployments.CreateParams) {
			p.Budget = &sessions.Budget{MaxListCost: money.Money{Amount: "-5", Currency: "USD"}}
		}), "budget.max_list_cost.amount"},

		{"expression 256", create(schedule(longCron(t), newYork)), ""},
		{"expression 257", create(schedule(longCron(t)+"0", newYork)), "schedule.expression"},
		{"expression empty", create(schedule("", newYork)), "schedule.expression"},
		{"timezone empty", create(schedule(nightly, "")), "schedule.timezone"},
	})
}

// longCron is a valid cron expression of exactly 256 characters: every
// minute and hour listed, days 1 to 10.
func longCron(t *testing.T) string {
	list := func(from, to int) string {
		s := ""
		for i := from; i <= to; i++ {
			if s != "" {
				s += ","
			}
			s += fmt.Sprint(i)
		}
		return s
	}
	expr := list(0, 59) + " " + list(0, 23) + " " + list(1, 10) + " * *"
	require.Len(t, expr, 256)
	return expr
}

func TestUpdateAndListLimits(t *testing.T) {
	f := newFixture(t)
	d := f.newDeployment(t, f.params())
	update := func(p deployments.UpdateParams) func() error {
		return func() error { _, err := f.client.Deployments.Update(ctx, d.ID, p); return err }
	}
	list := func(p deployments.ListParams) func() error {
		return func() error { _, err := f.client.Deployments.List(ctx, p); return err }
	}
	listRuns := func(limit int) func() error {
		return func() error {
			_, err := f.client.Deployments.Runs.List(ctx, deployments.RunListParams{Limit: limit})
			return err
		}
	}
	runLimitCases(t, f, []limitCase{
		{"initial_events empty", update(deployments.UpdateParams{InitialEvents: []sessions.EventParam{}}), "initial_events"},
		{"initial_events 51", update(deployments.UpdateParams{InitialEvents: messages(51)}), "initial_events"},
		{"initial_events 50", update(deployments.UpdateParams{InitialEvents: messages(50)}), ""},
		{"name 257", update(deployments.UpdateParams{Name: rep(257)}), "name"},
		{"description 2049", update(deployments.UpdateParams{Description: param.Value(rep(2049))}), "description"},
		{"description 2048", update(deployments.UpdateParams{Description: param.Value(rep(2048))}), ""},
		{"resources 501", update(deployments.UpdateParams{Resources: param.Value(files(501))}), "resources"},
		{"resource nil", update(deployments.UpdateParams{Resources: param.Value([]sessions.ResourceParam{nil})}), "resources[0]"},
		{"vault_ids 51", update(deployments.UpdateParams{VaultIDs: param.Value(madeUpVaultIDs(51))}), "vault_ids"},
		{"schedule expression empty", update(deployments.UpdateParams{Schedule: param.Value(deployments.ScheduleParam{Timezone: newYork})}), "schedule.expression"},
		{"schedule timezone empty", update(deployments.UpdateParams{Schedule: param.Value(deployments.ScheduleParam{Expression: nightly})}), "schedule.timezone"},
		{"budget 0", update(deployments.UpdateParams{Budget: param.Value(sessions.Limit(money.USD(0)))}), "budget.max_list_cost.amount"},
		{"agent with overrides", update(deployments.UpdateParams{Agent: sessions.AgentWithOverrides{AgentReference: f.agent.Reference()}}), "agent"},
		{"metadata patch value 513", update(deployments.UpdateParams{Metadata: map[string]*string{"k": new(rep(513))}}), "metadata.k"},

		{"list limit 100", list(deployments.ListParams{Limit: 100}), ""},
		{"list limit 101", list(deployments.ListParams{Limit: 101}), "limit"},
		{"status with include_archived", list(deployments.ListParams{Status: deployments.StatusActive, IncludeArchived: true}), "status"},
		{"runs limit 1000", listRuns(1000), ""},
		{"runs limit 1001", listRuns(1001), "limit"},
	})

	t.Run("path ids must not be empty", func(t *testing.T) {
		before := f.sent()
		_, err := f.client.Deployments.RunNow(ctx, "")
		reftest.RequireLocal(t, err, "deployment_id")
		_, err = f.client.Deployments.Runs.Get(ctx, "")
		reftest.RequireLocal(t, err, "deployment_run_id")
		require.Equal(t, before, f.sent())
	})
}

// TestServerSideRules checks what only the server judges: cron syntax,
// IANA names, references and enum values come back as typed errors
// naming the field.
func TestServerSideRules(t *testing.T) {
	f := newFixture(t)
	create := func(edit func(*deployments.CreateParams)) error {
		p := f.params()
		edit(&p)
		_, err := f.client.Deployments.Create(ctx, p)
		return err
	}
	for _, expr := range []string{"not a cron", "@daily", "0 0 9 * * *", "0 9 L * *"} {
		err := create(func(p *deployments.CreateParams) {
			p.Schedule = &deployments.ScheduleParam{Expression: expr, Timezone: newYork}
		})
		reftest.RequireInvalid(t, err, "schedule.expression: ")
	}
	err := create(func(p *deployments.CreateParams) {
		p.Schedule = &deployments.ScheduleParam{Expression: nightly, Timezone: "Mars/Olympus"}
	})
	reftest.RequireInvalid(t, err, "schedule.timezone: ")

	err = create(func(p *deployments.CreateParams) { p.Agent = agents.AgentID("agent_011CZkYpogX7uDKUyvBTophP") })
	reftest.RequireNotFound(t, err, "Agent `agent_011CZkYpogX7uDKUyvBTophP` not found.")
	err = create(func(p *deployments.CreateParams) { p.EnvironmentID = "env_011CZkZ9X2dpNyB7HsEFoRfW" })
	reftest.RequireNotFound(t, err, "Environment `env_011CZkZ9X2dpNyB7HsEFoRfW` not found.")
	envID := f.newEnvironment(t, "old")
	_, err = f.client.Environments.Archive(ctx, envID)
	require.NoError(t, err)
	err = create(func(p *deployments.CreateParams) { p.EnvironmentID = envID })
	reftest.RequireInvalid(t, err, "environment_id: environment `"+envID+"` is archived")

	err = create(func(p *deployments.CreateParams) { p.Budget = &sessions.Budget{MaxListCost: money.New(100, "EUR")} })
	reftest.RequireInvalid(t, err, "budget.max_list_cost.currency: must be one of `USD`")
	free, err := f.client.Agents.Create(ctx, agents.CreateParams{Name: "free", Model: agents.ModelID("vendor-sonnet-4-5")})
	require.NoError(t, err)
	err = create(func(p *deployments.CreateParams) {
		p.Agent = agents.AgentID(free.ID)
		p.Budget = &sessions.Budget{MaxListCost: money.USD(100)}
	})
	reftest.RequireInvalid(t, err, "model_not_budgetable")

	// A vault id's prefix is checked locally too (badinput_test.go).
	err = create(func(p *deployments.CreateParams) { p.VaultIDs = []string{"vault_1"} })
	reftest.RequireLocal(t, err, "vault_ids[0]")
	err = create(func(p *deployments.CreateParams) {
		p.InitialEvents = []sessions.EventParam{sessions.UnknownEventParam{Type: "user.interrupt", JSON: json.RawMessage(`{"type":"user.interrupt"}`)}}
	})
	reftest.RequireInvalid(t, err, "initial_events[0].type")
}
