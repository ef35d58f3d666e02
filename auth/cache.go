package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// orNow returns now, a config's clock, or time.Now when it is nil.
func orNow(now func() time.Time) func() time.Time {
	if now == nil {
		return time.Now
	}
	return now
}

// ErrClosed is returned by Authorize once the credentials have been closed.
var ErrClosed = errors.New("auth: credentials have been closed")

// The refresh schedule (docs/auth-wire.md 2.9): the real platform's two
// tiers, scaled down for tokens shorter than a few minutes.
const (
	advisoryLead  = 120 * time.Second // refresh in the background from expiry − min(120 s, lifetime/2)
	mandatoryLead = 30 * time.Second  // refresh inline from expiry − min(30 s, lifetime/4)

	// advisoryPause is how long, by the source's clock, the cache waits
	// after a failed exchange before it tries another background refresh,
	// so that a failing endpoint is not asked again on every request.
	advisoryPause = 5 * time.Second

	// defaultExchangeTimeout bounds one exchange, retries included.
	defaultExchangeTimeout = time.Minute
)

// token is one access token and its refresh schedule.
type token struct {
	value     string
	expiry    time.Time // exchange sent + expires_in
	advisory  time.Time // from here, refresh in the background
	mandatory time.Time // from here, refresh before the request is sent
}

// newToken computes the schedule from the time the exchange request was
// sent, not received: a slow answer then errs on the early side.
func newToken(value string, sent time.Time, lifetime time.Duration) *token {
	expiry := sent.Add(lifetime)
	return &token{
		value:     value,
		expiry:    expiry,
		advisory:  expiry.Add(-min(advisoryLead, lifetime/2)),
		mandatory: expiry.Add(-min(mandatoryLead, lifetime/4)),
	}
}

// tokenCache holds the access token of one source (federation or device
// attestation) and runs its exchanges.
//
// Timing, by the source's clock (its config's Now):
//   - before the advisory time the cached token is used as is;
//   - between the advisory and the mandatory time it is still used, and the
//     first request to notice starts one exchange in the background; if that
//     fails the token stays in use (and no new background exchange starts
//     for advisoryPause);
//   - from the mandatory time on (or with no token) a request waits for an
//     exchange, and fails if it fails.
//
// Single flight: at most one exchange runs at a time. Every request that
// needs a token while one runs waits for that one, however many there are.
//
// Goroutines: an exchange runs on a goroutine of its own, so that a caller
// whose context ends stops waiting without failing the others that wait on
// the same exchange. That goroutine lives for one exchange (bounded by the
// exchange timeout) and no longer: there is no timer and no long-lived
// refresher; refreshes are started by requests. close cancels a running
// exchange and waits for its goroutine.
//
// Tracing: the exchange's spans are children of the span of the request
// that started it, inline or in the background, although it runs under
// the cache's context (trace.go).
type tokenCache struct {
	now     func() time.Time
	fetch   func(ctx context.Context) (*token, error)
	timeout time.Duration
	logger  *slog.Logger         // nil: no logging
	kind    string               // for log lines: "federation", "device_attestation"
	tp      trace.TracerProvider // of the exchange spans; nil: see tracerProviderFor

	ctx    context.Context // parent of every exchange; cancelled by close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu         sync.Mutex
	tok        *token
	running    *flight
	closed     bool
	quietUntil time.Time // no background refresh before this
}

// flight is one exchange; done is closed once tok or err is set.
type flight struct {
	done chan struct{}
	tok  *token
	err  error
}

func newTokenCache(kind string, now func() time.Time, timeout time.Duration, logger *slog.Logger, tp trace.TracerProvider,
	fetch func(context.Context) (*token, error)) *tokenCache {
	if timeout <= 0 {
		timeout = defaultExchangeTimeout
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &tokenCache{now: orNow(now), fetch: fetch, timeout: timeout, logger: logger, kind: kind, tp: tp, ctx: ctx, cancel: cancel}
}

// get returns a token that is usable now, exchanging first when needed.
func (c *tokenCache) get(ctx context.Context) (string, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return "", ErrClosed
	}
	now := c.now()
	if t := c.tok; t != nil && now.Before(t.mandatory) {
		if !now.Before(t.advisory) && c.running == nil && !now.Before(c.quietUntil) {
			c.startLocked(ctx, "advisory")
		}
		c.mu.Unlock()
		return t.value, nil
	}
	f := c.running
	if f == nil {
		reason := "mandatory"
		if c.tok == nil {
			reason = "no token"
		}
		f = c.startLocked(ctx, reason)
	}
	c.mu.Unlock()
	select {
	case <-f.done:
		if f.err != nil {
			return "", f.err
		}
		return f.tok.value, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// startLocked starts an exchange on its own goroutine, for a request
// running in from: the exchange is not cancelled with it, but traced as its
// child. The spans end before waiting requests resume.
func (c *tokenCache) startLocked(from context.Context, reason string) *flight {
	f := &flight{done: make(chan struct{})}
	c.running = f
	tr := newExchangeTrace(from, c.tp)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ctx, cancel := context.WithTimeout(c.ctx, c.timeout)
		started := time.Now()
		tok, err := c.fetch(tr.context(ctx))
		cancel()
		tr.end()
		c.mu.Lock()
		f.tok, f.err = tok, err
		c.running = nil
		if err == nil {
			c.tok = tok
		} else {
			c.quietUntil = c.now().Add(advisoryPause)
		}
		c.mu.Unlock()
		close(f.done)
		c.log(reason, time.Since(started), tok, err)
	}()
	return f
}

// log writes one debug line per exchange. It names the outcome and the
// expiry, never a token or an identity token.
func (c *tokenCache) log(reason string, took time.Duration, tok *token, err error) {
	if c.logger == nil {
		return
	}
	attrs := []slog.Attr{slog.String("source", c.kind), slog.String("reason", reason), slog.Duration("duration", took)}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
		c.logger.LogAttrs(context.Background(), slog.LevelDebug, "agentplatform: token exchange failed", attrs...)
		return
	}
	attrs = append(attrs, slog.Time("expires_at", tok.expiry))
	c.logger.LogAttrs(context.Background(), slog.LevelDebug, "agentplatform: token exchanged", attrs...)
}

// invalidate drops the cached token if it is value: the API refused it.
// A newer token, fetched since by another request, is kept.
func (c *tokenCache) invalidate(value string) {
	if value == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tok != nil && subtle.ConstantTimeCompare([]byte(c.tok.value), []byte(value)) == 1 {
		c.tok = nil
	}
}

// wait blocks until no exchange runs (tests use it through export_test.go).
func (c *tokenCache) wait() {
	c.mu.Lock()
	f := c.running
	c.mu.Unlock()
	if f != nil {
		<-f.done
	}
}

// close cancels a running exchange, waits for its goroutine and makes
// later calls fail with ErrClosed. It is safe to call more than once.
func (c *tokenCache) close() {
	c.mu.Lock()
	c.closed = true
	c.tok = nil
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
}
