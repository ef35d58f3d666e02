package sessions

import (
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Sessions and session resources (docs/managed-agents-wire.md sections 6
// and 7). A session holds a snapshot of the agent it runs (an immutable
// *agents.Version, or a modified copy of one), its resources, budget, usage
// and an append-only event log. Sessions are created by Create Session, by
// Run Deployment Now and by scheduled fires, all through createSessionLocked
// (sessions_create.go). Updates are in sessions_update.go, the list in
// sessions_list.go, resources in session_resources.go, the JSON shapes in
// sessions_wire.go.

// sessionState is every session of every workspace. It is guarded by
// Deps.Lock and usable as its zero value.
type sessionState struct {
	byID map[string]*session // nil until the first session is created
}

// Session status values (docs/managed-agents-wire.md 6.2).
const (
	statusIdle         = "idle"
	statusRunning      = "running"
	statusRescheduling = "rescheduling"
	statusTerminated   = "terminated"
)

var sessionStatuses = []string{statusIdle, statusRunning, statusRescheduling, statusTerminated}

type session struct {
	id          string
	workspaceID string
	// agent is the session agent snapshot. Update Session replaces it with
	// a modified copy; the agent's own versions are never touched.
	agent *agents.Version
	// fromOverrides records that the session was created with
	// agent_with_overrides: its agent cannot be updated.
	fromOverrides bool
	environmentID string
	status        string
	title         *string
	metadata      map[string]string
	resources     []*sessionResource // attach order
	vaultIDs      []string
	budget        *budget // nil: uncapped, or removed (and never re-addable)
	deploymentID  *string
	usage         sessionUsage
	// events is the session's event log, append-only: written under mu
	// and eng.feed.mu together (stream_feed.go).
	events []*sessionEvent
	// eng runs the session's turns and streams (engine.go).
	eng        *engine
	createdAt  time.Time
	updatedAt  time.Time
	archivedAt time.Time // zero while active
}

func (x *session) archived() bool { return !x.archivedAt.IsZero() }

// running reports whether a turn is live: the agent cannot be updated and
// the session cannot be deleted.
func (x *session) running() bool { return x.status == statusRunning || x.status == statusRescheduling }

func (x *session) position() kit.Position { return kit.Position{CreatedAt: x.createdAt, ID: x.id} }

// writable is the 409 for writes to an archived or terminated session
// (docs/managed-agents-wire.md 6.7, 6.8): S4, R2, R4, R5 and Send Events.
func (x *session) writable() error {
	if x.archived() {
		return kit.StateConflict("session_id: session `%s` is archived", x.id)
	}
	if x.status == statusTerminated {
		return kit.StateConflict("session_id: session `%s` is terminated", x.id)
	}
	return nil
}

// resource finds one of the session's resources by id.
func (x *session) resource(id string) (int, *sessionResource, error) {
	for i, r := range x.resources {
		if r.id == id {
			return i, r, nil
		}
	}
	return -1, nil, kit.NotFound("Session resource `%s` not found.", id)
}

func (s *Service) sessionRoutes() []kit.Route {
	const one = "/v1/sessions/{session_id}"
	const res = one + "/resources"
	return append([]kit.Route{
		{Method: http.MethodPost, Path: "/v1/sessions", Op: "sessions.create", Betas: kit.ManagedAgentsBetas, Handle: s.createSession},
		{Method: http.MethodGet, Path: "/v1/sessions", Op: "sessions.list", Betas: kit.ManagedAgentsBetas, Handle: s.listSessions},
		{Method: http.MethodGet, Path: one, Op: "sessions.retrieve", Betas: kit.ManagedAgentsBetas, Handle: s.getSession},
		{Method: http.MethodPost, Path: one, Op: "sessions.update", Betas: kit.ManagedAgentsBetas, Handle: s.updateSession},
		{Method: http.MethodPost, Path: one + "/archive", Op: "sessions.archive", Betas: kit.ManagedAgentsBetas, Handle: s.archiveSession},
		{Method: http.MethodDelete, Path: one, Op: "sessions.delete", Betas: kit.ManagedAgentsBetas, Handle: s.deleteSession},

		{Method: http.MethodGet, Path: res, Op: "sessions.resources.list", Betas: kit.ManagedAgentsBetas, Handle: s.listSessionResources},
		{Method: http.MethodPost, Path: res, Op: "sessions.resources.add", Betas: kit.ManagedAgentsBetas, Handle: s.addSessionResource},
		{Method: http.MethodGet, Path: res + "/{resource_id}", Op: "sessions.resources.retrieve", Betas: kit.ManagedAgentsBetas, Handle: s.getSessionResource},
		{Method: http.MethodPost, Path: res + "/{resource_id}", Op: "sessions.resources.update", Betas: kit.ManagedAgentsBetas, Handle: s.updateSessionResource},
		{Method: http.MethodDelete, Path: res + "/{resource_id}", Op: "sessions.resources.delete", Betas: kit.ManagedAgentsBetas, Handle: s.deleteSessionResource},
	}, append(s.eventRoutes(), s.threadRoutes()...)...)
}

// sessionLocked returns a session of workspaceID: 404 `Session `<id>` not
// found.` when unknown, deleted or another workspace's.
func (s *Service) sessionLocked(workspaceID, id string) (*session, error) {
	x, ok := s.sessions.byID[id]
	if !ok || x.workspaceID != workspaceID {
		return nil, kit.NotFound("Session `%s` not found.", id)
	}
	return x, nil
}

func (s *Service) pathSessionLocked(c *kit.Call) (*session, error) {
	return s.sessionLocked(c.WorkspaceID, c.R.PathValue("session_id"))
}

func (s *Service) getSession(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	return c.OK(x.view())
}

// archiveSession is S5 (docs/managed-agents-wire.md 6.7): any status,
// idempotent, one-way.
func (s *Service) archiveSession(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	if !x.archived() {
		now := c.Now()
		// A live turn is interrupted first (docs/managed-agents-wire.md 6.2,
		// **choice**),
		// with its events; then the session's streams end.
		x.eng.archive(now)
		x.archivedAt = now
	}
	return c.OK(x.view())
}

// deleteSession is S6: permanent, refused while a turn is live.
func (s *Service) deleteSession(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	if x.running() {
		return kit.StateConflict("session_id: session is running; interrupt it first")
	}
	delete(s.sessions.byID, x.id)
	x.eng.deleted(c.Now()) // open streams get session.deleted and end
	return c.OK(deletedJSON{ID: x.id, Type: "session_deleted"})
}

// deletedJSON is the response of every delete (docs/managed-agents-wire.md
// 1.7).
type deletedJSON struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}
