package vaults

import (
	"sync"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Deps is what the family needs from the server it runs in.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock,
	// because sessions and deployments look vaults up while holding it.
	// nil: the family gets a lock of its own.
	Lock sync.Locker
}

// Service is the vaults family: its routes and every vault of every
// workspace.
type Service struct {
	ids    kit.IDSource
	mu     sync.Locker
	vaults map[string]*vault // by id; a deleted vault is removed
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	return &Service{ids: d.IDs, mu: mu, vaults: map[string]*vault{}}
}

// VaultInfo is what the rest of the server learns about a vault.
type VaultInfo struct {
	ID       string
	Archived bool
}

// VaultLocked returns the vault with this id in the workspace; a 404
// ("Vault `<id>` not found.") when it is unknown, deleted or in another
// workspace. The caller holds Deps.Lock.
func (s *Service) VaultLocked(workspaceID, id string) (VaultInfo, error) {
	v, err := s.vaultLocked(workspaceID, id)
	if err != nil {
		return VaultInfo{}, err
	}
	return VaultInfo{ID: v.id, Archived: v.archived()}, nil
}

// MCPCredentialLocked reports the credential the engine uses for the MCP
// server at serverURL: the first unarchived mcp_oauth or static_bearer
// credential whose mcp_server_url equals serverURL, in the first unarchived
// vault of vaultIDs (in order) that has one (docs/vaults-wire.md 6). ok is
// false when there is none. The caller holds Deps.Lock.
func (s *Service) MCPCredentialLocked(workspaceID string, vaultIDs []string, serverURL string) (credentialID string, ok bool) {
	for _, id := range vaultIDs {
		v, err := s.vaultLocked(workspaceID, id)
		if err != nil || v.archived() {
			continue
		}
		for _, c := range v.ordered() {
			if !c.archived() && c.auth.mcpServerURL() == serverURL && serverURL != "" {
				return c.id, true
			}
		}
	}
	return "", false
}
