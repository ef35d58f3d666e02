// Package backoff holds the waiting rules the SDK's long-running loops
// share (the tool runner's stream and answers, the environment worker's
// polls and heartbeats, event stream reconnection), so that they back off
// alike and tell a lasting failure from a passing one alike.
package backoff

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Jittered is the wait after failures consecutive failures: it doubles
// from lo up to hi, less up to a quarter of jitter, so that clients cut
// off together do not come back together.
func Jittered(lo, hi time.Duration, failures int) time.Duration {
	d := hi
	if failures >= 0 && failures < 16 {
		d = min(lo<<failures, hi)
	}
	return d - time.Duration(rand.Float64()*0.25*float64(d))
}

// Sleep waits d, or until ctx ends (false).
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// Permanent reports a failure that retrying will not fix: an API error
// of 4xx other than 408, 409 and 429, or a request refused locally.
func Permanent(err error) bool {
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 400 && apiErr.StatusCode < 500 && !apiErr.Temporary()
	}
	var verr *apierror.ValidationError
	return errors.As(err, &verr)
}
