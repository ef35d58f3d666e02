package apierror

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is an error response from the API: any status of 400 or more.
//
// A body that is not the API's JSON error body,
// {"type":"error","error":{"type":…,"message":…},"request_id":…} (an HTML
// page from a proxy, say), still gives an *Error: Type is then derived from
// the status and Body holds what was received.
type Error struct {
	StatusCode int    // HTTP status code
	Type       Type   // error.type of the body, or derived from StatusCode
	Message    string // error.message of the body
	RequestID  string // request_id of the body, else the request-id response header

	// ErrorCode is error.details.error_code of the body: a stable name for
	// the cause, finer than Type, to branch on rather than on Message.
	// Empty when the body has none. Codes the SDK does not know are kept
	// as they are; treat one as the bare Type.
	ErrorCode string
	// Details is error.details of the body as received (nil when absent):
	// the code and any members that go with it, known to the SDK or not.
	Details json.RawMessage

	Method string // method of the failed request
	Path   string // URL path of the failed request

	Header http.Header // response headers
	Body   []byte      // raw response body, at most 1 MiB
}

// maxText bounds each part of Error's string that comes from the server
// (type, message, request id): a body or header can be as large as the
// server likes, and an error string ends up in logs. The fields keep the
// whole text.
const maxText = 1024

// clip returns s cut to at most maxText bytes, at a rune boundary, with
// "…" when something was cut.
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	n := maxText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Error formats as "<method> <path>: <status> <type>: <message> (request_id <id>)".
// It holds nothing from the request's headers, so no credential can reach it.
// The type, message and request id are cut to 1 KiB each.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("agentplatform: ")
	if e.Method != "" {
		b.WriteString(e.Method)
		b.WriteByte(' ')
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.StatusCode != 0 {
		b.WriteString(strconv.Itoa(e.StatusCode))
		b.WriteByte(' ')
	}
	b.WriteString(clip(string(e.Type)))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(clip(e.Message))
	}
	if e.RequestID != "" {
		b.WriteString(" (request_id ")
		b.WriteString(clip(e.RequestID))
		b.WriteByte(')')
	}
	return b.String()
}

// Is reports whether e matches one of the sentinel errors of this package, so
// that errors.Is(err, apierror.ErrNotFound) works through any wrapping.
func (e *Error) Is(target error) bool {
	s, ok := target.(*sentinel)
	return ok && s.matches(e)
}

// Temporary reports whether the failure is worth retrying later: the
// server's x-should-retry answer when it gave one (a 409 conflict with an
// object's state says false), else rate limits, overload, timeouts,
// conflicts and server errors.
func (e *Error) Temporary() bool {
	switch e.Header.Get("x-should-retry") {
	case "true":
		return true
	case "false":
		return false
	}
	return e.StatusCode == 408 || e.StatusCode == 409 || e.StatusCode == 429 || e.StatusCode >= 500
}
