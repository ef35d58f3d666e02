package deployments_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
)

// TestScheduleAcrossDST fires "30 2 * * *" in New York across the night
// clocks spring forward (2026-03-08), where 02:30 does not exist: that
// night's run fires at the first instant after the jump, 03:00 EDT.
func TestScheduleAcrossDST(t *testing.T) {
	f := newFixture(t)
	d := f.newDeployment(t, f.scheduled())
	require.Equal(t, []time.Time{utc(6, 7, 30), utc(7, 7, 30), utc(8, 7, 0), utc(9, 6, 30), utc(10, 6, 30)}, d.Schedule.UpcomingRunsAt)

	f.clock.Set(utc(10, 12, 0)) // every occurrence in between falls due
	runs := f.runs(t, deployments.RunListParams{DeploymentID: d.ID})
	require.Equal(t, []time.Time{
		utc(10, 6, 30), // 02:30 EDT
		utc(9, 6, 30),  // 02:30 EDT
		utc(8, 7, 0),   // 03:00 EDT: 02:30 was skipped by the jump
		utc(7, 7, 30),  // 02:30 EST
		utc(6, 7, 30),  // 02:30 EST
	}, scheduledAt(t, runs), "runs are listed newest first, one per occurrence")
	for _, r := range runs {
		require.Equal(t, d.ID, r.DeploymentID)
		require.Equal(t, d.Agent, r.Agent)
		require.Nil(t, r.Error)
		require.Regexp(t, `^sesn_`, r.SessionID)
		s, err := f.client.Sessions.Get(ctx, r.SessionID)
		require.NoError(t, err)
		require.Equal(t, d.ID, s.DeploymentID)
	}

	after := f.get(t, d.ID)
	require.Equal(t, deployments.StatusActive, after.Status)
	require.False(t, after.Schedule.LastRunAt.IsZero())
	require.Equal(t, []time.Time{utc(11, 6, 30), utc(12, 6, 30), utc(13, 6, 30), utc(14, 6, 30), utc(15, 6, 30)}, after.Schedule.UpcomingRunsAt)

	scheduled := f.runs(t, deployments.RunListParams{DeploymentID: d.ID, TriggerType: deployments.TriggerSchedule})
	require.Equal(t, runIDs(runs), runIDs(scheduled))
}

func TestPausedDeploymentDoesNotFire(t *testing.T) {
	f := newFixture(t)
	d := f.newDeployment(t, f.scheduled())
	paused, err := f.client.Deployments.Pause(ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, d.Schedule.UpcomingRunsAt, paused.Schedule.UpcomingRunsAt)

	f.clock.Set(utc(8, 12, 0))
	require.Empty(t, f.runs(t, deployments.RunListParams{DeploymentID: d.ID}), "a paused schedule does not fire")

	active, err := f.client.Deployments.Unpause(ctx, d.ID)
	require.NoError(t, err)
	require.Equal(t, utc(9, 6, 30), active.Schedule.UpcomingRunsAt[0])
	require.Empty(t, f.runs(t, deployments.RunListParams{DeploymentID: d.ID}), "missed fires are not made up")

	f.clock.Set(utc(9, 12, 0))
	runs := f.runs(t, deployments.RunListParams{DeploymentID: d.ID})
	require.Equal(t, []time.Time{utc(9, 6, 30)}, scheduledAt(t, runs), "the schedule resumes at its next occurrence")
}

func TestArchivedEnvironmentPausesTheDeployment(t *testing.T) {
	f := newFixture(t)
	healthy := f.newDeployment(t, f.scheduled())
	envID := f.newEnvironment(t, "doomed")
	p := f.scheduled()
	p.EnvironmentID = envID
	d := f.newDeployment(t, p)
	_, err := f.client.Environments.Archive(ctx, envID)
	require.NoError(t, err)

	f.clock.Set(utc(6, 12, 0))
	runs := f.runs(t, deployments.RunListParams{DeploymentID: d.ID})
	require.Len(t, runs, 1)
	require.Empty(t, cmp.Diff(&deployments.Run{
		Type: "deployment_run", ID: runs[0].ID, DeploymentID: d.ID, Agent: d.Agent,
		TriggerContext: deployments.ScheduleTrigger{ScheduledAt: utc(6, 7, 30)},
		Error:          &deployments.RunError{Type: deployments.RunErrorEnvironmentArchived, Message: "environment `" + envID + "` is archived"},
		CreatedAt:      runs[0].CreatedAt,
	}, runs[0]))

	got := f.get(t, d.ID)
	require.Equal(t, deployments.StatusPaused, got.Status, "a failed scheduled run pauses the deployment")
	require.Equal(t, deployments.ErrorPause{Error: deployments.RunError{Type: deployments.RunErrorEnvironmentArchived}}, got.PausedReason)

	f.clock.Set(utc(8, 12, 0))
	require.Len(t, f.runs(t, deployments.RunListParams{DeploymentID: d.ID}), 1, "paused: no further fires")
	require.Len(t, f.runs(t, deployments.RunListParams{DeploymentID: healthy.ID}), 3, "other deployments are not affected")

	failed := f.runs(t, deployments.RunListParams{HasError: new(true)})
	require.Equal(t, runIDs(runs), runIDs(failed))
	ok := f.runs(t, deployments.RunListParams{HasError: new(false)})
	require.Len(t, ok, 3)
	for _, r := range ok {
		require.Equal(t, healthy.ID, r.DeploymentID)
	}

	// Unpausing without fixing the cause fails, and pauses, again.
	_, err = f.client.Deployments.Unpause(ctx, d.ID)
	require.NoError(t, err)
	f.clock.Set(utc(9, 12, 0))
	require.Len(t, f.runs(t, deployments.RunListParams{DeploymentID: d.ID}), 2)
	require.Equal(t, deployments.StatusPaused, f.get(t, d.ID).Status)

	// Moving it to a live environment lets it run again.
	_, err = f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{EnvironmentID: f.envID})
	require.NoError(t, err)
	_, err = f.client.Deployments.Unpause(ctx, d.ID)
	require.NoError(t, err)
	f.clock.Set(utc(10, 12, 0))
	latest := f.runs(t, deployments.RunListParams{DeploymentID: d.ID, Limit: 1})
	require.Nil(t, latest[0].Error)
	require.NotEmpty(t, latest[0].SessionID)
	require.Equal(t, deployments.StatusActive, f.get(t, d.ID).Status)
}

func TestRunsList(t *testing.T) {
	f := newFixture(t)
	a := f.newDeployment(t, f.scheduled())
	b := f.newDeployment(t, f.params())

	f.clock.Set(utc(6, 12, 0)) // a fires once: 07:30Z
	f.clock.Advance(time.Minute)
	manualA, err := f.client.Deployments.RunNow(ctx, a.ID)
	require.NoError(t, err)
	f.clock.Advance(time.Minute)
	manualB, err := f.client.Deployments.RunNow(ctx, b.ID)
	require.NoError(t, err)
	f.clock.Advance(time.Minute)
	manualB2, err := f.client.Deployments.RunNow(ctx, b.ID)
	require.NoError(t, err)
	scheduledA := f.runs(t, deployments.RunListParams{DeploymentID: a.ID, TriggerType: deployments.TriggerSchedule})
	require.Len(t, scheduledA, 1)

	all := []string{manualB2.ID, manualB.ID, manualA.ID, scheduledA[0].ID}
	require.Equal(t, all, runIDs(f.runs(t, deployments.RunListParams{})), "newest first")
	require.Equal(t, []string{manualB2.ID, manualB.ID}, runIDs(f.runs(t, deployments.RunListParams{DeploymentID: b.ID})))
	require.Equal(t, []string{manualB2.ID, manualB.ID, manualA.ID},
		runIDs(f.runs(t, deployments.RunListParams{TriggerType: deployments.TriggerManual})))
	require.Empty(t, f.runs(t, deployments.RunListParams{DeploymentID: unknownD}), "an unknown deployment has no runs")
	require.Empty(t, f.runs(t, deployments.RunListParams{HasError: new(true)}))
	require.Equal(t, all, runIDs(f.runs(t, deployments.RunListParams{HasError: new(false)})))
	require.Equal(t, []string{manualB2.ID, manualB.ID}, runIDs(f.runs(t, deployments.RunListParams{CreatedAtGT: manualA.CreatedAt})))
	require.Equal(t, []string{manualB2.ID, manualB.ID, manualA.ID}, runIDs(f.runs(t, deployments.RunListParams{CreatedAtGTE: manualA.CreatedAt})))
	require.Equal(t, []string{manualB.ID, manualA.ID, scheduledA[0].ID}, runIDs(f.runs(t, deployments.RunListParams{CreatedAtLT: manualB2.CreatedAt})))
	require.Equal(t, []string{manualB.ID}, runIDs(f.runs(t, deployments.RunListParams{CreatedAtGTE: manualB.CreatedAt, CreatedAtLTE: manualB.CreatedAt})))

	t.Run("pages", func(t *testing.T) {
		f.env.Server.ResetRequests()
		require.Equal(t, all, runIDs(f.runs(t, deployments.RunListParams{Limit: 1})))
		require.Equal(t, 4, f.env.Count("GET", "/v1/deployment_runs"))

		f.env.Server.ResetRequests()
		var got []string
		for r, err := range f.client.Deployments.Runs.All(ctx, deployments.RunListParams{Limit: 2}) {
			require.NoError(t, err)
			got = append(got, r.ID)
			if len(got) == 3 {
				break
			}
		}
		require.Equal(t, all[:3], got)
		require.Equal(t, 2, f.env.Count("GET", "/v1/deployment_runs"), "stopping early fetches nothing more")
	})
	t.Run("has_error=false is sent", func(t *testing.T) {
		f.env.Server.ResetRequests()
		_, err := f.client.Deployments.Runs.List(ctx, deployments.RunListParams{HasError: new(false), TriggerType: deployments.TriggerManual})
		require.NoError(t, err)
		require.Equal(t, "has_error=false&trigger_type=manual", f.env.Server.Requests()[0].RawQuery)
	})
	t.Run("server rules", func(t *testing.T) {
		_, err := f.client.Deployments.Runs.Get(ctx, "drun_011CZkZgHL7zStg1brIjaXem")
		reftest.RequireNotFound(t, err, "Deployment run `drun_011CZkZgHL7zStg1brIjaXem` not found.")
		_, err = f.client.Deployments.Runs.List(ctx, deployments.RunListParams{Page: "page_bogus"})
		reftest.RequireInvalid(t, err, "page: invalid cursor")
		_, err = f.client.Deployments.Runs.List(ctx, deployments.RunListParams{TriggerType: "cron"})
		reftest.RequireInvalid(t, err, "trigger_type")
	})
}
