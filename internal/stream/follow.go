package stream

import (
	"context"
	"errors"
	"io"
	"iter"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/backoff"
)

// ErrEnded is what Follow.Open returns when there is nothing left to follow
// (the session was archived or terminated while the stream was away): the
// walk then ends without an error.
var ErrEnded = errors.New("agentplatform: the stream has ended for good")

// Follow keeps a stream going across dropped connections without losing or
// repeating an event. The platform has no resume cursor: a new connection
// delivers only what is recorded after it opens. So after a drop Follow
// opens a new connection first, then asks for the history recorded since
// the last event it delivered (Since), delivers that, and skips those events
// if the new connection repeats them. Events without a key (previews) are
// not in history; the ones a drop swallows are gone, which the platform
// allows (they are best effort).
type Follow[E any] struct {
	Source       Source
	MaxEventSize int
	Decode       Decoder[E]

	// Open opens a new connection, or returns ErrEnded.
	Open func(ctx context.Context) (io.ReadCloser, error)
	// Since returns, in order, the events recorded after last (after the
	// start of the stream when hasLast is false).
	Since func(ctx context.Context, last E, hasLast bool) ([]E, error)
	// Key is an event's unique id, or "" for an event history never holds.
	Key func(E) string
	// Final reports whether nothing can follow e: the walk ends after it.
	Final func(E) bool

	// MaxAttempts bounds the reconnection attempts in a row (default 8);
	// the last failure is then yielded. Waits grow from 100 ms to 5 s.
	MaxAttempts int

	// Reconnected, when set, hears of each drop the walk got past, before
	// the events made up from history are delivered: why the connection
	// ended (nil when the server ended it cleanly), how many events the
	// history made up for, and how many attempts the reconnection took.
	// Tracing records it on the stream's span.
	Reconnected func(cause error, missed, attempts int)
}

const (
	defaultAttempts = 8
	minReconnect    = 100 * time.Millisecond
	maxReconnect    = 5 * time.Second
)

// Events yields the events of body, then of every connection that replaces
// it, until the consumer stops, ctx ends, a final event arrives, the server
// ends the stream on purpose (an error event), or reconnecting fails
// MaxAttempts times in a row. last/hasLast name the last event the caller
// has already seen, if any. Events closes every body it reads, telling a
// body that records how its stream ended (a traced body) whether the walk
// ended on it at a final event or because the consumer left.
func (f *Follow[E]) Events(ctx context.Context, body io.ReadCloser, last E, hasLast bool) iter.Seq2[E, error] {
	return func(yield func(E, error) bool) {
		var zero E
		var skip map[string]struct{} // keys delivered from history since the last reconnect
		final := false
		deliver := func(ev E) (more bool) {
			if k := f.Key(ev); k != "" {
				if _, dup := skip[k]; dup {
					return true
				}
				last, hasLast = ev, true
			}
			if !yield(ev, nil) {
				return false
			}
			final = f.Final != nil && f.Final(ev)
			return !final
		}
		for {
			var cause error // why the connection ended; nil when the server ended it
			for ev, err := range Read(body, f.MaxEventSize, f.Source, f.Decode) {
				var apiErr *apierror.Error
				var decodeErr *DecodeError
				switch {
				case err == nil:
					if !deliver(ev) {
						closeEnded(body, final)
						return
					}
					continue
				case errors.As(err, &decodeErr):
					if !yield(zero, err) {
						closeEnded(body, false)
						return
					}
					continue
				case errors.As(err, &apiErr): // the server ended the stream on purpose
					body.Close()
					yield(zero, err)
					return
				}
				cause = err
				break // the connection broke: reconnect below
			}
			body.Close()
			if err := ctx.Err(); err != nil {
				yield(zero, err)
				return
			}
			var missed []E
			var attempts int
			var err error
			body, missed, attempts, err = f.reconnect(ctx, last, hasLast)
			switch {
			case errors.Is(err, ErrEnded):
				return
			case err != nil:
				yield(zero, err)
				return
			}
			if f.Reconnected != nil {
				f.Reconnected(cause, len(missed), attempts)
			}
			skip = make(map[string]struct{}, len(missed))
			for _, ev := range missed {
				if !deliver(ev) {
					closeEnded(body, final)
					return
				}
				skip[f.Key(ev)] = struct{}{}
			}
		}
	}
}

// Bodies that record how the stream ended on them, such as the traced body
// of internal/pipeline, whose span then ends OK or unset.
type (
	finisher  interface{ Finish() }
	abandoner interface{ Abandon() }
)

// closeEnded closes a body the walk ends on without an error: at a final
// event (the stream is complete) or because the consumer left.
func closeEnded(body io.ReadCloser, final bool) {
	if f, ok := body.(finisher); ok && final {
		f.Finish()
	} else if a, ok := body.(abandoner); ok && !final {
		a.Abandon()
	}
	body.Close()
}

// reconnect opens a new connection, then reads the history it must fill the
// gap with, retrying with bounded backoff; it reports the attempts it took.
// A permanent API error (a 4xx other than 408, 409 and 429) is not retried.
func (f *Follow[E]) reconnect(ctx context.Context, last E, hasLast bool) (io.ReadCloser, []E, int, error) {
	attempts := f.MaxAttempts
	if attempts <= 0 {
		attempts = defaultAttempts
	}
	var lastErr error
	for attempt := range attempts {
		if err := sleep(ctx, reconnectWait(attempt)); err != nil {
			return nil, nil, 0, err
		}
		body, err := f.Open(ctx)
		if err == nil {
			var missed []E
			if missed, err = f.Since(ctx, last, hasLast); err == nil {
				return body, missed, attempt + 1, nil
			}
			body.Close()
		}
		if errors.Is(err, ErrEnded) || permanent(err) || ctx.Err() != nil {
			return nil, nil, 0, err
		}
		lastErr = err
	}
	return nil, nil, 0, lastErr
}

// reconnectWait doubles from 100 ms up to 5 s, less up to 25% jitter so
// that many consumers cut at once do not come back at once.
func reconnectWait(attempt int) time.Duration {
	return backoff.Jittered(minReconnect, maxReconnect, attempt)
}

func permanent(err error) bool {
	var apiErr *apierror.Error
	return errors.As(err, &apiErr) && apiErr.StatusCode < 500 && !apiErr.Temporary()
}

func sleep(ctx context.Context, d time.Duration) error {
	if !backoff.Sleep(ctx, d) {
		return ctx.Err()
	}
	return nil
}
