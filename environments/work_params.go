package environments

import (
	"strconv"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// PollParams tunes WorkService.Poll.
type PollParams struct {
	// Block is how long the server may wait for an item before answering
	// "no work": 0 answers at once, otherwise a whole number of
	// milliseconds from 1ms to 999ms (block_ms). Poll in a loop to wait
	// longer.
	Block time.Duration
	// ReclaimOlderThan is how long an item polled but not acknowledged
	// stays claimed before another poll may hand it out again: 0 means the
	// server's default (5 s), otherwise a whole number of milliseconds
	// (reclaim_older_than_ms).
	ReclaimOlderThan time.Duration
	// WorkerID names the polling worker (the vendor-worker-id header, at
	// most 128 characters, no control characters); the queue stats count
	// distinct ids. "" sends none.
	WorkerID string
}

// NoHeartbeat is the HeartbeatParams.ExpectedLastHeartbeat of the first
// heartbeat after Ack, before the lease has a heartbeat token.
const NoHeartbeat = "NO_HEARTBEAT"

// HeartbeatParams is the query of WorkService.Heartbeat.
type HeartbeatParams struct {
	// ExpectedLastHeartbeat is required: NoHeartbeat for the first beat,
	// then the previous answer's Heartbeat.LastHeartbeat. A value that
	// does not match the lease fails with ErrLeaseLost.
	ExpectedLastHeartbeat string
	// DesiredTTL is how long the lease should last without another beat:
	// 0 means the server's default (30 s), otherwise whole seconds from 1s
	// to 600s (desired_ttl_seconds).
	DesiredTTL time.Duration
}

// StopParams is the body of WorkService.Stop.
type StopParams struct {
	// Force stops a claimed item at once instead of asking its worker to
	// stop (state stopping).
	Force bool `json:"force,omitzero"`
}

// WorkListParams selects a page of work items, newest first.
type WorkListParams struct {
	Page  string // cursor from a previous page's NextPage; "" for the first page
	Limit int    // 1 to 100; 0 means 20
}

// WorkUpdateParams is the body of WorkService.Update.
type WorkUpdateParams struct {
	// Metadata is a patch: a key set to a string is upserted, a key set
	// to nil is deleted, keys not named are kept. At most 16 pairs, keys 1
	// to 64 characters, values at most 512 characters.
	Metadata map[string]*string `json:"metadata,omitzero"`
}

// Limits of the work queue's parameters.
const (
	maxBlock         = 999 * time.Millisecond
	maxDesiredTTL    = 600 * time.Second
	maxWorkerID      = 128
	maxWorkListLimit = 100
)

func (p *PollParams) validate() error {
	if p.Block != 0 && (p.Block < time.Millisecond || p.Block > maxBlock || p.Block%time.Millisecond != 0) {
		return &apierror.ValidationError{Field: "block_ms", Rule: "must be a whole number of milliseconds between 1ms and 999ms, or 0 to answer at once"}
	}
	if p.ReclaimOlderThan < 0 || p.ReclaimOlderThan%time.Millisecond != 0 {
		return &apierror.ValidationError{Field: "reclaim_older_than_ms", Rule: "must be a positive whole number of milliseconds, or 0 for the server's default"}
	}
	if err := check.Length("vendor-worker-id", p.WorkerID, 0, maxWorkerID); err != nil {
		return err
	}
	for i := 0; i < len(p.WorkerID); i++ {
		if c := p.WorkerID[i]; c < 0x20 || c == 0x7f {
			return &apierror.ValidationError{Field: "vendor-worker-id", Rule: "must not contain control characters"}
		}
	}
	return nil
}

func (p *HeartbeatParams) validate() error {
	if p.ExpectedLastHeartbeat == "" {
		return &apierror.ValidationError{Field: "expected_last_heartbeat", Rule: "must not be empty: use NoHeartbeat before the first heartbeat"}
	}
	if p.DesiredTTL != 0 && (p.DesiredTTL < time.Second || p.DesiredTTL > maxDesiredTTL || p.DesiredTTL%time.Second != 0) {
		return &apierror.ValidationError{Field: "desired_ttl_seconds", Rule: "must be a whole number of seconds between 1s and " + strconv.Itoa(int(maxDesiredTTL/time.Second)) + "s, or 0 for the server's default"}
	}
	return nil
}
