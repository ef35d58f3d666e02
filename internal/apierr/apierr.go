// Package apierr builds the SDK's *apierror.Error values from what the
// API sent: an error response, or an error event of an event stream.
package apierr

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// MaxBodySize bounds how much of an error body is read and kept.
const MaxBodySize = 1 << 20

// wireError is the API's JSON error body.
type wireError struct {
	Type  string `json:"type"`
	Error struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

// FromResponse builds the error for a response with status >= 400 whose body
// (at most MaxBodySize bytes) has already been read.
func FromResponse(method, path string, status int, header http.Header, body []byte) *apierror.Error {
	e := &apierror.Error{StatusCode: status, Method: method, Path: path, Header: header, Body: body}
	var w wireError
	if len(body) > 0 && json.Unmarshal(body, &w) == nil && w.Error.Type != "" {
		e.Type = apierror.Type(w.Error.Type)
		e.Message = w.Error.Message
		e.RequestID = w.RequestID
		e.ErrorCode, e.Details = details(w.Error.Details)
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

// details returns the error_code of an error.details member and the member
// itself. A null or non-object member counts as absent; an error_code that
// is not a string is no code, but the details are kept.
func details(raw json.RawMessage) (string, json.RawMessage) {
	var d map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &d) != nil || d == nil {
		return "", nil
	}
	var code string
	_ = json.Unmarshal(d["error_code"], &code)
	return code, bytes.Clone(raw)
}

// FromStreamEvent builds the error carried by an `error` event of an event
// stream, whose data is the same JSON error body as a response's. There is
// no HTTP status on such an event; StatusCode is the one the error type
// implies, so that Temporary and the sentinels work as they do for
// responses.
func FromStreamEvent(method, path string, data []byte) *apierror.Error {
	e := &apierror.Error{Method: method, Path: path, Body: bytes.Clone(data)}
	var w wireError
	if json.Unmarshal(data, &w) == nil && w.Error.Type != "" {
		e.Type, e.Message, e.RequestID = apierror.Type(w.Error.Type), w.Error.Message, w.RequestID
		e.ErrorCode, e.Details = details(w.Error.Details)
	} else {
		e.Type, e.Message = apierror.TypeAPI, "malformed error event"
	}
	e.StatusCode = statusForType(e.Type)
	return e
}

// statusTypes pairs each status with the error type it stands for; both
// directions are needed, for bodies without a type (a proxy's page) and for
// errors without a status (an error event in a stream).
var statusTypes = []struct {
	status int
	typ    apierror.Type
}{
	{400, apierror.TypeInvalidRequest},
	{401, apierror.TypeAuthentication},
	{402, apierror.TypeBilling},
	{403, apierror.TypePermission},
	{404, apierror.TypeNotFound},
	{413, apierror.TypeRequestTooLarge},
	{429, apierror.TypeRateLimit},
	{504, apierror.TypeTimeout},
	{529, apierror.TypeOverloaded},
}

// typeForStatus is the error type a status implies when the body does not say.
func typeForStatus(status int) apierror.Type {
	for _, st := range statusTypes {
		if st.status == status {
			return st.typ
		}
	}
	if status >= 500 {
		return apierror.TypeAPI
	}
	return ""
}

// conflictTypes are the 409 error types: a 409 without a type stays
// untyped (its body may be a proxy's), but an error event of one of these
// types stands for a 409.
var conflictTypes = []apierror.Type{apierror.TypeConflict, apierror.TypeMemoryPreconditionFailed, apierror.TypeMemoryPathConflict}

// statusForType is the status an error type implies; unknown types map to 500.
func statusForType(t apierror.Type) int {
	if slices.Contains(conflictTypes, t) {
		return 409
	}
	for _, st := range statusTypes {
		if st.typ == t {
			return st.status
		}
	}
	return 500
}
