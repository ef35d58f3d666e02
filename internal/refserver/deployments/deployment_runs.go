package deployments

import (
	"maps"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Deployment runs (docs/managed-agents-wire.md section 9):
// the append-only record of each execution of a deployment, scheduled or
// manual. A run records whether a session was created, not what became of
// it, so deleting the session leaves the run as it was.

const deploymentRunListMax = 1000

type deploymentRun struct {
	id           string
	workspaceID  string
	deploymentID string
	agent        Agent
	trigger      string    // "schedule" or "manual"
	scheduledAt  time.Time // schedule only
	sessionID    *string   // exactly one of sessionID and errType is set
	errType      string
	errMessage   string
	createdAt    time.Time
}

func (r *deploymentRun) position() kit.Position {
	return kit.Position{CreatedAt: r.createdAt, ID: r.id}
}

type runErrorJSON struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

type manualTriggerJSON struct {
	Type string `json:"type"`
}

type scheduleTriggerJSON struct {
	Type        string        `json:"type"`
	ScheduledAt kit.Timestamp `json:"scheduled_at"`
}

// deploymentRunJSON carries both session_id and error, one of them null
// (docs/managed-agents-wire.md 9.1).
type deploymentRunJSON struct {
	Type           string        `json:"type"`
	ID             string        `json:"id"`
	DeploymentID   string        `json:"deployment_id"`
	Agent          any           `json:"agent"`
	TriggerContext any           `json:"trigger_context"`
	SessionID      *string       `json:"session_id"`
	Error          *runErrorJSON `json:"error"`
	CreatedAt      kit.Timestamp `json:"created_at"`
}

func (r *deploymentRun) view() deploymentRunJSON {
	out := deploymentRunJSON{
		Type:           "deployment_run",
		ID:             r.id,
		DeploymentID:   r.deploymentID,
		Agent:          r.agent.Reference,
		TriggerContext: manualTriggerJSON{Type: "manual"},
		SessionID:      r.sessionID,
		CreatedAt:      kit.Timestamp(r.createdAt),
	}
	if r.trigger == "schedule" {
		out.TriggerContext = scheduleTriggerJSON{Type: "schedule", ScheduledAt: kit.Timestamp(r.scheduledAt)}
	}
	if r.errType != "" {
		out.Error = &runErrorJSON{Type: r.errType, Message: r.errMessage}
	}
	return out
}

func (s *Service) getDeploymentRun(c *kit.Call) error {
	id := c.R.PathValue("deployment_run_id")
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.deployments.runs[id]
	if !ok || r.workspaceID != c.WorkspaceID {
		return kit.NotFound("Deployment run `%s` not found.", id)
	}
	return c.OK(r.view())
}

// listDeploymentRuns is DR2: newest first. An unknown deployment_id simply
// matches nothing (docs/managed-agents-wire.md 9.3).
func (s *Service) listDeploymentRuns(c *kit.Call) error {
	q := c.R.URL.Query()
	deploymentID, _ := kit.QueryValue(q, "deployment_id")
	created, err := kit.ParseCreatedWindow(q)
	if err != nil {
		return err
	}
	_, filterError := kit.QueryValue(q, "has_error")
	hasError, err := kit.QueryBool(q, "has_error")
	if err != nil {
		return err
	}
	trigger, filterTrigger := kit.QueryValue(q, "trigger_type")
	if filterTrigger {
		if err := kit.OneOf("trigger_type", trigger, "schedule", "manual"); err != nil {
			return err
		}
	}
	p, err := kit.ParseCursorPageParams(q, deploymentRunListMax)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.deployments.runs), kit.NewestFirst((*deploymentRun).position))
	keep := func(r *deploymentRun) bool {
		return r.workspaceID == c.WorkspaceID && (deploymentID == "" || r.deploymentID == deploymentID) &&
			created.Contains(r.createdAt) && (!filterError || (r.errType != "") == hasError) &&
			(!filterTrigger || r.trigger == trigger)
	}
	page := kit.PaginateByCursor(all, (*deploymentRun).position, keep, p)
	return c.OK(kit.MapCursorPage(page, (*deploymentRun).view))
}
