package conformance_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/vaults"
)

// newVault creates a vault named after the test, deleted when the test
// ends (with its credentials).
func newVault(t *testing.T, tg *Target) *vaults.Vault {
	t.Helper()
	c := tg.Client
	v, err := c.Vaults.Create(tg.ctx(t), vaults.CreateParams{DisplayName: name(t), Metadata: metadata()})
	if err != nil {
		t.Fatalf("create vault: %v", err)
	}
	cleanup(t, "delete vault "+v.ID, func(ctx context.Context) error { return c.Vaults.Delete(ctx, v.ID) })
	return v
}

// TestVaults creates a vault and a static bearer credential, reads and
// lists them (no secret is ever returned), archives and deletes the
// credential, and mounts the vault on a session.
func TestVaults(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	v := newVault(t, tg)
	if v.Type != "vault" || !strings.HasPrefix(v.ID, "vlt_") || v.Archived() {
		t.Fatalf("created vault: %+v", v)
	}
	const secret = "conformance-not-a-real-token"
	cred, err := c.Vaults.Credentials.Create(ctx, v.ID, vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: "https://mcp.example.com/conformance", Token: secret}})
	if err != nil {
		t.Fatalf("create credential: %v", err)
	}
	auth, ok := cred.Auth.(*vaults.StaticBearerAuth)
	if !strings.HasPrefix(cred.ID, "vcrd_") || cred.VaultID != v.ID || !ok || auth.MCPServerURL != "https://mcp.example.com/conformance" {
		t.Fatalf("created credential: %+v", cred)
	}
	got, err := c.Vaults.Credentials.Get(ctx, v.ID, cred.ID)
	if err != nil || got.ID != cred.ID {
		t.Fatalf("get credential: %v, %+v", err, got)
	}
	var found bool
	for item, err := range c.Vaults.Credentials.All(ctx, v.ID, vaults.ListParams{}) {
		if err != nil {
			t.Fatalf("list credentials: %v", err)
		}
		found = found || item.ID == cred.ID
	}
	if !found {
		t.Errorf("credential %s not listed", cred.ID)
	}
	if _, err := c.Vaults.Get(ctx, v.ID); err != nil {
		t.Fatalf("get vault: %v", err)
	}
	for _, back := range []*vaults.Credential{cred, got} {
		if data, err := json.Marshal(back); err != nil || strings.Contains(string(data), secret) {
			t.Fatalf("a response carries the secret (or does not encode: %v): %s", err, data)
		}
	}

	s := newSession(t, tg, sessions.CreateParams{VaultIDs: []string{v.ID}})
	if len(s.VaultIDs) != 1 || s.VaultIDs[0] != v.ID {
		t.Errorf("session vault_ids %v, want [%s]", s.VaultIDs, v.ID)
	}

	archived, err := c.Vaults.Credentials.Archive(ctx, v.ID, cred.ID)
	if err != nil || !archived.Archived() {
		t.Fatalf("archive credential: %v, %+v", err, archived)
	}
	if err := c.Vaults.Credentials.Delete(ctx, v.ID, cred.ID); err != nil {
		t.Fatalf("delete credential: %v", err)
	}
	if _, err := c.Vaults.Credentials.Get(ctx, v.ID, cred.ID); !errors.Is(err, apierror.ErrNotFound) {
		t.Errorf("get after delete: want ErrNotFound, got %v", err)
	}
}

// TestVaultIDsMustExist: a session cannot name a vault that does not
// exist.
func TestVaultIDsMustExist(t *testing.T) {
	tg := target(t)
	v := newVault(t, tg)
	if err := tg.Client.Vaults.Delete(tg.ctx(t), v.ID); err != nil {
		t.Fatalf("delete vault: %v", err)
	}
	_, err := tg.Client.Sessions.Create(tg.ctx(t), sessions.CreateParams{
		Agent:         agents.AgentID(newAgent(t, tg, agents.CreateParams{}).ID),
		EnvironmentID: newEnvironment(t, tg, environments.CreateParams{}).ID,
		VaultIDs:      []string{v.ID},
	})
	wantStatus(t, err, 404)
}
