package auth

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestRetryAfterIsBounded: whatever the server sends, the wait it asks for
// is within [0, maxServerWait], clamped before it becomes a Duration, and
// the wait before a retry is within [0, MaxRetryWait]. A value that gives
// no usable wait leaves the exchanger to its own backoff.
func TestRetryAfterIsBounded(t *testing.T) {
	now := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	date := func(d time.Duration) string { return now.Add(d).Format(http.TimeFormat) }
	const huge = maxServerWait
	cases := []struct {
		ms, s string
		want  time.Duration
	}{
		{"", "", 0},
		{"1500", "", 1500 * time.Millisecond},
		{"0.5", "", 500 * time.Microsecond},
		{" 250 ", "", 250 * time.Millisecond},
		{"0", "", 0},
		{"-5", "", 0},
		{"NaN", "", 0},
		{"-Inf", "", 0},
		{"inf", "", huge},
		{"+Infinity", "", huge},
		{"1e10", "", huge},
		{"1e400", "", huge}, // out of float64's range: +Inf
		{"1e-400", "", 0},   // rounds to 0
		{"99999999999999999999", "", huge},
		{"9223372036854775807", "", huge},
		{"soon", "", 0},
		{"soon", "2", 2 * time.Second},
		{"-1", "3", 3 * time.Second},
		{"", "3", 3 * time.Second},
		{"", "1.5", 1500 * time.Millisecond},
		{"", "0", 0},
		{"", "-1", 0},
		{"", "NaN", 0},
		{"", "inf", huge},
		{"", "1e10", huge},
		{"", "99999999999999999999", huge},
		{"", date(30 * time.Second), 30 * time.Second},
		{"", date(-30 * time.Second), 0},
		{"", date(400 * 24 * time.Hour), huge},
		{"", "Fri, 31 Dec 9999 23:59:59 GMT", huge},
		{"", "Mon, 01 Jan 0001 00:00:00 GMT", 0},
		{"", "tomorrow", 0},
	}
	x := &exchanger{maxWait: 8 * time.Second}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("ms=%q,s=%q", tc.ms, tc.s), func(t *testing.T) {
			h := http.Header{}
			if tc.ms != "" {
				h.Set("retry-after-ms", tc.ms)
			}
			if tc.s != "" {
				h.Set("retry-after", tc.s)
			}
			got := retryAfter(h, now)
			require.Equal(t, tc.want, got)

			for attempt := range 3 {
				w := x.wait(attempt, &ExchangeError{retryAfter: got})
				require.GreaterOrEqual(t, w, time.Duration(0))
				require.LessOrEqual(t, w, x.maxWait)
				if tc.want > 0 {
					require.Equal(t, min(tc.want, x.maxWait), w, "the server's wait, capped")
				} else {
					backoff := initialRetryWait << attempt
					require.GreaterOrEqual(t, w, backoff/2, "no server wait: the exchanger's backoff")
					require.LessOrEqual(t, w, backoff)
				}
			}
		})
	}
}

// TestRetryWaitStaysInRange: the wait is within [0, MaxRetryWait] for any
// attempt number and retry-after, a negative one included.
func TestRetryWaitStaysInRange(t *testing.T) {
	for _, maxWait := range []time.Duration{time.Nanosecond, time.Millisecond, 8 * time.Second, time.Hour} {
		x := &exchanger{maxWait: maxWait}
		for _, attempt := range []int{-1, 0, 1, 10, 63, 64, 1000} {
			for _, ra := range []time.Duration{-time.Hour, 0, time.Nanosecond, maxServerWait, 1<<63 - 1} {
				w := x.wait(attempt, &ExchangeError{retryAfter: ra})
				require.GreaterOrEqual(t, w, time.Duration(0), "attempt %d, retry-after %v", attempt, ra)
				require.LessOrEqual(t, w, maxWait, "attempt %d, retry-after %v", attempt, ra)
			}
		}
	}
}

// TestUntracedExchangeBuildsNoAttributes: with nothing recording, tracing
// an exchange request costs a few small allocations (the trace, the
// tracer, contexts), a fraction of a recorded span's: no attribute is
// built. Building them unguarded would add at least four.
func TestUntracedExchangeBuildsNoAttributes(t *testing.T) {
	x := newExchanger("https://api.vendor.com", nil, 0, 0, nil)
	defer x.close()
	h := http.Header{}
	allocs := func(tp trace.TracerProvider) float64 {
		return testing.AllocsPerRun(200, func() {
			tr := newExchangeTrace(context.Background(), tp)
			ctx := tr.context(context.Background())
			r := tr.request(ctx, x, tokenPath)
			r.inject(r.context(ctx), h)
			r.done(200, h, nil)
			tr.end()
		})
	}
	untraced := allocs(nil) // the global provider, which nobody set
	require.Empty(t, h, "no traceparent without a trace")
	rec := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tracetest.NewSpanRecorder()))
	defer rec.Shutdown(context.Background())
	traced := allocs(rec)
	t.Logf("allocations per exchange request: %v untraced, %v traced", untraced, traced)
	require.LessOrEqual(t, untraced, 8.0)
	require.Less(t, untraced*2, traced) // 3x holds only under -race, which adds allocations to the traced path
}
