package auth

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
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

	retryAfter  time.Duration // the server's retry-after / retry-after-ms, within [0, maxServerWait]
	shouldRetry string        // x-should-retry
	redirected  bool          // a redirect to another origin, refused (redirect.go)
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
		if e.Type != "" {
			b.WriteByte(' ')
			b.WriteString(string(e.Type))
		}
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

// responseError builds the typed error of a non-200 answer (the API's
// error body, or a proxy's page) without keeping the body.
func responseError(path string, resp *http.Response, data []byte, secrets []string) *ExchangeError {
	ae := apierr.FromResponse(http.MethodPost, path, resp.StatusCode, resp.Header, data)
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
		retryAfter:  retryAfter(resp.Header, time.Now()),
		shouldRetry: resp.Header.Get("x-should-retry"),
	}
}

// maxServerWait bounds the wait a server may ask for, before MaxRetryWait
// caps it further: far above any sensible MaxRetryWait, far below what a
// time.Duration holds.
const maxServerWait = 24 * time.Hour

// retryAfter reads retry-after-ms, then retry-after (seconds, or an HTTP
// date, compared with now). The result is within [0, maxServerWait]. A
// missing, unparsable, negative or NaN value, or a date in the past, is 0:
// no wait given, so the exchanger backs off by itself. Larger values are
// clamped before they become a Duration, which they could overflow.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if d := serverWait(h.Get("retry-after-ms"), float64(time.Millisecond)); d > 0 {
		return d
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0
	}
	if d := serverWait(v, float64(time.Second)); d > 0 {
		return d
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, min(t.Sub(now), maxServerWait)) // Sub saturates instead of overflowing
	}
	return 0
}

// serverWait converts a number of units to a Duration, clamping in the
// float domain: +Inf and huge values become maxServerWait; NaN, zero,
// negative and unparsable values 0.
func serverWait(v string, unit float64) time.Duration {
	if v == "" {
		return 0
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(f) || f <= 0 {
		return 0
	}
	return time.Duration(min(f*unit, float64(maxServerWait)))
}
