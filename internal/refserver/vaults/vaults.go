package vaults

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Vaults (docs/vaults-wire.md 1–3): the state, the route table and the vault
// endpoints. Credentials are in credentials.go, their auth union in auth.go.

const (
	displayNameMax = 255
	listMax        = 100
)

type vault struct {
	id          string
	workspaceID string
	displayName string
	metadata    map[string]string
	createdAt   time.Time
	updatedAt   time.Time
	archivedAt  time.Time // zero while active
	credentials map[string]*credential
}

func (v *vault) archived() bool { return !v.archivedAt.IsZero() }

func (v *vault) position() kit.Position { return kit.Position{CreatedAt: v.createdAt, ID: v.id} }

// ordered is the vault's credentials, oldest first (ids break ties).
func (v *vault) ordered() []*credential {
	return slices.SortedFunc(maps.Values(v.credentials), func(a, b *credential) int {
		if c := a.createdAt.Compare(b.createdAt); c != 0 {
			return c
		}
		return cmpString(a.id, b.id)
	})
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (s *Service) vaultLocked(workspaceID, id string) (*vault, error) {
	v, ok := s.vaults[id]
	if !ok || v.workspaceID != workspaceID {
		return nil, kit.NotFound("Vault `%s` not found.", id)
	}
	return v, nil
}

// Routes are the family's endpoints.
func (s *Service) Routes() []kit.Route {
	b := kit.ManagedAgentsBetas
	const one = "/v1/vaults/{vault_id}"
	const cred = one + "/credentials/{credential_id}"
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/vaults", Op: "vaults.create", Betas: b, Handle: s.createVault},
		{Method: http.MethodGet, Path: "/v1/vaults", Op: "vaults.list", Betas: b, Handle: s.listVaults},
		{Method: http.MethodGet, Path: one, Op: "vaults.retrieve", Betas: b, Handle: s.getVault},
		{Method: http.MethodPost, Path: one, Op: "vaults.update", Betas: b, Handle: s.updateVault},
		{Method: http.MethodPost, Path: one + "/archive", Op: "vaults.archive", Betas: b, Handle: s.archiveVault},
		{Method: http.MethodDelete, Path: one, Op: "vaults.delete", Betas: b, Handle: s.deleteVault},

		{Method: http.MethodPost, Path: one + "/credentials", Op: "vaults.credentials.create", Betas: b, Handle: s.createCredential},
		{Method: http.MethodGet, Path: one + "/credentials", Op: "vaults.credentials.list", Betas: b, Handle: s.listCredentials},
		{Method: http.MethodGet, Path: cred, Op: "vaults.credentials.retrieve", Betas: b, Handle: s.getCredential},
		{Method: http.MethodPost, Path: cred, Op: "vaults.credentials.update", Betas: b, Handle: s.updateCredential},
		{Method: http.MethodPost, Path: cred + "/archive", Op: "vaults.credentials.archive", Betas: b, Handle: s.archiveCredential},
		{Method: http.MethodDelete, Path: cred, Op: "vaults.credentials.delete", Betas: b, Handle: s.deleteCredential},
		{Method: http.MethodPost, Path: cred + "/mcp_oauth_validate", Op: "vaults.credentials.mcp_oauth_validate", Betas: b, Handle: s.validateCredential},
	}
}

type vaultJSON struct {
	Type        string            `json:"type"`
	ID          string            `json:"id"`
	DisplayName string            `json:"display_name"`
	Metadata    map[string]string `json:"metadata"`
	CreatedAt   kit.Timestamp     `json:"created_at"`
	UpdatedAt   kit.Timestamp     `json:"updated_at"`
	ArchivedAt  *kit.Timestamp    `json:"archived_at"`
}

func (v *vault) view() vaultJSON {
	return vaultJSON{Type: "vault", ID: v.id, DisplayName: v.displayName, Metadata: v.metadata,
		CreatedAt: kit.Timestamp(v.createdAt), UpdatedAt: kit.Timestamp(v.updatedAt),
		ArchivedAt: kit.OptionalTimestamp(v.archivedAt)}
}

type vaultBody struct {
	DisplayName kit.Optional[string]                     `json:"display_name"`
	Metadata    kit.Optional[map[string]json.RawMessage] `json:"metadata"`
}

func (s *Service) createVault(c *kit.Call) error {
	var body vaultBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.Required("display_name", body.DisplayName); err != nil {
		return err
	}
	if err := kit.CheckLength("display_name", body.DisplayName.Value, 1, displayNameMax); err != nil {
		return err
	}
	metadata, err := kit.MetadataCreate(body.Metadata)
	if err != nil {
		return err
	}
	now := c.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	v := &vault{id: s.ids("vlt_"), workspaceID: c.WorkspaceID, displayName: body.DisplayName.Value,
		metadata: metadata, createdAt: now, updatedAt: now, credentials: map[string]*credential{}}
	s.vaults[v.id] = v
	return c.OK(v.view())
}

func (s *Service) getVault(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.vaultLocked(c.WorkspaceID, c.R.PathValue("vault_id"))
	if err != nil {
		return err
	}
	return c.OK(v.view())
}

// listParams reads limit, page and include_archived.
func listParams(c *kit.Call) (kit.CursorPageParams, bool, error) {
	q := c.R.URL.Query()
	p, err := kit.ParseCursorPageParams(q, listMax)
	if err != nil {
		return p, false, err
	}
	archived, err := kit.QueryBool(q, "include_archived")
	return p, archived, err
}

func (s *Service) listVaults(c *kit.Call) error {
	p, includeArchived, err := listParams(c)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.vaults), kit.NewestFirst((*vault).position))
	keep := func(v *vault) bool { return v.workspaceID == c.WorkspaceID && (includeArchived || !v.archived()) }
	return c.OK(kit.MapCursorPage(kit.PaginateByCursor(all, (*vault).position, keep, p), (*vault).view))
}

func (s *Service) updateVault(c *kit.Call) error {
	var body vaultBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.NotNull("display_name", body.DisplayName); err != nil {
		return err
	}
	if body.DisplayName.Set {
		if err := kit.CheckLength("display_name", body.DisplayName.Value, 1, displayNameMax); err != nil {
			return err
		}
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
	metadata, err := kit.MetadataPatch(v.metadata, body.Metadata, false)
	if err != nil {
		return err
	}
	changed := false
	if body.DisplayName.Set && body.DisplayName.Value != v.displayName {
		v.displayName, changed = body.DisplayName.Value, true
	}
	if !maps.Equal(metadata, v.metadata) {
		v.metadata, changed = metadata, true
	}
	if changed {
		v.updatedAt = c.Now()
	}
	return c.OK(v.view())
}

func archivedVault(id string) error {
	return kit.StateConflict("Vault `%s` is archived.", id)
}

// archiveVault archives the vault and its credentials, once
// (docs/vaults-wire.md 3).
func (s *Service) archiveVault(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.vaultLocked(c.WorkspaceID, c.R.PathValue("vault_id"))
	if err != nil {
		return err
	}
	if !v.archived() {
		now := c.Now()
		v.archivedAt = now
		for _, cr := range v.credentials {
			if !cr.archived() {
				cr.archivedAt = now
			}
		}
	}
	return c.OK(v.view())
}

type deletedJSON struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

func (s *Service) deleteVault(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, err := s.vaultLocked(c.WorkspaceID, c.R.PathValue("vault_id"))
	if err != nil {
		return err
	}
	delete(s.vaults, v.id)
	return c.OK(deletedJSON{ID: v.id, Type: "vault_deleted"})
}
