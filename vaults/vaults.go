package vaults

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

// Create creates a vault in the request's workspace: POST /v1/vaults.
func (s *Service) Create(ctx context.Context, params CreateParams, opts ...option.Option) (*Vault, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/vaults")
	req.Body = &params
	return pipeline.Do[Vault](ctx, s.p, req, opts)
}

// Get returns one vault, archived or not: GET /v1/vaults/{vault_id}.
func (s *Service) Get(ctx context.Context, vaultID string, opts ...option.Option) (*Vault, error) {
	return pipeline.Do[Vault](ctx, s.p, newRequest(http.MethodGet, "/v1/vaults/{vault_id}", vaultID), opts)
}

// List returns one page of vaults, newest first: GET /v1/vaults.
func (s *Service) List(ctx context.Context, params ListParams, opts ...option.Option) (*pagination.CursorPage[Vault], error) {
	req := newRequest(http.MethodGet, "/v1/vaults")
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	return pipeline.Do[pagination.CursorPage[Vault]](ctx, s.p, req, opts)
}

// All walks every vault from params.Page on, fetching pages as the loop
// asks for them.
func (s *Service) All(ctx context.Context, params ListParams, opts ...option.Option) iter.Seq2[*Vault, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Vault], error) {
		p := params
		p.Page = page
		return s.List(ctx, p, opts...)
	})
}

// Update changes a vault's display name or metadata: POST
// /v1/vaults/{vault_id}. An archived vault cannot be updated (409).
func (s *Service) Update(ctx context.Context, vaultID string, params UpdateParams, opts ...option.Option) (*Vault, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/vaults/{vault_id}", vaultID)
	req.Body = &params
	return pipeline.Do[Vault](ctx, s.p, req, opts)
}

// Archive archives a vault and its credentials, for good: POST
// /v1/vaults/{vault_id}/archive. New sessions and deployments cannot name
// it. Archiving an archived vault returns it unchanged.
func (s *Service) Archive(ctx context.Context, vaultID string, opts ...option.Option) (*Vault, error) {
	return pipeline.Do[Vault](ctx, s.p, newRequest(http.MethodPost, "/v1/vaults/{vault_id}/archive", vaultID), opts)
}

// Delete deletes a vault with its credentials, archived or not: DELETE
// /v1/vaults/{vault_id}.
func (s *Service) Delete(ctx context.Context, vaultID string, opts ...option.Option) error {
	_, err := pipeline.Do[deleted](ctx, s.p, newRequest(http.MethodDelete, "/v1/vaults/{vault_id}", vaultID), opts)
	return err
}
