package deployments

import (
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/schedule"
)

// Deployments and deployment runs (docs/managed-agents-wire.md sections 8
// and 9). A deployment is an agent version bound to an environment, with
// resources, vaults, a budget and initial events that it hands to every
// session it creates, by hand (Run Now) or on its cron schedule. This file
// holds the state, the routes, get, list and the status endpoints; create
// and update are in deployments_create.go and deployments_update.go, the
// schedule bookkeeping in deployments_schedule.go, firing in
// deployments_fire.go, runs in deployment_runs.go.

// deploymentState is every deployment and run of every workspace. It is
// guarded by Service.mu and usable as its zero value.
type deploymentState struct {
	byID map[string]*deployment    // nil until the first deployment is created
	runs map[string]*deploymentRun // append-only
	// earliest is the soonest nextFireAt of any deployment that can fire;
	// zero when none can. fireDueDeploymentsLocked runs before every
	// request and returns at once while the clock is before it.
	earliest time.Time
}

const (
	deploymentActive = "active"
	deploymentPaused = "paused"
)

type deployment struct {
	id            string
	workspaceID   string
	name          string
	description   *string
	agent         Agent // pinned
	environmentID string
	initialEvents Events
	resources     Resources
	vaultIDs      []string
	budget        *Budget
	schedule      *schedule.Schedule // nil: manual runs only
	status        string             // deploymentActive or deploymentPaused
	pausedReason  *pausedReason      // non-nil exactly when paused
	metadata      map[string]string
	lastRunAt     time.Time // zero until the first run
	// checkedUntil is the instant up to which the schedule has been dealt
	// with: every occurrence at or before it fired or was skipped (while
	// paused). nextFireAt is the schedule's first occurrence after it, zero
	// when the deployment cannot fire.
	checkedUntil time.Time
	nextFireAt   time.Time
	createdAt    time.Time
	updatedAt    time.Time
	archivedAt   time.Time // zero while active
}

// pausedReason is {type: manual} or {type: error, error: {type}}.
type pausedReason struct {
	typ       string // "manual" or "error"
	errorType string // the failed run's error type, for "error"
}

func (d *deployment) archived() bool { return !d.archivedAt.IsZero() }

func (d *deployment) position() kit.Position { return kit.Position{CreatedAt: d.createdAt, ID: d.id} }

func (s *Service) deploymentRoutes() []kit.Route {
	const one = "/v1/deployments/{deployment_id}"
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/deployments", Op: "deployments.create", Betas: kit.ManagedAgentsBetas, Handle: s.createDeployment},
		{Method: http.MethodGet, Path: "/v1/deployments", Op: "deployments.list", Betas: kit.ManagedAgentsBetas, Handle: s.listDeployments},
		{Method: http.MethodGet, Path: one, Op: "deployments.retrieve", Betas: kit.ManagedAgentsBetas, Handle: s.getDeployment},
		{Method: http.MethodPost, Path: one, Op: "deployments.update", Betas: kit.ManagedAgentsBetas, Handle: s.updateDeployment},
		{Method: http.MethodPost, Path: one + "/pause", Op: "deployments.pause", Betas: kit.ManagedAgentsBetas, Handle: s.pauseDeployment},
		{Method: http.MethodPost, Path: one + "/unpause", Op: "deployments.unpause", Betas: kit.ManagedAgentsBetas, Handle: s.unpauseDeployment},
		{Method: http.MethodPost, Path: one + "/archive", Op: "deployments.archive", Betas: kit.ManagedAgentsBetas, Handle: s.archiveDeployment},
		{Method: http.MethodPost, Path: one + "/run", Op: "deployments.run", Betas: kit.ManagedAgentsBetas, Handle: s.runDeploymentNow},

		{Method: http.MethodGet, Path: "/v1/deployment_runs", Op: "deployment_runs.list", Betas: kit.ManagedAgentsBetas, Handle: s.listDeploymentRuns},
		{Method: http.MethodGet, Path: "/v1/deployment_runs/{deployment_run_id}", Op: "deployment_runs.retrieve", Betas: kit.ManagedAgentsBetas, Handle: s.getDeploymentRun},
	}
}

// deploymentLocked returns a deployment of workspaceID: 404 `Deployment
// `<id>` not found.` when unknown or another workspace's.
func (s *Service) deploymentLocked(workspaceID, id string) (*deployment, error) {
	d, ok := s.deployments.byID[id]
	if !ok || d.workspaceID != workspaceID {
		return nil, kit.NotFound("Deployment `%s` not found.", id)
	}
	return d, nil
}

// writableDeploymentLocked is the path deployment of a write: archived
// deployments are final (409, docs/managed-agents-wire.md 8.6).
func (s *Service) writableDeploymentLocked(c *kit.Call) (*deployment, error) {
	d, err := s.deploymentLocked(c.WorkspaceID, c.R.PathValue("deployment_id"))
	if err != nil {
		return nil, err
	}
	if d.archived() {
		return nil, kit.StateConflict("deployment_id: deployment `%s` is archived", d.id)
	}
	return d, nil
}

func (s *Service) getDeployment(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.deploymentLocked(c.WorkspaceID, c.R.PathValue("deployment_id"))
	if err != nil {
		return err
	}
	return c.OK(d.view(c.Now()))
}

func (s *Service) listDeployments(c *kit.Call) error {
	q := c.R.URL.Query()
	agentID, _ := kit.QueryValue(q, "agent_id")
	created, err := kit.ParseCreatedRange(q)
	if err != nil {
		return err
	}
	includeArchived, err := kit.QueryBool(q, "include_archived")
	if err != nil {
		return err
	}
	p, err := kit.ParseCursorPageParams(q, 100)
	if err != nil {
		return err
	}
	status, filterStatus := kit.QueryValue(q, "status")
	if filterStatus {
		if err := kit.OneOf("status", status, deploymentActive, deploymentPaused); err != nil {
			return err
		}
		if includeArchived {
			return kit.InvalidField("status", "cannot be combined with include_archived")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := c.Now()
	all := slices.SortedFunc(maps.Values(s.deployments.byID), kit.NewestFirst((*deployment).position))
	keep := func(d *deployment) bool {
		return d.workspaceID == c.WorkspaceID && (includeArchived || !d.archived()) &&
			(agentID == "" || d.agent.ID == agentID) && created.Contains(d.createdAt) &&
			(!filterStatus || d.status == status)
	}
	page := kit.PaginateByCursor(all, (*deployment).position, keep, p)
	return c.OK(kit.MapCursorPage(page, func(d *deployment) deploymentJSON { return d.view(now) }))
}

// pauseDeployment is D5: scheduled fires stop; an already paused
// deployment keeps its reason (idempotent, **choice**).
func (s *Service) pauseDeployment(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.writableDeploymentLocked(c)
	if err != nil {
		return err
	}
	now := c.Now()
	if d.status != deploymentPaused {
		s.pauseDeploymentLocked(d, pausedReason{typ: "manual"}, now)
	}
	return c.OK(d.view(now))
}

// unpauseDeployment is D6: the schedule resumes at its next occurrence
// after now; what was missed while paused is not fired
// (docs/managed-agents-wire.md 8.5).
func (s *Service) unpauseDeployment(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.writableDeploymentLocked(c)
	if err != nil {
		return err
	}
	now := c.Now()
	if d.status == deploymentPaused {
		d.status, d.pausedReason, d.updatedAt = deploymentActive, nil, now
		s.rearmLocked(d, now)
	}
	return c.OK(d.view(now))
}

// pauseDeploymentLocked pauses d at `at`: by hand (D5) or after a failed
// scheduled fire.
func (s *Service) pauseDeploymentLocked(d *deployment, reason pausedReason, at time.Time) {
	d.status, d.pausedReason, d.updatedAt = deploymentPaused, &reason, at
	s.rearmLocked(d, at)
}

// archiveDeployment is D7: final and idempotent.
func (s *Service) archiveDeployment(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.deploymentLocked(c.WorkspaceID, c.R.PathValue("deployment_id"))
	if err != nil {
		return err
	}
	now := c.Now()
	if !d.archived() {
		s.archiveDeploymentLocked(d, now)
	}
	return c.OK(d.view(now))
}

// archiveDeploymentLocked archives d: the schedule stops for good, and the
// platform reports an archived deployment as active with no paused reason
// (docs/managed-agents-wire.md 8.5). updated_at is not touched, as for
// every archive.
func (s *Service) archiveDeploymentLocked(d *deployment, now time.Time) {
	d.archivedAt = now
	d.status, d.pausedReason = deploymentActive, nil
	s.rearmLocked(d, now)
}

// archiveAgentDeploymentsLocked archives every non-archived deployment of
// agentID, in the same operation as the agent itself
// (docs/managed-agents-wire.md 4.6); no run is recorded.
func (s *Service) archiveAgentDeploymentsLocked(agentID string, now time.Time) {
	for _, d := range s.deployments.byID {
		if d.agent.ID == agentID && !d.archived() {
			s.archiveDeploymentLocked(d, now)
		}
	}
}
