package environments_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// The work queue end to end, against the reference server: a
// self-hosted environment, its key, and a session that queues an item.

var workStart = time.Date(2026, time.March, 15, 10, 0, 0, 0, time.UTC)

type workFixture struct {
	env     *reftest.Env
	client  *agentplatform.Client
	clock   *refserver.ManualClock
	envID   string
	key     option.Option // the environment key, given per call
	agentID string
}

func newWorkFixture(t *testing.T) *workFixture {
	t.Helper()
	clock := refserver.NewManualClock(workStart)
	env := reftest.New(t, refserver.WithClock(clock))
	f := &workFixture{env: env, client: env.Client(t), clock: clock}
	e := create(t, f.client, environments.CreateParams{Name: "runners", Config: environments.SelfHostedConfig{}})
	f.envID = e.ID
	key, err := env.Server.EnvironmentKey(e.ID)
	require.NoError(t, err)
	require.Regexp(t, `^sk-vendor-env01-`, key)
	f.key = option.WithAPIKey(key)
	a, err := f.client.Agents.Create(ctx, agents.CreateParams{Name: "Worker", Model: agents.ModelID(models.VendorHaiku55)})
	require.NoError(t, err)
	f.agentID = a.ID
	return f
}

// newSession creates a session in the environment, which queues one item.
func (f *workFixture) newSession(t *testing.T) *sessions.Session {
	t.Helper()
	s, err := f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(f.agentID), EnvironmentID: f.envID})
	require.NoError(t, err)
	return s
}

// claim polls and acknowledges the next item.
func (f *workFixture) claim(t *testing.T) *environments.Work {
	t.Helper()
	w, err := f.client.Environments.Work.Poll(ctx, f.envID, environments.PollParams{}, f.key)
	require.NoError(t, err)
	require.NotNil(t, w)
	w, err = f.client.Environments.Work.Ack(ctx, f.envID, w.ID, f.key)
	require.NoError(t, err)
	return w
}

func TestWorkLifecycle(t *testing.T) {
	f := newWorkFixture(t)
	q := f.client.Environments.Work
	sess := f.newSession(t)

	st, err := q.Stats(ctx, f.envID, f.key)
	require.NoError(t, err)
	require.Equal(t, "work_queue_stats", st.Type)
	require.Equal(t, 1, st.Depth)
	require.Zero(t, st.Pending)
	require.Equal(t, workStart, st.OldestQueuedAt.UTC())

	w, err := q.Poll(ctx, f.envID, environments.PollParams{WorkerID: "runner-1"}, f.key)
	require.NoError(t, err)
	require.NotNil(t, w)
	require.Equal(t, "work", w.Type)
	require.Regexp(t, `^work_`, w.ID)
	require.Equal(t, f.envID, w.EnvironmentID)
	require.Equal(t, environments.WorkQueued, w.State, "polled items stay queued until acknowledged")
	require.Equal(t, environments.WorkData{Type: environments.WorkDataSession, ID: sess.ID}, w.Data)
	require.Empty(t, w.Secret)
	require.True(t, w.AcknowledgedAt.IsZero())

	st, err = q.Stats(ctx, f.envID) // an API key may read the stats too
	require.NoError(t, err)
	require.Zero(t, st.Depth)
	require.Equal(t, 1, st.Pending)
	require.Equal(t, 1, st.WorkersPolling)

	none, err := q.Poll(ctx, f.envID, environments.PollParams{}, f.key)
	require.NoError(t, err)
	require.Nil(t, none, "the only item is claimed")

	w, err = q.Ack(ctx, f.envID, w.ID, f.key)
	require.NoError(t, err)
	require.Equal(t, environments.WorkStarting, w.State)
	require.Equal(t, workStart, w.AcknowledgedAt.UTC())
	_, err = q.Ack(ctx, f.envID, w.ID, f.key)
	reftest.RequireConflict(t, err, "work item `"+w.ID+"` is not awaiting acknowledgement")

	hb, err := q.Heartbeat(ctx, f.envID, w.ID, environments.HeartbeatParams{ExpectedLastHeartbeat: environments.NoHeartbeat, DesiredTTL: time.Minute}, f.key)
	require.NoError(t, err)
	require.Equal(t, "work_heartbeat", hb.Type)
	require.True(t, hb.LeaseExtended)
	require.Equal(t, environments.WorkActive, hb.State)
	require.Equal(t, time.Minute, hb.TTL)
	require.NotEmpty(t, hb.LastHeartbeat)

	_, err = q.Heartbeat(ctx, f.envID, w.ID, environments.HeartbeatParams{ExpectedLastHeartbeat: environments.NoHeartbeat}, f.key)
	require.ErrorIs(t, err, environments.ErrLeaseLost)
	var lost *environments.LeaseLostError
	require.ErrorAs(t, err, &lost)
	require.Equal(t, 412, lost.Err.StatusCode)
	require.Equal(t, "expected_last_heartbeat does not match the lease of work item `"+w.ID+"`", lost.Err.Message)
	require.Equal(t, &environments.LeaseState{State: environments.WorkActive, TTL: time.Minute, LastHeartbeat: hb.LastHeartbeat}, lost.Current)

	f.clock.Advance(10 * time.Second)
	hb2, err := q.Heartbeat(ctx, f.envID, w.ID, environments.HeartbeatParams{ExpectedLastHeartbeat: hb.LastHeartbeat}, f.key)
	require.NoError(t, err)
	require.NotEqual(t, hb.LastHeartbeat, hb2.LastHeartbeat, "a fresh token on every beat")
	require.Equal(t, 30*time.Second, hb2.TTL, "the default TTL")

	got, err := q.Get(ctx, f.envID, w.ID)
	require.NoError(t, err)
	require.Equal(t, environments.WorkActive, got.State)
	require.Equal(t, workStart, got.StartedAt.UTC())
	require.Equal(t, workStart.Add(10*time.Second), got.LatestHeartbeatAt.UTC())

	v := "runner-1"
	got, err = q.Update(ctx, f.envID, w.ID, environments.WorkUpdateParams{Metadata: map[string]*string{"host": &v}})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"host": "runner-1"}, got.Metadata)
	got, err = q.Update(ctx, f.envID, w.ID, environments.WorkUpdateParams{Metadata: map[string]*string{"host": nil}})
	require.NoError(t, err)
	require.Empty(t, got.Metadata)

	page, err := q.List(ctx, f.envID, environments.WorkListParams{}, f.key)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, w.ID, page.Data[0].ID)
	require.False(t, page.HasMore())

	stopped, err := q.Stop(ctx, f.envID, w.ID, environments.StopParams{}, f.key)
	require.NoError(t, err)
	require.Equal(t, environments.WorkStopping, stopped.State)
	require.False(t, stopped.StopRequestedAt.IsZero())
	hb3, err := q.Heartbeat(ctx, f.envID, w.ID, environments.HeartbeatParams{ExpectedLastHeartbeat: hb2.LastHeartbeat}, f.key)
	require.NoError(t, err)
	require.False(t, hb3.LeaseExtended, "the worker is told to stop")
	require.Equal(t, environments.WorkStopping, hb3.State)

	stopped, err = q.Stop(ctx, f.envID, w.ID, environments.StopParams{Force: true}) // an API key may stop
	require.NoError(t, err)
	require.Equal(t, environments.WorkStopped, stopped.State)
	require.False(t, stopped.State.Live())
	require.False(t, stopped.StoppedAt.IsZero())
	_, err = q.Stop(ctx, f.envID, w.ID, environments.StopParams{}, f.key)
	reftest.RequireConflict(t, err, "work item `"+w.ID+"` is already stopped")
}

// An expired lease sends the item back to the queue: the old holder's
// heartbeat fails with ErrLeaseLost and another worker can poll it.
func TestWorkLeaseExpires(t *testing.T) {
	f := newWorkFixture(t)
	q := f.client.Environments.Work
	f.newSession(t)
	w := f.claim(t)
	hb, err := q.Heartbeat(ctx, f.envID, w.ID, environments.HeartbeatParams{ExpectedLastHeartbeat: environments.NoHeartbeat, DesiredTTL: 5 * time.Second}, f.key)
	require.NoError(t, err)

	f.clock.Advance(6 * time.Second)
	_, err = q.Heartbeat(ctx, f.envID, w.ID, environments.HeartbeatParams{ExpectedLastHeartbeat: hb.LastHeartbeat}, f.key)
	require.ErrorIs(t, err, environments.ErrLeaseLost)
	var lost *environments.LeaseLostError
	require.ErrorAs(t, err, &lost)
	require.NotNil(t, lost.Current)
	require.Equal(t, environments.WorkQueued, lost.Current.State)

	again, err := q.Poll(ctx, f.envID, environments.PollParams{WorkerID: "runner-2"}, f.key)
	require.NoError(t, err)
	require.NotNil(t, again)
	require.Equal(t, w.ID, again.ID, "the same item, for another worker")
	require.False(t, again.AcknowledgedAt.IsZero(), "kept from the first acknowledgement")
	require.True(t, again.LatestHeartbeatAt.IsZero(), "the lost lease's heartbeat is forgotten")
}

// A polled item not acknowledged in time can be polled again.
func TestWorkReclaim(t *testing.T) {
	f := newWorkFixture(t)
	q := f.client.Environments.Work
	f.newSession(t)
	first, err := q.Poll(ctx, f.envID, environments.PollParams{ReclaimOlderThan: time.Second}, f.key)
	require.NoError(t, err)
	require.NotNil(t, first)
	none, err := q.Poll(ctx, f.envID, environments.PollParams{ReclaimOlderThan: time.Second}, f.key)
	require.NoError(t, err)
	require.Nil(t, none)
	f.clock.Advance(2 * time.Second)
	again, err := q.Poll(ctx, f.envID, environments.PollParams{ReclaimOlderThan: time.Second}, f.key)
	require.NoError(t, err)
	require.NotNil(t, again)
	require.Equal(t, first.ID, again.ID)
}

func TestWorkAllPages(t *testing.T) {
	f := newWorkFixture(t)
	var ids []string
	for range 3 {
		f.newSession(t)
		f.clock.Advance(time.Second)
	}
	for w, err := range f.client.Environments.Work.All(ctx, f.envID, environments.WorkListParams{Limit: 2}, f.key) {
		require.NoError(t, err)
		ids = append(ids, w.ID)
	}
	require.Len(t, ids, 3)
	page, err := f.client.Environments.Work.List(ctx, f.envID, environments.WorkListParams{Limit: 2}, f.key)
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	require.True(t, page.HasMore())
	require.Equal(t, ids[:2], []string{page.Data[0].ID, page.Data[1].ID}, "newest first, as All walks")
	require.True(t, page.Data[0].CreatedAt.After(page.Data[1].CreatedAt))
}

// The keys and routes the queue refuses, as the SDK reports them.
func TestWorkRefusals(t *testing.T) {
	f := newWorkFixture(t)
	q := f.client.Environments.Work
	f.newSession(t)

	_, err := q.Poll(ctx, f.envID, environments.PollParams{}) // the client's API key
	reftest.RequireAPIError(t, err, 403, apierror.TypePermission,
		"This endpoint accepts only the environment key of environment `"+f.envID+"`.")
	require.ErrorIs(t, err, apierror.ErrPermission)

	_, err = f.client.Agents.Get(ctx, f.agentID, agents.GetParams{}, f.key)
	reftest.RequireAPIError(t, err, 403, apierror.TypePermission,
		"Environment keys authorize only the work queue and the sessions of their environment.")

	_, err = q.Ack(ctx, f.envID, "work_unknown", f.key)
	reftest.RequireNotFound(t, err, "Work item `work_unknown` not found.")

	other := create(t, f.client, environments.CreateParams{Name: "others", Config: environments.SelfHostedConfig{}})
	_, err = q.Stats(ctx, other.ID, f.key)
	require.ErrorIs(t, err, apierror.ErrNotFound, "another environment's key")

	cloud := create(t, f.client, environments.CreateParams{Name: "cloud"})
	_, err = q.Stats(ctx, cloud.ID)
	reftest.RequireInvalid(t, err, "environment `"+cloud.ID+"` is not self_hosted; only self-hosted environments have a work queue")

	_, err = f.client.Environments.Archive(ctx, f.envID)
	require.NoError(t, err)
	_, err = q.Poll(ctx, f.envID, environments.PollParams{}, f.key)
	require.ErrorIs(t, err, apierror.ErrAuthentication, "archiving revokes the environment's keys")
}
