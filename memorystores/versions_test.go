package memorystores_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/option"
)

func TestVersionHistory(t *testing.T) {
	env, _, clock := newClockEnv(t)
	ctx := context.Background()
	key, err := env.Server.CreateAPIKey(refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: env.Seed.UserID})
	require.NoError(t, err)
	client := env.Client(t, option.WithAPIKey(key.Secret))
	mems, versions := client.MemoryStores.Memories, client.MemoryStores.Versions
	st := newStore(t, client, "history")

	m := newMemory(t, client, st.ID, "/a.md", "one")
	clock.Advance(time.Second)
	_, err = mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("two")})
	require.NoError(t, err)
	clock.Advance(time.Second)
	_, err = mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Path: "/b.md"})
	require.NoError(t, err)
	clock.Advance(time.Second)
	require.NoError(t, mems.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{}))
	other := newMemory(t, client, st.ID, "/other.md", "x")

	page, err := versions.List(ctx, st.ID, memorystores.VersionListParams{MemoryID: m.ID})
	require.NoError(t, err)
	require.Len(t, page.Data, 4)
	type row struct {
		op      memorystores.Operation
		path    string
		sha     string
		size    int
		created time.Time
	}
	var got []row
	for _, v := range page.Data {
		require.Equal(t, "memory_version", v.Type)
		require.Regexp(t, `^memver_`, v.ID)
		require.Equal(t, st.ID, v.MemoryStoreID)
		require.Equal(t, m.ID, v.MemoryID)
		require.Nil(t, v.Content, "lists default to view=basic")
		require.Equal(t, &memorystores.APIActor{APIKeyID: key.ID}, v.CreatedBy, "written with the calling key")
		require.False(t, v.Redacted())
		require.Nil(t, v.RedactedBy)
		got = append(got, row{v.Operation, v.Path, v.ContentSHA256, v.ContentSizeBytes, v.CreatedAt})
	}
	require.Equal(t, []row{ // newest first
		{memorystores.OperationDeleted, "/b.md", "", 0, start.Add(3 * time.Second)},
		{memorystores.OperationModified, "/b.md", sha("two"), 3, start.Add(2 * time.Second)},
		{memorystores.OperationModified, "/a.md", sha("two"), 3, start.Add(time.Second)},
		{memorystores.OperationCreated, "/a.md", sha("one"), 3, start},
	}, got)

	t.Run("view", func(t *testing.T) {
		full, err := versions.List(ctx, st.ID, memorystores.VersionListParams{MemoryID: m.ID, View: memorystores.ViewFull})
		require.NoError(t, err)
		require.Nil(t, full.Data[0].Content, "a deletion has no content")
		require.Equal(t, "two", *full.Data[1].Content)
		one, err := versions.Get(ctx, st.ID, page.Data[3].ID, memorystores.VersionGetParams{})
		require.NoError(t, err)
		require.Equal(t, "one", *one.Content, "get defaults to view=full")
		one, err = versions.Get(ctx, st.ID, page.Data[3].ID, memorystores.VersionGetParams{View: memorystores.ViewBasic})
		require.NoError(t, err)
		require.Nil(t, one.Content)
		_, err = versions.Get(ctx, st.ID, "memver_01missing", memorystores.VersionGetParams{})
		require.ErrorIs(t, err, apierror.ErrNotFound)
		require.ErrorContains(t, err, "Memory version `memver_01missing` not found.")
	})

	t.Run("filters", func(t *testing.T) {
		count := func(p memorystores.VersionListParams) int {
			t.Helper()
			page, err := versions.List(ctx, st.ID, p)
			require.NoError(t, err)
			return len(page.Data)
		}
		require.Equal(t, 5, count(memorystores.VersionListParams{}))
		require.Equal(t, 1, count(memorystores.VersionListParams{MemoryID: other.ID}))
		require.Equal(t, 2, count(memorystores.VersionListParams{Operation: memorystores.OperationModified}))
		require.Equal(t, 5, count(memorystores.VersionListParams{APIKeyID: key.ID}))
		require.Equal(t, 0, count(memorystores.VersionListParams{APIKeyID: "apikey_01other"}))
		require.Equal(t, 0, count(memorystores.VersionListParams{SessionID: "sesn_01none"}))
		require.Equal(t, 2, count(memorystores.VersionListParams{CreatedAtGTE: start.Add(time.Second), CreatedAtLTE: start.Add(2 * time.Second)}),
			"both bounds are inclusive")
		_, err := versions.List(ctx, st.ID, memorystores.VersionListParams{Operation: "merged"})
		require.ErrorIs(t, err, apierror.ErrInvalidRequest, "enum values are checked by the server, not the SDK")
		require.ErrorContains(t, err, "operation: must be one of `created`, `modified`, `deleted`")
	})

	t.Run("walked newest first, and stopped early", func(t *testing.T) {
		path := "/v1/memory_stores/" + st.ID + "/memory_versions"
		env.Server.ResetRequests()
		var ops []memorystores.Operation
		for v, err := range versions.All(ctx, st.ID, memorystores.VersionListParams{Limit: 2}) {
			require.NoError(t, err)
			ops = append(ops, v.Operation)
			if len(ops) == 1 {
				newMemory(t, client, st.ID, "/late.md", "newer than the cursor: not seen")
			}
		}
		require.Equal(t, []memorystores.Operation{"created", "deleted", "modified", "modified", "created"}, ops)
		require.Equal(t, 3, env.Count(http.MethodGet, path))
		env.Server.ResetRequests()
		for range versions.All(ctx, st.ID, memorystores.VersionListParams{Limit: 1}) {
			break
		}
		require.Equal(t, 1, env.Count(http.MethodGet, path))
	})

	t.Run("redaction", func(t *testing.T) {
		head, err := mems.Get(ctx, st.ID, other.ID, memorystores.MemoryGetParams{})
		require.NoError(t, err)
		_, err = versions.Redact(ctx, st.ID, head.MemoryVersionID)
		var apiErr *apierror.Error
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, http.StatusConflict, apiErr.StatusCode)
		require.Equal(t, "memory_version_id: cannot redact the current version of a memory", apiErr.Message)

		clock.Advance(time.Second)
		old := page.Data[2] // the first modification of the deleted memory
		redacted, err := versions.Redact(ctx, st.ID, old.ID)
		require.NoError(t, err)
		require.True(t, redacted.Redacted())
		require.Equal(t, clock.Now(), redacted.RedactedAt)
		require.Equal(t, &memorystores.APIActor{APIKeyID: key.ID}, redacted.RedactedBy)
		require.Empty(t, redacted.Path)
		require.Nil(t, redacted.Content)
		require.Empty(t, redacted.ContentSHA256)
		require.Zero(t, redacted.ContentSizeBytes)
		require.Equal(t, old.Operation, redacted.Operation, "the record of the write stays")
		require.Equal(t, old.CreatedAt, redacted.CreatedAt)

		clock.Advance(time.Second)
		again, err := versions.Redact(ctx, st.ID, old.ID)
		require.NoError(t, err)
		require.Equal(t, redacted, again, "redacting twice changes nothing")
		full, err := versions.Get(ctx, st.ID, old.ID, memorystores.VersionGetParams{View: memorystores.ViewFull})
		require.NoError(t, err)
		require.Nil(t, full.Content, "gone for good")

		// Once a memory is deleted, its last content version is redactable.
		deletedHead := page.Data[1]
		_, err = versions.Redact(ctx, st.ID, deletedHead.ID)
		require.NoError(t, err)
	})

	t.Run("deleting the store deletes its versions", func(t *testing.T) {
		require.NoError(t, client.MemoryStores.Delete(ctx, st.ID))
		_, err := versions.List(ctx, st.ID, memorystores.VersionListParams{})
		require.ErrorIs(t, err, apierror.ErrNotFound)
	})
}
