package deployments

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/vaults"
)

// Running deployments: Run Now (D8) and scheduled fires
// (docs/managed-agents-wire.md 8.5, 8.7). Both go through runDeploymentLocked, which creates the session
// with Deps.CreateSessionLocked or records why it could not; they differ in the
// trigger, in the time the run is dated, and in that a failed scheduled
// fire pauses the deployment.

// runDeploymentNow is D8: allowed while active or paused. A failed run is
// still a 200 whose run carries the error, and it pauses nothing.
func (s *Service) runDeploymentNow(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.writableDeploymentLocked(c)
	if err != nil {
		return err
	}
	defer s.deps.ParentTurns(c)()
	return c.OK(s.runDeploymentLocked(d, c.Now(), false).view())
}

// fireDueDeploymentsLocked fires every occurrence t of every active,
// non-archived deployment's schedule with checkedUntil < t <= now, once
// each, oldest first across deployments. A fire is dated t, not now: the
// server behaves as if it had fired on time, whenever the clock is looked
// at. A failed fire pauses its deployment, so its later occurrences in the
// same window are skipped, and are not fired on unpause either. It runs
// before every request (the server's tick, FireDueLocked): while now is before the earliest next
// fire time it costs one comparison.
func (s *Service) fireDueDeploymentsLocked(now time.Time) {
	if earliest := s.deployments.earliest; earliest.IsZero() || now.Before(earliest) {
		return
	}
	type occurrence struct {
		at time.Time
		d  *deployment
	}
	var due []occurrence
	for _, d := range s.deployments.byID {
		if d.nextFireAt.IsZero() || d.nextFireAt.After(now) {
			continue
		}
		// Between returns at most 1000 times; continue from the last.
		for from := d.checkedUntil; ; {
			batch := d.schedule.Between(from, now)
			for _, t := range batch {
				due = append(due, occurrence{t, d})
			}
			if len(batch) < 1000 {
				break
			}
			from = batch[len(batch)-1]
		}
	}
	slices.SortFunc(due, func(a, b occurrence) int {
		return cmp.Or(a.at.Compare(b.at), a.d.createdAt.Compare(b.d.createdAt), cmp.Compare(a.d.id, b.d.id))
	})
	for _, o := range due {
		if !o.d.canFire() { // paused by an earlier failure in this window
			continue
		}
		if run := s.runDeploymentLocked(o.d, o.at, true); run.errType != "" {
			s.pauseDeploymentLocked(o.d, pausedReason{typ: "error", errorType: run.errType}, o.at)
		}
	}
	for _, o := range due {
		if o.d.checkedUntil.Before(now) {
			s.rearmLocked(o.d, now)
		}
	}
}

// runDeploymentLocked records one run of d dated at: it creates the
// session (dated at as well) or records why it could not. scheduled tells
// a fire (trigger schedule, scheduled_at = at) from Run Now (manual).
// last_run_at moves with every run, failed ones included (**choice**: a
// failed run is still a run of the deployment).
func (s *Service) runDeploymentLocked(d *deployment, at time.Time, scheduled bool) *deploymentRun {
	run := &deploymentRun{id: s.cfg.ids("drun_"), workspaceID: d.workspaceID, deploymentID: d.id,
		agent: d.agent, trigger: "manual", createdAt: at}
	if scheduled {
		run.trigger, run.scheduledAt = "schedule", at
	}
	if typ, message := s.runBlockerLocked(d); typ != "" {
		run.errType, run.errMessage = typ, message
	} else if id, err := s.deps.CreateSessionLocked(d.workspaceID, d.sessionSpec(), at); err != nil {
		// Nothing in 8.7 predicts this (two memory stores renamed to one
		// mount path since the deployment was written, for example): the
		// platform's catch-all type, with the rule that failed.
		run.errType, run.errMessage = "session_creation_rejected_error", errorMessageOf(err)
	} else {
		run.sessionID = &id
	}
	if s.deployments.runs == nil {
		s.deployments.runs = map[string]*deploymentRun{}
	}
	s.deployments.runs[run.id] = run
	d.lastRunAt = at
	return run
}

// runBlockerLocked checks, in the order of docs/managed-agents-wire.md 8.7,
// what would make a
// run of d fail, and returns the run error's type and message ("" when
// nothing does). The agent is not checked: archiving an agent archives its
// deployments, so no run ever meets an archived agent.
func (s *Service) runBlockerLocked(d *deployment) (typ, message string) {
	env, ok := s.deps.EnvironmentLocked(d.environmentID)
	if !ok || env.WorkspaceID != d.workspaceID {
		return "environment_not_found_error", "environment `" + d.environmentID + "` not found"
	}
	if env.Archived {
		return "environment_archived_error", "environment `" + env.ID + "` is archived"
	}
	var missing string
	for _, id := range d.resources.MemoryStoreIDs {
		st, err := s.deps.StoreLocked(d.workspaceID, id)
		switch {
		case err != nil && missing == "":
			missing = id
		case err == nil && st.Archived:
			return "memory_store_archived_error", "memory store `" + st.ID + "` is archived"
		}
	}
	if missing != "" {
		return "session_resource_not_found_error", "memory store `" + missing + "` not found"
	}
	return vaults.RunBlockerLocked(s.deps.VaultLocked, d.workspaceID, d.vaultIDs)
}

// sessionSpec is what d hands to each session it creates
// (docs/managed-agents-wire.md 8.5):
// its pinned agent, environment, resources, vaults, budget, initial events
// and its own id. The server gives the session no title and empty
// metadata (**choice**).
func (d *deployment) sessionSpec() SessionSpec {
	return SessionSpec{
		Agent:         d.agent,
		EnvironmentID: d.environmentID,
		Resources:     d.resources,
		VaultIDs:      d.vaultIDs,
		Budget:        d.budget,
		Events:        d.initialEvents,
		DeploymentID:  d.id,
	}
}

// errorMessageOf is the client-facing message of an error.
func errorMessageOf(err error) string {
	var ae *kit.APIError
	if errors.As(err, &ae) {
		return ae.Message
	}
	return err.Error()
}
