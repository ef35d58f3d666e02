package pipeline

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// newRetryClient returns the go-retryablehttp client of an attempt client.
// It is built once per attempt client and shared by every call using it:
// the call's own settings (how many retries, how long a wait may be, its
// credentials, its logger) are read from the call in the request's
// context. The hooks do the waiting in PrepareRetry, which has that
// context, rather than in go-retryablehttp's Backoff, which has not.
func newRetryClient(attempts *http.Client) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:     attempts,
		RetryMax:       math.MaxInt, // checkRetry applies the call's limit
		CheckRetry:     checkRetry,
		Backoff:        noWait,
		PrepareRetry:   prepareRetry,
		RequestLogHook: attemptStarts,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
	}
}

// noWait leaves the wait to prepareRetry.
func noWait(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 }

// attemptStarts notes the index of the attempt about to be sent.
func attemptStarts(_ retryablehttp.Logger, r *http.Request, attempt int) {
	if c := callFrom(r.Context()); c != nil {
		c.attempt = attempt
		c.span.attemptStarts()
	}
}

// checkRetry decides whether an attempt is tried again, and if so how long
// to wait first. The caller's own context ending stops everything, though
// a final answer already received in full is still the call's result: the
// server did the work. x-should-retry overrides the status; 408, 409, 429
// and 5xx are retried, as are failures that produced no response, except
// those another attempt cannot change: a certificate the client does not
// trust, a body over the size limit, a redirect the SDK refused.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		if _, whole := bodyOf(resp).(*bufferedBody); whole && err == nil && !retryable(resp, nil) {
			return false, nil
		}
		return false, ctxErr
	}
	c := callFrom(ctx)
	if c == nil || c.attempt >= c.cfg.MaxRetries || !retryable(resp, err) || c.req.RetryOnlyUnsent && !unsent(resp, err) {
		return false, nil
	}
	if rerr := c.rewind(resp, err); rerr != nil {
		return false, rerr
	}
	c.wait = backoff(initialBackoff, c.cfg.MaxRetryWait, c.attempt, resp)
	c.status = 0
	if err == nil {
		c.status = resp.StatusCode
	}
	return true, nil
}

// bodyOf is resp's body, or nil without a response.
func bodyOf(resp *http.Response) io.ReadCloser {
	if resp == nil {
		return nil
	}
	return resp.Body
}

func retryable(resp *http.Response, err error) bool {
	if err != nil {
		return retryableTransportError(err)
	}
	switch resp.Header.Get("x-should-retry") {
	case "true":
		return true
	case "false":
		return false
	}
	s := resp.StatusCode
	return s == http.StatusRequestTimeout || s == http.StatusConflict ||
		s == http.StatusTooManyRequests || s >= 500
}

// unsent reports a failure that shows the server did not act on the
// request (Request.RetryOnlyUnsent): a 429, or an error before any
// connection was made. A timeout, a connection dropped after the request
// went out, or a 5xx may follow a request the server performed.
func unsent(resp *http.Response, err error) bool {
	if err != nil {
		var op *net.OpError
		return errors.As(err, &op) && op.Op == "dial"
	}
	return resp.StatusCode == http.StatusTooManyRequests
}

func retryableTransportError(err error) bool {
	var unknownAuthority x509.UnknownAuthorityError
	var invalidCert x509.CertificateInvalidError
	var hostname x509.HostnameError
	var tooLarge *apierror.ResponseError
	var redirect *apierror.RedirectError
	return !errors.As(err, &unknownAuthority) && !errors.As(err, &invalidCert) && !errors.As(err, &hostname) &&
		!errors.As(err, &tooLarge) && !errors.As(err, &redirect)
}

// prepareRetry runs between a retryable attempt and the next: it logs the
// retry, waits as checkRetry decided (or until the caller's context ends)
// and applies the credentials again, which may fetch a new token.
func prepareRetry(r *http.Request) error {
	ctx := r.Context()
	c := callFrom(ctx)
	if c == nil {
		return nil
	}
	if l := c.cfg.Logger; l != nil && l.Enabled(ctx, slog.LevelDebug) {
		l.LogAttrs(ctx, slog.LevelDebug, "agentplatform: retrying",
			slog.String("method", c.req.Method), slog.String("route", c.req.logRoute()),
			slog.Int("retry", c.attempt+1), slog.Int("status", c.status), slog.Duration("wait", c.wait))
	}
	if c.wait > 0 {
		t := time.NewTimer(c.wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	if err := c.reauthorize(ctx, r); err != nil {
		c.span.setResponse(nil) // the attempt that was to follow had no response
		return err
	}
	return nil
}

// backoff is how long to wait before retry number attempt+1, within
// [0, maxWait]. A wait the server asks for (retry-after-ms, else
// retry-after in seconds or as an HTTP date) is honoured up to maxWait.
// Otherwise the wait doubles from initial up to maxBackoff (and maxWait),
// less up to 25% jitter so that clients failing together do not retry
// together.
func backoff(initial, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	maxWait = max(maxWait, 0)
	if resp != nil {
		if d, ok := serverWait(resp.Header, time.Now()); ok {
			return min(d, maxWait)
		}
	}
	d := maxBackoff
	if attempt < 16 {
		d = min(initial<<attempt, maxBackoff)
	}
	d = min(d, maxWait)
	return d - time.Duration(rand.Float64()*0.25*float64(d))
}

// serverWait reads the wait a response asks for; it is never negative, and
// a date in the past means "now". A value that does not parse, is negative
// or is not a number asks for nothing, and the usual backoff applies; one
// too large for a time.Duration (1e10 seconds, inf, twenty digits) is
// capped at the largest Duration before it is converted, which would
// otherwise overflow. Callers cap it further.
func serverWait(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("retry-after-ms"); v != "" {
		if d, ok := waitOf(v, time.Millisecond); ok {
			return d, true
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0, false
	}
	if d, ok := waitOf(v, time.Second); ok {
		return d, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true // Sub saturates rather than overflows
	}
	return 0, false
}

// waitOf parses v as a non-negative number of units.
func waitOf(v string, unit time.Duration) (time.Duration, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // out of range is ±Inf or 0: still a value
		return 0, false
	}
	if !(f >= 0) { // negative, or NaN
		return 0, false
	}
	if w := f * float64(unit); w < maxDuration {
		return time.Duration(w), true
	}
	return math.MaxInt64, true
}

// maxDuration is the largest time.Duration as a float64 (2^63, just past
// it: every smaller float64 converts without overflow).
const maxDuration = float64(math.MaxInt64)

// RetryAfter is the wait a failed response's headers ask for
// (retry-after-ms, else retry-after in seconds or as an HTTP date), the
// same the pipeline's own retries honour, for a caller that retries on
// top of them.
func RetryAfter(h http.Header) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	return serverWait(h, time.Now())
}
