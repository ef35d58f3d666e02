package kit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A running clock reads real time from its start, and moves like a frozen
// ManualClock on Advance and Set, telling its watchers each time.
func TestRunningClock(t *testing.T) {
	start := time.Date(2030, time.March, 4, 9, 0, 0, 0, time.UTC)
	c := NewRunningClock(start)
	moves := 0
	c.watch(func() { moves++ })

	first := c.Now()
	require.False(t, first.Before(start))
	require.Less(t, first.Sub(start), time.Minute)
	time.Sleep(2 * time.Millisecond)
	second := c.Now()
	require.True(t, second.After(first), "a running clock follows real time")

	c.Advance(time.Hour)
	require.False(t, c.Now().Before(second.Add(time.Hour)))
	require.Equal(t, 1, moves)

	c.Set(start)
	require.False(t, c.Now().Before(start))
	require.Less(t, c.Now().Sub(start), time.Minute, "Set restarts the reading from its time")
	require.Equal(t, 2, moves)
}

// A ManualClock from NewManualClock stays where it is put.
func TestManualClockIsFrozen(t *testing.T) {
	start := time.Date(2030, time.March, 4, 9, 0, 0, 0, time.UTC)
	c := NewManualClock(start)
	time.Sleep(2 * time.Millisecond)
	require.Equal(t, start, c.Now())
	c.Advance(time.Minute)
	require.Equal(t, start.Add(time.Minute), c.Now())
}
