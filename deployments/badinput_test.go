package deployments_test

import (
	"context"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	f := newFixture(t)
	d := f.newDeployment(t, f.params())
	create := func(edit func(*deployments.CreateParams)) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := f.params()
			edit(&p)
			_, err := c.Deployments.Create(ctx, p)
			return err
		}
	}
	events := func(es ...sessions.EventParam) reftest.Call {
		return create(func(p *deployments.CreateParams) { p.InitialEvents = es })
	}
	resources := func(rs ...sessions.ResourceParam) reftest.Call {
		return create(func(p *deployments.CreateParams) { p.Resources = rs })
	}
	schedule := func(expr, tz string) reftest.Call {
		return create(func(p *deployments.CreateParams) {
			p.Schedule = &deployments.ScheduleParam{Expression: expr, Timezone: tz}
		})
	}
	update := func(id string, p deployments.UpdateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Deployments.Update(ctx, id, p)
			return err
		}
	}
	byID := func(op func(context.Context, *deployments.Service, string) error) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { return op(ctx, c.Deployments, "") }
	}
	list := func(p deployments.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Deployments.List(ctx, p)
			return err
		}
	}
	runs := func(p deployments.RunListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Deployments.Runs.List(ctx, p)
			return err
		}
	}
	stores := make([]sessions.ResourceParam, 9)
	for i := range stores {
		stores[i] = sessions.MemoryStoreResourceParam{MemoryStoreID: "memstore_" + rep(i+1)}
	}
	reftest.RunBadInput(t, f.env, f.client, []badInput{
		{"create agent missing", create(func(p *deployments.CreateParams) { p.Agent = nil }), "agent", "is required", true},
		{"create agent id 129", create(func(p *deployments.CreateParams) { p.Agent = agents.AgentID(rep(129)) }), "agent", "between 1 and 128 characters", true},
		{"create agent version negative", create(func(p *deployments.CreateParams) { p.Agent = agents.AgentReference{ID: f.agent.ID, Version: -1} }),
			"agent.version", "must be at least 1", true},
		{"create agent with overrides", create(func(p *deployments.CreateParams) {
			p.Agent = sessions.AgentWithOverrides{AgentReference: f.agent.Reference()}
		}), "agent", "accepted only when creating a session", true},
		{"create environment_id empty", create(func(p *deployments.CreateParams) { p.EnvironmentID = "" }), "environment_id", "between 1 and 128 characters", true},
		{"create environment_id 129", create(func(p *deployments.CreateParams) { p.EnvironmentID = rep(129) }), "environment_id", "between 1 and 128 characters", true},
		{"create initial_events none", events(), "initial_events", "between 1 and 50 items", true},
		{"create initial_events 51", events(messages(51)...), "initial_events", "between 1 and 50 items", true},
		{"create event nil", events(nil), "initial_events[0]", "must not be nil", true},
		{"create event empty text", events(sessions.UserMessage("")), "initial_events[0].content[0].text", "must be at least 1 character", true},
		{"create event kind not allowed", events(sessions.UserMessage("a"), sessions.Interrupt()), "initial_events[1].type", "must be one of", false},
		{"create system alone", events(sessions.SystemMessage("s")), "initial_events[0]", "system.message must be the last event and follow a user.message", true},
		{"create outcome file rubric prefix", events(sessions.DefineOutcome("d", sessions.FileRubric("rubric"))), "initial_events[0].rubric.file_id", "must be a file id", true},
		{"create outcome max_iterations 21", events(sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.TextRubric("r"), MaxIterations: 21}),
			"initial_events[0].max_iterations", "between 1 and 20", true},
		{"create name empty", create(func(p *deployments.CreateParams) { p.Name = "" }), "name", "between 1 and 256 characters", true},
		{"create name 257", create(func(p *deployments.CreateParams) { p.Name = rep(257) }), "name", "between 1 and 256 characters", true},
		{"create budget 0", create(func(p *deployments.CreateParams) { p.Budget = &sessions.Budget{MaxListCost: money.USD(0)} }),
			"budget.max_list_cost.amount", "must be at least 1", true},
		{"create budget currency unknown", create(func(p *deployments.CreateParams) { p.Budget = &sessions.Budget{MaxListCost: money.New(5, "EUR")} }),
			"budget.max_list_cost.currency", "must be one of `USD`", false},
		{"create description 2049", create(func(p *deployments.CreateParams) { p.Description = rep(2049) }), "description", "at most 2048 characters", true},
		{"create metadata 17 pairs", create(func(p *deployments.CreateParams) { p.Metadata = pairs(17) }), "metadata", "at most 16 pairs", true},
		{"create metadata value 513", create(func(p *deployments.CreateParams) { p.Metadata = map[string]string{"k": rep(513)} }), "metadata.k", "at most 512 characters", true},
		{"create resources 501", create(func(p *deployments.CreateParams) { p.Resources = files(501) }), "resources", "at most 500 items", true},
		{"create file_id prefix", resources(sessions.FileResourceParam{FileID: "f1"}), "resources[0].file_id", "must be a file id (`file_…`)", true},
		{"create repository url http", resources(sessions.RepositoryResourceParam{URL: "http://github.com/o/r"}), "resources[0].url", "must be an absolute https URL", true},
		{"create repository sha not hex", resources(sessions.RepositoryResourceParam{URL: repoURL, Checkout: sessions.CommitCheckout{SHA: "release-1"}}),
			"resources[0].checkout.sha", "must be a hexadecimal commit id", true},
		{"create mount path relative", resources(sessions.FileResourceParam{FileID: fileID, MountPath: "x"}), "resources[0].mount_path", "must start with `/`", true},
		{"create memory stores 9", resources(stores...), "resources", "must have at most 8 memory stores", true},
		{"create schedule expression empty", schedule("", newYork), "schedule.expression", "between 1 and 256 characters", true},
		{"create schedule expression 257", schedule(rep(257), newYork), "schedule.expression", "between 1 and 256 characters", true},
		{"create schedule timezone empty", schedule(nightly, ""), "schedule.timezone", "must be at least 1 character", true},
		{"create schedule descriptor", schedule("@daily", newYork), "schedule.expression", "descriptors such as \"@daily\" are not supported", false},
		{"create schedule six fields", schedule("0 30 2 * * *", newYork), "schedule.expression", "must have exactly 5 fields", false},
		{"create schedule timezone unknown", schedule(nightly, "Mars/Olympus_Mons"), "schedule.timezone", "unknown IANA time zone", false},
		{"create vault_ids 51", create(func(p *deployments.CreateParams) { p.VaultIDs = madeUpVaultIDs(51) }), "vault_ids", "at most 50 items", true},
		{"create vault id prefix", create(func(p *deployments.CreateParams) { p.VaultIDs = []string{"vault"} }), "vault_ids[0]", "must be a vault id (`vlt_…`)", true},
		{"create vault id repeated", create(func(p *deployments.CreateParams) { p.VaultIDs = []string{vaultID, vaultID} }), "vault_ids[1]", "duplicate vault id", true},

		{"get empty id", byID(func(ctx context.Context, s *deployments.Service, id string) error {
			_, err := s.Get(ctx, id)
			return err
		}), "deployment_id", "must not be empty", true},
		{"pause empty id", byID(func(ctx context.Context, s *deployments.Service, id string) error {
			_, err := s.Pause(ctx, id)
			return err
		}), "deployment_id", "must not be empty", true},
		{"unpause empty id", byID(func(ctx context.Context, s *deployments.Service, id string) error {
			_, err := s.Unpause(ctx, id)
			return err
		}), "deployment_id", "must not be empty", true},
		{"archive empty id", byID(func(ctx context.Context, s *deployments.Service, id string) error {
			_, err := s.Archive(ctx, id)
			return err
		}), "deployment_id", "must not be empty", true},
		{"run empty id", byID(func(ctx context.Context, s *deployments.Service, id string) error {
			_, err := s.RunNow(ctx, id)
			return err
		}), "deployment_id", "must not be empty", true},

		{"update empty id", update("", deployments.UpdateParams{Name: "x"}), "deployment_id", "must not be empty", true},
		{"update agent with overrides", update(d.ID, deployments.UpdateParams{Agent: sessions.AgentWithOverrides{AgentReference: f.agent.Reference()}}),
			"agent", "accepted only when creating a session", true},
		{"update environment_id 129", update(d.ID, deployments.UpdateParams{EnvironmentID: rep(129)}), "environment_id", "between 1 and 128 characters", true},
		{"update initial_events empty", update(d.ID, deployments.UpdateParams{InitialEvents: []sessions.EventParam{}}), "initial_events", "between 1 and 50 items", true},
		{"update name 257", update(d.ID, deployments.UpdateParams{Name: rep(257)}), "name", "between 1 and 256 characters", true},
		{"update description 2049", update(d.ID, deployments.UpdateParams{Description: param.Value(rep(2049))}), "description", "at most 2048 characters", true},
		{"update budget 19 digits", update(d.ID, deployments.UpdateParams{Budget: param.Value(sessions.Limit(money.Money{Amount: "1000000000000000000", Currency: "USD"}))}),
			"budget.max_list_cost.amount", "at most 18 digits", true},
		{"update budget not digits", update(d.ID, deployments.UpdateParams{Budget: param.Value(sessions.Limit(money.Money{Amount: rep(19), Currency: "USD"}))}),
			"budget.max_list_cost.amount", "must be a non-negative decimal integer of minor units", true},
		{"update metadata key empty", update(d.ID, deployments.UpdateParams{Metadata: map[string]*string{"": nil}}), "metadata", "keys must be between 1 and 64 characters", true},
		{"update resources url", update(d.ID, deployments.UpdateParams{Resources: param.Value([]sessions.ResourceParam{sessions.RepositoryResourceParam{URL: "git@github.com:o/r.git"}})}),
			"resources[0].url", "must be an absolute https URL", true},
		{"update schedule timezone empty", update(d.ID, deployments.UpdateParams{Schedule: param.Value(deployments.ScheduleParam{Expression: nightly})}),
			"schedule.timezone", "must be at least 1 character", true},
		{"update schedule expression invalid", update(d.ID, deployments.UpdateParams{Schedule: param.Value(deployments.ScheduleParam{Expression: "61 * * * *", Timezone: newYork})}),
			"schedule.expression", "minute value 61 is out of range 0-59", false},
		{"update vault id prefix", update(d.ID, deployments.UpdateParams{VaultIDs: param.Value([]string{"v1"})}), "vault_ids[0]", "must be a vault id (`vlt_…`)", true},

		{"list limit -1", list(deployments.ListParams{Limit: -1}), "limit", "between 1 and 100", true},
		{"list limit 101", list(deployments.ListParams{Limit: 101}), "limit", "between 1 and 100", true},
		{"list status with include_archived", list(deployments.ListParams{Status: deployments.StatusActive, IncludeArchived: true}),
			"status", "cannot be combined with include_archived", true},
		{"list status unknown", list(deployments.ListParams{Status: "sleeping"}), "status", "must be one of `active`, `paused`", false},
		{"list page", list(deployments.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"all limit 101", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Deployments.All(ctx, deployments.ListParams{Limit: 101}))
		}, "limit", "between 1 and 100", true},

		{"run get empty id", func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Deployments.Runs.Get(ctx, "")
			return err
		},
			"deployment_run_id", "must not be empty", true},
		{"runs list limit -1", runs(deployments.RunListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"runs list limit 1001", runs(deployments.RunListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"runs list trigger unknown", runs(deployments.RunListParams{TriggerType: "webhook"}), "trigger_type", "must be one of `schedule`, `manual`", false},
		{"runs list page", runs(deployments.RunListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"runs all limit 1001", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Deployments.Runs.All(ctx, deployments.RunListParams{Limit: 1001}))
		}, "limit", "between 1 and 1000", true},
	})
}
