package deployments_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/vaults"
)

// A deployment's vault_ids name usable vaults of its workspace, on create
// and on update (docs/vaults-wire.md 5): an unknown, deleted or other
// workspace's vault is a 404 and an archived one a 400, each naming its
// index.
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
		_, err := f.client.Deployments.Create(ctx, p)
		return err
	}
	reftest.RequireNotFound(t, create(ids[0], vaultID), "vault_ids[1]: Vault `"+vaultID+"` not found.")
	reftest.RequireNotFound(t, create(ids[0], ids[1], deleted), "vault_ids[2]: Vault `"+deleted+"` not found.")
	reftest.RequireNotFound(t, create(other.ID), "vault_ids[0]: Vault `"+other.ID+"` not found.")
	reftest.RequireInvalid(t, create(ids[1], archived), "vault_ids[1]: vault `"+archived+"` is archived")

	d := f.newDeployment(t, f.params())
	update := func(vaultIDs ...string) error {
		_, err := f.client.Deployments.Update(ctx, d.ID, deployments.UpdateParams{VaultIDs: param.Value(vaultIDs)})
		return err
	}
	reftest.RequireNotFound(t, update(deleted), "vault_ids[0]: Vault `"+deleted+"` not found.")
	reftest.RequireInvalid(t, update(ids[0], archived), "vault_ids[1]: vault `"+archived+"` is archived")
	require.Empty(t, f.get(t, d.ID).VaultIDs, "a refused update changes nothing")
	require.NoError(t, update(ids[:2]...))
	require.Equal(t, ids[:2], f.get(t, d.ID).VaultIDs)
}

// A run of a deployment whose vault was archived or deleted since it was
// written fails with vault_archived_error or vault_not_found_error
// (docs/managed-agents-wire.md 8.7), and creates no session.
func TestRunWithUnusableVault(t *testing.T) {
	f := newFixture(t)
	ids := f.newVaults(t, 2)
	p := f.params()
	p.VaultIDs = ids
	d := f.newDeployment(t, p)

	_, err := f.client.Vaults.Archive(ctx, ids[1])
	require.NoError(t, err)
	run, err := f.client.Deployments.RunNow(ctx, d.ID)
	require.NoError(t, err)
	require.Empty(t, run.SessionID)
	require.Equal(t, &deployments.RunError{Type: deployments.RunErrorVaultArchived, Message: "vault `" + ids[1] + "` is archived"}, run.Error)

	require.NoError(t, f.client.Vaults.Delete(ctx, ids[0]))
	run, err = f.client.Deployments.RunNow(ctx, d.ID)
	require.NoError(t, err)
	require.Empty(t, run.SessionID)
	require.Equal(t, &deployments.RunError{Type: deployments.RunErrorVaultNotFound, Message: "vault `" + ids[0] + "` not found"}, run.Error)
}
