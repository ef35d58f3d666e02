package kit

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error types of the API (docs/api-choices.md "Errors").
const (
	ErrInvalidRequest  = "invalid_request_error"
	ErrAuthentication  = "authentication_error"
	ErrPermission      = "permission_error"
	ErrNotFound        = "not_found_error"
	ErrRequestTooLarge = "request_too_large"
	ErrRateLimit       = "rate_limit_error"
	ErrAPI             = "api_error"
	ErrOverloaded      = "overloaded_error"
	ErrConflict        = "conflict_error"
)

// APIError is a failure answered with the API's error body. Handlers and
// middleware return it; only WriteError turns it into bytes.
type APIError struct {
	Status  int
	Type    string
	Message string
	// ShouldRetry, when set, is sent as x-should-retry: clients retry 409
	// by default, but a conflict with an object's state (archived, running,
	// a version mismatch) meets the same conflict again ("false"), while an
	// Idempotency-Key still in flight gets its answer on a retry ("true").
	ShouldRetry string
	// ErrorCode, when set, is sent as error.details.error_code: a stable
	// name for the cause, finer than Type (docs/api-choices.md "Errors").
	ErrorCode string
	// Details are further members of error.details next to error_code.
	Details map[string]any
}

// WithCode sets the error_code (and any further details members) e is
// answered with, and returns e.
func (e *APIError) WithCode(code string, details map[string]any) *APIError {
	e.ErrorCode, e.Details = code, details
	return e
}

func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Message) }

// NewAPIError is an error with any status and type.
func NewAPIError(status int, typ, format string, args ...any) *APIError {
	return &APIError{Status: status, Type: typ, Message: fmt.Sprintf(format, args...)}
}

// InvalidField is the 400 for a request that breaks a rule. Messages name the
// field (or parameter, or header) first: "limit: must be between 1 and 1000".
func InvalidField(field, format string, args ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Type: ErrInvalidRequest, Message: field + ": " + fmt.Sprintf(format, args...)}
}

// InvalidRequest is the 400 for a request that breaks a rule no single
// field owns.
func InvalidRequest(format string, args ...any) *APIError {
	return NewAPIError(http.StatusBadRequest, ErrInvalidRequest, format, args...)
}

// StateConflict is the 409 for a request that conflicts with the current
// state of the object it acts on (docs/managed-agents-wire.md 1.3): like
// every 409 it is a conflict_error, so clients can tell it from a request
// that was wrong in itself. Resending cannot help, and the answer says so.
func StateConflict(format string, args ...any) *APIError {
	e := NewAPIError(http.StatusConflict, ErrConflict, format, args...)
	e.ShouldRetry = "false"
	return e
}

// NotFound is the 404 for an object or route that does not exist.
func NotFound(format string, args ...any) *APIError {
	return NewAPIError(http.StatusNotFound, ErrNotFound, format, args...)
}

// Unauthenticated is the 401 for a missing or refused credential.
func Unauthenticated(message string) *APIError {
	return &APIError{Status: http.StatusUnauthorized, Type: ErrAuthentication, Message: message}
}

// ErrorTypeForStatus is the error type a status implies when nobody chose
// one (injected faults). It follows the table of docs/api-choices.md.
func ErrorTypeForStatus(status int) string {
	switch {
	case status == http.StatusUnauthorized:
		return ErrAuthentication
	case status == http.StatusForbidden:
		return ErrPermission
	case status == http.StatusNotFound:
		return ErrNotFound
	case status == http.StatusConflict:
		return ErrConflict
	case status == http.StatusRequestEntityTooLarge:
		return ErrRequestTooLarge
	case status == http.StatusTooManyRequests:
		return ErrRateLimit
	case status == 529:
		return ErrOverloaded
	case status >= 500:
		return ErrAPI
	default:
		return ErrInvalidRequest
	}
}

// OpenAIErrorBody is the error body of the OpenAI-compatible path
// (docs/messages-wire.md 9.5).
type OpenAIErrorBody struct {
	Error OpenAIErrorDetail `json:"error"`
}

// OpenAIErrorDetail is the "error" member of OpenAIErrorBody.
type OpenAIErrorDetail struct {
	Type    string  `json:"type"`
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Param   *string `json:"param"`
}

// OpenAIError is typ and message in the OpenAI shape.
func OpenAIError(typ, message string) OpenAIErrorBody {
	return OpenAIErrorBody{Error: OpenAIErrorDetail{Type: typ, Code: typ, Message: message}}
}

// ErrorBody is the API's error body.
type ErrorBody struct {
	Type      string      `json:"type"`
	Error     ErrorDetail `json:"error"`
	RequestID string      `json:"request_id"`
}

// ErrorDetail is the "error" member of ErrorBody.
type ErrorDetail struct {
	Type    string         `json:"type"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// WriteError sends e as the error body
// {"type":"error","error":{"type","message"},"request_id"}, with
// error.details {"error_code",…} when e has a code. requestID is the one already placed
// in the request-id header, so body and header always agree.
func WriteError(w http.ResponseWriter, requestID string, e *APIError) {
	if e.ShouldRetry != "" {
		w.Header().Set("x-should-retry", e.ShouldRetry)
	}
	if rb, ok := w.(*ResponseBuffer); ok && rb.OpenAIErrors {
		WriteJSON(w, e.Status, OpenAIError(e.Type, e.Message))
		return
	}
	WriteJSON(w, e.Status, ErrorBody{
		Type:      "error",
		Error:     ErrorDetail{Type: e.Type, Message: e.Message, Details: e.details()},
		RequestID: requestID,
	})
}

// details is the error.details member of e: nil without a code.
func (e *APIError) details() map[string]any {
	if e.ErrorCode == "" {
		return nil
	}
	d := make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		d[k] = v
	}
	d["error_code"] = e.ErrorCode
	return d
}

// WriteJSON sends v with status. Encoding errors cannot happen for the
// server's own response types, so the only failure left is a gone client,
// about which nothing useful can be done.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"type":"error","error":{"type":"api_error","message":"internal error: response encoding failed"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
