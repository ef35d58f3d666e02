package schedule

import "time"

const (
	// maxRuns caps Upcoming and Between, so that a wide window or a large n
	// cannot make the server allocate without bound.
	maxRuns = 1000

	// horizonYears bounds Next: like robfig, give up when the schedule does
	// not fire within five years (for example "0 0 30 2 *").
	horizonYears = 5

	// probe is how far from a wall-clock time the offsets in force before and
	// after it are read. Zone offsets lie within -12h..+14h, so instants 36h
	// away are safely on either side of any transition affecting that time.
	probe = 36 * time.Hour

	// starBit is robfig's marker for a field written as "*"; see dayMatches.
	starBit = 1 << 63
)

// Next returns the first fire time strictly after `after`, in UTC, or the zero
// Time if the schedule does not fire within five years of `after`.
func (s *Schedule) Next(after time.Time) time.Time {
	return s.next(after, after.AddDate(horizonYears, 0, 0))
}

// Upcoming returns the next n fire times strictly after `after`, in UTC and in
// order. It returns fewer when the schedule stops firing (no run within five
// years of the previous one), never more than 1000, and an empty non-nil slice
// when n <= 0, so that it marshals as [] in upcoming_runs_at.
func (s *Schedule) Upcoming(after time.Time, n int) []time.Time {
	runs := make([]time.Time, 0, max(0, min(n, maxRuns)))
	for t := after; len(runs) < cap(runs); {
		if t = s.Next(t); t.IsZero() {
			break
		}
		runs = append(runs, t)
	}
	return runs
}

// Between returns the fire times t with from < t <= to, in UTC and in order:
// the runs a scheduler owes for the window since it last looked. It returns at
// most the first 1000; a caller that gets 1000 should continue from the last
// one. It returns an empty non-nil slice when there are none.
func (s *Schedule) Between(from, to time.Time) []time.Time {
	runs := []time.Time{}
	for t := from; len(runs) < maxRuns; {
		if t = s.next(t, to); t.IsZero() {
			break
		}
		runs = append(runs, t)
	}
	return runs
}

// next returns the first fire time after `after` and not after limit, or the
// zero Time.
//
// It walks the wall-clock minutes that match the expression in the schedule's
// timezone, in order, and maps each to an instant with fireAt. fireAt never
// decreases along that walk, so the first instant past `after` is the answer,
// and wall-clock times that map to an instant already passed (the second pass
// through a repeated hour, or several minutes of a skipped hour that all fire
// at its end) are skipped rather than fired again.
func (s *Schedule) next(after, limit time.Time) time.Time {
	if !limit.After(after) {
		return time.Time{}
	}
	start := s.earliestWall(after)
	// Wall-clock times past this one map to instants past limit.
	end := s.wall(limit).Add(probe)
	first := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, time.UTC)
	for day := first; !day.After(end); day = day.AddDate(0, 0, 1) {
		if !s.dayMatches(day) {
			continue
		}
		for h := range 24 {
			hour := day.Add(time.Duration(h) * time.Hour)
			if s.spec.Hour&(1<<h) == 0 || hour.Add(time.Hour).Before(start) {
				continue
			}
			for m := range 60 {
				w := hour.Add(time.Duration(m) * time.Minute)
				if s.spec.Minute&(1<<m) == 0 || w.Before(start) {
					continue
				}
				t := s.fireAt(w)
				switch {
				case !t.After(after):
					continue
				case t.After(limit):
					return time.Time{}
				}
				return t.UTC()
			}
		}
	}
	return time.Time{}
}

// Wall-clock times are represented as time.Time values in UTC whose fields are
// the local date and time: plain civil arithmetic, free of offsets.

// wall returns the wall-clock reading of t in the schedule's timezone.
func (s *Schedule) wall(t time.Time) time.Time {
	_, off := t.In(s.loc).Zone()
	return t.UTC().Add(time.Duration(off) * time.Second)
}

// earliestWall returns a wall-clock minute at or before every matching
// wall-clock time that fires after `after`. That is the reading of `after`,
// except when the clock is about to be turned back (or `after` lies in the
// repeated hour), where times earlier than the current reading still fire later;
// hence the smaller of the offsets now and a day and a half ahead.
func (s *Schedule) earliestWall(after time.Time) time.Time {
	_, now := after.In(s.loc).Zone()
	_, later := after.Add(probe).In(s.loc).Zone()
	return after.UTC().Add(time.Duration(min(now, later)) * time.Second).Truncate(time.Minute)
}

// fireAt maps a wall-clock time to the instant it fires at:
//   - a time that occurs once fires then;
//   - a time that occurs twice (the clock was turned back) fires at its first
//     occurrence only;
//   - a time that does not occur (the clock jumped over it) fires at the first
//     instant after the jump, for example 03:00 EDT for 02:30 on the day New
//     York springs forward. Every skipped time fires there, once.
//
// time.Date is not used because its choice for such times is unspecified.
func (s *Schedule) fireAt(w time.Time) time.Time {
	_, before := w.Add(-probe).In(s.loc).Zone()
	_, after := w.Add(probe).In(s.loc).Zone()
	var first time.Time
	for _, off := range [...]int{before, after} {
		t := w.Add(-time.Duration(off) * time.Second)
		// t reads as w exactly when off is the offset in force at t.
		if _, actual := t.In(s.loc).Zone(); actual == off && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	if !first.IsZero() {
		return first
	}
	// A skipped time. Read with the earlier offset it lands after the jump,
	// inside the zone period that the jump starts.
	start, _ := w.Add(-time.Duration(before) * time.Second).In(s.loc).ZoneBounds()
	if start.IsZero() {
		// Not reachable with real zone data; keep a defined answer anyway.
		return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), 0, 0, s.loc)
	}
	return start
}

// dayMatches reports whether the wall-clock date d matches the month,
// day-of-month and day-of-week fields. It mirrors robfig's unexported rule:
// when either day field is "*", both must match; when both are restricted,
// either may match (POSIX: "0 0 1 * MON" fires on the 1st and on Mondays).
func (s *Schedule) dayMatches(d time.Time) bool {
	if s.spec.Month&(1<<uint(d.Month())) == 0 {
		return false
	}
	dom := s.spec.Dom&(1<<uint(d.Day())) != 0
	dow := s.spec.Dow&(1<<uint(d.Weekday())) != 0
	if s.spec.Dom&starBit != 0 || s.spec.Dow&starBit != 0 {
		return dom && dow
	}
	return dom || dow
}
