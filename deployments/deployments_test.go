package deployments_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func TestCreateWithEveryField(t *testing.T) {
	f := newFixture(t)
	vault := f.newVaults(t, 1)[0]
	store, err := f.client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "notes"})
	require.NoError(t, err)
	wiki, err := f.client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "wiki"})
	require.NoError(t, err)
	params := deployments.CreateParams{
		Name:          "Daily order report",
		Description:   "Compiles yesterday's orders.",
		Agent:         f.agent.Reference(),
		EnvironmentID: f.envID,
		InitialEvents: []sessions.EventParam{
			sessions.DefineOutcome("A report exists.", sessions.TextRubric("report.md is present")),
			sessions.UserMessage("Compile yesterday's orders into report.md."),
			sessions.SystemMessage("Be brief."),
		},
		Resources: []sessions.ResourceParam{
			sessions.FileResourceParam{FileID: fileID},
			sessions.FileResourceParam{FileID: "file_02", MountPath: "/data/in.csv"},
			sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: "ghp_secret", Checkout: sessions.BranchCheckout{Name: "main"}},
			sessions.RepositoryResourceParam{URL: "https://github.com/example-org/tools", MountPath: "/src/tools"},
			sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID},
			sessions.MemoryStoreResourceParam{MemoryStoreID: wiki.ID, Access: sessions.AccessReadOnly, Instructions: "Read only."},
		},
		VaultIDs: []string{vault},
		Budget:   &sessions.Budget{MaxListCost: money.USD(2500)},
		Schedule: &deployments.ScheduleParam{Expression: nightly, Timezone: newYork},
		Metadata: map[string]string{"team": "ops"},
	}
	d := f.newDeployment(t, params)
	require.Regexp(t, `^depl_01[0-9A-Za-z]{22}$`, d.ID)

	want := &deployments.Deployment{
		Type: "deployment", ID: d.ID, Name: "Daily order report", Description: "Compiles yesterday's orders.",
		Agent:         agents.AgentReference{ID: f.agent.ID, Version: 1},
		EnvironmentID: f.envID,
		InitialEvents: []sessions.EventParam{
			sessions.DefineOutcomeParam{Description: "A report exists.", Rubric: sessions.TextRubric("report.md is present"), MaxIterations: 3},
			sessions.UserMessage("Compile yesterday's orders into report.md."),
			sessions.SystemMessage("Be brief."),
		},
		Resources: []deployments.ResourceConfig{
			deployments.FileResourceConfig{FileID: fileID},
			deployments.FileResourceConfig{FileID: "file_02", MountPath: "/data/in.csv"},
			deployments.RepositoryResourceConfig{URL: repoURL, Checkout: sessions.BranchCheckout{Name: "main"}},
			deployments.RepositoryResourceConfig{URL: "https://github.com/example-org/tools", MountPath: "/src/tools"},
			deployments.MemoryStoreResourceConfig{MemoryStoreID: store.ID},
			deployments.MemoryStoreResourceConfig{MemoryStoreID: wiki.ID, Access: sessions.AccessReadOnly, Instructions: "Read only."},
		},
		VaultIDs: []string{vault},
		Budget:   &sessions.Budget{Type: sessions.BudgetLimit, MaxListCost: money.USD(2500)},
		Schedule: &deployments.Schedule{Type: "cron", Expression: nightly, Timezone: newYork, UpcomingRunsAt: []time.Time{
			utc(6, 7, 30), utc(7, 7, 30),
			utc(8, 7, 0), // 02:30 does not exist on the spring-forward day: 03:00 EDT
			utc(9, 6, 30), utc(10, 6, 30),
		}},
		Status:    deployments.StatusActive,
		Metadata:  map[string]string{"team": "ops"},
		CreatedAt: start,
		UpdatedAt: start,
	}
	require.Empty(t, cmp.Diff(want, d))
	require.False(t, d.Archived())
	require.Empty(t, cmp.Diff(d, f.get(t, d.ID)))

	for _, r := range f.env.Server.Requests() {
		require.NotContains(t, string(r.Body), "ghp_secret", "the request log redacts the token")
	}
}

func TestCreateWithDefaults(t *testing.T) {
	f := newFixture(t)
	_, err := f.client.Agents.Update(ctx, f.agent.ID, agents.UpdateParams{System: param.Value("v2")})
	require.NoError(t, err)
	d := f.newDeployment(t, f.params())
	want := &deployments.Deployment{
		Type: "deployment", ID: d.ID, Name: "Daily report",
		Agent:         agents.AgentReference{ID: f.agent.ID, Version: 2}, // an id pins the latest version now
		EnvironmentID: f.envID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Compile the report.")},
		Resources:     []deployments.ResourceConfig{},
		VaultIDs:      []string{},
		Status:        deployments.StatusActive,
		Metadata:      map[string]string{},
		CreatedAt:     start,
		UpdatedAt:     start,
	}
	require.Empty(t, cmp.Diff(want, d))
}

func TestUpdate(t *testing.T) {
	f := newFixture(t)
	vaultIDs := f.newVaults(t, 2)
	vault := vaultIDs[0]
	p := f.scheduled()
	p.Description = "old"
	p.Budget = &sessions.Budget{MaxListCost: money.USD(100)}
	p.Resources = []sessions.ResourceParam{sessions.FileResourceParam{FileID: fileID}}
	p.VaultIDs = []string{vault}
	p.Metadata = map[string]string{"a": "1", "b": "2"}
	d := f.newDeployment(t, p)

	f.clock.Advance(time.Minute)
	v2, err := f.client.Agents.Update(ctx, f.agent.ID, agents.UpdateParams{System: param.Value("v2")})
	require.NoError(t, err)
	other := f.newEnvironment(t, "other")
	u, err := f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{
		Name:          "Renamed",
		Agent:         agents.AgentID(f.agent.ID),
		EnvironmentID: other,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("New task."), sessions.SystemMessage("Terse.")},
		Description:   param.Value("new"),
		Budget:        param.Value(sessions.Limit(money.USD(900))),
		Metadata:      map[string]*string{"a": nil, "c": new("3")},
		Resources:     param.Value([]sessions.ResourceParam{sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: "tok"}}),
		Schedule:      param.Value(deployments.ScheduleParam{Expression: "0 9 * * 1-5", Timezone: "America/Los_Angeles"}),
		VaultIDs:      param.Value([]string{vaultIDs[1]}),
	})
	require.NoError(t, err)
	want := *d
	want.Name = "Renamed"
	want.Agent = v2.Reference()
	want.EnvironmentID = other
	want.InitialEvents = []sessions.EventParam{sessions.UserMessage("New task."), sessions.SystemMessage("Terse.")}
	want.Description = "new"
	want.Budget = &sessions.Budget{Type: sessions.BudgetLimit, MaxListCost: money.USD(900)}
	want.Metadata = map[string]string{"b": "2", "c": "3"}
	want.Resources = []deployments.ResourceConfig{deployments.RepositoryResourceConfig{URL: repoURL}}
	want.VaultIDs = []string{vaultIDs[1]}
	// Weekdays at 09:00 in Los Angeles, which is on PST until 2026-03-08.
	want.Schedule = &deployments.Schedule{Type: "cron", Expression: "0 9 * * 1-5", Timezone: "America/Los_Angeles",
		UpcomingRunsAt: []time.Time{utc(5, 17, 0), utc(6, 17, 0), utc(9, 16, 0), utc(10, 16, 0), utc(11, 16, 0)}}
	want.UpdatedAt = start.Add(time.Minute)
	require.Empty(t, cmp.Diff(&want, u))

	t.Run("null removes or clears", func(t *testing.T) {
		u, err := f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{
			Description: param.Null[string](),
			Budget:      param.Null[sessions.Budget](),
			Resources:   param.Null[[]sessions.ResourceParam](),
			Schedule:    param.Null[deployments.ScheduleParam](),
			VaultIDs:    param.Null[[]string](),
		})
		require.NoError(t, err)
		require.Empty(t, u.Description)
		require.Nil(t, u.Budget)
		require.Empty(t, u.Resources)
		require.Nil(t, u.Schedule, "a deployment without a schedule runs only by hand")
		require.Empty(t, u.VaultIDs)
		require.Equal(t, "Renamed", u.Name, "omitted fields are kept")
		require.Equal(t, map[string]string{"b": "2", "c": "3"}, u.Metadata)
	})
	t.Run("empty values clear too", func(t *testing.T) {
		u, err := f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{
			Description: param.Value("x"), VaultIDs: param.Value([]string{vault}),
			Resources: param.Value([]sessions.ResourceParam{sessions.FileResourceParam{FileID: fileID}}),
		})
		require.NoError(t, err)
		require.Len(t, u.Resources, 1)
		u, err = f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{
			Description: param.Value(""), VaultIDs: param.Value([]string{}), Resources: param.Value([]sessions.ResourceParam{}),
		})
		require.NoError(t, err)
		require.Empty(t, u.Description)
		require.Empty(t, u.VaultIDs)
		require.Empty(t, u.Resources)
	})
	t.Run("an update keeps the status", func(t *testing.T) {
		_, err := f.client.Deployments.Pause(ctx, d.ID)
		require.NoError(t, err)
		u, err := f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{Name: "Paused report"})
		require.NoError(t, err)
		require.Equal(t, deployments.StatusPaused, u.Status)
		require.Equal(t, deployments.ManualPause{}, u.PausedReason)
	})
}

func TestPauseUnpauseArchive(t *testing.T) {
	f := newFixture(t)
	d := f.newDeployment(t, f.scheduled())

	paused, err := f.client.Deployments.Pause(ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, deployments.StatusPaused, paused.Status)
	require.Equal(t, deployments.ManualPause{}, paused.PausedReason)
	require.Len(t, paused.Schedule.UpcomingRunsAt, 5, "upcoming runs are shown while paused")
	again, err := f.client.Deployments.Pause(ctx, d.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(paused, again), "pausing a paused deployment changes nothing")

	active, err := f.client.Deployments.Unpause(ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, deployments.StatusActive, active.Status)
	require.Nil(t, active.PausedReason)
	again, err = f.client.Deployments.Unpause(ctx, d.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(active, again))

	_, err = f.client.Deployments.Pause(ctx, d.ID)
	require.NoError(t, err)
	f.clock.Advance(time.Hour)
	archived, err := f.client.Deployments.Archive(ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, start.Add(time.Hour), archived.ArchivedAt)
	require.True(t, archived.Archived())
	require.Equal(t, deployments.StatusActive, archived.Status, "archived deployments report active")
	require.Nil(t, archived.PausedReason)
	require.Empty(t, archived.Schedule.UpcomingRunsAt)
	f.clock.Advance(time.Hour)
	again, err = f.client.Deployments.Archive(ctx, d.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(archived, again), "archiving is idempotent")
	require.Empty(t, cmp.Diff(archived, f.get(t, d.ID)), "archived deployments can be read")

	conflict := "deployment_id: deployment `" + d.ID + "` is archived"
	_, err = f.client.Deployments.Pause(ctx, d.ID)
	reftest.RequireConflict(t, err, conflict)
	_, err = f.client.Deployments.Unpause(ctx, d.ID)
	reftest.RequireConflict(t, err, conflict)
	_, err = f.client.Deployments.RunNow(ctx, d.ID)
	reftest.RequireConflict(t, err, conflict)
	_, err = f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{Name: "x"})
	reftest.RequireConflict(t, err, conflict)

	f.clock.Advance(72 * time.Hour)
	require.Empty(t, f.runs(t, deployments.RunListParams{DeploymentID: d.ID}), "an archived schedule never fires")

	_, err = f.client.Deployments.Get(ctx, unknownD)
	reftest.RequireNotFound(t, err, "Deployment `"+unknownD+"` not found.")
}

func TestArchivingTheAgentArchivesItsDeployments(t *testing.T) {
	f := newFixture(t)
	d := f.newDeployment(t, f.scheduled())
	_, err := f.client.Agents.Archive(ctx, f.agent.ID)
	require.NoError(t, err)
	got := f.get(t, d.ID)
	require.True(t, got.Archived())
	f.clock.Advance(48 * time.Hour)
	require.Empty(t, f.runs(t, deployments.RunListParams{DeploymentID: d.ID}), "no run is recorded")

	_, err = f.client.Deployments.Create(ctx, f.params())
	reftest.RequireInvalid(t, err, "agent: agent `"+f.agent.ID+"` is archived")
}

func TestRunNow(t *testing.T) {
	f := newFixture(t)
	vault := f.newVaults(t, 1)[0]
	p := f.scheduled()
	p.Budget = &sessions.Budget{MaxListCost: money.USD(700)}
	p.VaultIDs = []string{vault}
	p.Resources = []sessions.ResourceParam{sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: "tok", Checkout: sessions.BranchCheckout{Name: "main"}}}
	d := f.newDeployment(t, p)

	f.clock.Advance(time.Hour)
	run, err := f.client.Deployments.RunNow(ctx, d.ID)
	require.NoError(t, err)
	require.Regexp(t, `^drun_01[0-9A-Za-z]{22}$`, run.ID)
	require.Regexp(t, `^sesn_`, run.SessionID)
	require.Empty(t, cmp.Diff(&deployments.Run{
		Type: "deployment_run", ID: run.ID, DeploymentID: d.ID, Agent: d.Agent,
		TriggerContext: deployments.ManualTrigger{}, SessionID: run.SessionID, CreatedAt: start.Add(time.Hour),
	}, run))
	require.False(t, run.Failed())

	got, err := f.client.Deployments.Runs.Get(ctx, run.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(run, got))

	s, err := f.client.Sessions.Get(ctx, run.SessionID)
	require.NoError(t, err)
	require.Equal(t, d.ID, s.DeploymentID)
	require.Equal(t, d.Agent, s.Agent.Reference())
	require.Equal(t, d.Budget, s.Budget, "the budget is copied")
	require.Equal(t, []string{vault}, s.VaultIDs)
	require.Empty(t, s.Title)
	require.Len(t, s.Resources, 1)
	repo := s.Resources[0].(sessions.RepositoryResource)
	require.Equal(t, sessions.BranchCheckout{Name: "main"}, repo.Checkout)

	page, err := f.client.Sessions.List(ctx, sessions.ListParams{DeploymentID: d.ID})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, run.SessionID, page.Data[0].ID)

	after := f.get(t, d.ID)
	require.Equal(t, start.Add(time.Hour), after.Schedule.LastRunAt, "last_run_at counts runs by hand")
	require.Equal(t, d.UpdatedAt, after.UpdatedAt, "a run is not an update")

	t.Run("a paused deployment runs by hand", func(t *testing.T) {
		_, err := f.client.Deployments.Pause(ctx, d.ID)
		require.NoError(t, err)
		run, err := f.client.Deployments.RunNow(ctx, d.ID)
		require.NoError(t, err)
		require.NotEmpty(t, run.SessionID)
	})
	t.Run("a failed run by hand is an answer, not an error, and does not pause", func(t *testing.T) {
		envID := f.newEnvironment(t, "doomed")
		q := f.params()
		q.EnvironmentID = envID
		d := f.newDeployment(t, q)
		_, err := f.client.Environments.Archive(ctx, envID)
		require.NoError(t, err)
		run, err := f.client.Deployments.RunNow(ctx, d.ID)
		require.NoError(t, err)
		require.True(t, run.Failed())
		require.Empty(t, run.SessionID)
		require.Equal(t, &deployments.RunError{Type: deployments.RunErrorEnvironmentArchived, Message: "environment `" + envID + "` is archived"}, run.Error)
		require.True(t, strings.HasPrefix(run.Error.Error(), "environment_archived_error: "))
		require.Equal(t, deployments.StatusActive, f.get(t, d.ID).Status)
	})
}

func TestListDeployments(t *testing.T) {
	f := newFixture(t)
	other := f.newAgent(t, "other")
	var ds []*deployments.Deployment
	for i := range 5 {
		f.clock.Advance(time.Minute)
		p := f.params()
		if i == 3 {
			p.Agent = agents.AgentID(other.ID)
		}
		ds = append(ds, f.newDeployment(t, p))
	}
	_, err := f.client.Deployments.Pause(ctx, ds[1].ID)
	require.NoError(t, err)
	_, err = f.client.Deployments.Archive(ctx, ds[4].ID)
	require.NoError(t, err)

	list := func(t *testing.T, p deployments.ListParams) []string {
		t.Helper()
		page, err := f.client.Deployments.List(ctx, p)
		require.NoError(t, err)
		require.Empty(t, page.NextPage)
		return depIDs(page.Data)
	}
	id := func(is ...int) []string {
		out := []string{}
		for _, i := range is {
			out = append(out, ds[i].ID)
		}
		return out
	}
	require.Equal(t, id(3, 2, 1, 0), list(t, deployments.ListParams{}), "newest first, archived left out")
	require.Equal(t, id(4, 3, 2, 1, 0), list(t, deployments.ListParams{IncludeArchived: true}))
	require.Equal(t, id(2, 1, 0), list(t, deployments.ListParams{AgentID: f.agent.ID}))
	require.Equal(t, id(1), list(t, deployments.ListParams{Status: deployments.StatusPaused}))
	require.Equal(t, id(3, 2, 0), list(t, deployments.ListParams{Status: deployments.StatusActive}))
	require.Equal(t, id(2, 1), list(t, deployments.ListParams{CreatedAtGTE: ds[1].CreatedAt, CreatedAtLTE: ds[2].CreatedAt}))

	var walked []string
	for d, err := range f.client.Deployments.All(ctx, deployments.ListParams{Limit: 1, IncludeArchived: true}) {
		require.NoError(t, err)
		walked = append(walked, d.ID)
	}
	require.Equal(t, id(4, 3, 2, 1, 0), walked)

	f.env.Server.ResetRequests()
	walked = nil
	for d, err := range f.client.Deployments.All(ctx, deployments.ListParams{Limit: 2}) {
		require.NoError(t, err)
		walked = append(walked, d.ID)
		if len(walked) == 2 {
			break
		}
	}
	require.Equal(t, id(3, 2), walked)
	require.Equal(t, 1, f.env.Count("GET", "/v1/deployments"), "stopping early fetches nothing more")

	_, err = f.client.Deployments.List(ctx, deployments.ListParams{Page: "page_bogus"})
	reftest.RequireInvalid(t, err, "page: invalid cursor")
	_, err = f.client.Deployments.List(ctx, deployments.ListParams{Status: "sleeping"})
	reftest.RequireInvalid(t, err, "status")
}
