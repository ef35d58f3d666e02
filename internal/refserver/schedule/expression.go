package schedule

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/robfig/cron/v3"
)

// maxExpressionLen is the API's limit on schedule.expression, in characters.
const maxExpressionLen = 256

// cronField describes one of the five POSIX cron fields.
type cronField struct {
	name     string         // used in rules, e.g. "day-of-week"
	min, max int            // inclusive bounds as the API states them (day-of-week is 0-7)
	names    map[string]int // accepted names, lower case; nil when names are not allowed
}

var (
	monthNames = map[string]int{
		"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
		"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
	}
	// SUN is 0, as in robfig and Vixie cron, so "FRI-SUN" is a backwards range.
	dayNames = map[string]int{
		"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6,
	}

	cronFields = [5]cronField{
		{name: "minute", min: 0, max: 59},
		{name: "hour", min: 0, max: 23},
		{name: "day-of-month", min: 1, max: 31},
		{name: "month", min: 1, max: 12, names: monthNames},
		{name: "day-of-week", min: 0, max: 7, names: dayNames},
	}
	dayOfWeek = &cronFields[4]

	// cronParser is robfig's parser restricted to the five standard fields,
	// without descriptors. It parses what validateExpression has already
	// vetted and rewritten.
	cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)
)

// parseExpression validates expression against the API's cron rules and
// returns robfig's parsed form. robfig alone is too lenient for them (it accepts "?", "@daily",
// "TZ=" prefixes, "+5", empty list elements, and rejects day-of-week 7), so the
// expression is first checked against a strict grammar here and robfig only
// sees expressions that are already known to be valid.
func parseExpression(expression string) (*cron.SpecSchedule, error) {
	if n := utf8.RuneCountInString(expression); n < 1 || n > maxExpressionLen {
		return nil, expressionError(fmt.Sprintf("must be 1-%d characters long, got %d", maxExpressionLen, n))
	}
	parts := strings.Fields(expression)
	if len(parts) > 0 {
		first := strings.ToUpper(parts[0])
		if strings.HasPrefix(first, "TZ=") || strings.HasPrefix(first, "CRON_TZ=") {
			return nil, expressionError("TZ= and CRON_TZ= prefixes are not supported; set schedule.timezone instead")
		}
		if strings.HasPrefix(parts[0], "@") {
			return nil, expressionError(fmt.Sprintf("descriptors such as %q are not supported; use 5 fields", parts[0]))
		}
	}
	if len(parts) != len(cronFields) {
		return nil, expressionError(fmt.Sprintf(
			"must have exactly 5 fields (minute hour day-of-month month day-of-week), got %d", len(parts)))
	}
	for i := range cronFields {
		text, rule := cronFields[i].check(parts[i])
		if rule != "" {
			return nil, expressionError(rule)
		}
		parts[i] = text
	}
	sched, err := cronParser.Parse(strings.Join(parts, " "))
	if err != nil {
		// Unreachable if check is stricter than robfig, which the tests
		// exercise; kept so that a disagreement surfaces as a clean *Error.
		return nil, expressionError(err.Error())
	}
	return sched.(*cron.SpecSchedule), nil
}

// check validates one field: a comma-separated list of items, each
// "*", "v" or "v-v", optionally followed by "/step". It returns the text to
// hand to robfig (rewritten for day-of-week, see sundays) or a rule.
func (f *cronField) check(text string) (string, string) {
	var out []string
	for item := range strings.SplitSeq(text, ",") {
		values, rule := f.item(item)
		if rule != "" {
			return "", rule
		}
		switch {
		case f != dayOfWeek || values == nil:
			out = append(out, item)
		default:
			out = append(out, sundays(values))
		}
	}
	return strings.Join(out, ","), ""
}

// item validates one list item and returns the values it selects, or nil for
// "*" and "*/step". Those are left to robfig as written: over day-of-week they
// select the same days as robfig's 0-6 does once 7 is read as 0, and a "*"
// must stay a star for robfig's day-of-month/day-of-week rule.
func (f *cronField) item(item string) ([]int, string) {
	if item == "" {
		return nil, fmt.Sprintf("%s has an empty list element", f.name)
	}
	if strings.Contains(item, "?") {
		return nil, "'?' is not supported; use '*'"
	}
	if strings.Contains(item, "#") {
		return nil, "'#' (nth weekday of the month) is not supported"
	}
	base, stepText, hasStep := strings.Cut(item, "/")
	step := 1
	if hasStep {
		if strings.Contains(stepText, "/") {
			return nil, fmt.Sprintf("%s item %q has more than one '/'", f.name, item)
		}
		n, ok := digits(stepText)
		if !ok || n < 1 || n > f.max {
			return nil, fmt.Sprintf("%s step %q must be a number from 1 to %d", f.name, stepText, f.max)
		}
		step = n
	}
	if base == "*" {
		// Steps over the whole 0-7 day-of-week range select the same days
		// as over robfig's 0-6 once 7 is read as 0, so the text is kept.
		return nil, ""
	}
	loText, hiText, isRange := strings.Cut(base, "-")
	if strings.Contains(hiText, "-") {
		return nil, fmt.Sprintf("%s item %q has more than one '-'", f.name, item)
	}
	lo, rule := f.value(loText)
	if rule != "" {
		return nil, rule
	}
	hi := lo
	switch {
	case isRange:
		if hi, rule = f.value(hiText); rule != "" {
			return nil, rule
		}
		if hi < lo {
			return nil, f.backwards(base)
		}
	case hasStep:
		// robfig (like many crons) reads "v/step" as "v-max/step".
		hi = f.max
	}
	var values []int
	for v := lo; v <= hi; v += step {
		values = append(values, v)
	}
	return values, ""
}

// value parses a number or, where the field allows them, a name.
func (f *cronField) value(text string) (int, string) {
	if text == "" {
		return 0, fmt.Sprintf("%s has an empty value", f.name)
	}
	if n, ok := digits(text); ok {
		if n < f.min || n > f.max {
			return 0, fmt.Sprintf("%s value %s is out of range %d-%d", f.name, text, f.min, f.max)
		}
		return n, ""
	}
	lower := strings.ToLower(text)
	if n, ok := f.names[lower]; ok {
		return n, ""
	}
	// Names are checked before L and W because JUL and WED contain them.
	if _, ok := monthNames[lower]; ok {
		return 0, fmt.Sprintf("%s does not accept the name %q", f.name, text)
	}
	if _, ok := dayNames[lower]; ok {
		return 0, fmt.Sprintf("%s does not accept the name %q", f.name, text)
	}
	// Quartz-style L, 5L, LW and 15W get a rule of their own.
	switch strings.ToUpper(strings.TrimLeft(text, "0123456789")) {
	case "L", "LW":
		return 0, "'L' (last day) is not supported"
	case "W":
		return 0, "'W' (nearest weekday) is not supported"
	}
	return 0, fmt.Sprintf("%s value %q is not a number", f.name, text)
}

func (f *cronField) backwards(base string) string {
	rule := fmt.Sprintf("%s range %s runs backwards", f.name, base)
	if f == dayOfWeek {
		rule += "; Sunday is 0 or 7, so write e.g. 5-7 for Friday to Sunday"
	}
	return rule
}

// sundays renders day-of-week values as a robfig list, with 7 read as 0:
// robfig's day-of-week range is 0-6 and it rejects 7 in every form.
func sundays(values []int) string {
	days := make([]int, 0, len(values))
	for _, v := range values {
		days = append(days, v%7)
	}
	slices.Sort(days)
	days = slices.Compact(days)
	text := make([]string, len(days))
	for i, d := range days {
		text[i] = strconv.Itoa(d)
	}
	return strings.Join(text, ",")
}

// digits parses s if it is made of ASCII digits only; strconv.Atoi alone
// would also take "+5". Long numbers are reported as out of range by the
// caller through an oversized value rather than an overflow error.
func digits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	if len(s) > 4 {
		return 1 << 20, true // certainly out of range for every field
	}
	n, _ := strconv.Atoi(s)
	return n, true
}
