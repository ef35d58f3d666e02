package tunnels

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

const maxListLimit = 1000

// Service calls the tunnel endpoints. Get one from agentplatform.Client.Tunnels.
type Service struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Tunnels
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	return &Service{p: pipeline.ForService(opts)}
}

// CreateParams is the body of Create.
type CreateParams struct {
	DisplayName string `json:"display_name,omitzero"` // optional, 1 to 255 characters
}

// Create creates a tunnel in the request's workspace: POST /v1/tunnels.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Tunnel, error) {
	if err := check.OptionalLength("display_name", params.DisplayName, 1, 255); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/tunnels")
	req.Beta = beta
	req.Body = &params
	return pipeline.Do[Tunnel](ctx, s.p, req, opts)
}

// Get returns one tunnel: GET /v1/tunnels/{tunnel_id}.
func (s *Service) Get(ctx context.Context, tunnelID string, opts ...option.Option) (*Tunnel, error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/tunnels/{tunnel_id}", tunnelID)
	req.Beta = beta
	return pipeline.Do[Tunnel](ctx, s.p, req, opts)
}

// Archive archives a tunnel; its domain is never reused: POST
// /v1/tunnels/{tunnel_id}/archive.
func (s *Service) Archive(ctx context.Context, tunnelID string, opts ...option.Option) (*Tunnel, error) {
	req := pipeline.NewRequest(http.MethodPost, "/v1/tunnels/{tunnel_id}/archive", tunnelID)
	req.Beta = beta
	return pipeline.Do[Tunnel](ctx, s.p, req, opts)
}

// ListParams selects a page of tunnels.
type ListParams struct {
	Page            string // cursor from a previous page's NextPage; "" for the first page
	Limit           int    // 1 to 1000; 0 means 20
	IncludeArchived bool   // also list archived tunnels
}

// List returns one page of tunnels, newest first: GET /v1/tunnels.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Tunnel], error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/tunnels")
	req.Beta = beta
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	return pipeline.Do[pagination.CursorPage[Tunnel]](ctx, s.p, req, opts)
}

// All walks every tunnel from params.Page on, fetching pages as the loop asks.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Tunnel, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Tunnel], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}
