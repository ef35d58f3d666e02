package schedule

import (
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // validate timezones on hosts without a zoneinfo database
	"unicode/utf8"

	"github.com/robfig/cron/v3"
)

// Schedule is a validated cron schedule in an IANA timezone. It is immutable
// and safe for concurrent use.
type Schedule struct {
	spec       *cron.SpecSchedule // robfig's bit sets; its Location is set but unused
	loc        *time.Location
	expression string
	timezone   string
}

// Parse validates a deployment schedule and returns it.
//
// expression must be a 5-field cron expression as described in the package
// documentation; timezone must be an IANA time zone identifier such as
// "America/New_York" or "UTC". On invalid input Parse returns an *Error naming
// the field; when both are invalid, the expression is reported.
func Parse(expression, timezone string) (*Schedule, error) {
	spec, err := parseExpression(expression)
	if err != nil {
		return nil, err
	}
	loc, err := loadTimezone(timezone)
	if err != nil {
		return nil, err
	}
	spec.Location = loc
	return &Schedule{spec: spec, loc: loc, expression: expression, timezone: timezone}, nil
}

// Expression returns the expression exactly as given to Parse, for echoing
// back in API responses.
func (s *Schedule) Expression() string { return s.expression }

// Timezone returns the timezone exactly as given to Parse.
func (s *Schedule) Timezone() string { return s.timezone }

// loadTimezone resolves an IANA identifier with time.LoadLocation, which reads
// the host's zoneinfo and falls back to the copy embedded by time/tzdata.
//
// LoadLocation also accepts names that are not IANA identifiers, which are
// rejected here: "" and "Local" (the host's zone, which would make the
// schedule depend on the machine), and the distribution artefacts found in
// /usr/share/zoneinfo: "localtime", "posixrules" and the "posix/" and "right/"
// trees ("right/" zones count leap seconds and would shift every run by
// about 27 seconds). On Linux the lookup is case-sensitive, so
// "America/New_york" is rejected; on a case-insensitive file system (macOS) the
// host database may accept it.
func loadTimezone(name string) (*time.Location, error) {
	switch {
	case name == "":
		return nil, timezoneError("is required (an IANA time zone such as \"America/New_York\")")
	case name == "Local" || name == "localtime" || name == "posixrules" ||
		strings.HasPrefix(name, "posix/") || strings.HasPrefix(name, "right/"):
		return nil, timezoneError("must be an IANA time zone identifier, got " + quote(name))
	case strings.ContainsFunc(name, notIANA):
		return nil, timezoneError("must be an IANA time zone identifier, got " + quote(name))
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, timezoneError("unknown IANA time zone " + quote(name))
	}
	return loc, nil
}

// notIANA reports runes that never occur in IANA zone names. It keeps file
// names such as "zone.tab" and paths such as "../x" away from LoadLocation.
func notIANA(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return false
	}
	return !strings.ContainsRune("/_-+", r)
}

// quote bounds what a rule echoes back: the timezone has no length limit,
// and error messages should stay short.
func quote(s string) string {
	const max = 64
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max]) + "..."
	}
	return strconv.Quote(s)
}
