package agentplatform_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/tunnels"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

func TestIDPagination(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	client := env.Client(t)

	page, err := client.Models.List(ctx, models.ListParams{Limit: 1})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, models.VendorOpus55, page.FirstID)
	require.Equal(t, models.VendorOpus55, page.LastID)
	require.True(t, page.HasMore)

	page, err = client.Models.List(ctx, models.ListParams{AfterID: page.LastID, Limit: 5})
	require.NoError(t, err)
	require.Equal(t, []string{models.VendorSonnet55, models.VendorHaiku55, "vendor-opus-4-5", "vendor-haiku-4-5", "vendor-sonnet-4-5"}, ids(page.Data))
	require.False(t, page.HasMore)

	page, err = client.Models.List(ctx, models.ListParams{BeforeID: models.VendorHaiku55, Limit: 1})
	require.NoError(t, err)
	require.Equal(t, []string{models.VendorSonnet55}, ids(page.Data))
	require.True(t, page.HasMore)

	t.Run("All walks forward, one request per page", func(t *testing.T) {
		env.Server.ResetRequests()
		var got []string
		for m, err := range client.Models.All(ctx, models.ListParams{Limit: 1}) {
			require.NoError(t, err)
			got = append(got, m.ID)
		}
		require.Equal(t, []string{models.VendorOpus55, models.VendorSonnet55, models.VendorHaiku55,
			"vendor-opus-4-5", "vendor-haiku-4-5", "vendor-sonnet-4-5"}, got)
		require.Equal(t, 6, env.Count("GET", modelsPath))
	})

	t.Run("All walks backward from before_id", func(t *testing.T) {
		var got []string
		for m, err := range client.Models.All(ctx, models.ListParams{BeforeID: models.VendorHaiku55, Limit: 1}) {
			require.NoError(t, err)
			got = append(got, m.ID)
		}
		require.Equal(t, []string{models.VendorSonnet55, models.VendorOpus55}, got)
	})

	t.Run("breaking out stops fetching", func(t *testing.T) {
		env.Server.ResetRequests()
		for m, err := range client.Models.All(ctx, models.ListParams{Limit: 1}) {
			require.NoError(t, err)
			require.Equal(t, models.VendorOpus55, m.ID)
			break
		}
		require.Equal(t, 1, env.Count("GET", modelsPath))
	})

	t.Run("local refusals", func(t *testing.T) {
		for _, p := range []models.ListParams{{Limit: -1}, {Limit: 1001}, {AfterID: "a", BeforeID: "b"}} {
			_, err := client.Models.List(ctx, p)
			require.ErrorIs(t, err, apierror.ErrInvalidRequest)
			n := 0
			for _, err := range client.Models.All(ctx, p) {
				require.ErrorIs(t, err, apierror.ErrInvalidRequest)
				n++
			}
			require.Equal(t, 1, n, "the error is yielded once")
		}
		_, err := client.Models.List(ctx, models.ListParams{Limit: 1000})
		require.NoError(t, err)
	})
}

func TestWorkspacePagesWithFilters(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	client := env.Client(t)
	var created []string
	for i := range 5 {
		ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: fmt.Sprintf("ws-%d", i)})
		require.NoError(t, err)
		created = append([]string{ws.ID}, created...) // newest first
	}
	_, err := client.Workspaces.Archive(ctx, created[0])
	require.NoError(t, err)

	collect := func(p workspaces.ListParams) []string {
		var got []string
		for w, err := range client.Workspaces.All(ctx, p) {
			require.NoError(t, err)
			got = append(got, w.ID)
		}
		return got
	}
	require.Equal(t, created[1:], collect(workspaces.ListParams{Limit: 2}))
	require.Equal(t, created, collect(workspaces.ListParams{Limit: 2, IncludeArchived: true}))
	require.Equal(t, append(created[1:], env.Seed.DefaultWorkspaceID),
		collect(workspaces.ListParams{Limit: 3, IncludeDefault: true}))
	got := last(t, env, "GET", "/v1/organizations/workspaces")
	require.Contains(t, got.RawQuery, "include_default=true")
	require.NotContains(t, got.RawQuery, "include_archived")
}

func TestCursorPagination(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	client := env.Client(t)
	var created []string
	for i := range 5 {
		tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: fmt.Sprintf("t%d", i)})
		require.NoError(t, err)
		created = append([]string{tn.ID}, created...)
	}

	page, err := client.Tunnels.List(ctx, tunnels.ListParams{Limit: 2})
	require.NoError(t, err)
	require.Equal(t, created[:2], tunnelIDs(page.Data))
	require.True(t, page.HasMore())
	require.Regexp(t, `^page_`, page.NextPage)

	// A tunnel created now does not shift the next page.
	_, err = client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "late"})
	require.NoError(t, err)
	page, err = client.Tunnels.List(ctx, tunnels.ListParams{Limit: 2, Page: page.NextPage})
	require.NoError(t, err)
	require.Equal(t, created[2:4], tunnelIDs(page.Data))

	t.Run("All walks to the end", func(t *testing.T) {
		env.Server.ResetRequests()
		var got []string
		for tn, err := range client.Tunnels.All(ctx, tunnels.ListParams{Limit: 2}) {
			require.NoError(t, err)
			got = append(got, tn.ID)
		}
		require.Len(t, got, 6)
		require.Equal(t, created, got[1:])
		require.Equal(t, 3, env.Count("GET", "/v1/tunnels"))
	})

	t.Run("breaking out stops fetching", func(t *testing.T) {
		env.Server.ResetRequests()
		n := 0
		for _, err := range client.Tunnels.All(ctx, tunnels.ListParams{Limit: 2}) {
			require.NoError(t, err)
			if n++; n == 3 {
				break
			}
		}
		require.Equal(t, 2, env.Count("GET", "/v1/tunnels"))
	})

	t.Run("an error on a later page is yielded once and ends the walk", func(t *testing.T) {
		var errs []error
		n := 0
		for tn, err := range client.Tunnels.All(ctx, tunnels.ListParams{Limit: 2}) {
			if err != nil {
				errs = append(errs, err)
				require.Nil(t, tn)
				continue
			}
			if n++; n == 1 {
				env.Server.InjectFault(refserver.Fault{Path: "/v1/tunnels", Status: 404})
			}
		}
		require.Equal(t, 2, n, "the first page arrived whole")
		require.Len(t, errs, 1)
		require.ErrorIs(t, errs[0], apierror.ErrNotFound)
	})
}

func ids(ms []models.Model) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

func tunnelIDs(ts []tunnels.Tunnel) []string {
	out := make([]string, len(ts))
	for i, tn := range ts {
		out[i] = tn.ID
	}
	return out
}
