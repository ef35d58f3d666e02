package pipeline

import (
	"context"
	"crypto/x509"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// checkRetry decides whether an attempt is tried again. The caller's own
// context ending stops everything; x-should-retry overrides the status; 408,
// 409, 429 and 5xx are retried, as are failures that produced no response,
// except a certificate the client does not trust, which another attempt
// cannot fix.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	if err != nil {
		return retryableTransportError(err), nil
	}
	switch resp.Header.Get("x-should-retry") {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	s := resp.StatusCode
	return s == http.StatusRequestTimeout || s == http.StatusConflict ||
		s == http.StatusTooManyRequests || s >= 500, nil
}

func retryableTransportError(err error) bool {
	var unknownAuthority x509.UnknownAuthorityError
	var invalidCert x509.CertificateInvalidError
	var hostname x509.HostnameError
	return !errors.As(err, &unknownAuthority) && !errors.As(err, &invalidCert) && !errors.As(err, &hostname)
}

// backoff is how long to wait before retry number attempt+1. A wait the
// server asks for (retry-after-ms, else retry-after in seconds or as an HTTP
// date) is honoured up to maxWait. Otherwise the wait doubles from
// initialBackoff up to maxBackoff (and maxWait), less up to 25% jitter so
// that clients failing together do not retry together.
func backoff(initial, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
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

// serverWait reads the wait a response asks for. Negative waits (a date in
// the past) mean "now".
func serverWait(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// loggingBackoff is backoff that also logs each retry at debug level.
func loggingBackoff(ctx context.Context, logger *slog.Logger, req *Request) func(time.Duration, time.Duration, int, *http.Response) time.Duration {
	return func(initial, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
		d := backoff(initial, maxWait, attempt, resp)
		if logger.Enabled(ctx, slog.LevelDebug) {
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			logger.LogAttrs(ctx, slog.LevelDebug, "agentplatform: retrying",
				slog.String("method", req.Method), slog.String("route", req.Route),
				slog.Int("retry", attempt+1), slog.Int("status", status), slog.Duration("wait", d))
		}
		return d
	}
}
