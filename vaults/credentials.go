package vaults

import (
	"context"
	"iter"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/pagination"
)

const credentialRoute = "/v1/vaults/{vault_id}/credentials/{credential_id}"

// Create adds a credential to a vault: POST
// /v1/vaults/{vault_id}/credentials. A vault holds one active credential
// per MCP server URL and per variable name (409 otherwise); an archived
// vault takes none (409).
func (s *CredentialsService) Create(ctx context.Context, vaultID string, params CredentialCreateParams, opts ...option.Option) (*Credential, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, "/v1/vaults/{vault_id}/credentials", vaultID)
	req.Body = &params
	return pipeline.Do[Credential](ctx, s.p, req, opts)
}

// Get returns one credential, archived or not, without its secrets: GET
// /v1/vaults/{vault_id}/credentials/{credential_id}.
func (s *CredentialsService) Get(ctx context.Context, vaultID, credentialID string, opts ...option.Option) (*Credential, error) {
	return pipeline.Do[Credential](ctx, s.p, newRequest(http.MethodGet, credentialRoute, vaultID, credentialID), opts)
}

// List returns one page of a vault's credentials, newest first: GET
// /v1/vaults/{vault_id}/credentials.
func (s *CredentialsService) List(ctx context.Context, vaultID string, params ListParams, opts ...option.Option) (*pagination.CursorPage[Credential], error) {
	req := newRequest(http.MethodGet, "/v1/vaults/{vault_id}/credentials", vaultID)
	if err := req.Query.CursorPage(params.Page, params.Limit, maxListLimit); err != nil {
		return nil, err
	}
	req.Query.Bool("include_archived", params.IncludeArchived)
	return pipeline.Do[pagination.CursorPage[Credential]](ctx, s.p, req, opts)
}

// All walks every credential of a vault from params.Page on.
func (s *CredentialsService) All(ctx context.Context, vaultID string, params ListParams, opts ...option.Option) iter.Seq2[*Credential, error] {
	return pagination.Cursor(params.Page, func(page string) (*pagination.CursorPage[Credential], error) {
		p := params
		p.Page = page
		return s.List(ctx, vaultID, p, opts...)
	})
}

// Update rotates a credential's secrets or changes its name, metadata or
// settings: POST /v1/vaults/{vault_id}/credentials/{credential_id}. The
// auth variant must be the credential's kind, which cannot change.
func (s *CredentialsService) Update(ctx context.Context, vaultID, credentialID string, params CredentialUpdateParams, opts ...option.Option) (*Credential, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := newRequest(http.MethodPost, credentialRoute, vaultID, credentialID)
	req.Body = &params
	return pipeline.Do[Credential](ctx, s.p, req, opts)
}

// Archive archives a credential, for good: POST
// /v1/vaults/{vault_id}/credentials/{credential_id}/archive.
func (s *CredentialsService) Archive(ctx context.Context, vaultID, credentialID string, opts ...option.Option) (*Credential, error) {
	return pipeline.Do[Credential](ctx, s.p, newRequest(http.MethodPost, credentialRoute+"/archive", vaultID, credentialID), opts)
}

// Delete deletes a credential: DELETE
// /v1/vaults/{vault_id}/credentials/{credential_id}.
func (s *CredentialsService) Delete(ctx context.Context, vaultID, credentialID string, opts ...option.Option) error {
	_, err := pipeline.Do[deleted](ctx, s.p, newRequest(http.MethodDelete, credentialRoute, vaultID, credentialID), opts)
	return err
}

// Validate probes an MCP OAuth credential against its server: POST
// /v1/vaults/{vault_id}/credentials/{credential_id}/mcp_oauth_validate.
// Other kinds are refused (400).
func (s *CredentialsService) Validate(ctx context.Context, vaultID, credentialID string, opts ...option.Option) (*Validation, error) {
	req := newRequest(http.MethodPost, credentialRoute+"/mcp_oauth_validate", vaultID, credentialID)
	req.Op = "vaults.credentials.mcp_oauth_validate"
	return pipeline.Do[Validation](ctx, s.p, req, opts)
}
