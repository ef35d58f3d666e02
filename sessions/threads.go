package sessions

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// ThreadsService calls the thread endpoints of a session
// (docs/session-events-wire.md 7.6): List, All, Get and Archive a
// session's threads; Events, AllEvents and Stream one thread's events. Get
// one from agentplatform.Client.Sessions.Threads.
//
// A thread's events are the primary-thread view (what the session's own
// stream shows) for the primary thread, and a child thread's own activity
// for a child. Stream is the session stream's reader over the thread's
// stream: the same reconnection, the same exactly-once delivery.
type ThreadsService struct {
	p      *pipeline.Pipeline
	events *EventsService // the stream and history reader threads share with sessions
}

// threadRoute is the route of one thread.
const threadRoute = sessionRoute + "/threads/{thread_id}"

const maxThreadListLimit = 1000

// newThreadRequest starts a request on one thread of one session, which
// names both on its span.
func newThreadRequest(method, route, sessionID, threadID string) *pipeline.Request {
	req := newRequest(method, route, sessionID, threadID)
	req.ThreadID = threadID
	return req
}

// ThreadListParams selects a page of a session's threads.
type ThreadListParams struct {
	// Statuses keeps the threads in any of these statuses; none keeps
	// every thread.
	Statuses []Status
	// Limit is 1 to 1000; 0 means 1000.
	Limit int
	// Page is a cursor from a previous page's NextPage.
	Page string
}

func (p *ThreadListParams) validate() error {
	for _, s := range p.Statuses {
		if s == "" {
			return &apierror.ValidationError{Field: "statuses", Rule: "must not be empty"}
		}
	}
	return nil
}

// List returns one page of a session's threads in creation order, the
// primary thread first: GET /v1/sessions/{session_id}/threads.
func (s *ThreadsService) List(ctx context.Context, sessionID string, params ThreadListParams, opts ...option.Option) (*pagination.CursorPage[Thread], error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodGet, sessionRoute+"/threads", sessionID)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxThreadListLimit); err != nil {
		return nil, err
	}
	statuses := make([]string, len(params.Statuses))
	for i, st := range params.Statuses {
		statuses[i] = string(st)
	}
	req.Query.Strings("statuses", statuses)
	return pipeline.Do[pagination.CursorPage[Thread]](ctx, s.p, req, opts)
}

// All walks a session's threads from params.Page on, fetching pages as the
// loop asks for them.
func (s *ThreadsService) All(ctx context.Context, sessionID string, params ThreadListParams, opts ...option.Option) iter.Seq2[*Thread, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Thread], error) {
		p := params
		p.Page = page
		return s.List(ctx, sessionID, p, opts...)
	})
}

// Get returns one thread: GET /v1/sessions/{session_id}/threads/{thread_id}.
func (s *ThreadsService) Get(ctx context.Context, sessionID, threadID string, opts ...option.Option) (*Thread, error) {
	return pipeline.Do[Thread](ctx, s.p, newThreadRequest(http.MethodGet, threadRoute, sessionID, threadID), opts)
}

// Archive archives a child thread that is not in a turn: it never runs
// again and its stream ends. Archiving is idempotent. The primary thread
// cannot be archived (archive the session), nor a thread in a turn
// (interrupt it first): both are 409. POST
// /v1/sessions/{session_id}/threads/{thread_id}/archive.
func (s *ThreadsService) Archive(ctx context.Context, sessionID, threadID string, opts ...option.Option) (*Thread, error) {
	return pipeline.Do[Thread](ctx, s.p, newThreadRequest(http.MethodPost, threadRoute+"/archive", sessionID, threadID), opts)
}

// Events returns one page of a thread's recorded events: GET
// /v1/sessions/{session_id}/threads/{thread_id}/events. It takes the
// filters of EventsService.List.
func (s *ThreadsService) Events(ctx context.Context, sessionID, threadID string, params EventListParams, opts ...option.Option) (*pagination.CursorPage[Event], error) {
	return s.events.list(ctx, streamTarget{sessionID: sessionID, threadID: threadID}, params, opts)
}

// AllEvents walks a thread's history from params.Page on, fetching pages
// as the loop asks for them.
func (s *ThreadsService) AllEvents(ctx context.Context, sessionID, threadID string, params EventListParams, opts ...option.Option) iter.Seq2[Event, error] {
	return s.events.all(ctx, streamTarget{sessionID: sessionID, threadID: threadID}, params, opts)
}

// Stream opens a thread's event stream: GET
// /v1/sessions/{session_id}/threads/{thread_id}/stream. It behaves as
// EventsService.Stream does for a session, with the thread in the
// session's place: it returns once the headers are in, reconnects after a
// drop (checking the thread's status and archived_at) and delivers each
// persisted event once, in order; Events ends without an error when the
// thread is archived or its session archived, terminated or deleted. Its
// span is vendor.sessions.threads.events.stream.
func (s *ThreadsService) Stream(ctx context.Context, sessionID, threadID string, params StreamParams, opts ...option.Option) (*EventStream, error) {
	return s.events.open(ctx, streamTarget{sessionID: sessionID, threadID: threadID}, params, opts)
}
