package memorystores

import (
	"context"
	"iter"
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// VersionListParams selects a page of a store's versions. Zero fields do not
// filter.
type VersionListParams struct {
	Page  string // cursor from a previous page's NextPage; "" for the first page
	Limit int    // 1 to 100; 0 means 20

	MemoryID  string    // versions of this memory only
	Operation Operation // versions that recorded this operation only
	SessionID string    // versions written by this session only
	APIKeyID  string    // versions written with this API key only
	// ServiceAccountID keeps the versions written by this service account.
	ServiceAccountID string
	// CreatedAtGTE and CreatedAtLTE keep versions written at or after, and
	// at or before, these times (both inclusive).
	CreatedAtGTE time.Time
	CreatedAtLTE time.Time
	View         View // "" means ViewBasic: Content is not returned
}

// VersionGetParams selects what Get returns.
type VersionGetParams struct {
	View View // "" means ViewFull
}

// List returns one page of a store's versions, newest first: GET
// /v1/memory_stores/{memory_store_id}/memory_versions.
func (s *VersionsService) List(ctx context.Context, storeID string, params VersionListParams, opts ...option.Option) (*pagination.CursorPage[MemoryVersion], error) {
	req := newRequest(http.MethodGet, "/v1/memory_stores/{memory_store_id}/memory_versions", storeID)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.String("memory_id", params.MemoryID)
	req.Query.String("operation", string(params.Operation))
	req.Query.String("session_id", params.SessionID)
	req.Query.String("api_key_id", params.APIKeyID)
	req.Query.String("service_account_id", params.ServiceAccountID)
	req.Query.Time("created_at[gte]", params.CreatedAtGTE)
	req.Query.Time("created_at[lte]", params.CreatedAtLTE)
	req.Query.String("view", string(params.View))
	return pipeline.Do[pagination.CursorPage[MemoryVersion]](ctx, s.p, req, opts)
}

// All walks a store's versions from params.Page on, fetching pages as the
// loop asks for them.
func (s *VersionsService) All(ctx context.Context, storeID string, params VersionListParams, opts ...option.Option) iter.Seq2[*MemoryVersion, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[MemoryVersion], error) {
		p := params
		p.Page = page
		return s.List(ctx, storeID, p, opts...)
	})
}

// Get returns one version, with its content unless params.View is
// ViewBasic: GET /v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}.
func (s *VersionsService) Get(ctx context.Context, storeID, versionID string, params VersionGetParams, opts ...option.Option) (*MemoryVersion, error) {
	req := newRequest(http.MethodGet, "/v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}", storeID, versionID)
	req.Query.String("view", string(params.View))
	return pipeline.Do[MemoryVersion](ctx, s.p, req, opts)
}

// Redact erases a version's path and content for good, keeping the record
// that the write happened: POST
// /v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}/redact.
// Redacting twice changes nothing. A memory's current version cannot be
// redacted (409): update or delete the memory first.
func (s *VersionsService) Redact(ctx context.Context, storeID, versionID string, opts ...option.Option) (*MemoryVersion, error) {
	req := newRequest(http.MethodPost, "/v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}/redact", storeID, versionID)
	return pipeline.Do[MemoryVersion](ctx, s.p, req, opts)
}
