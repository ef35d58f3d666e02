package sessions

import (
	"net/http"
	"slices"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The thread endpoints (docs/session-events-wire.md 7.6): list a session's
// threads, get one, archive one, list and stream a thread's events. A
// thread's events are its feed's log: the session's events for the primary
// thread (the primary-thread view), a child's own log for a child. List and
// Stream are the session's own handlers' code over that log and feed.

const threadListMax = 1000

func (s *Service) threadRoutes() []kit.Route {
	const threads = "/v1/sessions/{session_id}/threads"
	const one = threads + "/{thread_id}"
	b := kit.ManagedAgentsBetas
	return []kit.Route{
		{Method: http.MethodGet, Path: threads, Op: "sessions.threads.list", Betas: b, Handle: s.listThreads},
		{Method: http.MethodGet, Path: one, Op: "sessions.threads.retrieve", Betas: b, Handle: s.getThread},
		{Method: http.MethodPost, Path: one + "/archive", Op: "sessions.threads.archive", Betas: b, Handle: s.archiveThread},
		{Method: http.MethodGet, Path: one + "/events", Op: "sessions.threads.events.list", Betas: b, Handle: s.listThreadEvents},
		{Method: http.MethodGet, Path: one + "/stream", Op: "sessions.threads.events.stream", Betas: b, Handle: s.streamThreadEvents},
	}
}

// Thread statuses (docs/session-events-wire.md 7.6).
const (
	threadRunning    = "running"
	threadIdle       = "idle"
	threadTerminated = "terminated"
)

var threadStatuses = []string{threadRunning, threadIdle, "rescheduling", threadTerminated}

// status is th's status in x: terminated once it or the session is
// archived, or the session terminated (no further event can come);
// running while it runs; idle otherwise (waiting on the client or the
// budget included).
func (th *thread) status(x *session) string {
	switch {
	case !th.archivedAt.IsZero() || x.archived() || x.status == statusTerminated:
		return threadTerminated
	case th.running():
		return threadRunning
	}
	return threadIdle
}

// live reports whether th's stream can still receive events.
func (th *thread) live(x *session) bool { return th.status(x) != threadTerminated }

type advisorAgentJSON struct {
	Type  string `json:"type"`
	Model string `json:"model"`
}

type threadJSON struct {
	Type           string         `json:"type"`
	ID             string         `json:"id"`
	SessionID      string         `json:"session_id"`
	Agent          any            `json:"agent"`
	ParentThreadID *string        `json:"parent_thread_id"`
	Status         string         `json:"status"`
	Stats          any            `json:"stats"`
	Usage          any            `json:"usage"`
	WorkflowRunID  *string        `json:"workflow_run_id"`
	ArchivedAt     *kit.Timestamp `json:"archived_at"`
	CreatedAt      kit.Timestamp  `json:"created_at"`
	UpdatedAt      kit.Timestamp  `json:"updated_at"`
}

func (e *engine) threadView(th *thread) threadJSON {
	var agent any
	switch {
	case !th.child:
		agent = e.x.agent.ThreadAgentJSON()
	case th.kind == threadKindAdvisor:
		agent = advisorAgentJSON{Type: threadKindAdvisor, Model: th.model.ID}
	case th.kind == threadKindInline:
		agent = th.version.InlineAgentJSON(th.name)
	default:
		agent = th.version.ThreadAgentJSON()
	}
	var parent *string
	if th.parent != nil {
		parent = &th.parent.id
	}
	updated := th.updatedAt
	if th.archivedAt.After(updated) {
		updated = th.archivedAt
	}
	return threadJSON{
		Type:           "session_thread",
		ID:             th.id,
		SessionID:      e.x.id,
		Agent:          agent,
		ParentThreadID: parent,
		Status:         th.status(e.x),
		// Not accounted per thread by this server: null, as the platform
		// sends them before a thread's first status change.
		Stats:         nil,
		Usage:         nil,
		WorkflowRunID: nil,
		ArchivedAt:    kit.OptionalTimestamp(th.archivedAt),
		CreatedAt:     kit.Timestamp(th.createdAt),
		UpdatedAt:     kit.Timestamp(updated),
	}
}

// pathThreadLocked finds the path's session and thread: 404 for a session
// the request cannot see, or a thread that is not that session's.
func (s *Service) pathThreadLocked(c *kit.Call) (*session, *thread, error) {
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return nil, nil, err
	}
	id := c.R.PathValue("thread_id")
	th, ok := x.eng.threadByID[id]
	if !ok {
		return nil, nil, kit.NotFound("Session thread `%s` not found.", id)
	}
	return x, th, nil
}

// parseThreadStatuses reads statuses (repeatable, in both forms).
func parseThreadStatuses(q map[string][]string) ([]string, error) {
	var out []string
	for _, v := range append(slices.Clone(q["statuses"]), q["statuses[]"]...) {
		if err := kit.OneOf("statuses", v, threadStatuses...); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// listThreads lists threads in creation order, the primary first. The
// cursor is the index and id of the page's last thread: threads are only
// ever appended, so a page never shifts.
func (s *Service) listThreads(c *kit.Call) error {
	q := c.R.URL.Query()
	limit, err := kit.QueryInt(q, "limit", threadListMax, 1, threadListMax)
	if err != nil {
		return err
	}
	var after *eventCursor
	if raw, ok := kit.QueryValue(q, "page"); ok {
		tc, ok := decodeEventCursor(raw)
		if !ok || tc.binding != threadCursorTag {
			return kit.InvalidField("page", "invalid cursor")
		}
		after = &tc
	}
	statuses, err := parseThreadStatuses(q)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	e := x.eng
	i := 0
	if after != nil {
		if after.index >= len(e.threads) || e.threads[after.index].id != after.id {
			return kit.InvalidField("page", "invalid cursor")
		}
		i = after.index + 1
	}
	out := kit.CursorPage[threadJSON]{Data: []threadJSON{}}
	last := -1
	for ; i < len(e.threads); i++ {
		th := e.threads[i]
		if len(statuses) > 0 && !slices.Contains(statuses, th.status(x)) {
			continue
		}
		if len(out.Data) == limit {
			next := eventCursor{binding: threadCursorTag, index: last, id: e.threads[last].id}.encode()
			out.NextPage = &next
			break
		}
		out.Data = append(out.Data, e.threadView(th))
		last = i
	}
	return c.OK(out)
}

// threadCursorTag marks a thread list cursor, in the place of an event
// cursor's binding: a cursor of one list is refused by the other.
const threadCursorTag = "threads"

func (s *Service) getThread(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, th, err := s.pathThreadLocked(c)
	if err != nil {
		return err
	}
	return c.OK(x.eng.threadView(th))
}

// archiveThread archives a child thread that is not in a turn: it will
// never run again, its stream ends after session.thread_status_terminated
// (cross-posted on the session stream), and it no longer counts towards
// the session's child threads. Idempotent. The primary thread cannot be
// archived (archive the session), nor a thread in a turn (interrupt it
// first): 409.
func (s *Service) archiveThread(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, th, err := s.pathThreadLocked(c)
	if err != nil {
		return err
	}
	e := x.eng
	if !th.archivedAt.IsZero() {
		return c.OK(e.threadView(th))
	}
	if !th.child {
		return kit.StateConflict("thread `%s` is the session's primary thread; archive the session instead", th.id)
	}
	if th.turn != nil {
		return kit.StateConflict("thread `%s` is in a turn; interrupt it first", th.id)
	}
	e.enter(c.Now())
	live := th.live(x) // else the session can have no further event
	th.archivedAt = e.now
	if live {
		ev := e.emit("session.thread_status_terminated", threadStatusJSON{SessionThreadID: th.id, AgentName: th.name})
		th.feed.append(ev)
	}
	th.feed.close(nil)
	return c.OK(e.threadView(th))
}

func (s *Service) listThreadEvents(c *kit.Call) error {
	lq, err := parseEventListQuery(c.R.URL.Query())
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, th, err := s.pathThreadLocked(c)
	if err != nil {
		return err
	}
	page, err := listLog(*th.feed.log, lq)
	if err != nil {
		return err
	}
	return c.OK(page)
}

// streamThreadEvents is the session stream's handler over the thread's
// feed: the same framing, keep-alives, previews and ending rules.
func (s *Service) streamThreadEvents(c *kit.Call) error {
	kinds, err := parseEventDeltas(c.R.URL.Query())
	if err != nil {
		return err
	}
	s.mu.Lock()
	x, th, err := s.pathThreadLocked(c)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	f := th.feed
	var sub *subscriber
	if th.live(x) {
		sub = f.subscribe(kinds)
	}
	s.mu.Unlock()
	return s.serveStream(c, f, sub)
}
