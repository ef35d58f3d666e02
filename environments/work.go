package environments

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/param"
)

// Work is an item of a self-hosted environment's work queue (type
// "work"): a session handed to the machines that run the environment's
// sandbox tools.
type Work struct {
	Type          string    `json:"type"`
	ID            string    `json:"id"`
	EnvironmentID string    `json:"environment_id"`
	State         WorkState `json:"state"`
	Data          WorkData  `json:"data"`
	// Metadata: at most 16 pairs, set with WorkService.Update.
	Metadata map[string]string `json:"metadata"`
	// Secret is never populated by the platform (null on the wire): the
	// environment key is what authorizes a worker. It prints as
	// "[redacted]" should a server ever send one.
	Secret    param.Secret `json:"secret,omitzero"`
	CreatedAt time.Time    `json:"created_at"`
	// The times below are zero while null on the wire.
	AcknowledgedAt    time.Time `json:"acknowledged_at,omitzero"`     // set by Ack
	StartedAt         time.Time `json:"started_at,omitzero"`          // the first heartbeat after Ack
	LatestHeartbeatAt time.Time `json:"latest_heartbeat_at,omitzero"` // forgotten when the lease is lost
	StopRequestedAt   time.Time `json:"stop_requested_at,omitzero"`   // a graceful Stop
	StoppedAt         time.Time `json:"stopped_at,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkData names what a work item is for: a session to run (type
// "session", ID the session's id), a health check, or a type newer than
// this SDK, kept as received.
type WorkData struct {
	Type WorkDataType `json:"type"`
	ID   string       `json:"id"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkDataType is the kind of a work item. Unknown values are kept.
type WorkDataType string

const (
	WorkDataSession     WorkDataType = "session"
	WorkDataHealthcheck WorkDataType = "healthcheck"
)

// WorkState is where a work item is in its life: queued (waiting for a
// worker, polled or not), starting (acknowledged, no heartbeat yet),
// active (heartbeating), stopping (asked to stop, the worker still holds
// it) and stopped, for good. Unknown values are kept.
type WorkState string

const (
	WorkQueued   WorkState = "queued"
	WorkStarting WorkState = "starting"
	WorkActive   WorkState = "active"
	WorkStopping WorkState = "stopping"
	WorkStopped  WorkState = "stopped"
)

// Live reports whether the item can still change: any state but stopped.
// A session has at most one live item at a time.
func (s WorkState) Live() bool { return s != WorkStopped }

// Heartbeat is the answer to WorkService.Heartbeat (type "work_heartbeat").
type Heartbeat struct {
	Type string `json:"type"`
	// LastHeartbeat is the lease's new token: pass it as the next beat's
	// HeartbeatParams.ExpectedLastHeartbeat. It changes on every
	// successful beat.
	LastHeartbeat string `json:"last_heartbeat"`
	// LeaseExtended is false when the item is stopping or stopped: the
	// worker should wind the session down instead of carrying on.
	LeaseExtended bool      `json:"lease_extended"`
	State         WorkState `json:"state"`
	// TTL is how long the lease now lasts without another beat (whole
	// seconds, ttl_seconds on the wire).
	TTL time.Duration `json:"-"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// QueueStats counts a work queue (type "work_queue_stats"). Items being
// run (starting, active, stopping) are not counted here: List them.
type QueueStats struct {
	Type string `json:"type"`
	// Depth counts queued items no worker has polled; Pending those
	// polled but not yet acknowledged.
	Depth   int `json:"depth"`
	Pending int `json:"pending"`
	// WorkersPolling counts the distinct PollParams.WorkerID values that
	// polled in the last 30 seconds.
	WorkersPolling int `json:"workers_polling"`
	// OldestQueuedAt is when the oldest queued or pending item was
	// queued; zero when there is none.
	OldestQueuedAt time.Time `json:"oldest_queued_at,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ErrLeaseLost matches, with errors.Is, the error of a heartbeat the
// server refused with 412: the worker no longer holds the item (another
// worker may have it), so it must stop working on it. The error is a
// *LeaseLostError.
var ErrLeaseLost = errors.New("agentplatform: work lease lost")

// LeaseLostError is the error of a heartbeat refused with 412: the
// expected heartbeat did not match the lease, or the lease expired and
// the item went back to the queue. It unwraps to the *apierror.Error.
type LeaseLostError struct {
	// Current is the lease as the server holds it
	// (error.details.current_state), nil when the server did not say.
	Current *LeaseState
	Err     *apierror.Error
}

// LeaseState is a work item's lease as the server reports it when it
// refuses a heartbeat.
type LeaseState struct {
	State         WorkState
	TTL           time.Duration
	LastHeartbeat string // "" when no heartbeat holds the lease
}

func (e *LeaseLostError) Error() string { return e.Err.Error() }

// Unwrap returns the API error, so that errors.As(err, &apiErr) and the
// apierror sentinels keep working.
func (e *LeaseLostError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrLeaseLost) true.
func (e *LeaseLostError) Is(target error) bool { return target == ErrLeaseLost }

// leaseLost turns a 412 into a *LeaseLostError; other errors are returned
// as they are.
func leaseLost(err error) error {
	var apiErr *apierror.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 412 {
		return err
	}
	var body struct {
		Error struct {
			Details struct {
				CurrentState *struct {
					State         WorkState `json:"state"`
					TTLSeconds    int64     `json:"ttl_seconds"`
					LastHeartbeat *string   `json:"last_heartbeat"`
				} `json:"current_state"`
			} `json:"details"`
		} `json:"error"`
	}
	out := &LeaseLostError{Err: apiErr}
	if json.Unmarshal(apiErr.Body, &body) == nil {
		if cs := body.Error.Details.CurrentState; cs != nil {
			out.Current = &LeaseState{State: cs.State, TTL: time.Duration(cs.TTLSeconds) * time.Second}
			if cs.LastHeartbeat != nil {
				out.Current.LastHeartbeat = *cs.LastHeartbeat
			}
		}
	}
	return out
}
