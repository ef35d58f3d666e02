package sessions

import (
	"context"
	"errors"
	"io"
	"iter"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/stream"
	"github.com/agentplatform/agentplatform-go/option"
)

// StreamParams configures Stream.
type StreamParams struct {
	// EventDeltas asks for previews (EventStart, EventDelta) of these event
	// types: EventAgentMessage, EventAgentThinking. At most 100 values.
	EventDeltas []EventType

	// NoReconnect turns reconnection off: a dropped connection then ends
	// Events with its error, and Stream sends no request but the stream's.
	NoReconnect bool

	// ResumeAfter is the last event a consumer already has (PositionOf),
	// for a consumer that restarts: Events first delivers the history
	// recorded after it, then live events, none twice. It needs
	// reconnection. The zero Position starts with the events recorded
	// after the stream opens.
	ResumeAfter Position
}

func (p *StreamParams) validate() error {
	if len(p.EventDeltas) > maxEventDeltas {
		return &apierror.ValidationError{Field: "event_deltas", Rule: "must have at most 100 items"}
	}
	if !p.ResumeAfter.IsZero() {
		if p.NoReconnect {
			return &apierror.ValidationError{Field: "resume_after", Rule: "needs reconnection (NoReconnect is set)"}
		}
		if p.ResumeAfter.EventID == "" {
			return &apierror.ValidationError{Field: "resume_after.event_id", Rule: "is required"}
		}
	}
	return nil
}

// Position is a place in a session's history: an event's id and the time
// it was recorded. Ids are unique, timestamps are not; a Position without
// a time makes a resuming stream read the history from its start.
type Position struct {
	EventID     string
	ProcessedAt time.Time
}

// DecodeError reports an event whose data could not be decoded. Events
// yields it and goes on with the next event: log it and continue. It is a
// *DecodeError with two fields, Type (the event's type) and Err (why it
// could not be decoded, also its Unwrap):
//
//	var de *sessions.DecodeError
//	if errors.As(err, &de) {
//		log.Printf("skipped a %s event: %v", de.Type, de.Err)
//		continue
//	}
type DecodeError = stream.DecodeError

// HistoryStart is the position before a session's first event: a stream
// resuming after it delivers the whole history, then live events. A
// consumer that has seen nothing yet and must miss nothing starts here.
var HistoryStart = Position{EventID: historyStartID}

// historyStartID matches no event id (event ids are "sevt_…"), so the history
// read from the start (no time) skips nothing.
const historyStartID = "history_start"

// PositionOf returns the position of ev, to save and later resume after
// (StreamParams.ResumeAfter).
func PositionOf(ev PersistedEvent) Position {
	m := ev.Meta()
	return Position{EventID: m.ID, ProcessedAt: m.ProcessedAt}
}

// IsZero reports whether p names no event.
func (p Position) IsZero() bool { return p.EventID == "" && p.ProcessedAt.IsZero() }

// EventStream is an open event stream of one session. Range over Events
// once; Close it when done (closing twice, or after Events ended, is
// harmless).
type EventStream struct {
	ctx    context.Context // the caller's
	sctx   context.Context // every request of the stream; cancelled by Close
	cancel context.CancelFunc

	// span is the stream's span, that of its first connection: it lasts
	// until the stream ends, and every request a reconnection sends is its
	// child (tctx carries it). How the stream ended, for its status: err
	// is the error the application got that ended it; left says the
	// application stopped first.
	span pipeline.Span
	tctx context.Context
	err  error
	left bool

	closed  atomic.Bool
	started atomic.Bool // Events ran, or Close ran first; whoever sets it owns body
	body    io.ReadCloser

	src    stream.Source
	follow *stream.Follow[Event] // nil when reconnection is off
	last   Event                 // where Follow starts: a real event or a *positionEvent
	resume bool                  // deliver the history after last first
	// lastTime is the ProcessedAt of the last delivered event that had
	// one: the window of the history read after a drop.
	lastTime time.Time
	// ended is set once a reconnection found the session archived or
	// terminated and went for the history one last time; drained once that
	// history was read. A failed read is retried, so only then is the
	// stream over.
	ended, drained bool
}

// Stream opens a session's event stream: GET
// /v1/sessions/{session_id}/events/stream. It returns once the server has
// answered with the stream's headers, so events recorded after it returns
// are delivered (send after Stream returns and the echo is not missed);
// when connecting fails the error is the API's (*apierror.Error).
//
// A connection delivers only the events recorded after it opened; there is
// no replay and no resume cursor. With reconnection (the default), a
// dropped connection is replaced: the stream checks that the session still
// exists and is neither archived nor terminated (else Events ends without
// an error), opens a new connection, then reads the history recorded since
// the last event it delivered and delivers what was missed, so that
// persisted events arrive once each, in order. Previews lost in a drop
// are not recovered. So that a drop before the first event loses nothing,
// a stream without ResumeAfter reads one page of history before it
// connects (the newest event: List with OrderDesc and Limit 1); that is
// one extra request per Stream call.
//
// The stream has one span, vendor.sessions.events.stream, from its first
// connection to its end (docs/tracing.md): OK when it ended on its own,
// ERROR when Events yielded the error that ended it, unset when the
// application closed it, left its loop or cancelled ctx. The requests of
// its reconnections and of a ResumeAfter history read are children of it,
// and a recovered drop is an event on it. The one-page history read comes
// before the connection, so before the span: it stays a call of its own,
// under ctx.
func (s *EventsService) Stream(ctx context.Context, sessionID string, params StreamParams, opts ...option.Option) (*EventStream, error) {
	return s.open(ctx, streamTarget{sessionID: sessionID}, params, opts)
}

// open opens the stream of t, a session's or one of its threads': the
// same connection, reconnection and exactly-once delivery for both.
func (s *EventsService) open(ctx context.Context, t streamTarget, params StreamParams, opts []option.Option) (*EventStream, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	sctx, cancel := context.WithCancel(ctx)
	es := &EventStream{ctx: ctx, sctx: sctx, cancel: cancel, src: t.source()}
	if !params.NoReconnect {
		pos := params.ResumeAfter
		if pos.IsZero() {
			page, err := s.list(sctx, t, EventListParams{Order: OrderDesc, Limit: 1}, opts)
			if err != nil {
				cancel()
				return nil, err
			}
			if len(page.Data) > 0 {
				if ev, ok := page.Data[0].(PersistedEvent); ok {
					pos = PositionOf(ev)
				}
			}
		} else {
			es.resume = true
		}
		es.lastTime = pos.ProcessedAt
		es.last = &positionEvent{EventMeta{ID: pos.EventID, ProcessedAt: pos.ProcessedAt}}
		es.follow = s.follower(es, t, params, opts)
	}
	body, err := s.connect(sctx, t, params, opts)
	if err != nil {
		cancel()
		return nil, err
	}
	body.KeepSpan() // the stream ends it, whatever becomes of this connection
	es.body, es.span = body, body.Span()
	es.tctx = es.span.Context(sctx)
	return es, nil
}

// connect opens one connection of the stream. Its span is a child of the
// span ctx carries: the stream's, for a reconnection.
func (s *EventsService) connect(ctx context.Context, t streamTarget, params StreamParams, opts []option.Option) (*pipeline.TracedBody, error) {
	req := t.streamRequest()
	req.Query.Strings("event_deltas", typeStrings(params.EventDeltas))
	resp, span, err := pipeline.Stream(ctx, s.p, req, opts)
	if err != nil {
		return nil, err
	}
	return pipeline.NewTracedBody(ctx, resp.Body, span), nil
}

// sessionState is what a reconnection needs to know of the session (or
// thread: the same two members).
type sessionState struct {
	Status     Status     `json:"status"`
	ArchivedAt *time.Time `json:"archived_at"`
}

// follower builds the reconnection of es (internal/stream.Follow).
func (s *EventsService) follower(es *EventStream, t streamTarget, params StreamParams, opts []option.Option) *stream.Follow[Event] {
	return &stream.Follow[Event]{
		Source:       es.src,
		MaxEventSize: stream.DefaultMaxEventSize,
		Decode:       streamDecoder{}.decode,
		Open: func(ctx context.Context) (io.ReadCloser, error) {
			st, err := pipeline.Do[sessionState](ctx, s.p, t.stateRequest(), opts)
			if err != nil {
				return nil, err
			}
			if st.ArchivedAt != nil || st.Status == StatusTerminated {
				if es.drained {
					return nil, stream.ErrEnded
				}
				// Nothing live can follow, but what was recorded while
				// the stream was away (the archive's interrupt, the
				// termination) must still be delivered: an empty body
				// makes Follow read the history, then come back here.
				es.ended = true
				return io.NopCloser(strings.NewReader("")), nil
			}
			body, err := s.connect(ctx, t, params, opts)
			if err != nil {
				return nil, err
			}
			// A drop of this connection is recovered or reported by the
			// stream, on the stream's span: this one says only that the
			// connection ended.
			body.Resumable()
			return body, nil
		},
		Since: func(ctx context.Context, last Event, _ bool) ([]Event, error) {
			missed, err := s.since(ctx, t, last, es.lastTime, opts)
			es.drained = es.ended && err == nil
			return missed, err
		},
		Key:   eventKey,
		Final: isFinal,
		Reconnected: func(cause error, missed, attempts int) {
			if !es.ended { // else no new connection: the session ended while away
				es.span.Reconnected(cause, missed, attempts)
			}
		},
	}
}

// since reads the history recorded after last, whose ProcessedAt (or, when
// it has none, that of the last event before it that had one) is lastTime:
// the events from lastTime on, oldest first, less those up to and including
// last. When last is not in that window, the events at lastTime itself are
// taken as delivered.
func (s *EventsService) since(ctx context.Context, t streamTarget, last Event, lastTime time.Time, opts []option.Option) ([]Event, error) {
	lastID := eventKey(last)
	var out []Event
	found := lastID == ""
	for ev, err := range s.all(ctx, t, EventListParams{CreatedAtGTE: lastTime, Order: OrderAsc, Limit: maxEventListLimit}, opts) {
		if err != nil {
			return nil, err
		}
		if !found && eventKey(ev) == lastID {
			found = true
			out = out[:0]
			continue
		}
		out = append(out, ev)
	}
	if !found && !lastTime.IsZero() {
		kept := out[:0]
		for _, ev := range out {
			if pe, ok := ev.(PersistedEvent); !ok || pe.Meta().ProcessedAt.After(lastTime) {
				kept = append(kept, ev)
			}
		}
		out = kept
	}
	return out, nil
}

// streamTarget is the stream a Stream call reads: a session's (threadID
// "") or one of its threads'. Everything that differs between them is
// here: the routes of the stream, of its history and of the state a
// reconnection checks.
type streamTarget struct{ sessionID, threadID string }

func (t streamTarget) streamRequest() *pipeline.Request {
	if t.threadID == "" {
		return newRequest(http.MethodGet, "/v1/sessions/{session_id}/events/stream", t.sessionID)
	}
	req := newThreadRequest(http.MethodGet, threadRoute+"/stream", t.sessionID, t.threadID)
	req.Op = "sessions.threads.events.stream" // the official name; the route alone would say sessions.threads.stream
	return req
}

// stateRequest reads the session, or the thread, whose status and
// archived_at tell whether anything can still follow.
func (t streamTarget) stateRequest() *pipeline.Request {
	if t.threadID == "" {
		return newRequest(http.MethodGet, "/v1/sessions/{session_id}", t.sessionID)
	}
	return newThreadRequest(http.MethodGet, threadRoute, t.sessionID, t.threadID)
}

func (t streamTarget) listRequest() *pipeline.Request {
	if t.threadID == "" {
		return newRequest(http.MethodGet, "/v1/sessions/{session_id}/events", t.sessionID)
	}
	return newThreadRequest(http.MethodGet, threadRoute+"/events", t.sessionID, t.threadID)
}

func (t streamTarget) source() stream.Source {
	if t.threadID == "" {
		return stream.Source{Method: http.MethodGet, Path: "/v1/sessions/" + t.sessionID + "/events/stream"}
	}
	return stream.Source{Method: http.MethodGet, Path: "/v1/sessions/" + t.sessionID + "/threads/" + t.threadID + "/stream"}
}

// eventKey is an event's id; previews have none.
func eventKey(ev Event) string {
	if pe, ok := ev.(PersistedEvent); ok {
		return pe.Meta().ID
	}
	return ""
}

// isFinal reports the events after which nothing can follow.
func isFinal(ev Event) bool {
	switch ev.(type) {
	case *SessionStatusTerminatedEvent, *SessionDeletedEvent:
		return true
	}
	return false
}

// positionEvent stands for the event a stream starts after, before it has
// delivered one. It is never yielded.
type positionEvent struct{ EventMeta }

func (*positionEvent) Type() EventType { return "" }

// errRangedTwice is yielded by a second range over Events.
var errRangedTwice = errors.New("sessions: EventStream.Events can be ranged over only once")

// Events yields the stream's events in order: persisted events, previews
// when asked for, and *UnknownEvent for types this SDK does not know.
//
// It ends without an error when the stream is closed, after a
// session.deleted or session.status_terminated event, and when the session
// has been archived (after the events the archive caused). It yields an
// error and ends when ctx ends (ctx's own error), when the server ends the
// stream with an error event (*apierror.Error), when reconnecting fails
// (the last failure; a session deleted while the stream was away gives its
// 404), or, with NoReconnect, when the connection drops. An event that
// cannot be decoded is yielded as an error and the stream goes on, so a
// loop that logs errors and continues stops exactly when the stream does.
//
// Breaking out of the loop closes the stream. Events can be ranged over
// once.
func (es *EventStream) Events() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		if !es.started.CompareAndSwap(false, true) {
			if !es.closed.Load() {
				yield(nil, errRangedTwice)
			}
			return
		}
		defer func() {
			es.endSpan()
			es.Close()
		}()
		if es.follow == nil {
			defer es.body.Close()
			es.deliver(stream.Read(es.body, stream.DefaultMaxEventSize, es.src, streamDecoder{}.decode), nil, yield)
			return
		}
		var skip map[string]bool
		if es.resume {
			history, err := es.follow.Since(es.tctx, es.last, true)
			if err != nil {
				es.body.Close()
				es.fail(err, yield)
				return
			}
			skip = make(map[string]bool, len(history))
			for _, ev := range history {
				skip[eventKey(ev)] = true
				if !es.yieldEvent(ev, yield) || isFinal(ev) {
					es.body.Close()
					return
				}
			}
			if n := len(history); n > 0 {
				es.last = history[n-1]
			}
		}
		es.deliver(es.follow.Events(es.tctx, es.body, es.last, true), skip, yield)
	}
}

// endSpan ends the stream's span with what the application saw: unset
// when it closed the stream, left its loop or cancelled its context; else
// ERROR with the error that ended the stream, or OK when there was none.
func (es *EventStream) endSpan() {
	if es.left || es.closed.Load() || es.ctx.Err() != nil {
		es.span.EndUnset()
		return
	}
	es.span.End(es.ctx, es.err)
}

// deliver passes seq on. skip holds the ids of history already delivered
// that the first connection may repeat: they come first on it, so skipping
// stops at the first event not in it.
func (es *EventStream) deliver(seq iter.Seq2[Event, error], skip map[string]bool, yield func(Event, error) bool) {
	for ev, err := range seq {
		if es.closed.Load() {
			return
		}
		if err != nil {
			if !es.fail(err, yield) {
				return
			}
			continue
		}
		if skip != nil {
			if k := eventKey(ev); k != "" {
				if skip[k] {
					continue
				}
				skip = nil
			}
		}
		if !es.yieldEvent(ev, yield) {
			return
		}
	}
}

// yieldEvent yields ev, noting its time for a later reconnection.
func (es *EventStream) yieldEvent(ev Event, yield func(Event, error) bool) bool {
	if es.closed.Load() {
		return false
	}
	if pe, ok := ev.(PersistedEvent); ok {
		if t := pe.Meta().ProcessedAt; !t.IsZero() {
			es.lastTime = t
		}
	}
	if !yield(ev, nil) {
		es.left = true
		return false
	}
	return true
}

// fail yields err, or, when the stream was closed or its context ended,
// ends quietly or with the context's error. It reports whether to go on:
// only after an event that could not be decoded, if the loop goes on.
func (es *EventStream) fail(err error, yield func(Event, error) bool) bool {
	switch {
	case es.closed.Load():
		return false
	case es.ctx.Err() != nil:
		yield(nil, es.ctx.Err())
		return false
	}
	var de *stream.DecodeError
	if !errors.As(err, &de) {
		es.err = err // it ends the stream
		yield(nil, err)
		return false
	}
	if !yield(nil, err) {
		es.left = true
		return false
	}
	return true
}

// Close ends the stream: a range over Events, even one blocked in another
// goroutine, ends promptly without an error, and the connection is
// released. It is safe to call from any goroutine, more than once.
func (es *EventStream) Close() error {
	if es.closed.Swap(true) {
		return nil
	}
	es.cancel()
	if es.started.CompareAndSwap(false, true) { // Events never ran: nobody else will close the body or end the span
		es.body.Close()
		es.span.EndUnset()
	}
	return nil
}

// typeStrings returns types as strings, for a query.
func typeStrings(types []EventType) []string {
	if types == nil {
		return nil
	}
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = string(t)
	}
	return out
}
