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
type Service struct {
	calls

	// Certificates calls the endpoints of a tunnel's CA certificates.
	Certificates *CertificatesService

	// Legacy calls the same operations on the organization endpoints that
	// /v1/tunnels supersedes.
	//
	// Deprecated: use the Service's own methods; the organization endpoints
	// are served only during the migration window.
	Legacy *LegacyService
}

// LegacyService calls the admin endpoints under /v1/organizations/tunnels,
// which /v1/tunnels supersedes: the same tunnels, with the same records.
// They take an admin key (a personal or service account key not scoped to a
// workspace, which names the workspace with option.WithWorkspaceID) and no
// beta value. Get one from agentplatform.Client.Tunnels.Legacy.
//
// Deprecated: use Service; the organization endpoints are served only
// during the migration window.
type LegacyService struct{ calls }

// calls is the implementation both services share: the same operations
// under two base paths.
type calls struct {
	p    *pipeline.Pipeline
	base string // "/v1/tunnels" or "/v1/organizations/tunnels"
	beta string // the vendor-beta value the base path requires; "" for none
}

const (
	route       = "/v1/tunnels"
	legacyRoute = "/v1/organizations/tunnels"
)

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Tunnels
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	p := pipeline.ForService(opts)
	c := calls{p: p, base: route, beta: beta}
	return &Service{
		calls:        c,
		Certificates: &CertificatesService{c},
		Legacy:       &LegacyService{calls{p: p, base: legacyRoute}},
	}
}

func (c calls) request(method, suffix string, params ...string) *pipeline.Request {
	req := pipeline.NewRequest(method, c.base+suffix, params...)
	req.Beta = c.beta
	return req
}

// CreateParams is the body of Create.
type CreateParams struct {
	DisplayName string `json:"display_name,omitzero"` // optional, 1 to 255 characters
}

// Create creates a tunnel in the request's workspace: POST /v1/tunnels.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Tunnel, error) {
	return s.create(ctx, params, opts)
}

// Get returns one tunnel: GET /v1/tunnels/{tunnel_id}.
func (s *Service) Get(ctx context.Context, tunnelID string, opts ...option.Option) (*Tunnel, error) {
	return s.get(ctx, tunnelID, opts)
}

// Archive archives a tunnel; its domain is never reused: POST
// /v1/tunnels/{tunnel_id}/archive.
func (s *Service) Archive(ctx context.Context, tunnelID string, opts ...option.Option) (*Tunnel, error) {
	return s.archive(ctx, tunnelID, opts)
}

// ListParams selects a page of tunnels.
type ListParams struct {
	Page            string // cursor from a previous page's NextPage; "" for the first page
	Limit           int    // 1 to 1000; 0 means 20
	IncludeArchived bool   // also list archived tunnels
}

// List returns one page of tunnels, newest first: GET /v1/tunnels.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Tunnel], error) {
	return s.list(ctx, params, opts)
}

// All walks every tunnel from params.Page on, fetching pages as the loop asks.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Tunnel, error] {
	return s.all(ctx, params, opts)
}

// Create creates a tunnel in the request's workspace: POST
// /v1/organizations/tunnels.
//
// Deprecated: use Service.Create; the organization endpoints are served
// only during the migration window.
func (s *LegacyService) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Tunnel, error) {
	return s.create(ctx, params, opts)
}

// Get returns one tunnel: GET /v1/organizations/tunnels/{tunnel_id}.
//
// Deprecated: use Service.Get; the organization endpoints are served only
// during the migration window.
func (s *LegacyService) Get(ctx context.Context, tunnelID string, opts ...option.Option) (*Tunnel, error) {
	return s.get(ctx, tunnelID, opts)
}

// Archive archives a tunnel: POST
// /v1/organizations/tunnels/{tunnel_id}/archive.
//
// Deprecated: use Service.Archive; the organization endpoints are served
// only during the migration window.
func (s *LegacyService) Archive(ctx context.Context, tunnelID string, opts ...option.Option) (*Tunnel, error) {
	return s.archive(ctx, tunnelID, opts)
}

// List returns one page of tunnels, newest first: GET
// /v1/organizations/tunnels.
//
// Deprecated: use Service.List; the organization endpoints are served only
// during the migration window.
func (s *LegacyService) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Tunnel], error) {
	return s.list(ctx, params, opts)
}

// All walks every tunnel from params.Page on, fetching pages as the loop
// asks.
//
// Deprecated: use Service.All; the organization endpoints are served only
// during the migration window.
func (s *LegacyService) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Tunnel, error] {
	return s.all(ctx, params, opts)
}

func (c calls) create(ctx context.Context, params CreateParams, opts []option.Option) (*Tunnel, error) {
	if err := check.OptionalLength("display_name", params.DisplayName, 1, 255); err != nil {
		return nil, err
	}
	req := c.request(http.MethodPost, "")
	req.Body = &params
	return pipeline.Do[Tunnel](ctx, c.p, req, opts)
}

func (c calls) get(ctx context.Context, tunnelID string, opts []option.Option) (*Tunnel, error) {
	return pipeline.Do[Tunnel](ctx, c.p, c.request(http.MethodGet, "/{tunnel_id}", tunnelID), opts)
}

func (c calls) archive(ctx context.Context, tunnelID string, opts []option.Option) (*Tunnel, error) {
	return pipeline.Do[Tunnel](ctx, c.p, c.request(http.MethodPost, "/{tunnel_id}/archive", tunnelID), opts)
}

func (c calls) list(ctx context.Context, params ListParams, opts []option.Option) (*pagination.CursorPage[Tunnel], error) {
	req := c.request(http.MethodGet, "")
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	return pipeline.Do[pagination.CursorPage[Tunnel]](ctx, c.p, req, opts)
}

func (c calls) all(ctx context.Context, params ListParams, opts []option.Option) iter.Seq2[*Tunnel, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Tunnel], error) {
		p := params
		p.Page = page
		return c.list(ctx, p, opts)
	})
}
