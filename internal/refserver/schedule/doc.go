// Package schedule validates deployment schedules and computes their fire
// times for the reference server (docs/managed-agents-wire.md 8.1, 8.2).
//
// A deployment schedule is {type: cron, expression, timezone}. Parse checks
// both fields and returns a *Schedule; the server uses Next or Upcoming to
// fill upcoming_runs_at and Between to find the runs that fell due since
// last_run_at:
//
//	s, err := schedule.Parse("0 9 * * 1-5", "America/New_York")
//	if err != nil {
//		var e *schedule.Error // e.Field is "schedule.expression" or "schedule.timezone"
//		...
//	}
//	upcoming := s.Upcoming(now, 5)         // UTC instants
//	due := s.Between(lastRunAt, now)       // lastRunAt < t <= now, at most 1000
//
// # Expressions
//
// An expression is 1-256 characters: exactly five whitespace-separated fields,
// minute (0-59), hour (0-23), day-of-month (1-31), month (1-12) and
// day-of-week (0-7, where both 0 and 7 are Sunday). Each field is a
// comma-separated list of "*", "v" or "v-v", each optionally followed by
// "/step" (1 up to the field's maximum); "v/step" means "v-max/step".
// Parsing is done by github.com/robfig/cron/v3, behind a stricter check that
// enforces the API's restrictions, which robfig alone does not:
//
//   - seconds and year fields (6 or 7 fields) are rejected, as are "@daily"
//     and other "@" descriptors, "TZ=" and "CRON_TZ=" prefixes (the timezone
//     is a separate field), and the non-POSIX "L", "W", "#" and "?";
//   - numbers are plain ASCII digits ("+5" is rejected) and list elements
//     may not be empty ("1,,2");
//   - day-of-week 7 is Sunday in every form: "7", "1,7", "5-7", "*/7",
//     "1-7/2". robfig's day-of-week range is 0-6, so such items are expanded
//     and 7 is rewritten to 0 before robfig sees them.
//
// Month names JAN-DEC and day names SUN-SAT, in any case, are accepted as the
// common extension of POSIX that robfig implements, in the month and
// day-of-week fields only. SUN is 0, so "FRI-SUN" is a backwards range and is
// rejected; "5-7" or "FRI-SAT,SUN" say it.
//
// Day-of-month and day-of-week combine as in POSIX cron: if either is "*",
// both must match; if both are restricted, a day matching either fires
// ("0 0 1 * MON" fires on the 1st and on every Monday). As in robfig, a field
// counts as "*" only when written "*" or "*/1"; "*/2" is a restriction.
// Expressions that never fire, such as "0 0 30 2 *", are valid; Next returns
// the zero Time for them.
//
// # Timezones
//
// The timezone is an IANA identifier resolved with time.LoadLocation. The
// package imports time/tzdata, so validation works on hosts without a zoneinfo
// database. "UTC" and "Etc/UTC" are IANA names and accepted; "" and "Local"
// are rejected, and so are the non-IANA files of /usr/share/zoneinfo
// ("localtime", "posixrules", "posix/...", "right/..."). Lookups are
// case-sensitive on Linux: "America/New_york" is rejected there.
//
// # Fire times and daylight saving time
//
// Fire times are computed in the schedule's timezone and returned in UTC.
// Each matching wall-clock minute fires once:
//
//   - Spring forward: a wall-clock time that does not exist fires at the
//     first instant after the jump. "30 2 * * *" in America/New_York fires at
//     03:00 EDT (07:00 UTC) on 2026-03-08. Several skipped times, and a
//     matching 03:00 itself, all fire at that one instant, once.
//   - Fall back: a wall-clock time that occurs twice fires at its first
//     occurrence only. "30 1 * * *" fires at 01:30 EDT on 2026-11-01, not
//     again at 01:30 EST; "0 * * * *" does not fire at 01:00 EST, so there are
//     two hours between its 01:00 EDT and 02:00 EST runs.
//
// This is not what robfig's own SpecSchedule.Next does: measured on v3.0.1,
// it silently skips the 02:30 run on the spring-forward day and fires 01:30
// twice on the fall-back day. This package therefore uses robfig's parsed
// fields but walks the wall-clock calendar itself (see next.go); a test pins
// robfig's behaviour so that a change in it is noticed.
//
// Next gives up after five years, like robfig. Upcoming and Between return at
// most 1000 times, so that a large n or a wide window cannot make the server
// allocate without bound.
package schedule
