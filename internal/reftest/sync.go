package reftest

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/option"
)

// FirstRead returns an option (a middleware) and a channel closed when the
// body of a response to a request whose path ends with suffix is first
// read. A stream's consumer reads its body only once it waits for the next
// event, so a test that acts on the channel (closes the stream, cancels its
// context, cuts it) acts while the consumer is reading, however slow the
// machine: no sleep has to guess when that is.
func FirstRead(suffix string) (option.Option, <-chan struct{}) {
	reading := make(chan struct{})
	var once sync.Once
	mw := func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil && strings.HasSuffix(req.URL.Path, suffix) {
			resp.Body = &signalBody{ReadCloser: resp.Body, read: func() { once.Do(func() { close(reading) }) }}
		}
		return resp, err
	}
	return option.WithMiddleware(mw), reading
}

// OnRead returns an option (a middleware) that calls fn with what each
// Read of the body of a response to a request whose path ends with suffix
// returned, for a test to wait until a client has read something (pings,
// a frame) before it acts.
func OnRead(suffix string, fn func(p []byte)) option.Option {
	return option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil && strings.HasSuffix(req.URL.Path, suffix) {
			resp.Body = &signalBody{ReadCloser: resp.Body, read: func() {}, got: fn}
		}
		return resp, err
	})
}

// signalBody calls read when its Read is called, before reading, and got
// (if set) with what it read.
type signalBody struct {
	io.ReadCloser
	read func()
	got  func([]byte)
}

func (b *signalBody) Read(p []byte) (int, error) {
	b.read()
	n, err := b.ReadCloser.Read(p)
	if b.got != nil {
		b.got(p[:n])
	}
	return n, err
}

// Expiring returns a context whose deadline passes when the test calls
// expire: from then on its Err is context.DeadlineExceeded, as a
// context.WithTimeout's, but at a moment the test chooses rather than a
// time that a slow machine may reach before the work under test started.
// Calling expire again does nothing.
func Expiring(parent context.Context) (ctx context.Context, expire func()) {
	c := &expiringCtx{Context: parent, done: make(chan struct{})}
	var once sync.Once
	return c, func() { once.Do(func() { close(c.done) }) }
}

// expiringCtx takes its values from its parent; only expire ends it (the
// parent's own end is not followed: give it a parent that does not end).
type expiringCtx struct {
	context.Context
	done chan struct{}
}

func (c *expiringCtx) Done() <-chan struct{} { return c.done }

func (c *expiringCtx) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// Awaited returns a context and a channel closed when ctx's Done is first
// called: a function given ctx (a Close or Remove that waits for running
// work until ctx ends) has reached its wait. ctx ends with parent.
func Awaited(parent context.Context) (ctx context.Context, waiting <-chan struct{}) {
	c := &awaitedCtx{Context: parent, waiting: make(chan struct{})}
	return c, c.waiting
}

type awaitedCtx struct {
	context.Context
	once    sync.Once
	waiting chan struct{}
}

func (c *awaitedCtx) Done() <-chan struct{} {
	c.once.Do(func() { close(c.waiting) })
	return c.Context.Done()
}

// When runs do in a goroutine once ch is closed (FirstRead's channel, say)
// and sends its error on the channel it returns. The wait ends with the
// test, so a test that fails first leaves no goroutine behind.
func When(tb testing.TB, ch <-chan struct{}, do func() error) <-chan error {
	errs := make(chan error, 1)
	go func() {
		select {
		case <-ch:
			errs <- do()
		case <-tb.Context().Done():
			errs <- tb.Context().Err()
		}
	}()
	return errs
}

// FaultsTaken returns a channel closed once every fault injected so far
// has met its requests: a request held by a Delay fault has then reached
// the server, and a deadline that the test expires now is surely met
// there, not on the way.
func (e *Env) FaultsTaken(tb testing.TB) <-chan struct{} {
	taken := make(chan struct{})
	go func() {
		for len(e.Server.PendingFaults()) > 0 {
			select {
			case <-tb.Context().Done():
				return
			case <-time.After(time.Millisecond):
			}
		}
		close(taken)
	}()
	return taken
}
