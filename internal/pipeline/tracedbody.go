package pipeline

import (
	"context"
	"errors"
	"io"
	"sync/atomic"

	"github.com/agentplatform/agentplatform-go/internal/attr"
)

// TracedBody is an event stream's body that ends the stream's span when it
// is closed: OK when the stream was read to its end, ERROR when a read
// failed or the stream reported an error (Fail), unset when the application
// closed it before the end (docs/tracing.md).
//
// A stream that is never read and never closed still ends: when its context
// ends (cancelled or past its deadline) before the first Read, the span ends
// unset, as after an early Close, and the body is closed so that the
// connection is released. Once reading has begun, that is left to the
// reader: the ended context fails its read, and it closes the body.
type TracedBody struct {
	io.ReadCloser
	ctx  context.Context
	span Span
	stop func() bool // unregisters the context watch; true if it never ran
	// watched is closed when the context watch (unread) has returned, so
	// that a Close that lost the race to it waits for the span to be
	// ended rather than return while it is still ending.
	watched chan struct{}
	closing atomic.Bool // Close ran: the watch is unregistered or waited for

	// claimed is set by the first Read or by the context watch, whichever
	// comes first: the watch acts only on a body nobody reads. reading is
	// the reader's own copy, so that later Reads need no atomic operation.
	claimed atomic.Bool
	reading bool

	err    error // a read failed
	failed error // the stream carried an error (Fail)
	eof    bool
	left   bool // Abandon: the application left before the stream's end
	keep   bool // KeepSpan: the span outlives this connection
	resume bool // Resumable: a broken connection is replaced, not a failure
	size   bool // a download: Close records http.response.body.size
	n      int64
}

// NewTracedBody wraps a stream's body; ctx is the stream's context, whose
// end ends a stream that was never read.
func NewTracedBody(ctx context.Context, body io.ReadCloser, span Span) *TracedBody {
	b := &TracedBody{ReadCloser: body, ctx: ctx, span: span, watched: make(chan struct{})}
	b.stop = context.AfterFunc(ctx, b.unread)
	return b
}

// unread ends a stream whose context ended before anyone read it. It
// touches only what never changes after NewTracedBody, so it may run while
// the owner closes the body; the span ends once whoever comes first.
func (b *TracedBody) unread() {
	defer close(b.watched)
	if b.claimed.CompareAndSwap(false, true) {
		_ = b.ReadCloser.Close()
		b.span.EndUnset()
	}
}

func (b *TracedBody) Read(p []byte) (int, error) {
	if !b.reading {
		b.reading = true
		b.claimed.Store(true)
	}
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	switch {
	case errors.Is(err, io.EOF):
		b.eof = true
	case err != nil && b.err == nil:
		b.err = err
	}
	return n, err
}

// KeepSpan leaves the span to the stream that owns it: the span of a
// stream that reconnects outlives its first connection, and the stream
// ends it. Close then only releases the connection. A stream never read
// still ends the span when its context ends, since nothing else will.
func (b *TracedBody) KeepSpan() { b.keep = true }

// Resumable marks a connection that the stream replaces when it drops: a
// broken read is then not what the application sees (the stream goes on,
// or reports why it could not), so Close leaves the span unset.
func (b *TracedBody) Resumable() { b.resume = true }

// Finish records that the stream reached its end (message_stop, [DONE], a
// final event), so that Close ends the span OK even if what follows in the
// body is not read.
func (b *TracedBody) Finish() { b.eof, b.left = true, false }

// Abandon records that the application left the stream before its end
// (message_stop, [DONE]), so that Close leaves the span unset even if the
// body happened to be read to EOF ahead of the events consumed.
func (b *TracedBody) Abandon() { b.left = true }

// Fail records that the stream ended in an error it carried (an error event).
func (b *TracedBody) Fail(err error) {
	if b.failed == nil {
		b.failed = err
	}
}

// Span is the stream's span, for attributes known only as it is read.
func (b *TracedBody) Span() Span { return b.span }

// Close closes the body and ends the span, unless KeepSpan gave it to the
// stream. A read that failed because the application ended the stream (its
// context is done: Close or cancel), or on a Resumable connection, is not
// a failure of the stream: the span is left unset.
func (b *TracedBody) Close() error {
	if b.closing.CompareAndSwap(false, true) && !b.stop() {
		<-b.watched // the watch ran, or runs: let it finish ending the span
	}
	err := b.ReadCloser.Close()
	if b.size && !b.keep {
		b.span.SetAttributes(attr.HTTPResponseBodySize.Int64(b.n))
	}
	switch {
	case b.keep:
	case b.failed != nil:
		b.span.End(b.ctx, b.failed)
	case b.eof && !b.left:
		b.span.End(b.ctx, nil)
	case b.err != nil && b.ctx.Err() == nil && !b.resume:
		b.span.End(b.ctx, b.err)
	default:
		b.span.EndUnset()
	}
	return err
}
