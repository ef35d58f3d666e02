package deployments

import "github.com/agentplatform/agentplatform-go/internal/refserver/kit"

// Update Deployment (docs/managed-agents-wire.md 8.4): keys that cannot be cleared may be
// omitted but not null; lists are replaced whole; metadata is a patch.
// Neither status nor paused_reason changes. A new schedule starts counting
// from now: earlier occurrences of it are not fired.

func (s *Service) updateDeployment(c *kit.Call) error {
	var body deploymentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.writableDeploymentLocked(c)
	if err != nil {
		return err
	}
	now := c.Now()
	draft := *d // stored only if every field passes
	if err := s.applyDeploymentBodyLocked(&draft, body, false, now); err != nil {
		return err
	}
	if !kit.SameJSON(draft.view(now), d.view(now)) {
		draft.updatedAt = now
	}
	*d = draft
	if body.Schedule.Set {
		s.rearmLocked(d, now)
	}
	return c.OK(d.view(now))
}
