package sessions

import "time"

// The work queue of self-hosted environments (docs/environment-work-wire.md)
// lives in package work; the engine tells it when a session needs a worker
// (Deps.WorkNeededLocked) and when a session ends (Deps.SessionEndedLocked),
// and the queue asks back whether a sandbox call still waits
// (SandboxCallWaitingLocked).

// workNeeded tells the work queue that x needs a worker: created on a
// self-hosted environment, or with a sandbox call waiting for its result.
// The queue adds an item only when the session has no live one.
func (s *Service) workNeeded(x *session, now time.Time) {
	if s.deps.WorkNeededLocked != nil {
		s.deps.WorkNeededLocked(x.workspaceID, x.environmentID, x.id, now)
	}
}

// sessionEnded tells the work queue that x was terminated, archived or
// deleted: its queued item stops, a claimed one is asked to stop.
func (s *Service) sessionEnded(x *session, now time.Time) {
	if s.deps.SessionEndedLocked != nil {
		s.deps.SessionEndedLocked(x.id, now)
	}
}

// sandboxWaiting reports whether a sandbox call waits for its
// user.tool_result (the client runs it, so a worker must be there).
func (e *engine) sandboxWaiting() bool {
	for _, c := range e.liveCalls() {
		if c.sandbox && c.state == callAwaitingResult {
			return true
		}
	}
	return false
}

// requestWork is the engine's hook after a run: a waiting sandbox call on
// a self-hosted environment needs a worker.
func (e *engine) requestWork() {
	if e.selfHosted && e.sandboxWaiting() {
		e.s.workNeeded(e.x, e.now)
	}
}

// SandboxCallWaitingLocked reports whether the session exists, can still
// run (not archived or terminated) and has a sandbox call waiting for its
// user.tool_result. The caller holds Deps.Lock.
func (s *Service) SandboxCallWaitingLocked(sessionID string) bool {
	x, ok := s.sessions.byID[sessionID]
	if !ok || x.archived() || x.status == statusTerminated || !x.eng.selfHosted {
		return false
	}
	return x.eng.sandboxWaiting()
}

// SessionEnvironmentLocked returns the environment of the session with
// this id in the workspace; false when there is no such session. The
// caller holds Deps.Lock.
func (s *Service) SessionEnvironmentLocked(workspaceID, sessionID string) (string, bool) {
	x, err := s.sessionLocked(workspaceID, sessionID)
	if err != nil {
		return "", false
	}
	return x.environmentID, true
}
