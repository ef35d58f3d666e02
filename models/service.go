package models

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Service calls the model catalogue endpoints. Get one from
// agentplatform.Client.Models.
type Service struct{ p *pipeline.Pipeline }

// NewService returns a service configured from the environment and opts,
// as agentplatform.NewClient would configure it; agentplatform.Client.Models
// is one already made. Options that fail make every call fail with
// their error. A service made on its own has no Close: give it
// option.WithHTTPClient to manage its connections.
func NewService(opts ...option.Option) *Service {
	return &Service{p: pipeline.ForService(opts)}
}

// Get returns one model: GET /v1/models/{model_id}.
func (s *Service) Get(ctx context.Context, modelID string, opts ...option.Option) (*Model, error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/models/{model_id}", modelID)
	return pipeline.Do[Model](ctx, s.p, req, opts)
}

// ListParams selects a page of models. The zero value asks for the first page
// of the default size (20).
type ListParams struct {
	AfterID  string // the page after this model id
	BeforeID string // the page before this model id; excludes AfterID
	Limit    int    // 1 to 1000; 0 means 20
}

// List returns one page of models, most recently released first: GET /v1/models.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.IDPage[Model], error) {
	req := pipeline.NewRequest(http.MethodGet, "/v1/models")
	if err := req.Query.IDPage(params.AfterID, params.BeforeID, params.Limit, 1000); err != nil {
		return nil, err
	}
	return pipeline.Do[pagination.IDPage[Model]](ctx, s.p, req, opts)
}

// All walks every model from the page params selects, fetching pages as the
// loop asks for them.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Model, error] {
	return pagination.ByID(params.AfterID, params.BeforeID, func(after, before string) (*pagination.IDPage[Model], error) {
		p := params
		p.AfterID, p.BeforeID = after, before
		return s.List(ctx, p, opts...)
	})
}
