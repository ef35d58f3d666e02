package environments_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Samples of the work queue's wire types, written as the API sends them,
// with members this SDK does not know ("future…") that must survive.
const (
	workQueued = `{"type":"work","id":"work_011CZkZDLs7fYzm1hXNPeRjv","environment_id":"env_011CNha8iCJcU1wXNR6q4V8w",
		"state":"queued","data":{"type":"session","id":"sesn_011CZkZDLs7fYzm1hXNPeRjw"},"metadata":{},"secret":null,
		"created_at":"2026-03-15T10:00:00Z","acknowledged_at":null,"started_at":null,"latest_heartbeat_at":null,
		"stop_requested_at":null,"stopped_at":null}`
	workStopping = `{"type":"work","id":"work_02","environment_id":"env_01","state":"stopping",
		"data":{"type":"healthcheck","id":"hc_01","future_data":[1,2]},"metadata":{"host":"runner-7"},"secret":null,
		"created_at":"2026-03-15T10:00:00Z","acknowledged_at":"2026-03-15T10:00:01Z","started_at":"2026-03-15T10:00:02.5Z",
		"latest_heartbeat_at":"2026-03-15T10:00:03Z","stop_requested_at":"2026-03-15T10:00:04Z","stopped_at":null,
		"future_field":{"x":true}}`
	workUnknownData = `{"type":"work","id":"work_03","environment_id":"env_01","state":"paused_by_future",
		"data":{"type":"future_kind","id":"x_01"},"metadata":{},"secret":null,"created_at":"2026-03-15T10:00:00Z",
		"acknowledged_at":null,"started_at":null,"latest_heartbeat_at":null,"stop_requested_at":null,
		"stopped_at":"2026-03-15T10:05:00Z"}`
	heartbeatSample = `{"type":"work_heartbeat","last_heartbeat":"hb_7f3a","lease_extended":true,"state":"active",
		"ttl_seconds":45,"future_field":"kept"}`
	statsEmpty = `{"type":"work_queue_stats","depth":0,"pending":0,"oldest_queued_at":null,"workers_polling":0}`
	statsBusy  = `{"type":"work_queue_stats","depth":3,"pending":1,"oldest_queued_at":"2026-03-15T09:59:00Z",
		"workers_polling":2,"future_field":7}`
)

func TestWorkRoundTrip(t *testing.T) {
	for _, data := range []string{workQueued, workStopping, workUnknownData} {
		_, ok := wiretest.RoundTrip(t, []byte(data), wiretest.Decode[environments.Work], true)
		require.True(t, ok, data)
	}

	w, err := wiretest.Decode[environments.Work]([]byte(workStopping))
	require.NoError(t, err)
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		require.NoError(t, err)
		return v
	}
	require.Equal(t, "work", w.Type)
	require.Equal(t, "work_02", w.ID)
	require.Equal(t, "env_01", w.EnvironmentID)
	require.Equal(t, environments.WorkStopping, w.State)
	require.True(t, w.State.Live())
	require.Equal(t, environments.WorkDataHealthcheck, w.Data.Type)
	require.Equal(t, "hc_01", w.Data.ID)
	require.JSONEq(t, `[1,2]`, string(w.Data.Extra["future_data"]))
	require.Equal(t, map[string]string{"host": "runner-7"}, w.Metadata)
	require.Empty(t, w.Secret)
	require.Equal(t, at("2026-03-15T10:00:00Z"), w.CreatedAt)
	require.Equal(t, at("2026-03-15T10:00:01Z"), w.AcknowledgedAt)
	require.Equal(t, at("2026-03-15T10:00:02.5Z"), w.StartedAt)
	require.Equal(t, at("2026-03-15T10:00:03Z"), w.LatestHeartbeatAt)
	require.Equal(t, at("2026-03-15T10:00:04Z"), w.StopRequestedAt)
	require.True(t, w.StoppedAt.IsZero())
	require.JSONEq(t, `{"x":true}`, string(w.Extra["future_field"]))

	q, err := wiretest.Decode[environments.Work]([]byte(workQueued))
	require.NoError(t, err)
	require.Equal(t, environments.WorkDataSession, q.Data.Type)
	require.Equal(t, map[string]string{}, q.Metadata)
	for _, ts := range []time.Time{q.AcknowledgedAt, q.StartedAt, q.LatestHeartbeatAt, q.StopRequestedAt, q.StoppedAt} {
		require.True(t, ts.IsZero(), "null is the zero time")
	}

	u, err := wiretest.Decode[environments.Work]([]byte(workUnknownData))
	require.NoError(t, err)
	require.Equal(t, environments.WorkDataType("future_kind"), u.Data.Type, "unknown kinds are kept")
	require.Equal(t, environments.WorkState("paused_by_future"), u.State, "unknown states are kept")
}

func TestWorkStateLive(t *testing.T) {
	for _, s := range []environments.WorkState{environments.WorkQueued, environments.WorkStarting, environments.WorkActive, environments.WorkStopping} {
		require.True(t, s.Live(), s)
	}
	require.False(t, environments.WorkStopped.Live())
}

func TestHeartbeatRoundTrip(t *testing.T) {
	hb, ok := wiretest.RoundTrip(t, []byte(heartbeatSample), wiretest.Decode[environments.Heartbeat], true)
	require.True(t, ok)
	require.Equal(t, "work_heartbeat", hb.Type)
	require.Equal(t, "hb_7f3a", hb.LastHeartbeat)
	require.True(t, hb.LeaseExtended)
	require.Equal(t, environments.WorkActive, hb.State)
	require.Equal(t, 45*time.Second, hb.TTL, "ttl_seconds is read as seconds")
	require.JSONEq(t, `"kept"`, string(hb.Extra["future_field"]))

	out, err := json.Marshal(environments.Heartbeat{Type: "work_heartbeat", LastHeartbeat: "x", State: environments.WorkStopping, TTL: 30 * time.Second})
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"work_heartbeat","last_heartbeat":"x","lease_extended":false,"state":"stopping","ttl_seconds":30}`, string(out))
}

func TestQueueStatsRoundTrip(t *testing.T) {
	for _, data := range []string{statsEmpty, statsBusy} {
		_, ok := wiretest.RoundTrip(t, []byte(data), wiretest.Decode[environments.QueueStats], true)
		require.True(t, ok, data)
	}
	s, err := wiretest.Decode[environments.QueueStats]([]byte(statsBusy))
	require.NoError(t, err)
	require.Equal(t, 3, s.Depth)
	require.Equal(t, 1, s.Pending)
	require.Equal(t, 2, s.WorkersPolling)
	require.Equal(t, time.Date(2026, 3, 15, 9, 59, 0, 0, time.UTC), s.OldestQueuedAt.UTC())
	require.JSONEq(t, `7`, string(s.Extra["future_field"]))

	e, err := wiretest.Decode[environments.QueueStats]([]byte(statsEmpty))
	require.NoError(t, err)
	require.True(t, e.OldestQueuedAt.IsZero())
}

// The list's page is {data, next_page}: next_page null on the last page.
func TestWorkPageRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		data string
		next string
	}{
		{`{"data":[` + workStopping + `,` + workQueued + `],"next_page":"page_2"}`, "page_2"},
		{`{"data":[],"next_page":null}`, ""},
	} {
		p, ok := wiretest.RoundTrip(t, []byte(tc.data), wiretest.Decode[pagination.CursorPage[environments.Work]], true)
		require.True(t, ok, tc.data)
		require.Equal(t, tc.next, p.NextPage)
		require.Equal(t, tc.next != "", p.HasMore())
	}
}
