package schedule

// Field names used in Error.Field. They are the request-body paths of the
// deployment's schedule, so that the server can put them in its error message
// unchanged.
const (
	fieldExpression = "schedule.expression"
	fieldTimezone   = "schedule.timezone"
)

// Error reports an invalid schedule. Parse returns it (as *Error) for every
// input it rejects, so that callers can name the offending field in an
// invalid_request_error without parsing message text.
type Error struct {
	// Field is "schedule.expression" or "schedule.timezone".
	Field string
	// Rule is a human-readable statement of the rule that the value broke,
	// for example "day-of-week value 8 is out of range 0-7".
	Rule string
}

// Error returns "<field>: <rule>".
func (e *Error) Error() string { return e.Field + ": " + e.Rule }

func expressionError(rule string) *Error { return &Error{Field: fieldExpression, Rule: rule} }

func timezoneError(rule string) *Error { return &Error{Field: fieldTimezone, Rule: rule} }
