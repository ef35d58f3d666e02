package schedule_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver/schedule"
)

const (
	fieldExpression = "schedule.expression"
	fieldTimezone   = "schedule.timezone"
)

// ofLength returns a valid expression of exactly n characters (n >= 10),
// made long by a minute field that lists minute 1 over and over.
func ofLength(n int) string {
	const rest = " * * * *"
	m := n - len(rest)
	if m%2 == 1 {
		return strings.Repeat("1,", m/2) + "1" + rest
	}
	return strings.Repeat("1,", m/2-1) + "10" + rest
}

func TestParseAccepts(t *testing.T) {
	for _, expr := range []string{
		"* * * * *",
		"0 9 * * *",
		"*/15 * * * *",
		"5/15 * * * *",
		"0-30/10 9-17 * * *",
		"0 9 * * 1-5",
		"0 9 * * MON-FRI",
		"0 9 * * mon,Wed,FRI",
		"0 0 1 JAN,jul *",
		"0 0 1 jan-MAR/2 *",
		"00 09 01 01 0",
		"0 9 * * 7",
		"0 9 * * 5-7",
		"0 9 * * 1,7",
		"0 9 * * */7",
		"0 9 * * 0-7",
		"0 9 * * 1-7/2",
		"0 9 * * 7/1",
		"0 0 29 2 *",
		"0 0 30 2 *", // valid but never fires
		"59 23 31 12 6",
		"  0 9 * * *  ",
		"0\t9\t*\t*\t*",
		ofLength(256),
	} {
		t.Run(expr, func(t *testing.T) {
			s, err := schedule.Parse(expr, "UTC")
			require.NoError(t, err)
			require.Equal(t, expr, s.Expression())
			require.Equal(t, "UTC", s.Timezone())
		})
	}
}

func TestParseAcceptsTimezones(t *testing.T) {
	for _, tz := range []string{
		"UTC", "Etc/UTC", "GMT", "Etc/GMT+5", "America/New_York", "Europe/Berlin",
		"Asia/Kolkata", "America/Argentina/Buenos_Aires", "US/Eastern", "Australia/Lord_Howe",
	} {
		t.Run(tz, func(t *testing.T) {
			s, err := schedule.Parse("0 9 * * *", tz)
			require.NoError(t, err)
			require.Equal(t, tz, s.Timezone())
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name, expr, tz string
		field, rule    string // rule: a substring of Error.Rule
	}{
		{"empty", "", "UTC", fieldExpression, "1-256 characters"},
		{"257 characters", ofLength(257), "UTC", fieldExpression, "got 257"},
		{"blank", "   ", "UTC", fieldExpression, "exactly 5 fields"},
		{"4 fields", "0 9 * *", "UTC", fieldExpression, "got 4"},
		{"6 fields, seconds", "0 0 9 * * *", "UTC", fieldExpression, "got 6"},
		{"6 fields, year", "0 9 * * * 2026", "UTC", fieldExpression, "got 6"},
		{"7 fields", "0 0 9 * * * 2026", "UTC", fieldExpression, "got 7"},
		{"@daily", "@daily", "UTC", fieldExpression, "descriptors"},
		{"@every", "@every 1h", "UTC", fieldExpression, "descriptors"},
		{"@reboot", "@reboot", "UTC", fieldExpression, "descriptors"},
		{"TZ prefix", "TZ=UTC 0 9 * * *", "UTC", fieldExpression, "TZ="},
		{"CRON_TZ prefix", "CRON_TZ=Europe/Berlin 0 9 * * *", "UTC", fieldExpression, "CRON_TZ="},
		{"L in day-of-month", "0 9 L * *", "UTC", fieldExpression, "'L'"},
		{"L in day-of-week", "0 9 * * 5L", "UTC", fieldExpression, "'L'"},
		{"LW", "0 9 LW * *", "UTC", fieldExpression, "'L'"},
		{"W", "0 9 15W * *", "UTC", fieldExpression, "'W'"},
		{"#", "0 9 * * 1#2", "UTC", fieldExpression, "'#'"},
		{"? in day-of-month", "0 9 ? * 1", "UTC", fieldExpression, "'?'"},
		{"? in day-of-week", "0 9 1 * ?", "UTC", fieldExpression, "'?'"},
		{"minute 60", "60 * * * *", "UTC", fieldExpression, "minute value 60 is out of range 0-59"},
		{"hour 24", "0 24 * * *", "UTC", fieldExpression, "hour value 24 is out of range 0-23"},
		{"day-of-month 0", "0 0 0 * *", "UTC", fieldExpression, "day-of-month value 0 is out of range 1-31"},
		{"day-of-month 32", "0 0 32 * *", "UTC", fieldExpression, "day-of-month value 32 is out of range 1-31"},
		{"month 0", "0 0 1 0 *", "UTC", fieldExpression, "month value 0 is out of range 1-12"},
		{"month 13", "0 0 1 13 *", "UTC", fieldExpression, "month value 13 is out of range 1-12"},
		{"day-of-week 8", "0 9 * * 8", "UTC", fieldExpression, "day-of-week value 8 is out of range 0-7"},
		{"range end out of range", "0 9 * * 5-8", "UTC", fieldExpression, "day-of-week value 8"},
		{"huge number", "99999999999999999999 * * * *", "UTC", fieldExpression, "out of range"},
		{"backwards range", "30-10 * * * *", "UTC", fieldExpression, "runs backwards"},
		{"SAT-SUN", "0 9 * * SAT-SUN", "UTC", fieldExpression, "Sunday is 0 or 7"},
		{"step 0", "*/0 * * * *", "UTC", fieldExpression, "step"},
		{"step too large", "*/60 * * * *", "UTC", fieldExpression, "from 1 to 59"},
		{"day-of-week step 8", "0 9 * * */8", "UTC", fieldExpression, "from 1 to 7"},
		{"two slashes", "*/5/2 * * * *", "UTC", fieldExpression, "more than one '/'"},
		{"two hyphens", "0 9 * * 1-2-3", "UTC", fieldExpression, "more than one '-'"},
		{"negative", "-1 * * * *", "UTC", fieldExpression, "empty value"},
		{"open range", "5- * * * *", "UTC", fieldExpression, "empty value"},
		{"plus sign", "+5 * * * *", "UTC", fieldExpression, "not a number"},
		{"empty list element", "1,,2 * * * *", "UTC", fieldExpression, "empty list element"},
		{"trailing comma", "0 9 * * 1,", "UTC", fieldExpression, "empty list element"},
		{"unknown name", "0 9 * JAN-FOO *", "UTC", fieldExpression, `"FOO" is not a number`},
		{"day name in month", "0 9 * MON *", "UTC", fieldExpression, `month does not accept the name "MON"`},
		{"month name in day-of-month", "0 9 JUL * *", "UTC", fieldExpression, "day-of-month does not accept"},
		{"name in minute", "WED * * * *", "UTC", fieldExpression, "minute does not accept"},
		{"word", "0 9 * * weekday", "UTC", fieldExpression, `"weekday" is not a number`},

		{"unknown timezone", "0 9 * * *", "Mars/Olympus", fieldTimezone, "unknown IANA time zone"},
		{"empty timezone", "0 9 * * *", "", fieldTimezone, "is required"},
		{"Local", "0 9 * * *", "Local", fieldTimezone, "IANA time zone identifier"},
		{"localtime", "0 9 * * *", "localtime", fieldTimezone, "IANA time zone identifier"},
		{"posixrules", "0 9 * * *", "posixrules", fieldTimezone, "IANA time zone identifier"},
		{"right/", "0 9 * * *", "right/UTC", fieldTimezone, "IANA time zone identifier"},
		{"posix/", "0 9 * * *", "posix/America/New_York", fieldTimezone, "IANA time zone identifier"},
		{"file", "0 9 * * *", "zone.tab", fieldTimezone, "IANA time zone identifier"},
		{"path", "0 9 * * *", "/etc/localtime", fieldTimezone, "unknown IANA time zone"},
		{"dot dot", "0 9 * * *", "../etc/passwd", fieldTimezone, "IANA time zone identifier"},
		{"space", "0 9 * * *", " UTC", fieldTimezone, "IANA time zone identifier"},
		{"offset", "0 9 * * *", "+02:00", fieldTimezone, "IANA time zone identifier"},
		{"long", "0 9 * * *", strings.Repeat("Abc", 100), fieldTimezone, `"` + strings.Repeat("Abc", 21) + `A..."`},

		{"both invalid", "0 9 * *", "Mars/Olympus", fieldExpression, "exactly 5 fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schedule.Parse(tt.expr, tt.tz)
			require.Nil(t, s)
			var e *schedule.Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, tt.field, e.Field)
			require.Contains(t, e.Rule, tt.rule)
			require.Equal(t, e.Field+": "+e.Rule, err.Error())
		})
	}
}

// On Linux, time.LoadLocation looks names up in /usr/share/zoneinfo and then in
// the embedded copy, both case-sensitively, so a miscased name is unknown. A
// case-insensitive file system (macOS) may resolve it, hence the skip.
func TestParseRejectsMiscasedTimezoneOnLinux(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("zoneinfo lookups are case-sensitive only on case-sensitive file systems")
	}
	_, err := schedule.Parse("0 9 * * *", "America/New_york")
	var e *schedule.Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, fieldTimezone, e.Field)
	require.Equal(t, `unknown IANA time zone "America/New_york"`, e.Rule)
}

func TestErrorIsUsableWithErrorsAs(t *testing.T) {
	_, err := schedule.Parse("@daily", "UTC")
	wrapped := errors.Join(errors.New("create deployment"), err)
	var e *schedule.Error
	require.True(t, errors.As(wrapped, &e))
	require.Equal(t, fieldExpression, e.Field)
}

// Day-of-week 7 is Sunday in every form it can take. Each expression is run
// for one week from Monday 2026-03-02 and the weekdays it fired on compared.
func TestParseDayOfWeekSeven(t *testing.T) {
	monday := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		expr string
		want []time.Weekday
	}{
		{"0 9 * * 7", []time.Weekday{time.Sunday}},
		{"0 9 * * 0", []time.Weekday{time.Sunday}},
		{"0 9 * * SUN", []time.Weekday{time.Sunday}},
		{"0 9 * * 5-7", []time.Weekday{time.Friday, time.Saturday, time.Sunday}},
		{"0 9 * * 6-7", []time.Weekday{time.Saturday, time.Sunday}},
		{"0 9 * * 7-7", []time.Weekday{time.Sunday}},
		{"0 9 * * FRI-SAT,SUN", []time.Weekday{time.Friday, time.Saturday, time.Sunday}},
		{"0 9 * * 1,7", []time.Weekday{time.Monday, time.Sunday}},
		{"0 9 * * 0,7", []time.Weekday{time.Sunday}},
		{"0 9 * * */7", []time.Weekday{time.Sunday}},
		{"0 9 * * 7/1", []time.Weekday{time.Sunday}},
		{"0 9 * * 5/1", []time.Weekday{time.Friday, time.Saturday, time.Sunday}},
		{"0 9 * * 1-7/2", []time.Weekday{time.Monday, time.Wednesday, time.Friday, time.Sunday}},
		{"0 9 * * 0-7", []time.Weekday{
			time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday,
		}},
		{"0 9 * * */2", []time.Weekday{time.Tuesday, time.Thursday, time.Saturday, time.Sunday}},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			s, err := schedule.Parse(tt.expr, "UTC")
			require.NoError(t, err)
			var got []time.Weekday
			for _, run := range s.Between(monday, monday.AddDate(0, 0, 7)) {
				require.Equal(t, 9, run.Hour())
				got = append(got, run.Weekday())
			}
			require.Equal(t, tt.want, got)
		})
	}
}

// With day-of-week 7 rewritten, the day-of-month/day-of-week rule still holds:
// when both are restricted, either matching fires.
func TestParseDayOfWeekSevenWithDayOfMonth(t *testing.T) {
	s, err := schedule.Parse("0 0 10 * 7", "UTC")
	require.NoError(t, err)
	got := s.Upcoming(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), 4)
	require.Equal(t, []time.Time{
		time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC),  // Sunday
		time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC), // the 10th, a Tuesday
		time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC), // Sunday
		time.Date(2026, 3, 22, 0, 0, 0, 0, time.UTC), // Sunday
	}, got)
}
