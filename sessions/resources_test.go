package sessions_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func TestResources(t *testing.T) {
	f := newFixture(t)
	store := f.newStore(t, "Team Notes", "")
	p := f.params()
	p.Resources = []sessions.ResourceParam{
		sessions.RepositoryResourceParam{URL: repoURL, AuthorizationToken: "ghp_first"},
		sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID},
	}
	s := f.newSession(t, p)
	repo := s.Resources[0].(sessions.RepositoryResource)
	mem := s.Resources[1].(sessions.MemoryStoreResource)

	f.clock.Advance(time.Second)
	file, err := f.client.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: fileID})
	require.NoError(t, err)
	require.Regexp(t, `^sesrsc_01[0-9A-Za-z]{22}$`, file.ID)
	at := start.Add(time.Second)
	require.Equal(t, &sessions.FileResource{ID: file.ID, FileID: fileID, MountPath: "/mnt/session/uploads/" + fileID, CreatedAt: at, UpdatedAt: at}, file)

	f.clock.Advance(time.Second)
	mounted, err := f.client.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: "file_02", MountPath: "/data/in.csv"})
	require.NoError(t, err)
	require.Equal(t, "/data/in.csv", mounted.MountPath)

	_, err = f.client.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: "file_03", MountPath: "/data/in.csv"})
	reftest.RequireInvalid(t, err, "duplicate mount path `/data/in.csv`")

	// The list is in attach order (docs/managed-agents-wire.md 7.1): the
	// two resources attached at creation share a created_at and keep the
	// order the create request gave them.
	all := []sessions.Resource{repo, mem, *file, *mounted}

	t.Run("list without a limit returns everything, in attach order", func(t *testing.T) {
		page, err := f.client.Sessions.Resources.List(ctx, s.ID, sessions.ResourceListParams{})
		require.NoError(t, err)
		require.Empty(t, cmp.Diff(all, page.Data))
		require.Empty(t, page.NextPage)
	})
	t.Run("pages", func(t *testing.T) {
		p1, err := f.client.Sessions.Resources.List(ctx, s.ID, sessions.ResourceListParams{Limit: 3})
		require.NoError(t, err)
		require.Empty(t, cmp.Diff(all[:3], p1.Data))
		p2, err := f.client.Sessions.Resources.List(ctx, s.ID, sessions.ResourceListParams{Limit: 3, Page: p1.NextPage})
		require.NoError(t, err)
		require.Empty(t, cmp.Diff(all[3:], p2.Data))
		require.Empty(t, p2.NextPage)

		f.env.Server.ResetRequests()
		var walked []sessions.Resource
		for r, err := range f.client.Sessions.Resources.All(ctx, s.ID, sessions.ResourceListParams{Limit: 1}) {
			require.NoError(t, err)
			walked = append(walked, r)
		}
		require.Empty(t, cmp.Diff(all, walked))
		require.Equal(t, 4, f.env.Count("GET", "/v1/sessions/"+s.ID+"/resources"))

		f.env.Server.ResetRequests()
		for r, err := range f.client.Sessions.Resources.All(ctx, s.ID, sessions.ResourceListParams{Limit: 1}) {
			require.NoError(t, err)
			require.Equal(t, all[0], r)
			break
		}
		require.Equal(t, 1, f.env.Count("GET", "/v1/sessions/"+s.ID+"/resources"), "stopping early fetches nothing more")
	})
	t.Run("get returns each variant", func(t *testing.T) {
		for _, want := range all {
			got, err := f.client.Sessions.Resources.Get(ctx, s.ID, resourceID(t, want))
			require.NoError(t, err)
			require.Empty(t, cmp.Diff(want, got))
		}
		_, err := f.client.Sessions.Resources.Get(ctx, s.ID, "sesrsc_011CZkZBJq5dWxk9fVLNcPht")
		reftest.RequireNotFound(t, err, "Session resource `sesrsc_011CZkZBJq5dWxk9fVLNcPht` not found.")

		elsewhere := f.newSession(t, f.params())
		_, err = f.client.Sessions.Resources.Get(ctx, elsewhere.ID, file.ID)
		reftest.RequireNotFound(t, err, "Session resource `"+file.ID+"` not found.")
	})
	t.Run("token rotation", func(t *testing.T) {
		f.clock.Advance(time.Second)
		got, err := f.client.Sessions.Resources.Update(ctx, s.ID, repo.ID, sessions.ResourceUpdateParams{AuthorizationToken: "ghp_second"})
		require.NoError(t, err)
		rotated := repo
		rotated.UpdatedAt = f.clock.Now()
		require.Empty(t, cmp.Diff(rotated, got), "updated_at moves; the token is never returned")

		_, err = f.client.Sessions.Resources.Update(ctx, s.ID, file.ID, sessions.ResourceUpdateParams{AuthorizationToken: "ghp_x"})
		reftest.RequireInvalid(t, err, "authorization_token: only vcs_repository resources support token rotation")
		_, err = f.client.Sessions.Resources.Update(ctx, s.ID, mem.ID, sessions.ResourceUpdateParams{AuthorizationToken: "ghp_x"})
		reftest.RequireInvalid(t, err, "authorization_token: only vcs_repository resources support token rotation")
	})
	t.Run("delete", func(t *testing.T) {
		require.NoError(t, f.client.Sessions.Resources.Delete(ctx, s.ID, mem.ID))
		_, err = f.client.Sessions.Resources.Get(ctx, s.ID, mem.ID)
		reftest.RequireNotFound(t, err, "Session resource `"+mem.ID+"` not found.")
		page, err := f.client.Sessions.Resources.List(ctx, s.ID, sessions.ResourceListParams{})
		require.NoError(t, err)
		require.Len(t, page.Data, 3)
		got, err := f.client.Sessions.Get(ctx, s.ID)
		require.NoError(t, err)
		require.Len(t, got.Resources, 3, "the session's resources follow")
	})
}
