package backoff_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/backoff"
)

func TestJitteredDoublesUpToItsCap(t *testing.T) {
	lo, hi := 500*time.Millisecond, 30*time.Second
	for failures, want := range []time.Duration{lo, 2 * lo, 4 * lo, 8 * lo, 16 * lo, 32 * lo, hi, hi} {
		got := backoff.Jittered(lo, hi, failures)
		require.LessOrEqual(t, got, want, "failures %d", failures)
		require.GreaterOrEqual(t, got, want*3/4, "failures %d", failures)
	}
	require.LessOrEqual(t, backoff.Jittered(lo, hi, 1000), hi)
	require.LessOrEqual(t, backoff.Jittered(lo, hi, -1), hi)
}

func TestSleepEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.False(t, backoff.Sleep(ctx, time.Hour))
	require.True(t, backoff.Sleep(context.Background(), 0))
}

func TestPermanent(t *testing.T) {
	for status, want := range map[int]bool{400: true, 401: true, 403: true, 404: true, 412: true, 408: false, 409: false, 429: false, 500: false, 529: false} {
		err := fmt.Errorf("wrapped: %w", &apierror.Error{StatusCode: status})
		require.Equal(t, want, backoff.Permanent(err), "status %d", status)
	}
	require.True(t, backoff.Permanent(&apierror.ValidationError{Field: "x", Rule: "y"}))
	require.False(t, backoff.Permanent(errors.New("connection reset")))
}
