package memorystores

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Create creates a memory store in the request's workspace: POST
// /v1/memory_stores. Names need not be unique.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*MemoryStore, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/memory_stores")
	req.Body = &params
	return pipeline.Do[MemoryStore](ctx, s.p, req, opts)
}

// Get returns one memory store, archived or not: GET
// /v1/memory_stores/{memory_store_id}.
func (s *Service) Get(ctx context.Context, storeID string, opts ...option.Option) (*MemoryStore, error) {
	req := newRequest(http.MethodGet, "/v1/memory_stores/{memory_store_id}", storeID)
	return pipeline.Do[MemoryStore](ctx, s.p, req, opts)
}

// List returns one page of memory stores, newest first: GET /v1/memory_stores.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[MemoryStore], error) {
	req := newRequest(http.MethodGet, "/v1/memory_stores")
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	req.Query.Time("created_at[gte]", params.CreatedAtGTE)
	req.Query.Time("created_at[lte]", params.CreatedAtLTE)
	return pipeline.Do[pagination.CursorPage[MemoryStore]](ctx, s.p, req, opts)
}

// All walks every memory store from params.Page on, fetching pages as the
// loop asks for them.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*MemoryStore, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[MemoryStore], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}

// Update changes a store's name, description or metadata: POST
// /v1/memory_stores/{memory_store_id}. An archived store cannot be updated
// (409).
func (s *Service) Update(ctx context.Context, storeID string, params UpdateParams, opts ...option.Option) (*MemoryStore, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/memory_stores/{memory_store_id}", storeID)
	req.Body = &params
	return pipeline.Do[MemoryStore](ctx, s.p, req, opts)
}

// Archive makes a store read-only, for good: POST
// /v1/memory_stores/{memory_store_id}/archive. Sessions it is attached to
// keep it; new sessions cannot attach it. Archiving an archived store
// returns it unchanged.
func (s *Service) Archive(ctx context.Context, storeID string, opts ...option.Option) (*MemoryStore, error) {
	req := newRequest(http.MethodPost, "/v1/memory_stores/{memory_store_id}/archive", storeID)
	return pipeline.Do[MemoryStore](ctx, s.p, req, opts)
}

// Delete deletes a store with all its memories and versions, archived or
// not: DELETE /v1/memory_stores/{memory_store_id}.
func (s *Service) Delete(ctx context.Context, storeID string, opts ...option.Option) error {
	req := newRequest(http.MethodDelete, "/v1/memory_stores/{memory_store_id}", storeID)
	_, err := pipeline.Do[deleted](ctx, s.p, req, opts)
	return err
}
