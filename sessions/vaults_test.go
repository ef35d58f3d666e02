package sessions_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/vaults"
)

// A session's vault_ids name usable vaults of its workspace
// (docs/vaults-wire.md 5): an unknown, deleted or other workspace's vault
// is a 404 and an archived one a 400, each naming its index.
func TestVaultIDsNameUsableVaults(t *testing.T) {
	f := newFixture(t)
	ids := f.newVaults(t, 4)
	archived, deleted := ids[2], ids[3]
	_, err := f.client.Vaults.Archive(ctx, archived)
	require.NoError(t, err)
	require.NoError(t, f.client.Vaults.Delete(ctx, deleted))
	elsewhere := f.env.Server.CreateWorkspace("elsewhere")
	require.NoError(t, f.env.Server.GrantAPIAccess(f.env.Seed.UserID, elsewhere))
	other, err := f.env.Client(t, option.WithWorkspaceID(elsewhere)).Vaults.Create(ctx, vaults.CreateParams{DisplayName: "theirs"})
	require.NoError(t, err)

	create := func(vaultIDs ...string) error {
		p := f.params()
		p.VaultIDs = vaultIDs
		_, err := f.client.Sessions.Create(ctx, p)
		return err
	}
	reftest.RequireNotFound(t, create(ids[0], vaultID), "vault_ids[1]: Vault `"+vaultID+"` not found.")
	reftest.RequireNotFound(t, create(ids[0], ids[1], deleted), "vault_ids[2]: Vault `"+deleted+"` not found.")
	reftest.RequireNotFound(t, create(other.ID), "vault_ids[0]: Vault `"+other.ID+"` not found.")
	reftest.RequireInvalid(t, create(ids[1], archived), "vault_ids[1]: vault `"+archived+"` is archived")

	s, err := f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: f.params().Agent, EnvironmentID: f.envID, VaultIDs: ids[:2]})
	require.NoError(t, err)
	require.Equal(t, ids[:2], s.VaultIDs)
}
