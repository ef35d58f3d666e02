package refserver

import (
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/refserver/identity"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/work"
)

// The environment work queue (docs/environment-work-wire.md): the work
// family's wiring, the minting of environment keys, and the one check of
// what an environment key may reach.

// EnvironmentKey mints a new key for a self-hosted environment, as the
// platform's console issues them: sent as `Authorization: Bearer <key>`,
// it authorizes that environment's work queue and the sessions of that
// environment (docs/environment-work-wire.md). Every call mints another
// valid key; archiving or deleting the environment revokes them all. The
// environment must exist and be self-hosted and not archived.
func (s *Server) EnvironmentKey(environmentID string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	env, ok := s.agents.EnvironmentByIDLocked(environmentID)
	switch {
	case !ok:
		return "", fmt.Errorf("refserver: environment %q not found", environmentID)
	case !env.SelfHosted:
		return "", fmt.Errorf("refserver: environment %q is not self_hosted", environmentID)
	case env.Archived:
		return "", fmt.Errorf("refserver: environment %q is archived", environmentID)
	}
	return s.identity.MintEnvironmentKeyLocked(environmentID), nil
}

// newWork builds the work queue over the server's lock, environments and
// sessions.
func (s *Server) newWork() *work.Service {
	return work.New(work.Deps{
		Deps:              s.deps,
		Lock:              &s.mu,
		EnvironmentLocked: s.agents.EnvironmentLocked,
		SandboxCallWaitingLocked: func(sessionID string) bool {
			return s.sessions.SandboxCallWaitingLocked(sessionID)
		},
	})
}

// environmentOfKeyLocked is the identity family's view of an environment
// key's environment: its workspace, whether its keys work, and whether it
// exists.
func (s *Server) environmentOfKeyLocked(id string) (workspaceID string, usable, exists bool) {
	env, ok := s.agents.EnvironmentByIDLocked(id)
	return env.WorkspaceID, ok && env.SelfHosted && !env.Archived, ok
}

// checkEnvironmentKeyTarget is the one place that keeps an environment key
// to its own environment: the identity family has already limited it to
// the work queue and session routes (identity.CheckAccess), and here the
// environment or session the path names must be its own, else 404 as if
// the object did not exist. It lives in the façade because it needs two
// families (the work queue's environment, the sessions'), and applies
// before any handler runs, so neither family can forget it. A work item
// of another environment is then the work family's usual 404, since the
// item is looked up in the path's environment.
func (s *Server) checkEnvironmentKeyTarget(c *kit.Call) error {
	p, ok := c.Caller.(identity.Principal)
	if !ok || p.EnvironmentID() == "" {
		return nil
	}
	keyEnv := p.EnvironmentID()
	if id := c.R.PathValue("environment_id"); id != "" && id != keyEnv {
		return kit.NotFound("Environment `%s` not found.", id)
	}
	if id := c.R.PathValue("session_id"); id != "" {
		s.mu.Lock()
		env, ok := s.sessions.SessionEnvironmentLocked(c.WorkspaceID, id)
		s.mu.Unlock()
		if !ok || env != keyEnv {
			return kit.NotFound("Session `%s` not found.", id)
		}
	}
	return nil
}
