package apikeys

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Service calls the API key endpoints of the admin API. Get one from
// agentplatform.Client.APIKeys.
type Service struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.APIKeys
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	return &Service{p: pipeline.ForService(opts)}
}

const (
	listPath = "/v1/organizations/api_keys"
	keyPath  = "/v1/organizations/api_keys/{api_key_id}"
)

// List returns one page of keys, newest first: GET /v1/organizations/api_keys.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.IDPage[APIKey], error) {
	req := pipeline.NewRequest(http.MethodGet, listPath)
	if err := req.Query.IDPage(params.AfterID, params.BeforeID, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.String("status", string(params.Status))
	req.Query.String("workspace_id", params.WorkspaceID)
	req.Query.String("created_by_user_id", params.CreatedByUserID)
	return pipeline.Do[pagination.IDPage[APIKey]](ctx, s.p, req, opts)
}

// All walks every key from the page params selects, fetching pages as the
// loop asks for them.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*APIKey, error] {
	return pagination.ByID(params.AfterID, params.BeforeID, func(after, before string) (*pagination.IDPage[APIKey], error) {
		p := params
		p.AfterID, p.BeforeID = after, before
		return s.List(ctx, p, opts...)
	})
}

// Get returns one key: GET /v1/organizations/api_keys/{api_key_id}.
func (s *Service) Get(ctx context.Context, keyID string, opts ...option.Option) (*APIKey, error) {
	req := pipeline.NewRequest(http.MethodGet, keyPath, keyID)
	return pipeline.Do[APIKey](ctx, s.p, req, opts)
}

// Update renames a key or moves its status: POST
// /v1/organizations/api_keys/{api_key_id}. A change to a deleted key, or
// any change but deleting to an expired key, is a 409 *apierror.Error.
// Expiry cannot be changed.
func (s *Service) Update(ctx context.Context, keyID string, params UpdateParams, opts ...option.Option) (*APIKey, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, keyPath, keyID)
	req.Body = &params
	return pipeline.Do[APIKey](ctx, s.p, req, opts)
}

// Disable makes the key stop working until it is re-enabled (status
// inactive). An expired or deleted key cannot be disabled (409).
func (s *Service) Disable(ctx context.Context, keyID string, opts ...option.Option) (*APIKey, error) {
	return s.Update(ctx, keyID, UpdateParams{Status: StatusInactive}, opts...)
}

// Enable re-enables a disabled key (status active). An expired or deleted
// key cannot be re-enabled (409).
func (s *Service) Enable(ctx context.Context, keyID string, opts ...option.Option) (*APIKey, error) {
	return s.Update(ctx, keyID, UpdateParams{Status: StatusActive}, opts...)
}

// Delete deletes the key, permanently (status archived). The key is still
// listed. Expired keys can be deleted; deleting a deleted key returns it
// unchanged.
func (s *Service) Delete(ctx context.Context, keyID string, opts ...option.Option) (*APIKey, error) {
	return s.Update(ctx, keyID, UpdateParams{Status: StatusArchived}, opts...)
}
