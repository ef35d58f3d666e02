package agentplatform_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// requireAPIError checks the status, type and exact message of err.
func requireAPIError(t *testing.T, err error, status int, typ apierror.Type, message string) {
	t.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, status, apiErr.StatusCode)
	require.Equal(t, typ, apiErr.Type)
	if message != "" {
		require.Equal(t, message, apiErr.Message)
	}
}

func newKey(t *testing.T, env *reftest.Env, spec refserver.KeySpec) string {
	t.Helper()
	k, err := env.Server.CreateAPIKey(spec)
	require.NoError(t, err)
	return k.Secret
}

// TestWorkspaceSelection covers the workspace selection rules 1 to 7 of
// docs/api-choices.md through the SDK.
func TestWorkspaceSelection(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	srv, seed := env.Server, env.Seed
	other := srv.CreateWorkspace("other")
	require.NoError(t, srv.GrantAPIAccess(seed.UserID, other))
	scoped := newKey(t, env, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: seed.UserID, WorkspaceID: other})

	// client uses a key with no workspace header at all.
	client := func(key string, opts ...option.Option) *modelsAndAdmin {
		c := env.Client(t, append([]option.Option{option.WithAPIKey(key), option.WithWorkspaceID("")}, opts...)...)
		return &modelsAndAdmin{c.Models, c.Workspaces, c.Tunnels}
	}

	t.Run("1: a key for one workspace works there without the header", func(t *testing.T) {
		var resp *http.Response
		_, err := client(scoped).tunnels.Create(ctx, tunnels.CreateParams{}, option.WithResponseInto(&resp))
		require.NoError(t, err)
		require.Equal(t, other, resp.Header.Get("vendor-workspace-id"))
		// With the header it must match.
		_, err = client(scoped, option.WithWorkspaceID(other)).models.List(ctx, models.ListParams{})
		require.NoError(t, err)
		_, err = client(scoped, option.WithWorkspaceID(seed.DefaultWorkspaceID)).models.List(ctx, models.ListParams{})
		requireAPIError(t, err, 404, apierror.TypeNotFound, "Workspace `"+seed.DefaultWorkspaceID+"` not found.")
	})

	t.Run("2 and 4: a key not scoped needs the header on every request", func(t *testing.T) {
		_, err := client(seed.APIKey).models.List(ctx, models.ListParams{})
		requireAPIError(t, err, 400, apierror.TypeInvalidRequest, "")
		require.Contains(t, err.Error(), "vendor-workspace-id")
		require.Contains(t, err.Error(), "identity-linked key")
		_, err = client(seed.APIKey).admin.List(ctx, workspaces.ListParams{})
		requireAPIError(t, err, 400, apierror.TypeInvalidRequest, "")
		_, err = client(seed.APIKey, option.WithWorkspaceID(other)).models.List(ctx, models.ListParams{})
		require.NoError(t, err)
	})

	t.Run("3: the admin API refuses keys scoped to a workspace", func(t *testing.T) {
		_, err := client(scoped).admin.List(ctx, workspaces.ListParams{})
		requireAPIError(t, err, 403, apierror.TypePermission, "")
		legacy := newKey(t, env, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: other})
		_, err = client(legacy).admin.List(ctx, workspaces.ListParams{})
		requireAPIError(t, err, 403, apierror.TypePermission, "")
		_, err = client(seed.APIKey, option.WithWorkspaceID(seed.DefaultWorkspaceID)).admin.List(ctx, workspaces.ListParams{})
		require.NoError(t, err)
		sa := srv.CreateServiceAccount("ci")
		saKey := newKey(t, env, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa})
		_, err = client(saKey, option.WithWorkspaceID(seed.DefaultWorkspaceID)).admin.List(ctx, workspaces.ListParams{})
		require.NoError(t, err)
	})

	t.Run("5: a malformed header value", func(t *testing.T) {
		for _, bad := range []string{"default", "wrkspc_", "wrkspc_has space", "ws_123"} {
			_, err := client(seed.APIKey, option.WithWorkspaceID(bad)).models.List(ctx, models.ListParams{})
			requireAPIError(t, err, 400, apierror.TypeInvalidRequest, "vendor-workspace-id header must be a valid workspace ID")
		}
	})

	t.Run("6: unknown or inaccessible workspaces look the same", func(t *testing.T) {
		_, err := client(seed.APIKey, option.WithWorkspaceID("wrkspc_01DoesNotExist")).models.List(ctx, models.ListParams{})
		requireAPIError(t, err, 404, apierror.TypeNotFound, "Workspace `wrkspc_01DoesNotExist` not found.")
		private := srv.CreateWorkspace("private") // the owner has no API access there
		_, err = client(seed.APIKey, option.WithWorkspaceID(private)).models.List(ctx, models.ListParams{})
		requireAPIError(t, err, 404, apierror.TypeNotFound, "Workspace `"+private+"` not found.")
		sa := srv.CreateServiceAccount("reader")
		saKey := newKey(t, env, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa})
		_, err = client(saKey, option.WithWorkspaceID(other)).models.List(ctx, models.ListParams{})
		requireAPIError(t, err, 404, apierror.TypeNotFound, "Workspace `"+other+"` not found.")
		require.NoError(t, srv.AddServiceAccountToWorkspace(sa, other))
		_, err = client(saKey, option.WithWorkspaceID(other)).models.List(ctx, models.ListParams{})
		require.NoError(t, err)
	})

	t.Run("7: the default workspace id comes back in the response header", func(t *testing.T) {
		legacy := newKey(t, env, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: seed.DefaultWorkspaceID})
		var resp *http.Response
		_, err := client(legacy).models.List(ctx, models.ListParams{}, option.WithResponseInto(&resp))
		require.NoError(t, err)
		require.Equal(t, seed.DefaultWorkspaceID, resp.Header.Get("vendor-workspace-id"))
	})
}

type modelsAndAdmin struct {
	models  *models.Service
	admin   *workspaces.Service
	tunnels *tunnels.Service
}

func TestKeyStatusAndExpiry(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	clock := refserver.NewManualClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	env := reftest.New(t, refserver.WithClock(clock))
	key, err := env.Server.CreateAPIKey(refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: env.Seed.UserID,
		WorkspaceID: env.Seed.DefaultWorkspaceID, ExpiresAt: clock.Now().Add(3 * time.Hour)})
	require.NoError(t, err)
	client := env.Client(t, option.WithAPIKey(key.Secret), option.WithWorkspaceID(""))

	_, err = client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	// The legacy header is accepted too.
	_, err = client.Models.List(ctx, models.ListParams{}, option.WithCredentials(auth.XAPIKey(key.Secret)))
	require.NoError(t, err)

	require.NoError(t, env.Server.SetAPIKeyStatus(key.ID, refserver.KeyInactive))
	_, err = client.Models.List(ctx, models.ListParams{})
	requireAPIError(t, err, 401, apierror.TypeAuthentication, "API key is disabled")
	require.NoError(t, env.Server.SetAPIKeyStatus(key.ID, refserver.KeyActive))
	_, err = client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)

	clock.Advance(3*time.Hour + time.Second)
	_, err = client.Models.List(ctx, models.ListParams{})
	requireAPIError(t, err, 401, apierror.TypeAuthentication, "API key has expired")
	require.Error(t, env.Server.SetAPIKeyStatus(key.ID, refserver.KeyActive), "an expired key cannot be re-enabled")

	_, err = client.Models.List(ctx, models.ListParams{}, option.WithAPIKey("sk-vendor-api03-unknown"))
	requireAPIError(t, err, 401, apierror.TypeAuthentication, "invalid API key")
}
