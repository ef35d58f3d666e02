package schedule_test

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	"github.com/stretchr/testify/require"
)

// robfigRuns returns the next n fire times of robfig's own SpecSchedule.Next.
func robfigRuns(t *testing.T, expr, tz string, after time.Time, n int) []time.Time {
	t.Helper()
	loc, err := time.LoadLocation(tz)
	require.NoError(t, err)
	s, err := cron.ParseStandard(expr)
	require.NoError(t, err)
	s.(*cron.SpecSchedule).Location = loc
	var runs []time.Time
	for range n {
		after = s.Next(after)
		runs = append(runs, after.UTC())
	}
	return runs
}

// TestRobfigDaylightSaving pins how robfig/cron v3.0.1 itself handles clock
// changes, which is why this package computes fire times on its own (see the
// package documentation). If this test fails after an upgrade, robfig's
// behaviour changed and the choice should be revisited.
func TestRobfigDaylightSaving(t *testing.T) {
	// Spring forward: the 02:30 run of 2026-03-08 silently disappears.
	require.Equal(t, []time.Time{
		utc(2026, 3, 7, 7, 30),
		utc(2026, 3, 9, 6, 30),
	}, robfigRuns(t, "30 2 * * *", "America/New_York", utc(2026, 3, 6, 12, 0), 2))

	// Fall back: 01:30 fires twice on 2026-11-01, at 01:30 EDT and 01:30 EST.
	require.Equal(t, []time.Time{
		utc(2026, 11, 1, 5, 30),
		utc(2026, 11, 1, 6, 30),
		utc(2026, 11, 2, 6, 30),
	}, robfigRuns(t, "30 1 * * *", "America/New_York", utc(2026, 10, 31, 12, 0), 3))
}

// TestRobfigIsLenient pins what robfig accepts that the API forbids, and what
// it rejects that the API allows: the reasons for the stricter check in front of it.
func TestRobfigIsLenient(t *testing.T) {
	for _, expr := range []string{"@daily", "0 9 ? * *", "TZ=UTC 0 9 * * *", "1,,2 * * * *", "+5 * * * *"} {
		_, err := cron.ParseStandard(expr)
		require.NoError(t, err, expr)
	}
	for _, expr := range []string{"0 9 * * 7", "0 9 * * 5-7", "0 9 * * 1,7"} {
		_, err := cron.ParseStandard(expr)
		require.Error(t, err, expr)
	}
}
