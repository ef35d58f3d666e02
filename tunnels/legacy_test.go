package tunnels_test

//lint:file-ignore SA1019 these tests exercise the deprecated organization endpoints on purpose

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// TestLegacyServiceSharesTheTunnels: the organization endpoints reach the
// same tunnels as Service, and send no beta value.
func TestLegacyServiceSharesTheTunnels(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	legacy := client.Tunnels.Legacy

	old, err := legacy.Create(ctx, tunnels.CreateParams{DisplayName: "old client"})
	require.NoError(t, err)
	require.Equal(t, "tunnel", old.Type)
	require.True(t, strings.HasPrefix(old.ID, "tnl_"))
	require.Equal(t, "old client", old.DisplayName)
	got, err := client.Tunnels.Get(ctx, old.ID)
	require.NoError(t, err)
	require.Equal(t, old, got)

	current, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	got, err = legacy.Get(ctx, current.ID)
	require.NoError(t, err)
	require.Equal(t, current, got)

	archived, err := legacy.Archive(ctx, current.ID)
	require.NoError(t, err)
	require.True(t, archived.Archived())

	page, err := legacy.List(ctx, tunnels.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1, "archived tunnels are hidden by default")
	require.Equal(t, old.ID, page.Data[0].ID)
	var ids []string
	for tn, err := range legacy.All(ctx, tunnels.ListParams{IncludeArchived: true, Limit: 1}) {
		require.NoError(t, err)
		ids = append(ids, tn.ID)
	}
	require.Equal(t, []string{current.ID, old.ID}, ids, "newest first")
	want, err := client.Tunnels.List(ctx, tunnels.ListParams{IncludeArchived: true})
	require.NoError(t, err)
	page, err = legacy.List(ctx, tunnels.ListParams{IncludeArchived: true})
	require.NoError(t, err)
	require.Equal(t, want.Data, page.Data)

	_, err = legacy.Get(ctx, "tnl_01missing")
	require.ErrorIs(t, err, apierror.ErrNotFound)

	for _, r := range env.Server.Requests() {
		if strings.HasPrefix(r.Path, "/v1/organizations/tunnels") {
			require.Empty(t, r.Header.Get("vendor-beta"), "%s %s", r.Method, r.Path)
		} else {
			require.Equal(t, "mcp-tunnels-2026-06-22", r.Header.Get("vendor-beta"), "%s %s", r.Method, r.Path)
		}
	}
	require.Positive(t, env.Count(http.MethodGet, "/v1/organizations/tunnels/"+current.ID))
}

// TestLegacyServiceNeedsAnAdminKey: the organization endpoints are admin
// endpoints: a key scoped to a workspace is refused there, not on
// /v1/tunnels.
func TestLegacyServiceNeedsAnAdminKey(t *testing.T) {
	env := reftest.New(t)
	key, err := env.Server.CreateAPIKey(refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: env.Seed.DefaultWorkspaceID})
	require.NoError(t, err)
	client := env.Client(t, option.WithAPIKey(key.Secret))
	ctx := context.Background()
	_, err = client.Tunnels.List(ctx, tunnels.ListParams{})
	require.NoError(t, err)
	_, err = client.Tunnels.Legacy.List(ctx, tunnels.ListParams{})
	require.ErrorIs(t, err, apierror.ErrPermission)
}

// TestLegacyServiceChecksLocally: the shared parameter checks apply before
// anything is sent.
func TestLegacyServiceChecksLocally(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	_, err := client.Tunnels.Legacy.Create(ctx, tunnels.CreateParams{DisplayName: strings.Repeat("a", 256)})
	reftest.RequireLocal(t, err, "display_name")
	_, err = client.Tunnels.Legacy.List(ctx, tunnels.ListParams{Limit: 1001})
	reftest.RequireLocal(t, err, "limit")
	_, err = client.Tunnels.Legacy.Get(ctx, "")
	reftest.RequireLocal(t, err, "tunnel_id")
	require.Empty(t, env.Server.Requests())
}

// TestLegacyResponsesRoundTrip: every tunnel the organization endpoints
// send encodes back to the server's JSON and decodes again equal.
func TestLegacyResponsesRoundTrip(t *testing.T) {
	ctx := context.Background()
	client := reftest.New(t).Client(t)
	_, err := client.Tunnels.Legacy.Create(ctx, tunnels.CreateParams{DisplayName: "named"})
	require.NoError(t, err)
	gone, err := client.Tunnels.Legacy.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	_, err = client.Tunnels.Legacy.Archive(ctx, gone.ID)
	require.NoError(t, err)

	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/organizations/tunnels", nil, &page, option.WithQuery("include_archived", "true")))
	require.Len(t, page.Data, 2)
	for _, raw := range page.Data {
		tn, ok := wiretest.RoundTrip(t, raw, decodeTunnel, true)
		require.True(t, ok, "%s", raw)
		var one json.RawMessage
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/organizations/tunnels/"+tn.ID, nil, &one))
		_, ok = wiretest.RoundTrip(t, one, decodeTunnel, true)
		require.True(t, ok, "%s", one)
	}
}
