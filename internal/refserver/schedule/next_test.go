package schedule_test

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver/schedule"
)

func mustParse(t *testing.T, expr, tz string) *schedule.Schedule {
	t.Helper()
	s, err := schedule.Parse(expr, tz)
	require.NoError(t, err)
	return s
}

func utc(y int, mo time.Month, d, h, mi int) time.Time {
	return time.Date(y, mo, d, h, mi, 0, 0, time.UTC)
}

func TestNextIsStrictlyAfterAndInUTC(t *testing.T) {
	s := mustParse(t, "0 9 * * *", "Europe/Berlin")
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)

	at := time.Date(2026, 6, 1, 9, 0, 0, 0, berlin) // exactly a fire time
	require.Equal(t, utc(2026, 6, 2, 7, 0), s.Next(at))
	require.Equal(t, utc(2026, 6, 1, 7, 0), s.Next(at.Add(-time.Nanosecond)))
	require.Same(t, time.UTC, s.Next(at).Location())
	require.Equal(t, utc(2026, 6, 2, 7, 0), s.Next(at.Add(30*time.Second)))
}

func TestUpcomingAndBetweenBounds(t *testing.T) {
	s := mustParse(t, "*/20 * * * *", "UTC")
	from := utc(2026, 1, 1, 0, 0)

	require.Equal(t, []time.Time{utc(2026, 1, 1, 0, 20), utc(2026, 1, 1, 0, 40), utc(2026, 1, 1, 1, 0)},
		s.Upcoming(from, 3))
	require.Equal(t, []time.Time{utc(2026, 1, 1, 0, 20), utc(2026, 1, 1, 0, 40), utc(2026, 1, 1, 1, 0)},
		s.Between(from, utc(2026, 1, 1, 1, 0)), "from is exclusive, to inclusive")
	require.Equal(t, []time.Time{}, s.Between(from, from))
	require.Equal(t, []time.Time{}, s.Between(from, from.Add(-time.Hour)))
	require.Equal(t, []time.Time{}, s.Upcoming(from, 0))
	require.Equal(t, []time.Time{}, s.Upcoming(from, -1))
}

func TestUpcomingAndBetweenAreCappedAt1000(t *testing.T) {
	s := mustParse(t, "* * * * *", "America/New_York")
	from := utc(2026, 1, 1, 0, 0)

	between := s.Between(from, from.Add(24*time.Hour)) // 1440 runs in the window
	require.Len(t, between, 1000)
	require.Equal(t, from.Add(time.Minute), between[0])
	require.Equal(t, from.Add(1000*time.Minute), between[999])

	upcoming := s.Upcoming(from, 5000)
	require.Len(t, upcoming, 1000)
	require.Equal(t, between, upcoming)

	// A caller continues from the last run it got.
	rest := s.Between(between[999], from.Add(24*time.Hour))
	require.Len(t, rest, 440)
	require.Equal(t, from.Add(1001*time.Minute), rest[0])
}

func TestLeapDay(t *testing.T) {
	s := mustParse(t, "0 0 29 2 *", "UTC")
	require.Equal(t, []time.Time{utc(2028, 2, 29, 0, 0), utc(2032, 2, 29, 0, 0), utc(2036, 2, 29, 0, 0)},
		s.Upcoming(utc(2026, 3, 8, 0, 0), 3))
	require.Equal(t, []time.Time{utc(2028, 2, 29, 0, 0)}, s.Between(utc(2026, 1, 1, 0, 0), utc(2031, 1, 1, 0, 0)))

	// 2100 is not a leap year: the next 29 February after 2096 is in 2104,
	// beyond Next's five-year horizon, but Between has no horizon.
	require.True(t, s.Next(utc(2096, 3, 1, 0, 0)).IsZero())
	require.Equal(t, []time.Time{}, s.Upcoming(utc(2096, 3, 1, 0, 0), 2))
	require.Equal(t, []time.Time{utc(2104, 2, 29, 0, 0)}, s.Between(utc(2096, 3, 1, 0, 0), utc(2105, 1, 1, 0, 0)))

	ny := mustParse(t, "0 0 29 2 *", "America/New_York")
	require.Equal(t, utc(2028, 2, 29, 5, 0), ny.Next(utc(2026, 3, 8, 0, 0)))
}

func TestNeverFires(t *testing.T) {
	s := mustParse(t, "0 0 30 2 *", "UTC")
	from := utc(2026, 1, 1, 0, 0)
	require.True(t, s.Next(from).IsZero())
	require.Equal(t, []time.Time{}, s.Upcoming(from, 5))
	require.Equal(t, []time.Time{}, s.Between(from, from.AddDate(50, 0, 0)))
}

// dstCase is one schedule run over a window around a clock change.
type dstCase struct {
	name, expr, tz string
	from, to       time.Time
	want           []time.Time
}

func TestDaylightSaving(t *testing.T) {
	tests := []dstCase{
		{
			// America/New_York springs forward on 2026-03-08: 02:00 EST becomes
			// 03:00 EDT (07:00 UTC). 02:30 does not exist and fires at 03:00 EDT.
			name: "New York spring, skipped time fires at the jump",
			expr: "30 2 * * *", tz: "America/New_York",
			from: utc(2026, 3, 6, 12, 0), to: utc(2026, 3, 10, 12, 0),
			want: []time.Time{
				utc(2026, 3, 7, 7, 30), // 02:30 EST
				utc(2026, 3, 8, 7, 0),  // 03:00 EDT, for the missing 02:30
				utc(2026, 3, 9, 6, 30), // 02:30 EDT
				utc(2026, 3, 10, 6, 30),
			},
		},
		{
			name: "New York spring, skipped times and 03:00 fire once",
			expr: "0,30 2-3 * * *", tz: "America/New_York",
			from: utc(2026, 3, 8, 0, 0), to: utc(2026, 3, 8, 12, 0),
			want: []time.Time{
				utc(2026, 3, 8, 7, 0),  // 02:00, 02:30 and 03:00 EDT together
				utc(2026, 3, 8, 7, 30), // 03:30 EDT
			},
		},
		{
			name: "New York spring, every 30 minutes",
			expr: "*/30 * * * *", tz: "America/New_York",
			from: utc(2026, 3, 8, 5, 0), to: utc(2026, 3, 8, 8, 0),
			want: []time.Time{
				utc(2026, 3, 8, 5, 30), // 00:30 EST
				utc(2026, 3, 8, 6, 0),  // 01:00 EST
				utc(2026, 3, 8, 6, 30), // 01:30 EST
				utc(2026, 3, 8, 7, 0),  // 03:00 EDT (and the missing 02:00, 02:30)
				utc(2026, 3, 8, 7, 30),
				utc(2026, 3, 8, 8, 0),
			},
		},
		{
			// America/New_York falls back on 2026-11-01: 02:00 EDT becomes
			// 01:00 EST (06:00 UTC). 01:30 happens twice and fires once.
			name: "New York fall, repeated time fires once",
			expr: "30 1 * * *", tz: "America/New_York",
			from: utc(2026, 10, 30, 12, 0), to: utc(2026, 11, 2, 12, 0),
			want: []time.Time{
				utc(2026, 10, 31, 5, 30), // 01:30 EDT
				utc(2026, 11, 1, 5, 30),  // 01:30 EDT; not again at 01:30 EST
				utc(2026, 11, 2, 6, 30),  // 01:30 EST
			},
		},
		{
			name: "New York fall, hourly skips the repeated hour",
			expr: "0 * * * *", tz: "America/New_York",
			from: utc(2026, 11, 1, 3, 0), to: utc(2026, 11, 1, 9, 0),
			want: []time.Time{
				utc(2026, 11, 1, 4, 0), // 00:00 EDT
				utc(2026, 11, 1, 5, 0), // 01:00 EDT
				utc(2026, 11, 1, 7, 0), // 02:00 EST (01:00 EST already fired)
				utc(2026, 11, 1, 8, 0),
				utc(2026, 11, 1, 9, 0),
			},
		},
		{
			// Europe/Berlin springs forward on 2026-03-29: 02:00 CET becomes
			// 03:00 CEST (01:00 UTC).
			name: "Berlin spring",
			expr: "30 2 * * *", tz: "Europe/Berlin",
			from: utc(2026, 3, 27, 12, 0), to: utc(2026, 3, 30, 12, 0),
			want: []time.Time{
				utc(2026, 3, 28, 1, 30), // 02:30 CET
				utc(2026, 3, 29, 1, 0),  // 03:00 CEST
				utc(2026, 3, 30, 0, 30), // 02:30 CEST
			},
		},
		{
			// Europe/Berlin falls back on 2026-10-25: 03:00 CEST becomes
			// 02:00 CET (01:00 UTC).
			name: "Berlin fall",
			expr: "30 2 * * *", tz: "Europe/Berlin",
			from: utc(2026, 10, 23, 12, 0), to: utc(2026, 10, 26, 12, 0),
			want: []time.Time{
				utc(2026, 10, 24, 0, 30), // 02:30 CEST
				utc(2026, 10, 25, 0, 30), // 02:30 CEST; not again at 02:30 CET
				utc(2026, 10, 26, 1, 30), // 02:30 CET
			},
		},
		{
			// America/Santiago springs forward at midnight: 2026-09-06 00:00 -04
			// becomes 01:00 -03, so that day has no midnight.
			name: "Santiago, midnight skipped",
			expr: "0 0 * * *", tz: "America/Santiago",
			from: utc(2026, 9, 4, 12, 0), to: utc(2026, 9, 7, 12, 0),
			want: []time.Time{
				utc(2026, 9, 5, 4, 0), // 00:00 -04
				utc(2026, 9, 6, 4, 0), // 01:00 -03, for the missing midnight
				utc(2026, 9, 7, 3, 0), // 00:00 -03
			},
		},
		{
			// Australia/Lord_Howe shifts by 30 minutes: on 2026-10-04 02:00
			// +1030 becomes 02:30 +11 (2026-10-03 15:30 UTC).
			name: "Lord Howe spring, half-hour jump",
			expr: "15 2 * * *", tz: "Australia/Lord_Howe",
			from: utc(2026, 10, 2, 0, 0), to: utc(2026, 10, 4, 23, 0),
			want: []time.Time{
				utc(2026, 10, 2, 15, 45), // 02:15 +1030
				utc(2026, 10, 3, 15, 30), // 02:30 +11, for the missing 02:15
				utc(2026, 10, 4, 15, 15), // 02:15 +11
			},
		},
		{
			// On 2026-04-05 02:00 +11 becomes 01:30 +1030 (14:30 UTC).
			name: "Lord Howe fall, half-hour repeat",
			expr: "45 1 * * *", tz: "Australia/Lord_Howe",
			from: utc(2026, 4, 3, 0, 0), to: utc(2026, 4, 6, 0, 0),
			want: []time.Time{
				utc(2026, 4, 3, 14, 45), // 01:45 +11
				utc(2026, 4, 4, 14, 45), // 01:45 +11; not again at 01:45 +1030
				utc(2026, 4, 5, 15, 15), // 01:45 +1030
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustParse(t, tt.expr, tt.tz)
			require.Equal(t, tt.want, s.Between(tt.from, tt.to))
			require.Equal(t, tt.want, s.Upcoming(tt.from, len(tt.want)))
			// Next, step by step, and from just before each run.
			at := tt.from
			for _, want := range tt.want {
				at = s.Next(at)
				require.Equal(t, want, at)
				require.Equal(t, want, s.Next(want.Add(-time.Second)))
			}
		})
	}
}

// Asking from inside the repeated hour must not return a wall-clock time that
// already fired in the first pass.
func TestNextFromInsideRepeatedHour(t *testing.T) {
	inside := utc(2026, 11, 1, 6, 15) // 01:15 EST, the second 01:15 of the day
	require.Equal(t, utc(2026, 11, 2, 6, 30), mustParse(t, "30 1 * * *", "America/New_York").Next(inside))
	require.Equal(t, utc(2026, 11, 1, 7, 0), mustParse(t, "*/30 * * * *", "America/New_York").Next(inside))

	// From inside the first pass, the rest of that pass still fires.
	first := utc(2026, 11, 1, 5, 15) // 01:15 EDT
	require.Equal(t, utc(2026, 11, 1, 5, 30), mustParse(t, "*/30 * * * *", "America/New_York").Next(first))
}

// From the instant a skipped time fired at, the next run is the next day.
func TestNextFromSpringForwardInstant(t *testing.T) {
	s := mustParse(t, "30 2 * * *", "America/New_York")
	require.Equal(t, utc(2026, 3, 9, 6, 30), s.Next(utc(2026, 3, 8, 7, 0)))
}

// Over a whole year of clock changes, runs strictly increase and no local
// wall-clock minute fires twice.
func TestDaylightSavingYearInvariants(t *testing.T) {
	for _, tz := range []string{"America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "America/Santiago"} {
		t.Run(tz, func(t *testing.T) {
			loc, err := time.LoadLocation(tz)
			require.NoError(t, err)
			s := mustParse(t, "*/15 * * * *", tz)
			seen := map[string]bool{}
			prev := utc(2026, 1, 1, 0, 0)
			for from := prev; from.Year() == 2026; from = from.AddDate(0, 0, 10) {
				for _, run := range s.Between(from, from.AddDate(0, 0, 10)) {
					require.True(t, run.After(prev), "%v after %v", run, prev)
					prev = run
					wall := run.In(loc).Format("2006-01-02 15:04")
					require.False(t, seen[wall], "%s fired twice", wall)
					seen[wall] = true
				}
			}
		})
	}
}

// Outside clock changes the fire times are robfig's own: in UTC, for
// expressions robfig accepts unchanged, Next agrees with SpecSchedule.Next.
func TestNextAgreesWithRobfigInUTC(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, expr := range []string{
		"* * * * *", "0 9 * * *", "*/7 */5 * * *", "5/15 9-17 * * 1-5", "0 0 1 * *",
		"0 0 1 * 1", "30 6 13 * 5", "0 12 * 2 0", "15 3 29 2 *", "0 0 31 * *",
		"0-10/3 0 1,15 jan-mar *", "0 0 * * */2", "59 23 31 12 *", "0 0 1 */3 sun",
	} {
		t.Run(expr, func(t *testing.T) {
			ours := mustParse(t, expr, "UTC")
			theirs, err := cron.ParseStandard(expr)
			require.NoError(t, err)
			theirs.(*cron.SpecSchedule).Location = time.UTC
			for range 200 {
				at := utc(2020, 1, 1, 0, 0).Add(time.Duration(rng.Int64N(int64(10 * 365 * 24 * time.Hour))))
				require.Equal(t, theirs.Next(at), ours.Next(at), "after %v", at)
			}
		})
	}
}

func TestScheduleIsSafeForConcurrentUse(t *testing.T) {
	s := mustParse(t, "*/5 * * * *", "Europe/Berlin")
	want := s.Upcoming(utc(2026, 3, 29, 0, 0), 50)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			require.Equal(t, want, s.Upcoming(utc(2026, 3, 29, 0, 0), 50))
		})
	}
	wg.Wait()
}
