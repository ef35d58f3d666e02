package work

import (
	"strconv"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Work item states (docs/environment-work-wire.md "The work object").
const (
	stateQueued   = "queued"   // waiting for a worker; "pending" once polled, until acknowledged
	stateStarting = "starting" // acknowledged; leased, no heartbeat yet
	stateActive   = "active"   // leased, heartbeating
	stateStopping = "stopping" // asked to stop; leased until its worker stops it or the lease runs out
	stateStopped  = "stopped"  // final
)

// Lease and queue defaults.
const (
	defaultTTL       = 30 * time.Second
	maxTTLSeconds    = 600
	defaultReclaimMS = 5000
	noHeartbeat      = "NO_HEARTBEAT" // expected_last_heartbeat before the first beat
	workerWindow     = 30 * time.Second
	maxWorkerIDLen   = 128
	maxBlockMS       = 999
	// maxWorkersPerEnv bounds the workers_polling bookkeeping even when
	// the clock does not move (a ManualClock).
	maxWorkersPerEnv = 1024
)

type item struct {
	id            string
	workspaceID   string
	environmentID string
	sessionID     string
	state         string
	metadata      map[string]string

	createdAt       time.Time
	acknowledgedAt  time.Time
	startedAt       time.Time
	heartbeatAt     time.Time
	stopRequestedAt time.Time
	stoppedAt       time.Time

	polledAt     time.Time     // queued and polled (pending) since; zero otherwise
	leaseExpires time.Time     // starting, active, stopping: the end of the lease
	ttl          time.Duration // the lease's length, as last granted
	beat         string        // the last heartbeat's token; "" before the first
	beats        int           // successful heartbeats, which make each token new
}

func (it *item) position() kit.Position { return kit.Position{CreatedAt: it.createdAt, ID: it.id} }

// pollable reports whether a poll that reclaims items polled at least
// reclaim ago may hand it out.
func (it *item) pollable(now time.Time, reclaim time.Duration) bool {
	return it.state == stateQueued && (it.polledAt.IsZero() || now.Sub(it.polledAt) >= reclaim)
}

// lastHeartbeat is what expected_last_heartbeat must be for the next beat.
func (it *item) lastHeartbeat() string {
	if it.beat == "" {
		return noHeartbeat
	}
	return it.beat
}

// newBeat makes the token of a successful heartbeat: opaque to clients,
// new on every beat.
func (it *item) newBeat(now time.Time) string {
	it.beats++
	return "hb_" + strconv.FormatInt(now.UnixMicro(), 36) + "_" + strconv.Itoa(it.beats)
}

type dataJSON struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

type itemJSON struct {
	Type              string            `json:"type"`
	ID                string            `json:"id"`
	EnvironmentID     string            `json:"environment_id"`
	State             string            `json:"state"`
	Data              dataJSON          `json:"data"`
	Metadata          map[string]string `json:"metadata"`
	Secret            *string           `json:"secret"` // never populated: the environment key authorizes a worker
	CreatedAt         kit.Timestamp     `json:"created_at"`
	AcknowledgedAt    *kit.Timestamp    `json:"acknowledged_at"`
	StartedAt         *kit.Timestamp    `json:"started_at"`
	LatestHeartbeatAt *kit.Timestamp    `json:"latest_heartbeat_at"`
	StopRequestedAt   *kit.Timestamp    `json:"stop_requested_at"`
	StoppedAt         *kit.Timestamp    `json:"stopped_at"`
}

func (it *item) view() itemJSON {
	return itemJSON{Type: "work", ID: it.id, EnvironmentID: it.environmentID, State: it.state,
		Data: dataJSON{Type: "session", ID: it.sessionID}, Metadata: it.metadata,
		CreatedAt:         kit.Timestamp(it.createdAt),
		AcknowledgedAt:    kit.OptionalTimestamp(it.acknowledgedAt),
		StartedAt:         kit.OptionalTimestamp(it.startedAt),
		LatestHeartbeatAt: kit.OptionalTimestamp(it.heartbeatAt),
		StopRequestedAt:   kit.OptionalTimestamp(it.stopRequestedAt),
		StoppedAt:         kit.OptionalTimestamp(it.stoppedAt)}
}

type heartbeatJSON struct {
	Type          string `json:"type"`
	LastHeartbeat string `json:"last_heartbeat"`
	LeaseExtended bool   `json:"lease_extended"`
	State         string `json:"state"`
	TTLSeconds    int    `json:"ttl_seconds"`
}

type statsJSON struct {
	Type           string         `json:"type"`
	Depth          int            `json:"depth"`
	Pending        int            `json:"pending"`
	OldestQueuedAt *kit.Timestamp `json:"oldest_queued_at"`
	WorkersPolling int            `json:"workers_polling"`
}
