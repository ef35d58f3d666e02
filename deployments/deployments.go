package deployments

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Create creates a deployment, active: POST /v1/deployments. With a
// schedule it starts firing at the next occurrence.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Deployment, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/deployments")
	req.Body = &params
	return pipeline.Do[Deployment](ctx, s.p, req, opts)
}

// Get returns one deployment, archived or not: GET
// /v1/deployments/{deployment_id}.
func (s *Service) Get(ctx context.Context, deploymentID string, opts ...option.Option) (*Deployment, error) {
	req := newRequest(http.MethodGet, "/v1/deployments/{deployment_id}", deploymentID)
	return pipeline.Do[Deployment](ctx, s.p, req, opts)
}

// List returns one page of deployments, newest first: GET /v1/deployments.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Deployment], error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodGet, "/v1/deployments")
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.String("agent_id", params.AgentID)
	req.Query.Time("created_at[gte]", params.CreatedAtGTE)
	req.Query.Time("created_at[lte]", params.CreatedAtLTE)
	req.Query.String("status", string(params.Status))
	req.Query.Bool("include_archived", params.IncludeArchived)
	return pipeline.Do[pagination.CursorPage[Deployment]](ctx, s.p, req, opts)
}

// All walks every deployment from params.Page on, fetching pages as the
// loop asks for them.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Deployment, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Deployment], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}

// Update changes a deployment: POST /v1/deployments/{deployment_id}.
// Sessions already created keep what they were given. Archived
// deployments cannot be updated (409).
func (s *Service) Update(ctx context.Context, deploymentID string, params UpdateParams, opts ...option.Option) (*Deployment, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/deployments/{deployment_id}", deploymentID)
	req.Body = &params
	return pipeline.Do[Deployment](ctx, s.p, req, opts)
}

// Pause stops scheduled fires from now on: POST
// /v1/deployments/{deployment_id}/pause. Running sessions continue, and
// RunNow still works. Pausing a paused deployment changes nothing, not even
// the reason.
func (s *Service) Pause(ctx context.Context, deploymentID string, opts ...option.Option) (*Deployment, error) {
	return s.post(ctx, "/v1/deployments/{deployment_id}/pause", deploymentID, opts)
}

// Unpause makes a paused deployment active again: POST
// /v1/deployments/{deployment_id}/unpause. The schedule resumes at its next
// occurrence; fires missed while paused are not made up.
func (s *Service) Unpause(ctx context.Context, deploymentID string, opts ...option.Option) (*Deployment, error) {
	return s.post(ctx, "/v1/deployments/{deployment_id}/unpause", deploymentID, opts)
}

// Archive archives a deployment, for good: POST
// /v1/deployments/{deployment_id}/archive. Its schedule stops; it can no
// longer be updated, paused, unpaused or run. Archiving it again returns it
// unchanged.
func (s *Service) Archive(ctx context.Context, deploymentID string, opts ...option.Option) (*Deployment, error) {
	return s.post(ctx, "/v1/deployments/{deployment_id}/archive", deploymentID, opts)
}

// RunNow runs a deployment now, active or paused: POST
// /v1/deployments/{deployment_id}/run. It returns the run: a failure to
// create the session is reported in Run.Error, not as an error, and does
// not pause the deployment. The runs it leaves are listed by Runs.
func (s *Service) RunNow(ctx context.Context, deploymentID string, opts ...option.Option) (*Run, error) {
	req := newRequest(http.MethodPost, "/v1/deployments/{deployment_id}/run", deploymentID)
	return pipeline.Do[Run](ctx, s.p, req, opts)
}

// post sends a bodiless state change and returns the deployment.
func (s *Service) post(ctx context.Context, route, deploymentID string, opts []option.Option) (*Deployment, error) {
	req := newRequest(http.MethodPost, route, deploymentID)
	return pipeline.Do[Deployment](ctx, s.p, req, opts)
}
