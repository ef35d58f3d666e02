package deployments

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/agentplatform/agentplatform-go/internal/refserver/schedule"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
)

// roundTrip checks decode → encode → decode: what decodes encodes, and
// decodes again to an equal value.
func roundTrip[T any](t *testing.T, data []byte) {
	wiretest.RoundTrip(t, data, wiretest.Decode[T], false)
}

// seeds adds the documents of testdata/<dir> to f's corpus.
func seeds(f *testing.F, dir string) {
	for _, doc := range wiretest.Documents(f, filepath.Join("testdata", dir)) {
		f.Add(doc)
	}
}

// FuzzDeploymentRoundTrip checks the deployment and the unions it holds
// (resource configurations, the paused reason, and the initial events and
// checkouts decoded by the sessions package): whatever decodes survives
// decode → encode → decode unchanged.
func FuzzDeploymentRoundTrip(f *testing.F) {
	seeds(f, "deployment")
	f.Fuzz(roundTrip[Deployment])
}

// FuzzRunRoundTrip checks the run and its trigger context likewise.
func FuzzRunRoundTrip(f *testing.F) {
	seeds(f, "run")
	f.Fuzz(roundTrip[Run])
}

// FuzzSchedule checks cron expression and timezone validation. The SDK
// checks only lengths locally; cron syntax and IANA names are the
// server's, and the reference server's schedule package (which the
// scheduled deployments of the reference server run on) is what judges
// them. For any expression, timezone and instant:
//
//   - Parse never panics and refuses with a *schedule.Error naming
//     schedule.expression or schedule.timezone, its message bounded;
//   - what Parse accepts, the SDK's local check accepts too: nothing the
//     server would take is refused before sending;
//   - an accepted schedule's next fire time is strictly after now and
//     within the five-year horizon, or zero when it never fires there (an
//     expression such as "0 0 30 2 *"), and it is found in bounded time;
//   - the next fire times are increasing, and in zones without clock
//     changes they are robfig/cron's own.
func FuzzSchedule(f *testing.F) {
	for _, seed := range []struct {
		expr, tz string
		now      int64 // seconds after 2026-01-01T00:00:00Z
	}{
		{"0 9 * * 1-5", "America/Los_Angeles", 0},
		{"30 2 * * *", "America/New_York", 5_700_000},  // spring forward, 2026-03-08
		{"30 1 * * *", "America/New_York", 26_500_000}, // fall back, 2026-11-01
		{"*/15 * * * *", "Australia/Lord_Howe", 8_000_000},
		{"0-30/10 9-17 * * MON-FRI", "Europe/Berlin", 0},
		{"0 0 1 jan-MAR/2 *", "UTC", -1_000_000_000},
		{"0 9 * * 7", "Etc/GMT+5", 0},
		{"0 0 29 2 *", "UTC", 100},
		{"0 0 30 2 *", "UTC", 0}, // valid, never fires
		{"0 0 31 4,6,9,11 *", "Asia/Kolkata", 0},
		{"0 0 1 * 1", "UTC", 0},
		{"59 23 31 12 6", "Pacific/Kiritimati", 0},
		{"  0\t9 * * *  ", "UTC", 0},
		{"@daily", "UTC", 0},
		{"TZ=UTC 0 9 * * *", "UTC", 0},
		{"0 9 L * *", "UTC", 0},
		{"99999999999999999999 * * * *", "UTC", 0},
		{"0 9 * * *", "Mars/Olympus", 0},
		{"0 9 * * *", "../etc/passwd", 0},
		{"0 9 * * *", "posix/America/New_York", 0},
		{"0 9 * * *", "", 0},
		{"0\u00a09 * * *", "UTC", 0},
	} {
		f.Add(seed.expr, seed.tz, seed.now)
	}
	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const span = 400 * 365 * 24 * 3600 // now stays within 1826..2426
	f.Fuzz(func(t *testing.T, expr, tz string, offset int64) {
		s, err := schedule.Parse(expr, tz)
		if err != nil {
			var e *schedule.Error
			if !errors.As(err, &e) || s != nil {
				t.Fatalf("Parse(%q, %q) = %v, %v: want a *schedule.Error alone", expr, tz, s, err)
			}
			if e.Field != "schedule.expression" && e.Field != "schedule.timezone" {
				t.Fatalf("error names field %q", e.Field)
			}
			if len(err.Error()) > 4096 {
				t.Fatalf("error message of %d bytes", len(err.Error()))
			}
			return
		}
		if err := (&ScheduleParam{Expression: expr, Timezone: tz}).validate(); err != nil {
			t.Fatalf("the server accepts %q in %q, the SDK refuses it: %v", expr, tz, err)
		}
		if s.Expression() != expr || s.Timezone() != tz {
			t.Fatalf("echoed as %q %q", s.Expression(), s.Timezone())
		}

		now := epoch.Add(time.Duration(offset%span) * time.Second)
		start := time.Now()
		runs := s.Upcoming(now, 3)
		// A bound that only a runaway walk (minute by minute over years,
		// say) reaches, however loaded the machine: a correct one takes
		// milliseconds.
		if d := time.Since(start); d > time.Minute {
			t.Fatalf("three fire times of %q took %v", expr, d)
		}
		prev := now
		for _, r := range runs {
			if !r.After(prev) || r.Location() != time.UTC {
				t.Fatalf("%q in %s after %v: fire times %v are not increasing UTC times", expr, tz, now, runs)
			}
			if r.After(prev.AddDate(5, 0, 0)) {
				t.Fatalf("%q: %v is beyond the five-year horizon from %v", expr, r, prev)
			}
			prev = r
		}
		next := s.Next(now)
		if len(runs) > 0 && !next.Equal(runs[0]) || len(runs) == 0 && !next.IsZero() {
			t.Fatalf("Next %v disagrees with Upcoming %v", next, runs)
		}

		// Without clock changes the fire times are robfig's.
		if tz != "UTC" && !strings.HasPrefix(tz, "Etc/") {
			return
		}
		theirs, err := cron.ParseStandard(expr)
		if err != nil {
			return // day-of-week 7, which robfig refuses
		}
		loc, _ := time.LoadLocation(tz)
		theirs.(*cron.SpecSchedule).Location = loc
		want := theirs.Next(now)
		switch {
		case next.IsZero() && !want.IsZero() && !want.After(now.AddDate(5, 0, 0)):
			t.Fatalf("%q in %s after %v: never fires, robfig says %v", expr, tz, now, want)
		case !next.IsZero() && !next.Equal(want):
			t.Fatalf("%q in %s after %v: fires at %v, robfig says %v", expr, tz, now, next, want)
		}
	})
}
