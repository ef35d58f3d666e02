package refserver

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error types of the API (docs/api-choices.md "Errors").
const (
	errInvalidRequest  = "invalid_request_error"
	errAuthentication  = "authentication_error"
	errPermission      = "permission_error"
	errNotFound        = "not_found_error"
	errRequestTooLarge = "request_too_large"
	errRateLimit       = "rate_limit_error"
	errAPI             = "api_error"
	errOverloaded      = "overloaded_error"
)

// apiError is a failure answered with the API's error body. Handlers and
// middleware return it; only writeError turns it into bytes.
type apiError struct {
	Status  int
	Type     string
	Message string
	// ShouldRetry, when set, is sent as x-should-retry: clients retry 409
	// by default, but a conflict with an object's state (archived, running,
	// a version mismatch) meets the same conflict again ("false"), while an
	// Idempotency-Key still in flight gets its answer on a retry ("true").
	ShouldRetry string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Message) }

func newAPIError(status int, typ, format string, args ...any) *apiError {
	return &apiError{Status: status, Type: typ, Message: fmt.Sprintf(format, args...)}
}

// invalidField is the 400 for a request that breaks a rule. Messages name the
// field (or parameter, or header) first: "limit: must be between 1 and 1000".
func invalidField(field, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Type: errInvalidRequest, Message: field + ": " + fmt.Sprintf(format, args...)}
}

func invalidRequest(format string, args ...any) *apiError {
	return newAPIError(http.StatusBadRequest, errInvalidRequest, format, args...)
}

// stateConflict is the 409 for a request that conflicts with the current
// state of the object it acts on (docs/managed-agents-wire.md 1.3). Resending
// cannot help, and the answer says so.
func stateConflict(typ, format string, args ...any) *apiError {
	e := newAPIError(http.StatusConflict, typ, format, args...)
	e.ShouldRetry = "false"
	return e
}

func notFound(format string, args ...any) *apiError {
	return newAPIError(http.StatusNotFound, errNotFound, format, args...)
}

func unauthenticated(message string) *apiError {
	return &apiError{Status: http.StatusUnauthorized, Type: errAuthentication, Message: message}
}

// errorTypeForStatus is the error type a status implies when nobody chose
// one (injected faults). It follows the table of docs/api-choices.md.
func errorTypeForStatus(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return errAuthentication
	case status == http.StatusForbidden:
		return errPermission
	case status == http.StatusNotFound:
		return errNotFound
	case status == http.StatusRequestEntityTooLarge:
		return errRequestTooLarge
	case status == http.StatusTooManyRequests:
		return errRateLimit
	case status == 529:
		return errOverloaded
	case status >= 500:
		return errAPI
	default:
		return errInvalidRequest
	}
}

type errorBody struct {
	Type      string      `json:"type"`
	Error     errorDetail `json:"error"`
	RequestID string      `json:"request_id"`
}

type errorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// writeError sends e as the error body
// {"type":"error","error":{"type","message"},"request_id"}. requestID is the one already placed
// in the request-id header, so body and header always agree.
func writeError(w http.ResponseWriter, requestID string, e *apiError) {
	if e.ShouldRetry != "" {
		w.Header().Set("x-should-retry", e.ShouldRetry)
	}
	if rb, ok := w.(*responseBuffer); ok && rb.OpenAIErrors {
		writeJSON(w, e.Status, openAIError(e.Type, e.Message))
		return
	}
	writeJSON(w, e.Status, errorBody{
		Type:      "error",
		Error:     errorDetail{Type: e.Type, Message: e.Message},
		RequestID: requestID,
	})
}

// writeJSON sends v with status. Encoding errors cannot happen for the
// server's own response types, so the only failure left is a gone client,
// about which nothing useful can be done.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"type":"error","error":{"type":"api_error","message":"internal error: response encoding failed"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
