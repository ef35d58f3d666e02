package sessions_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func TestCreateWithDefaults(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	require.Regexp(t, `^sesn_01[0-9A-Za-z]{22}$`, s.ID)
	want := &sessions.Session{
		Type: "session", ID: s.ID,
		Agent:              sessions.Agent{RosterAgent: rosterAgent(f.agent)},
		EnvironmentID:      f.envID,
		Status:             sessions.StatusIdle,
		Metadata:           map[string]string{},
		Resources:          []sessions.Resource{},
		VaultIDs:           []string{},
		OutcomeEvaluations: []sessions.OutcomeEvaluation{},
		Usage:              sessions.Usage{ListCost: money.USD(0)},
		CreatedAt:          start,
		UpdatedAt:          start,
	}
	require.Empty(t, cmp.Diff(want, s))
	require.False(t, s.Archived())

	got, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(s, got))
}

func TestCreateWithEveryField(t *testing.T) {
	f := newFixture(t)
	prefs := f.newStore(t, "User Preferences", "Per-user preferences.")
	notes := f.newStore(t, "Team Notes!", "")
	vaultIDs := f.newVaults(t, 2)
	params := sessions.CreateParams{
		Agent:         f.agent.Reference(),
		EnvironmentID: f.envID,
		Title:         "Order #1234 inquiry",
		Metadata:      map[string]string{"ticket": "T-1"},
		Resources: []sessions.ResourceParam{
			sessions.FileResourceParam{FileID: fileID},
			sessions.FileResourceParam{FileID: "file_02", MountPath: "/data/in.csv"},
			sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: "ghp_secret", Checkout: sessions.BranchCheckout{Name: "main"}},
			sessions.RepositoryResourceParam{URL: "https://github.com/example-org/tools.git", Checkout: sessions.CommitCheckout{SHA: "a1b2c3d"}, MountPath: "/src/tools"},
			sessions.RepositoryResourceParam{URL: "https://github.com/example-org/other"},
			sessions.MemoryStoreResourceParam{MemoryStoreID: prefs.ID},
			sessions.MemoryStoreResourceParam{MemoryStoreID: notes.ID, Access: sessions.AccessReadOnly, Instructions: "Team conventions."},
		},
		VaultIDs: vaultIDs,
		Budget:   &sessions.Budget{MaxListCost: money.USD(2500)},
		InitialEvents: []sessions.EventParam{
			sessions.DefineOutcome("A report exists.", sessions.TextRubric("report.md is present")),
			sessions.UserMessage("Compile the report."),
			sessions.SystemMessage("Answer briefly."),
		},
	}
	s := f.newSession(t, params)

	want := &sessions.Session{
		Type: "session", ID: s.ID,
		Agent:         sessions.Agent{RosterAgent: rosterAgent(f.agent)},
		EnvironmentID: f.envID,
		Title:         "Order #1234 inquiry",
		Metadata:      map[string]string{"ticket": "T-1"},
		Resources: []sessions.Resource{
			sessions.FileResource{FileID: fileID, MountPath: "/mnt/session/uploads/" + fileID, CreatedAt: start, UpdatedAt: start},
			sessions.FileResource{FileID: "file_02", MountPath: "/data/in.csv", CreatedAt: start, UpdatedAt: start},
			sessions.RepositoryResource{URL: repoURL, Checkout: sessions.BranchCheckout{Name: "main"}, MountPath: "/workspace/example-repo", CreatedAt: start, UpdatedAt: start},
			sessions.RepositoryResource{URL: "https://github.com/example-org/tools.git", Checkout: sessions.CommitCheckout{SHA: "a1b2c3d"}, MountPath: "/src/tools", CreatedAt: start, UpdatedAt: start},
			sessions.RepositoryResource{URL: "https://github.com/example-org/other", MountPath: "/workspace/other", CreatedAt: start, UpdatedAt: start},
			sessions.MemoryStoreResource{MemoryStoreID: prefs.ID, Access: sessions.AccessReadWrite, Name: "User Preferences",
				Description: "Per-user preferences.", MountPath: "/mnt/memory/user-preferences", CreatedAt: start, UpdatedAt: start},
			sessions.MemoryStoreResource{MemoryStoreID: notes.ID, Access: sessions.AccessReadOnly, Name: "Team Notes!",
				Instructions: "Team conventions.", MountPath: "/mnt/memory/team-notes", CreatedAt: start, UpdatedAt: start},
		},
		VaultIDs:           vaultIDs,
		Budget:             &sessions.Budget{Type: sessions.BudgetLimit, MaxListCost: money.USD(2500)},
		OutcomeEvaluations: []sessions.OutcomeEvaluation{},
		Usage:              sessions.Usage{ListCost: money.USD(0)},
		CreatedAt:          start,
		UpdatedAt:          start,
	}
	got := *s
	got.Resources = withoutIDs(t, s.Resources)
	require.Empty(t, cmp.Diff(want, &got, cmpopts.IgnoreFields(sessions.Session{}, "Status")))

	// A later rename of a store does not reach the snapshot (it was taken
	// at attach time).
	_, err := f.client.MemoryStores.Update(ctx, prefs.ID, memorystoresRename("Renamed"))
	require.NoError(t, err)
	again, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	require.Equal(t, "User Preferences", again.Resources[5].(sessions.MemoryStoreResource).Name)

	// Initial events start a turn at once (docs/managed-agents-wire.md
	// 6.3).
	require.Equal(t, sessions.StatusRunning, s.Status)
}

func TestAgentForms(t *testing.T) {
	f := newFixture(t)
	v2, err := f.client.Agents.Update(ctx, f.agent.ID, agents.UpdateParams{System: param.Value("Version two.")})
	require.NoError(t, err)
	require.Equal(t, 2, v2.Version)

	t.Run("an id pins the latest version", func(t *testing.T) {
		s := f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(f.agent.ID), EnvironmentID: f.envID})
		require.Empty(t, cmp.Diff(rosterAgent(v2), s.Agent.RosterAgent))
		require.Equal(t, v2.Reference(), s.Agent.Reference())
	})
	t.Run("a reference picks a version", func(t *testing.T) {
		s := f.newSession(t, sessions.CreateParams{Agent: agents.AgentReference{ID: f.agent.ID, Version: 1}, EnvironmentID: f.envID})
		require.Empty(t, cmp.Diff(rosterAgent(f.agent), s.Agent.RosterAgent))
	})
	t.Run("overrides replace parts of the definition", func(t *testing.T) {
		s := f.newSession(t, sessions.CreateParams{EnvironmentID: f.envID, Agent: sessions.AgentWithOverrides{
			AgentReference: agents.AgentReference{ID: f.agent.ID, Version: 1},
			Model:          agents.ModelConfig{ID: models.VendorOpus55, Effort: agents.EffortLow},
			System:         param.Value("Answer in French."),
			Tools:          []agents.Tool{agents.CustomTool{Name: "lookup", Description: "Look up.", InputSchema: agents.InputSchema{}}},
			Skills:         []agents.Skill{agents.VendorSkill{SkillID: "xlsx"}},
		}})
		want := rosterAgent(f.agent)
		want.Model = agents.ModelConfig{ID: models.VendorOpus55, Effort: agents.EffortLow, Speed: agents.SpeedStandard}
		want.System = "Answer in French."
		want.Tools = []agents.Tool{agents.CustomTool{Name: "lookup", Description: "Look up.", InputSchema: agents.InputSchema{}}}
		want.Skills = []agents.Skill{agents.VendorSkill{SkillID: "xlsx", Version: "latest"}}
		require.Empty(t, cmp.Diff(want, s.Agent.RosterAgent))

		cleared := f.newSession(t, sessions.CreateParams{EnvironmentID: f.envID, Agent: sessions.AgentWithOverrides{
			AgentReference: v2.Reference(), System: param.Null[string](),
		}})
		require.Empty(t, cleared.Agent.System, "system: null clears")
		require.Equal(t, 2, cleared.Agent.Version)

		// Only sessions created from an agent or deployment reference can
		// change their agent.
		_, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{}}})
		reftest.RequireInvalid(t, err, "agent: only sessions created from an agent or deployment reference can be updated")
	})
	t.Run("references that resolve to nothing", func(t *testing.T) {
		_, err := f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentReference{ID: f.agent.ID, Version: 9}, EnvironmentID: f.envID})
		reftest.RequireNotFound(t, err, "Agent `"+f.agent.ID+"` version `9` not found.")
		_, err = f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID("agent_011CZkYpogX7uDKUyvBTophP"), EnvironmentID: f.envID})
		reftest.RequireNotFound(t, err, "Agent `agent_011CZkYpogX7uDKUyvBTophP` not found.")
		_, err = f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(f.agent.ID), EnvironmentID: "env_011CZkZ9X2dpNyB7HsEFoRfW"})
		reftest.RequireNotFound(t, err, "Environment `env_011CZkZ9X2dpNyB7HsEFoRfW` not found.")
	})
	t.Run("archived agents and environments take no new sessions", func(t *testing.T) {
		gone := f.newAgent(t, agents.CreateParams{Name: "gone", Model: agents.ModelID(models.VendorHaiku55)})
		_, err := f.client.Agents.Archive(ctx, gone.ID)
		require.NoError(t, err)
		_, err = f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(gone.ID), EnvironmentID: f.envID})
		reftest.RequireInvalid(t, err, "agent: agent `"+gone.ID+"` is archived")

		env, err := f.client.Environments.Create(ctx, environmentsParams("old"))
		require.NoError(t, err)
		_, err = f.client.Environments.Archive(ctx, env.ID)
		require.NoError(t, err)
		_, err = f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(f.agent.ID), EnvironmentID: env.ID})
		reftest.RequireInvalid(t, err, "environment_id: environment `"+env.ID+"` is archived")
	})
}

// TestSessionAgentRosters checks that the rosters of a session's agent hold
// full definitions, where the agent's own hold references
// (docs/managed-agents-wire.md 3.7).
func TestSessionAgentRosters(t *testing.T) {
	f := newFixture(t)
	helper := f.newAgent(t, agents.CreateParams{
		Name: "helper", Model: agents.ModelID(models.VendorSonnet55), System: "You help.", Description: "Helps.",
		Tools:             []agents.Tool{agents.CustomTool{Name: "fetch", Description: "Fetch.", InputSchema: agents.InputSchema{Required: []string{"url"}}}},
		ExecutionIdentity: agents.CloudRole{RoleARN: "arn:aws:iam::123456789012:role/helper"},
	})

	t.Run("coordinator", func(t *testing.T) {
		lead := f.newAgent(t, agents.CreateParams{Name: "lead", Model: agents.ModelID(models.VendorOpus55),
			Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(helper.ID), agents.AdvisorEntry{Model: models.VendorOpus55}}}})
		s := f.newSession(t, sessions.CreateParams{Agent: lead.Reference(), EnvironmentID: f.envID, Budget: &sessions.Budget{MaxListCost: money.USD(100)}})
		require.Empty(t, cmp.Diff(rosterAgent(lead), s.Agent.RosterAgent))
		require.Empty(t, cmp.Diff(agents.Coordinator{Agents: []agents.RosterEntry{
			rosterAgent(helper),
			agents.AdvisorEntry{Model: models.VendorOpus55},
		}}, s.Agent.Multiagent))
	})
	t.Run("multiagent_20261001", func(t *testing.T) {
		lead := f.newAgent(t, agents.CreateParams{Name: "planner", Model: agents.ModelID(models.VendorOpus55),
			Multiagent: agents.Multiagent20261001{
				Advisor:   agents.AdvisorEnabled{Model: models.VendorOpus55},
				Subagents: agents.DelegationEnabled{PredefinedAgents: []agents.RosterEntry{agents.AgentID(helper.ID)}},
				Workflows: agents.DelegationDisabled{},
			}})
		s := f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(lead.ID), EnvironmentID: f.envID})
		require.Empty(t, cmp.Diff(agents.Multiagent20261001{
			Advisor: agents.AdvisorEnabled{Model: models.VendorOpus55},
			Subagents: agents.DelegationEnabled{
				InlineAgents:     agents.InlineAgentsEnabled(),
				PredefinedAgents: []agents.RosterEntry{rosterAgent(helper)},
			},
			Workflows: agents.DelegationDisabled{},
		}, s.Agent.Multiagent))
	})
}

func TestBudgetNeedsPricedModels(t *testing.T) {
	f := newFixture(t)
	free := f.newAgent(t, agents.CreateParams{Name: "free", Model: agents.ModelID("vendor-sonnet-4-5")})
	_, err := f.client.Sessions.Create(ctx, sessions.CreateParams{
		Agent: agents.AgentID(free.ID), EnvironmentID: f.envID, Budget: &sessions.Budget{MaxListCost: money.USD(100)},
	})
	reftest.RequireInvalid(t, err, "budget: model_not_budgetable: model `vendor-sonnet-4-5` has no public list price")
	require.ErrorIs(t, err, sessions.ErrModelNotBudgetable)

	// Without a budget the model does not matter.
	f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(free.ID), EnvironmentID: f.envID})
}
