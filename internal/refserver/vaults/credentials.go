package vaults

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Credentials (docs/vaults-wire.md 1–4).

type credential struct {
	id          string
	vaultID     string
	displayName string // "": unset (null)
	metadata    map[string]string
	auth        *auth
	createdAt   time.Time
	updatedAt   time.Time
	archivedAt  time.Time
}

func (c *credential) archived() bool { return !c.archivedAt.IsZero() }

func (c *credential) position() kit.Position { return kit.Position{CreatedAt: c.createdAt, ID: c.id} }

type credentialJSON struct {
	Type        string            `json:"type"`
	ID          string            `json:"id"`
	VaultID     string            `json:"vault_id"`
	DisplayName *string           `json:"display_name"`
	Metadata    map[string]string `json:"metadata"`
	Auth        any               `json:"auth"`
	CreatedAt   kit.Timestamp     `json:"created_at"`
	UpdatedAt   kit.Timestamp     `json:"updated_at"`
	ArchivedAt  *kit.Timestamp    `json:"archived_at"`
}

func (c *credential) view() credentialJSON {
	return credentialJSON{Type: "vault_credential", ID: c.id, VaultID: c.vaultID,
		DisplayName: optionalString(c.displayName), Metadata: c.metadata, Auth: c.auth.view(),
		CreatedAt: kit.Timestamp(c.createdAt), UpdatedAt: kit.Timestamp(c.updatedAt),
		ArchivedAt: kit.OptionalTimestamp(c.archivedAt)}
}

type credentialBody struct {
	Auth        kit.Optional[json.RawMessage]            `json:"auth"`
	DisplayName kit.Optional[string]                     `json:"display_name"`
	Metadata    kit.Optional[map[string]json.RawMessage] `json:"metadata"`
}

// credentialLocked finds a credential of a vault of the workspace.
func (s *Service) credentialLocked(c *kit.Call) (*vault, *credential, error) {
	v, err := s.vaultLocked(c.WorkspaceID, c.R.PathValue("vault_id"))
	if err != nil {
		return nil, nil, err
	}
	id := c.R.PathValue("credential_id")
	cr, ok := v.credentials[id]
	if !ok {
		return nil, nil, kit.NotFound("Credential `%s` not found.", id)
	}
	return v, cr, nil
}

// conflictLocked refuses a second unarchived credential for the same MCP
// server or variable name in a vault.
func conflictLocked(v *vault, a *auth, self string) error {
	for _, other := range v.credentials {
		if other.id != self && !other.archived() && other.auth.uniqueKey() == a.uniqueKey() {
			if a.typ == authEnvVar {
				return kit.StateConflict("Vault `%s` already has a credential for `%s`.", v.id, a.secretName)
			}
			return kit.StateConflict("Vault `%s` already has a credential for MCP server `%s`.", v.id, a.serverURL)
		}
	}
	return nil
}

func (s *Service) createCredential(c *kit.Call) error {
	var body credentialBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.Required("auth", body.Auth); err != nil {
		return err
	}
	now := c.Now()
	a, err := parseAuth(body.Auth.Value, now)
	if err != nil {
		return err
	}
	if err := kit.NotNull("display_name", body.DisplayName); err != nil {
		return err
	}
	if err := kit.CheckLength("display_name", body.DisplayName.Value, 0, displayNameMax); err != nil {
		return err
	}
	metadata, err := kit.MetadataCreate(body.Metadata)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.vaultLocked(c.WorkspaceID, c.R.PathValue("vault_id"))
	if err != nil {
		return err
	}
	if v.archived() {
		return archivedVault(v.id)
	}
	if err := conflictLocked(v, a, ""); err != nil {
		return err
	}
	cr := &credential{id: s.ids("vcrd_"), vaultID: v.id, displayName: body.DisplayName.Value,
		metadata: metadata, auth: a, createdAt: now, updatedAt: now}
	v.credentials[cr.id] = cr
	return c.OK(cr.view())
}

func (s *Service) getCredential(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, cr, err := s.credentialLocked(c)
	if err != nil {
		return err
	}
	return c.OK(cr.view())
}

func (s *Service) listCredentials(c *kit.Call) error {
	p, includeArchived, err := listParams(c)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.vaultLocked(c.WorkspaceID, c.R.PathValue("vault_id"))
	if err != nil {
		return err
	}
	all := slices.SortedFunc(maps.Values(v.credentials), kit.NewestFirst((*credential).position))
	keep := func(cr *credential) bool { return includeArchived || !cr.archived() }
	return c.OK(kit.MapCursorPage(kit.PaginateByCursor(all, (*credential).position, keep, p), (*credential).view))
}

func (s *Service) updateCredential(c *kit.Call) error {
	var body credentialBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.NotNull("auth", body.Auth); err != nil {
		return err
	}
	if body.DisplayName.Present() {
		if err := kit.CheckLength("display_name", body.DisplayName.Value, 1, displayNameMax); err != nil {
			return err
		}
	}
	now := c.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	v, cr, err := s.credentialLocked(c)
	if err != nil {
		return err
	}
	if v.archived() {
		return archivedVault(v.id)
	}
	if cr.archived() {
		return kit.StateConflict("Credential `%s` is archived.", cr.id)
	}
	a := cr.auth
	if body.Auth.Set {
		if a, err = applyUpdate(cr.auth, body.Auth.Value, now); err != nil {
			return err
		}
	}
	metadata, err := kit.MetadataPatch(cr.metadata, body.Metadata, false)
	if err != nil {
		return err
	}
	// Every rule passed: store. A new secret counts as a change even
	// though no response shows it.
	changed := a != cr.auth || !maps.Equal(metadata, cr.metadata)
	if body.DisplayName.Set && body.DisplayName.Value != cr.displayName {
		cr.displayName, changed = body.DisplayName.Value, true // null clears
	}
	cr.auth, cr.metadata = a, metadata
	if changed {
		cr.updatedAt = now
	}
	return c.OK(cr.view())
}

func (s *Service) archiveCredential(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, cr, err := s.credentialLocked(c)
	if err != nil {
		return err
	}
	if !cr.archived() {
		cr.archivedAt = c.Now()
	}
	return c.OK(cr.view())
}

func (s *Service) deleteCredential(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, cr, err := s.credentialLocked(c)
	if err != nil {
		return err
	}
	delete(v.credentials, cr.id)
	return c.OK(deletedJSON{ID: cr.id, Type: "vault_credential_deleted"})
}

type validationJSON struct {
	Type            string          `json:"type"`
	CredentialID    string          `json:"credential_id"`
	VaultID         string          `json:"vault_id"`
	Status          string          `json:"status"`
	HasRefreshToken bool            `json:"has_refresh_token"`
	MCPProbe        *probeJSON      `json:"mcp_probe"`
	Refresh         *refreshOutcome `json:"refresh"`
	ValidatedAt     kit.Timestamp   `json:"validated_at"`
}

type probeJSON struct {
	Method       string        `json:"method"`
	HTTPResponse *httpResponse `json:"http_response"`
}

type refreshOutcome struct {
	Status       string        `json:"status"`
	HTTPResponse *httpResponse `json:"http_response"`
}

type httpResponse struct {
	StatusCode    int    `json:"status_code"`
	ContentType   string `json:"content_type"`
	Body          string `json:"body"`
	BodyTruncated bool   `json:"body_truncated"`
}

// validateCredential answers from the stored state (docs/vaults-wire.md 4):
// the reference server reaches no MCP server.
func (s *Service) validateCredential(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	now := c.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	_, cr, err := s.credentialLocked(c)
	if err != nil {
		return err
	}
	a := cr.auth
	if a.typ != authMCPOAuth {
		return kit.InvalidField("auth.type", "only `%s` credentials can be validated", authMCPOAuth)
	}
	out := validationJSON{Type: "vault_credential_validation", CredentialID: cr.id, VaultID: cr.vaultID,
		Status: "valid", HasRefreshToken: a.refresh != nil, ValidatedAt: kit.Timestamp(now)}
	switch {
	case a.expiresAt.IsZero() || a.expiresAt.After(now):
	case a.refresh != nil:
		out.Status, out.Refresh = "unknown", &refreshOutcome{Status: "succeeded"}
	default:
		out.Status, out.Refresh = "invalid", &refreshOutcome{Status: "no_refresh_token"}
		out.MCPProbe = &probeJSON{Method: "initialize", HTTPResponse: &httpResponse{StatusCode: 401,
			ContentType: "application/json", Body: `{"error":"invalid_token"}`}}
	}
	return c.OK(out)
}
