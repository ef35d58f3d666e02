package environments

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// beta is the vendor-beta value these endpoints require; the SDK sends it.
const beta = "managed-agents-2026-04-01"

// Service calls the environments endpoints. Get one from agentplatform.Client.Environments.
type Service struct {
	p *pipeline.Pipeline

	// Work calls the work queue of self-hosted environments.
	Work *WorkService
}

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Environments
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	p := pipeline.ForService(opts)
	return &Service{p: p, Work: &WorkService{p: p}}
}

// Create creates an environment: POST /v1/environments.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Environment, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/environments")
	req.Beta = beta
	req.Body = &params
	return pipeline.Do[Environment](ctx, s.p, req, opts)
}

// Get returns one environment, archived or not: GET
// /v1/environments/{environment_id}.
func (s *Service) Get(ctx context.Context, environmentID string, opts ...option.Option) (*Environment, error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/environments/{environment_id}", environmentID)
	req.Beta = beta
	return pipeline.Do[Environment](ctx, s.p, req, opts)
}

// Update changes an environment: POST /v1/environments/{environment_id}.
// Archived environments cannot be updated (409).
func (s *Service) Update(ctx context.Context, environmentID string, params UpdateParams, opts ...option.Option) (*Environment, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/environments/{environment_id}", environmentID)
	req.Beta = beta
	req.Body = &params
	return pipeline.Do[Environment](ctx, s.p, req, opts)
}

// Archive archives an environment, for good: POST
// /v1/environments/{environment_id}/archive. Archiving an archived
// environment returns it unchanged. Running sessions continue.
func (s *Service) Archive(ctx context.Context, environmentID string, opts ...option.Option) (*Environment, error) {
	req := pipeline.NewRequest(http.MethodPost, "/v1/environments/{environment_id}/archive", environmentID)
	req.Beta = beta
	return pipeline.Do[Environment](ctx, s.p, req, opts)
}

// Delete deletes an environment permanently, archived or not: DELETE
// /v1/environments/{environment_id}. Sessions that used it keep its id.
// The answer only echoes the id, so only the error is returned.
func (s *Service) Delete(ctx context.Context, environmentID string, opts ...option.Option) error {
	req := pipeline.NewRequest(http.MethodDelete, "/v1/environments/{environment_id}", environmentID)
	req.Beta = beta
	_, err := pipeline.Do[struct{}](ctx, s.p, req, opts)
	return err
}

// List returns one page of environments, newest first: GET /v1/environments.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Environment], error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/environments")
	req.Beta = beta
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	return pipeline.Do[pagination.CursorPage[Environment]](ctx, s.p, req, opts)
}

// All walks every environment from params.Page on, fetching pages as the
// loop asks.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Environment, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Environment], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}
