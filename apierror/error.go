package apierror

import (
	"bytes"
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

	Method string // method of the failed request
	Path   string // URL path of the failed request

	Header http.Header // response headers
	Body   []byte      // raw response body, at most MaxBodySize bytes
}

// MaxBodySize bounds how much of an error body is read and kept.
const MaxBodySize = 1 << 20

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

// wireError is the API's JSON error body.
type wireError struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

// FromResponse builds the error for a response with status >= 400 whose body
// (at most MaxBodySize bytes) has already been read.
func FromResponse(method, path string, status int, header http.Header, body []byte) *Error {
	e := &Error{StatusCode: status, Method: method, Path: path, Header: header, Body: body}
	var w wireError
	if len(body) > 0 && json.Unmarshal(body, &w) == nil && w.Error.Type != "" {
		e.Type = Type(w.Error.Type)
		e.Message = w.Error.Message
		e.RequestID = w.RequestID
	} else {
		e.Type = typeForStatus(status)
		e.Message = nonJSONMessage(status, header, len(body))
	}
	if e.RequestID == "" && header != nil {
		e.RequestID = header.Get("request-id")
	}
	return e
}

// nonJSONMessage describes a body that is not an error body without quoting
// it: a proxy page can be large, and nothing in it is for the caller's logs.
func nonJSONMessage(status int, header http.Header, n int) string {
	text := http.StatusText(status)
	if text == "" {
		text = "status " + strconv.Itoa(status)
	}
	if n == 0 {
		return text + " (empty response body)"
	}
	ct := ""
	if header != nil {
		ct = header.Get("Content-Type")
	}
	if ct == "" {
		ct = "unknown content type"
	}
	return text + " (non-JSON response body: " + strconv.Itoa(n) + " bytes of " + ct + ")"
}

// FromStreamEvent builds the error carried by an `error` event of an event
// stream, whose data is the same JSON error body as a response's. There is
// no HTTP status on such an event; StatusCode is the one the error type
// implies, so that Temporary and the sentinels work as they do for
// responses.
func FromStreamEvent(method, path string, data []byte) *Error {
	e := &Error{Method: method, Path: path, Body: bytes.Clone(data)}
	var w wireError
	if json.Unmarshal(data, &w) == nil && w.Error.Type != "" {
		e.Type, e.Message, e.RequestID = Type(w.Error.Type), w.Error.Message, w.RequestID
	} else {
		e.Type, e.Message = TypeAPI, "malformed error event"
	}
	e.StatusCode = statusForType(e.Type)
	return e
}
