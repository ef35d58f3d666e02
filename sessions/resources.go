package sessions

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Writes to the resources of an archived or terminated session are
// refused with 409.

// resourcePage is a page as it arrives; its items are decoded into their
// variants while the pipeline decodes the body, so that an item the SDK
// cannot use fails the call with an *apierror.ResponseError, status and
// request id included, like any other malformed body.
type resourcePage struct {
	Data     []Resource `json:"data"`
	NextPage string     `json:"next_page,omitzero"`
}

type plainResourcePage resourcePage

func (p *resourcePage) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainResourcePage)(p), unions)
}

// deleted is the answer to a delete, which only echoes the id.
type deleted struct {
	ID string `json:"id"`
}

// List returns one page of a session's resources in attach order: GET
// /v1/sessions/{session_id}/resources. With params.Limit 0 the page holds
// every resource.
func (s *ResourcesService) List(ctx context.Context, sessionID string, params ResourceListParams, opts ...option.Option) (*pagination.CursorPage[Resource], error) {
	req := newRequest(http.MethodGet, "/v1/sessions/{session_id}/resources", sessionID)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxResourceListLimit); err != nil {
		return nil, err
	}
	raw, err := pipeline.Do[resourcePage](ctx, s.p, req, opts)
	if err != nil {
		return nil, err
	}
	return &pagination.CursorPage[Resource]{Data: raw.Data, NextPage: raw.NextPage}, nil
}

// All walks a session's resources from params.Page on, fetching pages as
// the loop asks for them.
func (s *ResourcesService) All(ctx context.Context, sessionID string, params ResourceListParams, opts ...option.Option) iter.Seq2[Resource, error] {
	pages := pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Resource], error) {
		p := params
		p.Page = page
		return s.List(ctx, sessionID, p, opts...)
	})
	return func(yield func(Resource, error) bool) {
		for r, err := range pages {
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(*r, nil) {
				return
			}
		}
	}
}

// Add mounts a file into a running session: POST
// /v1/sessions/{session_id}/resources. Repositories and memory stores can
// only be attached when the session is created.
func (s *ResourcesService) Add(ctx context.Context, sessionID string, params FileResourceParam, opts ...option.Option) (*FileResource, error) {
	if err := params.validate(""); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/sessions/{session_id}/resources", sessionID)
	req.Body = &params
	return pipeline.Do[FileResource](ctx, s.p, req, opts)
}

// Get returns one resource of a session: GET
// /v1/sessions/{session_id}/resources/{resource_id}.
func (s *ResourcesService) Get(ctx context.Context, sessionID, resourceID string, opts ...option.Option) (Resource, error) {
	req := newRequest(http.MethodGet, "/v1/sessions/{session_id}/resources/{resource_id}", sessionID, resourceID)
	return doResource(ctx, s.p, req, opts)
}

// Update rotates a repository resource's authorization token: POST
// /v1/sessions/{session_id}/resources/{resource_id}. Other resources have
// no token (400).
func (s *ResourcesService) Update(ctx context.Context, sessionID, resourceID string, params ResourceUpdateParams, opts ...option.Option) (Resource, error) {
	if params.AuthorizationToken == "" {
		return nil, &apierror.ValidationError{Field: "authorization_token", Rule: "is required"}
	}
	if err := check.Length("authorization_token", string(params.AuthorizationToken), 1, maxToken); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/sessions/{session_id}/resources/{resource_id}", sessionID, resourceID)
	req.Body = &params
	return doResource(ctx, s.p, req, opts)
}

// Delete removes a resource from a session: DELETE
// /v1/sessions/{session_id}/resources/{resource_id}.
func (s *ResourcesService) Delete(ctx context.Context, sessionID, resourceID string, opts ...option.Option) error {
	req := newRequest(http.MethodDelete, "/v1/sessions/{session_id}/resources/{resource_id}", sessionID, resourceID)
	_, err := pipeline.Do[deleted](ctx, s.p, req, opts)
	return err
}

// doResource sends req and decodes the answer into its variant.
func doResource(ctx context.Context, p *pipeline.Pipeline, req *pipeline.Request, opts []option.Option) (Resource, error) {
	v, err := pipeline.Do[resourceValue](ctx, p, req, opts)
	if err != nil {
		return nil, err
	}
	return v.r, nil
}
