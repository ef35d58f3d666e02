package pipeline

import (
	"context"
	"errors"
	"io"
)

// TracedBody is an event stream's body that ends the stream's span when it
// is closed: OK when the stream was read to its end, ERROR when a read
// failed or the stream reported an error (Fail), unset when the application
// closed it before the end (SPEC 6.3).
type TracedBody struct {
	io.ReadCloser
	ctx    context.Context
	span   Span
	err    error // a read failed
	failed error // the stream carried an error (Fail)
	eof    bool
	left   bool // Abandon: the application left before the stream's end
}

// NewTracedBody wraps a stream's body; ctx is the stream's context.
func NewTracedBody(ctx context.Context, body io.ReadCloser, span Span) *TracedBody {
	return &TracedBody{ReadCloser: body, ctx: ctx, span: span}
}

func (b *TracedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case errors.Is(err, io.EOF):
		b.eof = true
	case err != nil && b.err == nil:
		b.err = err
	}
	return n, err
}

// Finish records that the stream reached its end (message_stop, [DONE]),
// so that Close ends the span OK even if what follows in the body is not
// read.
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

// Close closes the body and ends the span. A read that failed because the
// application ended the stream (its context is done: Close or cancel) is
// not a failure of the stream: the span is left unset.
func (b *TracedBody) Close() error {
	err := b.ReadCloser.Close()
	switch {
	case b.failed != nil:
		b.span.End(b.ctx, b.failed)
	case b.eof && !b.left:
		b.span.End(b.ctx, nil)
	case b.err != nil && b.ctx.Err() == nil:
		b.span.End(b.ctx, b.err)
	default:
		b.span.EndUnset()
	}
	return err
}
