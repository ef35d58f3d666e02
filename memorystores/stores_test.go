package memorystores_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
)

func TestStoreLifecycle(t *testing.T) {
	_, client, clock := newClockEnv(t)
	ctx := context.Background()

	st, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{
		Name:        "User Preferences",
		Description: "Per-user preferences.",
		Metadata:    map[string]string{"user": "u-42", "team": "ml"},
	})
	require.NoError(t, err)
	want := &memorystores.MemoryStore{
		Type: "memory_store", ID: st.ID, Name: "User Preferences", Description: "Per-user preferences.",
		Metadata: map[string]string{"user": "u-42", "team": "ml"}, CreatedAt: start, UpdatedAt: start,
	}
	require.Empty(t, cmp.Diff(want, st))
	require.Regexp(t, `^memstore_01[0-9A-Za-z]{22}$`, st.ID)
	require.False(t, st.Archived())

	got, err := client.MemoryStores.Get(ctx, st.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(st, got))

	bare := newStore(t, client, "bare")
	require.Empty(t, bare.Description, "description is \"\" when unset")
	require.Equal(t, map[string]string{}, bare.Metadata, "metadata is {} when unset")

	t.Run("updated_at follows name, description and metadata", func(t *testing.T) {
		clock.Advance(time.Second)
		renamed, err := client.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{Name: "Prefs"})
		require.NoError(t, err)
		require.Equal(t, "Prefs", renamed.Name)
		require.Equal(t, "Per-user preferences.", renamed.Description, "omitted fields are kept")
		require.Equal(t, start.Add(time.Second), renamed.UpdatedAt)
		require.Equal(t, start, renamed.CreatedAt)

		clock.Advance(time.Second)
		patched, err := client.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{
			Metadata: map[string]*string{"team": nil, "env": new("prod"), "user": new("u-43")},
		})
		require.NoError(t, err)
		require.Equal(t, map[string]string{"user": "u-43", "env": "prod"}, patched.Metadata, "a patch: nil deletes, values upsert")
		require.Equal(t, start.Add(2*time.Second), patched.UpdatedAt)

		clock.Advance(time.Second)
		cleared, err := client.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{Description: param.Null[string]()})
		require.NoError(t, err)
		require.Empty(t, cleared.Description)
		require.Equal(t, start.Add(3*time.Second), cleared.UpdatedAt)
		described, err := client.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{Description: param.Value("again")})
		require.NoError(t, err)
		require.Equal(t, "again", described.Description)
		emptied, err := client.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{Description: param.Value("")})
		require.NoError(t, err)
		require.Empty(t, emptied.Description, `"" clears as null does`)

		clock.Advance(time.Second)
		same, err := client.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{Name: "Prefs", Metadata: map[string]*string{"env": new("prod")}})
		require.NoError(t, err)
		require.Equal(t, emptied.UpdatedAt, same.UpdatedAt, "an update that changes nothing leaves updated_at")

		clock.Advance(time.Second)
		m := newMemory(t, client, st.ID, "/notes.md", "hello")
		_, err = client.MemoryStores.Memories.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("bye")})
		require.NoError(t, err)
		err = client.MemoryStores.Memories.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{})
		require.NoError(t, err)
		after, err := client.MemoryStores.Get(ctx, st.ID)
		require.NoError(t, err)
		require.Equal(t, emptied.UpdatedAt, after.UpdatedAt, "memory writes do not change the store's updated_at")
	})

	t.Run("archive is one-way and idempotent", func(t *testing.T) {
		before, err := client.MemoryStores.Get(ctx, st.ID)
		require.NoError(t, err)
		clock.Advance(time.Second)
		archived, err := client.MemoryStores.Archive(ctx, st.ID)
		require.NoError(t, err)
		require.True(t, archived.Archived())
		require.Equal(t, clock.Now(), archived.ArchivedAt)
		require.Equal(t, before.UpdatedAt, archived.UpdatedAt, "archiving is not an update")
		clock.Advance(time.Second)
		again, err := client.MemoryStores.Archive(ctx, st.ID)
		require.NoError(t, err)
		require.Equal(t, archived.ArchivedAt, again.ArchivedAt)
		// Nothing un-archives: there is no field for it, and updates are refused.
		_, err = client.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{Name: "revived"})
		requireArchivedConflict(t, err, st.ID)
	})

	t.Run("delete removes the store and what is in it", func(t *testing.T) {
		m := newMemory(t, client, bare.ID, "/keep.md", "x")
		_, err := client.MemoryStores.Archive(ctx, bare.ID)
		require.NoError(t, err)
		require.NoError(t, client.MemoryStores.Delete(ctx, bare.ID), "archived stores can be deleted")
		_, err = client.MemoryStores.Get(ctx, bare.ID)
		require.ErrorIs(t, err, apierror.ErrNotFound)
		require.ErrorContains(t, err, "Memory store `"+bare.ID+"` not found.")
		_, err = client.MemoryStores.Memories.Get(ctx, bare.ID, m.ID, memorystores.MemoryGetParams{})
		require.ErrorIs(t, err, apierror.ErrNotFound)
		require.ErrorIs(t, client.MemoryStores.Delete(ctx, bare.ID), apierror.ErrNotFound)
	})

	_, err = client.MemoryStores.Get(ctx, "memstore_01missing")
	require.ErrorIs(t, err, apierror.ErrNotFound)
}

// requireArchivedConflict checks the 409 a write to an archived store gets.
func requireArchivedConflict(t *testing.T, err error, storeID string) {
	t.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusConflict, apiErr.StatusCode)
	require.Equal(t, apierror.TypeConflict, apiErr.Type)
	require.Equal(t, "memory_store_id: memory store `"+storeID+"` is archived", apiErr.Message)
}

func TestStoresBelongToTheirWorkspace(t *testing.T) {
	env := reftest.New(t)
	ctx := context.Background()
	other := env.Server.CreateWorkspace("other")
	require.NoError(t, env.Server.GrantAPIAccess(env.Seed.UserID, other))
	client := env.Client(t)
	elsewhere := env.Client(t, option.WithWorkspaceID(other))

	st := newStore(t, client, "here")
	_, err := elsewhere.MemoryStores.Get(ctx, st.ID)
	require.ErrorIs(t, err, apierror.ErrNotFound)
	page, err := elsewhere.MemoryStores.List(ctx, memorystores.ListParams{})
	require.NoError(t, err)
	require.Empty(t, page.Data)
	require.NotNil(t, page.Data, "data is [] when nothing matches")
}

func TestStoreListing(t *testing.T) {
	env, client, clock := newClockEnv(t)
	ctx := context.Background()
	var created []*memorystores.MemoryStore // oldest first, one second apart
	for _, name := range []string{"s0", "s1", "s2", "s3", "s4"} {
		created = append(created, newStore(t, client, name))
		clock.Advance(time.Second)
	}
	newestFirst := func(idx ...int) []string {
		out := make([]string, len(idx))
		for i, j := range idx {
			out[i] = created[j].ID
		}
		return out
	}

	page, err := client.MemoryStores.List(ctx, memorystores.ListParams{})
	require.NoError(t, err)
	require.Equal(t, newestFirst(4, 3, 2, 1, 0), storeIDs(page.Data))
	require.False(t, page.HasMore())

	t.Run("created_at bounds are inclusive", func(t *testing.T) {
		page, err := client.MemoryStores.List(ctx, memorystores.ListParams{
			CreatedAtGTE: created[1].CreatedAt, CreatedAtLTE: created[3].CreatedAt,
		})
		require.NoError(t, err)
		require.Equal(t, newestFirst(3, 2, 1), storeIDs(page.Data))
		last := env.Server.Requests()[len(env.Server.Requests())-1]
		require.Contains(t, last.RawQuery, "created_at[gte]=", "bracket keys are sent literally")
		page, err = client.MemoryStores.List(ctx, memorystores.ListParams{CreatedAtGTE: created[4].CreatedAt.Add(time.Microsecond)})
		require.NoError(t, err)
		require.Empty(t, page.Data)
	})

	t.Run("archived stores only on request", func(t *testing.T) {
		_, err := client.MemoryStores.Archive(ctx, created[2].ID)
		require.NoError(t, err)
		page, err := client.MemoryStores.List(ctx, memorystores.ListParams{})
		require.NoError(t, err)
		require.Equal(t, newestFirst(4, 3, 1, 0), storeIDs(page.Data))
		page, err = client.MemoryStores.List(ctx, memorystores.ListParams{IncludeArchived: true})
		require.NoError(t, err)
		require.Equal(t, newestFirst(4, 3, 2, 1, 0), storeIDs(page.Data))
	})

	t.Run("All walks to the end; stores created meanwhile do not shift pages", func(t *testing.T) {
		env.Server.ResetRequests()
		var got []string
		for st, err := range client.MemoryStores.All(ctx, memorystores.ListParams{Limit: 2, IncludeArchived: true}) {
			require.NoError(t, err)
			got = append(got, st.ID)
			if len(got) == 1 || len(got) == 3 {
				newStore(t, client, "meanwhile") // newest: sorts before the cursor
				clock.Advance(time.Second)
			}
		}
		require.Equal(t, newestFirst(4, 3, 2, 1, 0), got)
		require.Equal(t, 3, env.Count(http.MethodGet, "/v1/memory_stores"), "5 stores, 2 per page")
	})

	t.Run("breaking out stops fetching", func(t *testing.T) {
		env.Server.ResetRequests()
		for st, err := range client.MemoryStores.All(ctx, memorystores.ListParams{Limit: 1}) {
			require.NoError(t, err)
			require.Equal(t, "meanwhile", st.Name)
			break
		}
		require.Equal(t, 1, env.Count(http.MethodGet, "/v1/memory_stores"))
	})

	t.Run("a malformed cursor is refused by the server", func(t *testing.T) {
		_, err := client.MemoryStores.List(ctx, memorystores.ListParams{Page: "page_garbage"})
		require.ErrorIs(t, err, apierror.ErrInvalidRequest)
		require.ErrorContains(t, err, "page: invalid cursor")
	})
}

func TestStoreNamesNeedNotBeUnique(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	a := newStore(t, client, "same")
	b := newStore(t, client, "same")
	require.NotEqual(t, a.ID, b.ID)
	long := newStore(t, client, strings.Repeat("é", 255))
	require.Len(t, []rune(long.Name), 255)
}
