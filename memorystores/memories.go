package memorystores

import (
	"context"
	"iter"
	"math"
	"net/http"
	"strconv"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// MemoryCreateParams is the body of MemoriesService.Create.
type MemoryCreateParams struct {
	Path    string `json:"path"`    // required; see the path rule on MemoriesService
	Content string `json:"content"` // UTF-8, at most 102400 bytes; "" is a valid, empty memory
	View    View   `json:"-"`       // "" means ViewBasic: Content is not returned
}

// MemoryGetParams selects what Get returns.
type MemoryGetParams struct {
	View View // "" means ViewFull
}

// MemoryUpdateParams is the body of MemoriesService.Update. Nil and empty
// fields are left unchanged.
type MemoryUpdateParams struct {
	// Content replaces the content when not nil; new("") empties it.
	Content *string `json:"content,omitempty"`
	// Path moves the memory when not ""; its id stays the same.
	Path string `json:"path,omitzero"`
	// Precondition makes the write conditional on the stored content.
	Precondition *Precondition `json:"precondition,omitempty"`
	View         View          `json:"-"` // "" means ViewBasic
}

// Precondition makes a write apply only while the memory's content has the
// hash the caller last read (optimistic concurrency). When it no longer
// does, the write fails with a memory_precondition_failed_error (see
// ErrPreconditionFailed), unless the memory is already in the requested state.
type Precondition struct {
	ContentSHA256 string // 64 lowercase hex characters, as in Memory.ContentSHA256
}

// MarshalJSON writes {"type": "content_sha256", "content_sha256": …}.
func (p Precondition) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("content_sha256", struct {
		ContentSHA256 string `json:"content_sha256"`
	}{p.ContentSHA256})
}

// MemoryDeleteParams makes a delete conditional.
type MemoryDeleteParams struct {
	// ExpectedContentSHA256, when set, deletes only while the content has
	// this hash; otherwise the delete fails with a
	// memory_precondition_failed_error and nothing is deleted.
	ExpectedContentSHA256 string
}

// MemoryListParams selects a page of a memory listing.
type MemoryListParams struct {
	Page  string // cursor from a previous page's NextPage; "" for the first page
	Limit int    // 1 to 100; 0 means 20. With ViewFull the server caps it at 20.
	// PathPrefix lists only memories under this directory; it must end with
	// "/". "" lists the whole store.
	PathPrefix string
	// Depth > 0 lists only what lies at most Depth segments below
	// PathPrefix; each deeper directory appears once, as a *MemoryPrefix.
	// 0 lists every memory below PathPrefix.
	Depth int
	View  View // "" means ViewBasic
}

// Create writes a new memory: POST /v1/memory_stores/{memory_store_id}/memories.
// The first version of the memory is recorded with it. A path that is
// taken fails with ErrPathConflict (see PathConflictError).
func (s *MemoriesService) Create(ctx context.Context, storeID string, params MemoryCreateParams, opts ...option.Option) (*Memory, error) {
	if err := checkPath("path", params.Path); err != nil {
		return nil, err
	}
	if err := checkContent(params.Content); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/memory_stores/{memory_store_id}/memories", storeID)
	req.Query.String("view", string(params.View))
	req.Body = &params
	m, err := pipeline.Do[Memory](ctx, s.p, req, opts)
	return m, classify(err)
}

// Get returns one memory, with its content unless params.View is ViewBasic:
// GET /v1/memory_stores/{memory_store_id}/memories/{memory_id}.
func (s *MemoriesService) Get(ctx context.Context, storeID, memoryID string, params MemoryGetParams, opts ...option.Option) (*Memory, error) {
	req := newRequest(http.MethodGet, "/v1/memory_stores/{memory_store_id}/memories/{memory_id}", storeID, memoryID)
	req.Query.String("view", string(params.View))
	return pipeline.Do[Memory](ctx, s.p, req, opts)
}

// Update changes a memory's content, path or both: POST
// /v1/memory_stores/{memory_store_id}/memories/{memory_id}. An update that
// changes nothing succeeds without recording a version. A failed
// Precondition is ErrPreconditionFailed; a new path that is taken,
// ErrPathConflict.
func (s *MemoriesService) Update(ctx context.Context, storeID, memoryID string, params MemoryUpdateParams, opts ...option.Option) (*Memory, error) {
	if params.Content != nil {
		if err := checkContent(*params.Content); err != nil {
			return nil, err
		}
	}
	if params.Path != "" {
		if err := checkPath("path", params.Path); err != nil {
			return nil, err
		}
	}
	if params.Precondition != nil {
		if err := checkSHA256("precondition.content_sha256", params.Precondition.ContentSHA256); err != nil {
			return nil, err
		}
	}
	req := newRequest(http.MethodPost, "/v1/memory_stores/{memory_store_id}/memories/{memory_id}", storeID, memoryID)
	req.Query.String("view", string(params.View))
	req.Body = &params
	m, err := pipeline.Do[Memory](ctx, s.p, req, opts)
	return m, classify(err)
}

// Delete deletes a memory; its versions remain: DELETE
// /v1/memory_stores/{memory_store_id}/memories/{memory_id}. A failed
// ExpectedContentSHA256 is ErrPreconditionFailed.
func (s *MemoriesService) Delete(ctx context.Context, storeID, memoryID string, params MemoryDeleteParams, opts ...option.Option) error {
	if params.ExpectedContentSHA256 != "" {
		if err := checkSHA256("expected_content_sha256", params.ExpectedContentSHA256); err != nil {
			return err
		}
	}
	req := newRequest(http.MethodDelete, "/v1/memory_stores/{memory_store_id}/memories/{memory_id}", storeID, memoryID)
	req.Query.String("expected_content_sha256", params.ExpectedContentSHA256)
	_, err := pipeline.Do[deleted](ctx, s.p, req, opts)
	return classify(err)
}

// memoryPage is a listing page as it arrives. Its items are decoded into
// their variants while the pipeline decodes the body, so that an item the
// SDK cannot use fails the call with an *apierror.ResponseError, status
// and request id included, like any other malformed body.
type memoryPage struct {
	Data     []ListItem `json:"data"`
	NextPage string     `json:"next_page"`
}

type plainMemoryPage memoryPage

func (p *memoryPage) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainMemoryPage)(p), listItems)
}

// List returns one page of a memory listing, in path order: GET
// /v1/memory_stores/{memory_store_id}/memories. Items are *Memory,
// *MemoryPrefix or, for types newer than this SDK, *UnknownListItem.
func (s *MemoriesService) List(ctx context.Context, storeID string, params MemoryListParams, opts ...option.Option) (*pagination.CursorPage[ListItem], error) {
	req := newRequest(http.MethodGet, "/v1/memory_stores/{memory_store_id}/memories", storeID)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	if err := checkPathPrefix(params.PathPrefix); err != nil {
		return nil, err
	}
	if params.Depth < 0 || params.Depth > math.MaxInt32 {
		return nil, &apierror.ValidationError{Field: "depth", Rule: "must be between 0 and " + strconv.Itoa(math.MaxInt32)}
	}
	req.Query.String("path_prefix", params.PathPrefix)
	req.Query.Int("depth", params.Depth)
	req.Query.String("view", string(params.View))
	raw, err := pipeline.Do[memoryPage](ctx, s.p, req, opts)
	if err != nil {
		return nil, err
	}
	return &pagination.CursorPage[ListItem]{Data: raw.Data, NextPage: raw.NextPage}, nil
}

// All walks a memory listing from params.Page on, fetching pages as the
// loop asks for them.
func (s *MemoriesService) All(ctx context.Context, storeID string, params MemoryListParams, opts ...option.Option) iter.Seq2[ListItem, error] {
	pages := pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[ListItem], error) {
		p := params
		p.Page = page
		return s.List(ctx, storeID, p, opts...)
	})
	return func(yield func(ListItem, error) bool) {
		for item, err := range pages {
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(*item, nil) {
				return
			}
		}
	}
}
