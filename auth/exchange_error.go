package auth

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// ExchangeError is a failed token exchange (or device attestation
// challenge). It is what Authorize returns, wrapped, when a request cannot
// get a token, and what the request's call then returns.
//
// It is deliberately not an *apierror.Error: the exchange is not the API
// call that failed, and a 401 from the token endpoint must not look like a
// 401 from the API (which would make the client drop its token and exchange
// again). errors.Is still matches the apierror sentinels by Type and
// StatusCode (errors.Is(err, apierror.ErrAuthentication) for a denied
// exchange).
//
// It never holds a secret: not the identity token, the device proof, the
// access token, nor the response body.
type ExchangeError struct {
	// Endpoint is the path that failed: /v1/oauth/token or
	// /v1/oauth/device_attestation/challenge; "" when the failure came
	// before anything was sent (reading the identity token, the attestor).
	Endpoint   string
	StatusCode int           // HTTP status; 0 when there was no response
	Type       apierror.Type // error.type of the body (authentication_error for a denial), or from the status
	Message    string        // error.message of the body, or what went wrong locally
	RequestID  string        // request-id of the response, if any
	Err        error         // the cause when there was no response (connection, identity token, attestor)

	retryAfter  time.Duration // the server's retry-after / retry-after-ms
	shouldRetry string        // x-should-retry
}

func (e *ExchangeError) Error() string {
	var b strings.Builder
	b.WriteString("auth: token exchange")
	if e.Endpoint != "" {
		b.WriteString(" (POST ")
		b.WriteString(e.Endpoint)
		b.WriteByte(')')
	}
	b.WriteString(": ")
	if e.StatusCode != 0 {
		b.WriteString(strconv.Itoa(e.StatusCode))
		b.WriteByte(' ')
		b.WriteString(string(e.Type))
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.RequestID != "" {
		b.WriteString(" (request_id ")
		b.WriteString(e.RequestID)
		b.WriteByte(')')
	}
	return b.String()
}

// Unwrap returns the cause of a failure without a response.
func (e *ExchangeError) Unwrap() error { return e.Err }

// Is matches the apierror sentinels (ErrAuthentication, ErrInvalidRequest,
// ErrRateLimited, ErrServer...) for exchanges the server answered.
func (e *ExchangeError) Is(target error) bool {
	if e.StatusCode == 0 {
		return false
	}
	return (&apierror.Error{StatusCode: e.StatusCode, Type: e.Type}).Is(target)
}

// Temporary reports whether a later exchange may succeed: no response,
// 429 or 5xx, unless the server said x-should-retry: false. A 400 or 401
// never is: the same input gets the same answer.
func (e *ExchangeError) Temporary() bool {
	switch {
	case e.shouldRetry == "false":
		return false
	case e.StatusCode == 0:
		return e.Err != nil && e.Endpoint != "" && !errors.Is(e.Err, context.Canceled) && !errors.Is(e.Err, context.DeadlineExceeded)
	case e.StatusCode == 429 || e.StatusCode >= 500:
		return true
	}
	return false
}

// localError is a failure before anything was sent; it is never retried.
func localError(msg string, err error) *ExchangeError {
	return &ExchangeError{Message: msg, Err: err}
}

// responseError builds the typed error of a non-200 answer (the SPEC 7
// error body, or a proxy's page) without keeping the body.
func responseError(path string, resp *http.Response, data []byte, secrets []string) *ExchangeError {
	ae := apierror.FromResponse(http.MethodPost, path, resp.StatusCode, resp.Header, data)
	msg := ae.Message
	for _, s := range secrets {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, redacted)
		}
	}
	return &ExchangeError{
		Endpoint:    path,
		StatusCode:  resp.StatusCode,
		Type:        ae.Type,
		Message:     msg,
		RequestID:   ae.RequestID,
		retryAfter:  retryAfter(resp.Header),
		shouldRetry: resp.Header.Get("x-should-retry"),
	}
}

// retryAfter reads retry-after-ms, then retry-after (seconds or a date).
func retryAfter(h http.Header) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	if v := h.Get("retry-after"); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s > 0 {
			return time.Duration(s) * time.Second
		}
		if t, err := http.ParseTime(v); err == nil {
			return time.Until(t)
		}
	}
	return 0
}
