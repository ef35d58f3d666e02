package tunnels_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

func TestTunnelLifecycle(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()

	tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "build farm"})
	require.NoError(t, err)
	require.Equal(t, "tunnel", tn.Type)
	require.True(t, strings.HasPrefix(tn.ID, "tnl_"))
	require.Equal(t, "build farm", tn.DisplayName)
	require.Regexp(t, `^[a-z0-9]{12}\.tunnel\.vendor\.dev$`, tn.Domain)
	require.False(t, tn.Archived())

	unnamed, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	require.Empty(t, unnamed.DisplayName)
	require.NotEqual(t, tn.Domain, unnamed.Domain)

	got, err := client.Tunnels.Get(ctx, tn.ID)
	require.NoError(t, err)
	require.Equal(t, tn, got)

	archived, err := client.Tunnels.Archive(ctx, tn.ID)
	require.NoError(t, err)
	require.True(t, archived.Archived())
	again, err := client.Tunnels.Archive(ctx, tn.ID)
	require.NoError(t, err)
	require.Equal(t, archived.ArchivedAt, again.ArchivedAt, "archiving is one-way and idempotent")

	page, err := client.Tunnels.List(ctx, tunnels.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1, "archived tunnels are hidden by default")
	page, err = client.Tunnels.List(ctx, tunnels.ListParams{IncludeArchived: true})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	require.Equal(t, unnamed.ID, page.Data[0].ID, "newest first")

	_, err = client.Tunnels.Get(ctx, "tnl_01missing")
	require.ErrorIs(t, err, apierror.ErrNotFound)
}

func TestTunnelsRequireTheirBeta(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	// The SDK sends the beta value itself.
	_, err := client.Tunnels.List(context.Background(), tunnels.ListParams{})
	require.NoError(t, err)
	// Overriding the header without it is refused by the server, naming the value.
	_, err = client.Tunnels.List(context.Background(), tunnels.ListParams{}, option.WithHeader("vendor-beta", "skills-2025-10-02"))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.ErrorContains(t, err, "mcp-tunnels-2026-06-22")
}

func TestTunnelLimits(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	cases := []struct {
		name   string
		params tunnels.CreateParams
		ok     bool
	}{
		{"255 characters", tunnels.CreateParams{DisplayName: strings.Repeat("é", 255)}, true},
		{"256 characters", tunnels.CreateParams{DisplayName: strings.Repeat("é", 256)}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := client.Tunnels.Create(ctx, tc.params)
			if tc.ok {
				require.NoError(t, err)
				return
			}
			var verr *apierror.ValidationError
			require.ErrorAs(t, err, &verr)
			require.Equal(t, "display_name", verr.Field)
		})
	}
	for _, limit := range []int{-1, 1001} {
		_, err := client.Tunnels.List(ctx, tunnels.ListParams{Limit: limit})
		require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	}
	for _, limit := range []int{1, 1000} {
		_, err := client.Tunnels.List(ctx, tunnels.ListParams{Limit: limit})
		require.NoError(t, err)
	}
	_, err := client.Tunnels.List(ctx, tunnels.ListParams{Page: "page_garbage"})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}
