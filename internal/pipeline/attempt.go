package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/config"
)

// newAttemptClient returns the *http.Client that go-retryablehttp uses for
// each attempt. Its transport gives every attempt its own timeout, reads
// ordinary responses in full, runs the caller's middleware and logs. It
// keeps the caller's cookie jar, and the caller's redirect policy after the
// SDK's own (redirect.go), but not http.Client.Timeout, which would cut
// event streams off: option.WithRequestTimeout is the per-attempt limit.
func newAttemptClient(cfg *Config) *http.Client {
	base := cfg.HTTPClient.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	t := &attemptTransport{timeout: cfg.RequestTimeout}
	next := config.MiddlewareNext(base.RoundTrip)
	if cfg.Logger != nil {
		next = logged(cfg.Logger, cfg.CaptureContent, next)
	}
	for i := len(cfg.Middleware) - 1; i >= 0; i-- {
		mw, inner := cfg.Middleware[i], next
		next = func(r *http.Request) (*http.Response, error) { return mw(r, inner) }
	}
	t.next = next
	return &http.Client{Transport: t, CheckRedirect: redirectPolicy(cfg.HTTPClient.CheckRedirect), Jar: cfg.HTTPClient.Jar}
}

// sameAttemptSettings reports whether a call's Config can reuse the client's
// attempt client: the same HTTP client, timeout, logger (and content mode,
// which decides what it logs) and middleware.
func sameAttemptSettings(a, b *Config) bool {
	return a.HTTPClient == b.HTTPClient && a.RequestTimeout == b.RequestTimeout && a.Logger == b.Logger &&
		(a.Logger == nil || a.CaptureContent == b.CaptureContent) &&
		len(a.Middleware) == len(b.Middleware) && (len(a.Middleware) == 0 || &a.Middleware[0] == &b.Middleware[0])
}

// attemptTransport deliberately has no CloseIdleConnections method:
// go-retryablehttp calls it after every failed call, and dropping every idle
// connection because one call failed would cost all concurrent calls a new
// connection.
type attemptTransport struct {
	timeout time.Duration
	next    config.MiddlewareNext
}

// RoundTrip runs one attempt (one hop of it, when redirected) under its own
// deadline. An ordinary response is read in full here, bounded by
// option.WithMaxResponseSize, so that the deadline covers the body and a
// body that stalls or is cut fails the attempt, which is then retried. An
// event stream is returned once its headers have arrived; the caller's
// context governs the rest.
func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c := callFrom(req.Context())
	stream := req.Header.Get("Accept") == "text/event-stream"
	if c != nil {
		stream = c.req.Stream || c.req.Download // both bodies are the caller's to read
	}
	if t.timeout <= 0 {
		resp, err := t.next(req)
		if err != nil {
			return nil, err
		}
		if stream {
			c.recordResponse(resp)
			return resp, nil
		}
		return readAttempt(resp, c)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(t.timeout, func() { cancel(&attemptTimeoutError{after: t.timeout}) })
	resp, err := t.next(req.WithContext(ctx))
	if err != nil {
		timer.Stop()
		cancel(nil)
		return nil, err
	}
	if stream {
		timer.Stop()
		resp.Body = &attemptBody{ReadCloser: resp.Body, timer: timer, cancel: cancel}
		c.recordResponse(resp)
		return resp, nil
	}
	resp, err = readAttempt(resp, c)
	timer.Stop()
	if cause, ok := context.Cause(ctx).(*attemptTimeoutError); ok && err != nil {
		err = fmt.Errorf("reading the response body: %w", cause) // say why the read was cut short
	}
	cancel(nil)
	return resp, err
}

// readAttempt reads resp's body in full within the attempt, bounded by the
// call's option.WithMaxResponseSize, and records the response as the
// call's latest. c may be nil.
func readAttempt(resp *http.Response, c *call) (*http.Response, error) {
	limit := int64(config.DefaultMaxResponseSize)
	if c != nil && c.cfg.MaxResponseSize > 0 {
		limit = c.cfg.MaxResponseSize
	}
	if err := readResponse(resp, limit, c); err != nil {
		return nil, err
	}
	c.recordResponse(resp)
	return resp, nil
}

// attemptBody releases an attempt's timer and context when the body is closed.
type attemptBody struct {
	io.ReadCloser
	timer  *time.Timer
	cancel context.CancelCauseFunc
}

func (b *attemptBody) Close() error {
	err := b.ReadCloser.Close()
	b.timer.Stop()
	b.cancel(nil)
	return err
}

// attemptTimeoutError is the cause of an attempt that ran out of time
// (option.WithRequestTimeout). errors.Is(err, context.DeadlineExceeded) holds,
// and it is a net.Error whose Timeout is true.
type attemptTimeoutError struct{ after time.Duration }

func (e *attemptTimeoutError) Error() string {
	return fmt.Sprintf("request attempt timed out after %s (option.WithRequestTimeout)", e.after)
}

func (e *attemptTimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }
func (e *attemptTimeoutError) Timeout() bool        { return true }
func (e *attemptTimeoutError) Temporary() bool      { return true }

// logged wraps next with a debug log line per attempt and its outcome.
//
// A request body is prompts, system instructions and tool input: the same
// content that spans record only in content mode, so the log follows that
// switch. Without it the log gives the body's size; with it, the body with
// secret fields redacted.
func logged(logger *slog.Logger, content bool, next config.MiddlewareNext) config.MiddlewareNext {
	return func(req *http.Request) (*http.Response, error) {
		ctx := req.Context()
		if !logger.Enabled(ctx, slog.LevelDebug) {
			return next(req)
		}
		body := slog.Int64("body_bytes", req.ContentLength)
		if content {
			body = slog.String("body", redactedRequestBody(req))
		}
		logger.LogAttrs(ctx, slog.LevelDebug, "agentplatform: request",
			slog.String("method", req.Method), slog.String("url", req.URL.Redacted()),
			slog.Any("headers", redactedHeaders(req.Header)), body)
		start := time.Now()
		resp, err := next(req)
		if err != nil {
			logger.LogAttrs(ctx, slog.LevelDebug, "agentplatform: request failed",
				slog.String("method", req.Method), slog.String("path", req.URL.Path),
				slog.Duration("elapsed", time.Since(start)), slog.String("error", err.Error()))
			return nil, err
		}
		logger.LogAttrs(ctx, slog.LevelDebug, "agentplatform: response",
			slog.String("method", req.Method), slog.String("path", req.URL.Path),
			slog.Int("status", resp.StatusCode), slog.String("request_id", resp.Header.Get("request-id")),
			slog.Duration("elapsed", time.Since(start)))
		return resp, nil
	}
}
