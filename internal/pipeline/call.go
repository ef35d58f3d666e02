package pipeline

import (
	"context"
	"net/http"
	"slices"
	"time"
)

// call is the state of one call that the hooks shared by every call of a
// client need: go-retryablehttp's retry decision, wait and re-authorization,
// the attempt transport and the redirect policy are built once per client,
// so each finds its call in the request's context. Only the call's own
// goroutine touches it, one attempt after another.
type call struct {
	cfg  *Config
	req  *Request
	span Span

	attempt int           // index of the attempt being sent, from go-retryablehttp's hook
	wait    time.Duration // before the next attempt, chosen when the last one was found retryable
	status  int           // of the response that was found retryable, 0 for none; for the log

	// authHeaders are the headers the credentials set or changed on the
	// round's first attempt: redirects to another origin drop them.
	authHeaders []string
	authBuf     [2]string
}

// recordResponse keeps resp as the latest response of the call, for its
// span. c may be nil.
func (c *call) recordResponse(resp *http.Response) {
	if c != nil {
		c.span.setResponse(resp)
	}
}

type callKey struct{}

// withCall returns ctx carrying c.
func withCall(ctx context.Context, c *call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// callFrom returns the call ctx belongs to, or nil outside a call.
func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// authorize applies the credentials to r, the first attempt of a round,
// and records which headers they set or changed. Comparing before and
// after, rather than naming the headers, covers any credentials source:
// API keys use Authorization or X-Api-Key, token sources Authorization,
// and an application's own source may use any header.
func (c *call) authorize(ctx context.Context, r *http.Request) error {
	var buf [16]headerValue
	before := snapshot(buf[:0], r.Header)
	if err := c.cfg.Credentials.Authorize(ctx, r); err != nil {
		return &credentialsError{method: c.req.Method, path: c.req.Path, err: err}
	}
	c.authHeaders = c.authBuf[:0]
	for k, v := range r.Header {
		if !unchanged(before, k, v) {
			c.authHeaders = append(c.authHeaders, k)
		}
	}
	return nil
}

// reauthorize applies the credentials to a retry.
func (c *call) reauthorize(ctx context.Context, r *http.Request) error {
	if err := c.cfg.Credentials.Authorize(ctx, r); err != nil {
		return &credentialsError{method: c.req.Method, path: c.req.Path, err: err}
	}
	return nil
}

// headerValue is a header as it was before the credentials ran. first is
// kept apart from values because a source could overwrite the slice's
// first element in place.
type headerValue struct {
	name   string
	first  string
	values []string
}

func snapshot(dst []headerValue, h http.Header) []headerValue {
	for k, v := range h {
		hv := headerValue{name: k, values: v}
		if len(v) > 0 {
			hv.first = v[0]
		}
		dst = append(dst, hv)
	}
	return dst
}

// unchanged reports whether header name has the values it had in before.
func unchanged(before []headerValue, name string, v []string) bool {
	for _, hv := range before {
		if hv.name == name {
			return len(v) == len(hv.values) && (len(v) == 0 || v[0] == hv.first) && slices.Equal(v, hv.values)
		}
	}
	return false
}

// credentialsError is the credentials' failure to authorize an attempt
// (an exchange refused or unreachable, a request outside a token's scope):
// that attempt was not sent. It unwraps to the source's error.
type credentialsError struct {
	method, path string
	err          error
}

func (e *credentialsError) Error() string {
	return "agentplatform: " + e.method + " " + e.path + ": credentials: " + e.err.Error()
}

func (e *credentialsError) Unwrap() error { return e.err }
