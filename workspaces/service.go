package workspaces

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Service calls the workspace endpoints of the admin API. Get one from
// agentplatform.Client.Workspaces.
type Service struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Workspaces
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	return &Service{p: pipeline.ForService(opts)}
}

// Create creates a workspace: POST /v1/organizations/workspaces.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Workspace, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/organizations/workspaces")
	req.Body = &params
	return pipeline.Do[Workspace](ctx, s.p, req, opts)
}

// Get returns one workspace: GET /v1/organizations/workspaces/{workspace_id}.
func (s *Service) Get(ctx context.Context, workspaceID string, opts ...option.Option) (*Workspace, error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/organizations/workspaces/{workspace_id}", workspaceID)
	return pipeline.Do[Workspace](ctx, s.p, req, opts)
}

// Update changes a workspace: POST /v1/organizations/workspaces/{workspace_id}.
func (s *Service) Update(ctx context.Context, workspaceID string, params UpdateParams, opts ...option.Option) (*Workspace, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/organizations/workspaces/{workspace_id}", workspaceID)
	req.Body = &params
	return pipeline.Do[Workspace](ctx, s.p, req, opts)
}

// Archive archives a workspace, for good: POST
// /v1/organizations/workspaces/{workspace_id}/archive. Archiving an archived
// workspace returns it unchanged.
func (s *Service) Archive(ctx context.Context, workspaceID string, opts ...option.Option) (*Workspace, error) {
	req := pipeline.NewRequest(http.MethodPost, "/v1/organizations/workspaces/{workspace_id}/archive", workspaceID)
	return pipeline.Do[Workspace](ctx, s.p, req, opts)
}

// List returns one page of workspaces, newest first: GET /v1/organizations/workspaces.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.IDPage[Workspace], error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodGet, "/v1/organizations/workspaces")
	if err := req.Query.IDPage(params.AfterID, params.BeforeID, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	req.Query.Bool("include_default", params.IncludeDefault)
	// The list is sent as repeated ids[]=…, the form the official clients use.
	req.Query.Strings("ids[]", params.IDs)
	return pipeline.Do[pagination.IDPage[Workspace]](ctx, s.p, req, opts)
}

// All walks every workspace from the page params selects, fetching pages as
// the loop asks for them.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Workspace, error] {
	return pagination.ByID(params.AfterID, params.BeforeID, func(after, before string) (*pagination.IDPage[Workspace], error) {
		p := params
		p.AfterID, p.BeforeID = after, before
		return s.List(ctx, p, opts...)
	})
}
