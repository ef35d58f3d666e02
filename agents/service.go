package agents

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

// Service calls the agents endpoints. Get one from agentplatform.Client.Agents.
type Service struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Agents
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	return &Service{p: pipeline.ForService(opts)}
}

// Create creates an agent at version 1: POST /v1/agents. Roster and
// predefined agent references are resolved (and pinned) now.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Agent, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/agents")
	req.Beta = beta
	req.Body = &params
	return pipeline.Do[Agent](ctx, s.p, req, opts)
}

// Get returns the current version of an agent, or the version
// params.Version names: GET /v1/agents/{agent_id}. Archived agents are
// returned too.
func (s *Service) Get(ctx context.Context, agentID string, params GetParams, opts ...option.Option) (*Agent, error) {
	if err := checkVersion("version", params.Version); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodGet, "/v1/agents/{agent_id}", agentID)
	req.Beta = beta
	req.Query.Int("version", params.Version)
	return pipeline.Do[Agent](ctx, s.p, req, opts)
}

// Update writes a new version of an agent: POST /v1/agents/{agent_id}.
// Archived agents cannot be updated (409); a params.Version that is not
// the current version is refused with 409 too.
func (s *Service) Update(ctx context.Context, agentID string, params UpdateParams, opts ...option.Option) (*Agent, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/agents/{agent_id}", agentID)
	req.Beta = beta
	req.Body = &params
	return pipeline.Do[Agent](ctx, s.p, req, opts)
}

// Archive archives an agent, for good, together with its deployments: POST
// /v1/agents/{agent_id}/archive. Archiving an archived agent returns it
// unchanged. Existing sessions keep running on their snapshot.
func (s *Service) Archive(ctx context.Context, agentID string, opts ...option.Option) (*Agent, error) {
	req := pipeline.NewRequest(http.MethodPost, "/v1/agents/{agent_id}/archive", agentID)
	req.Beta = beta
	return pipeline.Do[Agent](ctx, s.p, req, opts)
}

// List returns one page of agents (current versions), newest first: GET
// /v1/agents.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Agent], error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/agents")
	req.Beta = beta
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	req.Query.Time("created_at[gte]", params.CreatedAtGTE)
	req.Query.Time("created_at[lte]", params.CreatedAtLTE)
	return pipeline.Do[pagination.CursorPage[Agent]](ctx, s.p, req, opts)
}

// All walks every agent from params.Page on, fetching pages as the loop asks.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Agent, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Agent], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}

// ListVersions returns one page of an agent's versions, highest first: GET
// /v1/agents/{agent_id}/versions. It works on archived agents.
func (s *Service) ListVersions(ctx context.Context, agentID string, params ListVersionsParams, opts ...option.Option) (*pagination.CursorPage[Agent], error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/agents/{agent_id}/versions", agentID)
	req.Beta = beta
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	return pipeline.Do[pagination.CursorPage[Agent]](ctx, s.p, req, opts)
}

// AllVersions walks every version of an agent, highest first.
func (s *Service) AllVersions(ctx context.Context, agentID string, params ListVersionsParams, opts ...option.Option) iter.Seq2[*Agent, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Agent], error) {
		p := params
		p.Page = page
		return s.ListVersions(ctx, agentID, p, opts...)
	})
}
