package messages

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/stream"
	"github.com/agentplatform/agentplatform-go/option"
)

var createSource = stream.Source{Method: http.MethodPost, Path: "/v1/messages"}

// ErrIncomplete is returned by MessageStream.Message when the stream was
// closed, or its loop left, before message_stop; and by the Completion of
// a chat completion stream (package chat) closed or left before its end.
var ErrIncomplete = errors.New("agentplatform: message stream was not read to its end")

// Stream runs the model and streams its message: POST /v1/messages with
// "stream": true (docs/messages-wire.md 5). It returns once the server has
// answered with the stream's headers; an error before that (a 4xx, a 529
// after retries) is the API's *apierror.Error, and params is checked
// locally first as in Create. Once the stream has started it is never
// retried.
//
// Range over Events, or call Message to read the whole stream; Close the
// stream when done. A stream whose ctx ends before it is read ends there,
// closed or not: its span ends, unset, as after an early Close, and its
// connection is released.
func (s *Service) Stream(ctx context.Context, params MessageParams, opts ...option.Option) (*MessageStream, error) {
	req := pipeline.NewRequest(http.MethodPost, "/v1/messages")
	req.Beta = betas(params.Messages, params.MCPServers, params.Fallbacks)
	req.Body = body{p: &params, stream: true}
	sctx, cancel := context.WithCancel(ctx)
	start := time.Now()
	resp, span, err := pipeline.Stream(sctx, s.p, req, opts)
	if err != nil {
		cancel()
		return nil, err
	}
	tb := pipeline.NewTracedBody(sctx, resp.Body, span)
	return &MessageStream{ctx: ctx, cancel: cancel, body: tb, traced: tb, span: span, header: resp.Header, start: start}, nil
}

// MessageStream is an open message stream. Range over Events once, or call
// Message; Close it when done (closing twice, or after the stream ended, is
// harmless). Events and Message are for one goroutine; Close may be called
// from any.
type MessageStream struct {
	ctx    context.Context // the caller's
	cancel context.CancelFunc
	body   io.ReadCloser
	traced *pipeline.TracedBody // body, when it is traced
	header http.Header

	// span is the stream's span; blockAt, kept only while it records, is
	// when each content block started, for the tool spans.
	span    pipeline.Span
	blockAt []time.Time

	acc   Accumulator
	err   error // why the stream ended early, set before Events returns
	start time.Time
	first atomic.Int64 // nanoseconds from start to the first content_block_delta (monotonic); 0 before

	started atomic.Bool // Events ran, or Close ran first; whoever sets it owns body
	closed  atomic.Bool
}

// Events yields the stream's events, in order, applying each to the
// stream's Accumulator first. Pings are skipped. It ends:
//
//   - after MessageStopEvent, without an error;
//   - with an *apierror.Error for an error event, whose type, message and
//     request id come from the event (docs/messages-wire.md 5.8);
//   - with an error wrapping io.ErrUnexpectedEOF when the body ends before
//     message_stop, with an *InputError when a tool call's input does not
//     parse, and with an error wrapping ErrEventOrder or the decoder's
//     failure for a malformed stream;
//   - with the context's error when ctx ends, and quietly after Close.
//
// In every case the message accumulated so far stays available from
// Message. An UnknownStreamEvent, or a ContentBlockDeltaEvent with an
// UnknownDelta, is yielded and never ends the stream. Events can be ranged
// over only once.
func (s *MessageStream) Events() iter.Seq2[StreamEvent, error] {
	return func(yield func(StreamEvent, error) bool) {
		if !s.started.CompareAndSwap(false, true) {
			if !s.closed.Load() {
				yield(nil, errors.New("agentplatform: message stream events were already read"))
			}
			return
		}
		defer s.release()
		for ev, err := range stream.Read(s.body, stream.DefaultMaxEventSize, createSource, decodeEvent) {
			if err != nil {
				s.fail(err, yield)
				return
			}
			if err := s.acc.Add(ev); err != nil {
				s.fail(err, yield)
				return
			}
			if _, ok := ev.(ContentBlockDeltaEvent); ok && s.first.Load() == 0 {
				s.first.Store(max(int64(time.Since(s.start)), 1))
			}
			if s.span.Recording() {
				s.note(ev)
			}
			if !yield(ev, nil) {
				return
			}
			if s.acc.Done() {
				return
			}
		}
		if !s.acc.Done() {
			s.fail(fmt.Errorf("agentplatform: POST /v1/messages: event stream ended before message_stop: %w", io.ErrUnexpectedEOF), yield)
		}
	}
}

// fail records why the stream ended and yields it, unless the stream was
// closed (then it ends quietly) or the context ended (then that is the
// reason).
func (s *MessageStream) fail(err error, yield func(StreamEvent, error) bool) {
	err = stream.Ended(s.ctx, s.closed.Load(), createSource, s.header, err)
	if err == nil {
		return
	}
	if s.traced != nil {
		s.traced.Fail(err) // the stream's span ends in ERROR (unset if the caller cancelled)
	}
	s.err = err
	yield(nil, err)
}

// release lets the connection go once Events is done with it. After
// message_stop the little that is left of the body is read, so that the
// connection can be reused.
func (s *MessageStream) release() {
	if s.acc.Done() && !s.closed.Load() {
		_, _ = io.CopyN(io.Discard, s.body, 4<<10)
	}
	s.end()
	s.body.Close()
	s.cancel()
}

// note keeps when each content block started (recording spans only).
func (s *MessageStream) note(ev StreamEvent) {
	switch ev := ev.(type) {
	case MessageStartEvent:
		now := time.Now()
		for range ev.Message.Content {
			s.blockAt = append(s.blockAt, now)
		}
	case ContentBlockStartEvent:
		s.blockAt = append(s.blockAt, time.Now())
	}
}

// end records how the stream ended on its span, before the body's Close
// ends the span (docs/tracing.md): a stream that reached message_stop is
// complete, and the response attributes and tool spans come from the
// message accumulated, whole or not.
func (s *MessageStream) end() {
	if s.traced == nil {
		return
	}
	switch {
	case s.acc.Done():
		s.traced.Finish()
	case s.err == nil:
		s.traced.Abandon() // closed, or the loop left: unset
	}
	if !s.span.Recording() {
		return
	}
	if m := s.acc.Message(); m != nil {
		annotateMessage(s.span, m)
		recordServerTools(s.span, m, s.blockAt, time.Now())
	}
	if d := s.TimeToFirstChunk(); d > 0 {
		s.span.SetAttributes(attr.GenAITimeToFirstChunk.Float64(d.Seconds()))
	}
}

// Message reads what is left of the stream, if Events was not ranged over,
// and returns the accumulated message, equal to what Create returns for the
// same request (docs/messages-wire.md 5.9). If the stream ended early it
// returns the message accumulated so far (nil before message_start)
// together with the reason: the error Events yielded, or ErrIncomplete when
// the stream was closed or the loop left before message_stop.
func (s *MessageStream) Message() (*Message, error) {
	if !s.started.Load() {
		for range s.Events() {
		}
	}
	m := s.acc.Message()
	switch {
	case s.err != nil:
		return m, s.err
	case !s.acc.Done():
		return m, ErrIncomplete
	}
	return m, nil
}

// FirstChunkAt is when the first content_block_delta arrived, the zero time
// before that. message_start is metadata, not a chunk
// (docs/messages-wire.md 11).
func (s *MessageStream) FirstChunkAt() time.Time {
	if n := s.first.Load(); n != 0 {
		return s.start.Add(time.Duration(n))
	}
	return time.Time{}
}

// TimeToFirstChunk is the time from sending the request to the first
// content_block_delta (gen_ai.response.time_to_first_chunk), or 0 before
// it arrived.
func (s *MessageStream) TimeToFirstChunk() time.Duration {
	return time.Duration(s.first.Load())
}

// StartedAt is when the request was sent.
func (s *MessageStream) StartedAt() time.Time { return s.start }

// Header is the stream response's headers (request-id, …).
func (s *MessageStream) Header() http.Header { return s.header }

// Close ends the stream: a range over Events, even one blocked in another
// goroutine, ends promptly without an error, and the connection is
// released. It is safe to call from any goroutine, more than once.
func (s *MessageStream) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.cancel()
	if s.started.CompareAndSwap(false, true) { // Events never ran: nobody else will close the body
		s.body.Close()
	}
	return nil
}
