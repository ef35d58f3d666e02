package memorystores_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestMemoryLifecycle(t *testing.T) {
	_, client, clock := newClockEnv(t)
	ctx := context.Background()
	st := newStore(t, client, "notes")
	mems := client.MemoryStores.Memories

	m, err := mems.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/projects/foo/notes.md", Content: "All reports use ISO-8601 dates."})
	require.NoError(t, err)
	require.Equal(t, "memory", m.Type)
	require.Regexp(t, `^mem_01[0-9A-Za-z]{22}$`, m.ID)
	require.Equal(t, st.ID, m.MemoryStoreID)
	require.Equal(t, "/projects/foo/notes.md", m.Path)
	require.Nil(t, m.Content, "create answers with view=basic by default")
	require.Equal(t, sha("All reports use ISO-8601 dates."), m.ContentSHA256)
	require.Equal(t, 31, m.ContentSizeBytes)
	require.Regexp(t, `^memver_`, m.MemoryVersionID)
	require.Equal(t, start, m.CreatedAt)
	require.Equal(t, start, m.UpdatedAt)

	got, err := mems.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{})
	require.NoError(t, err)
	require.NotNil(t, got.Content, "get answers with view=full by default")
	require.Equal(t, "All reports use ISO-8601 dates.", *got.Content)
	basic, err := mems.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{View: memorystores.ViewBasic})
	require.NoError(t, err)
	require.Nil(t, basic.Content)
	require.Equal(t, m, basic)

	t.Run("empty content is not missing content", func(t *testing.T) {
		empty, err := mems.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/empty.md", View: memorystores.ViewFull})
		require.NoError(t, err)
		require.NotNil(t, empty.Content)
		require.Empty(t, *empty.Content)
		require.Equal(t, sha(""), empty.ContentSHA256)
		require.Zero(t, empty.ContentSizeBytes)
	})

	t.Run("update content and path", func(t *testing.T) {
		clock.Advance(time.Second)
		updated, err := mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{
			Content: new("UTC everywhere."), Path: "/projects/bar/notes.md", View: memorystores.ViewFull,
		})
		require.NoError(t, err)
		require.Equal(t, m.ID, updated.ID, "the id is stable across renames")
		require.Equal(t, "/projects/bar/notes.md", updated.Path)
		require.Equal(t, "UTC everywhere.", *updated.Content)
		require.Equal(t, sha("UTC everywhere."), updated.ContentSHA256)
		require.NotEqual(t, m.MemoryVersionID, updated.MemoryVersionID)
		require.Equal(t, start.Add(time.Second), updated.UpdatedAt)
		require.Equal(t, start, updated.CreatedAt)

		emptied, err := mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("")})
		require.NoError(t, err)
		require.Nil(t, emptied.Content, "update answers with view=basic by default")
		require.Zero(t, emptied.ContentSizeBytes)
		require.Equal(t, "/projects/bar/notes.md", emptied.Path, "an omitted path is kept")
	})

	t.Run("delete", func(t *testing.T) {
		require.NoError(t, mems.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{}))
		_, err = mems.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{})
		require.ErrorIs(t, err, apierror.ErrNotFound)
		require.ErrorContains(t, err, "Memory `"+m.ID+"` not found.")
		// The path is free again.
		newMemory(t, client, st.ID, "/projects/bar/notes.md", "again")
	})

	t.Run("memories belong to their store", func(t *testing.T) {
		other := newStore(t, client, "other")
		m := newMemory(t, client, st.ID, "/mine.md", "x")
		_, err := mems.Get(ctx, other.ID, m.ID, memorystores.MemoryGetParams{})
		require.ErrorIs(t, err, apierror.ErrNotFound)
		_, err = mems.Create(ctx, "memstore_01missing", memorystores.MemoryCreateParams{Path: "/a.md"})
		require.ErrorIs(t, err, apierror.ErrNotFound)
		require.ErrorContains(t, err, "Memory store `memstore_01missing` not found.")
	})
}

func TestMemoryPathConflicts(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	st := newStore(t, client, "tree")
	held := newMemory(t, client, st.ID, "/a/b.md", "x")
	other := newMemory(t, client, st.ID, "/c.md", "y")

	cases := []struct {
		name  string
		write func() error
	}{
		{"create at the same path", func() error {
			_, err := client.MemoryStores.Memories.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/a/b.md"})
			return err
		}},
		{"create below a memory", func() error {
			_, err := client.MemoryStores.Memories.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/a/b.md/c.md"})
			return err
		}},
		{"create above a memory", func() error {
			_, err := client.MemoryStores.Memories.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/a"})
			return err
		}},
		{"rename onto a memory", func() error {
			_, err := client.MemoryStores.Memories.Update(ctx, st.ID, other.ID, memorystores.MemoryUpdateParams{Path: "/a/b.md"})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(env.Server.Requests())
			err := tc.write()
			require.ErrorIs(t, err, memorystores.ErrPathConflict)
			require.NotErrorIs(t, err, memorystores.ErrPreconditionFailed)
			var conflict *memorystores.PathConflictError
			require.ErrorAs(t, err, &conflict)
			require.Equal(t, held.ID, conflict.ConflictingMemoryID)
			require.Equal(t, "/a/b.md", conflict.ConflictingPath)
			var apiErr *apierror.Error
			require.ErrorAs(t, err, &apiErr, "the error is still the API error")
			require.Same(t, conflict.Err, apiErr)
			require.Equal(t, http.StatusConflict, apiErr.StatusCode)
			require.Equal(t, apierror.Type("memory_path_conflict_error"), apiErr.Type)
			require.Equal(t, "path: occupied by memory `"+held.ID+"` at `/a/b.md`", apiErr.Message)
			require.Equal(t, apiErr.Error(), err.Error())
			require.Len(t, env.Server.Requests(), before+1, "a conflict is not retried")
		})
	}

	// Other errors are neither.
	_, err := client.MemoryStores.Memories.Create(ctx, "memstore_01missing", memorystores.MemoryCreateParams{Path: "/x"})
	require.ErrorIs(t, err, apierror.ErrNotFound)
	require.NotErrorIs(t, err, memorystores.ErrPathConflict)
	require.NotErrorIs(t, err, memorystores.ErrPreconditionFailed)

	// Siblings, and renaming a memory below its own old path, are fine.
	newMemory(t, client, st.ID, "/a/c.md", "z")
	newMemory(t, client, st.ID, "/a/b.mdx", "z")
	moved, err := client.MemoryStores.Memories.Update(ctx, st.ID, other.ID, memorystores.MemoryUpdateParams{Path: "/c.md/inner.md"})
	require.NoError(t, err)
	require.Equal(t, "/c.md/inner.md", moved.Path)
}

func TestMemoryPreconditions(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	mems := client.MemoryStores.Memories
	st := newStore(t, client, "cas")
	m := newMemory(t, client, st.ID, "/doc.md", "v1")
	stale := m.ContentSHA256

	v2, err := mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{
		Content: new("v2"), Precondition: &memorystores.Precondition{ContentSHA256: stale},
	})
	require.NoError(t, err, "the precondition holds")

	before := len(env.Server.Requests())
	_, err = mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{
		Content: new("v3"), Precondition: &memorystores.Precondition{ContentSHA256: stale},
	})
	require.ErrorIs(t, err, memorystores.ErrPreconditionFailed)
	require.ErrorContains(t, err, "precondition.content_sha256: stored content_sha256 is `"+v2.ContentSHA256+"`")
	require.Len(t, env.Server.Requests(), before+1, "not retried")
	require.NotErrorIs(t, err, memorystores.ErrPathConflict)
	var conflict *memorystores.PathConflictError
	require.False(t, errors.As(err, &conflict))
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr, "the error is still the API error")
	require.Equal(t, http.StatusConflict, apiErr.StatusCode)
	require.Equal(t, apierror.Type("memory_precondition_failed_error"), apiErr.Type)

	same, err := mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{
		Content: new("v2"), Precondition: &memorystores.Precondition{ContentSHA256: stale},
	})
	require.NoError(t, err, "a stale precondition is no failure when the memory is already as requested")
	require.Equal(t, v2.MemoryVersionID, same.MemoryVersionID)

	err = mems.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{ExpectedContentSHA256: stale})
	require.ErrorIs(t, err, memorystores.ErrPreconditionFailed)
	require.ErrorContains(t, err, "expected_content_sha256: stored content_sha256 is `"+v2.ContentSHA256+"`")
	_, err = mems.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{})
	require.NoError(t, err, "nothing was deleted")
	require.NoError(t, mems.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{ExpectedContentSHA256: v2.ContentSHA256}))
}

func TestNoOpUpdateRecordsNoVersion(t *testing.T) {
	_, client, clock := newClockEnv(t)
	ctx := context.Background()
	st := newStore(t, client, "noop")
	m := newMemory(t, client, st.ID, "/a.md", "same")
	clock.Advance(time.Second)
	for _, p := range []memorystores.MemoryUpdateParams{
		{},
		{Content: new("same")},
		{Path: "/a.md"},
		{Content: new("same"), Path: "/a.md"},
	} {
		got, err := client.MemoryStores.Memories.Update(ctx, st.ID, m.ID, p)
		require.NoError(t, err)
		require.Equal(t, m, got, "nothing changed, not even updated_at")
	}
	page, err := client.MemoryStores.Versions.List(ctx, st.ID, memorystores.VersionListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1, "only the creation")
}

func TestArchivedStoreIsReadOnly(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	st := newStore(t, client, "frozen")
	m := newMemory(t, client, st.ID, "/a.md", "v1")
	m2, err := client.MemoryStores.Memories.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("v2")})
	require.NoError(t, err)
	_, err = client.MemoryStores.Archive(ctx, st.ID)
	require.NoError(t, err)
	first, err := client.MemoryStores.Versions.List(ctx, st.ID, memorystores.VersionListParams{Operation: memorystores.OperationCreated})
	require.NoError(t, err)
	require.Len(t, first.Data, 1)

	writes := map[string]func() error{
		"update store": func() error {
			_, err := client.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{Name: "x"})
			return err
		},
		"create memory": func() error {
			_, err := client.MemoryStores.Memories.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/b.md"})
			return err
		},
		"update memory": func() error {
			_, err := client.MemoryStores.Memories.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("v3")})
			return err
		},
		"delete memory": func() error {
			err := client.MemoryStores.Memories.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{})
			return err
		},
		"redact version": func() error {
			_, err := client.MemoryStores.Versions.Redact(ctx, st.ID, first.Data[0].ID)
			return err
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			before := len(env.Server.Requests())
			requireArchivedConflict(t, write(), st.ID)
			require.Len(t, env.Server.Requests(), before+1, "a state conflict is not retried")
		})
	}

	// Reads still work.
	_, err = client.MemoryStores.Get(ctx, st.ID)
	require.NoError(t, err)
	got, err := client.MemoryStores.Memories.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{})
	require.NoError(t, err)
	require.Equal(t, "v2", *got.Content)
	require.Equal(t, m2.MemoryVersionID, got.MemoryVersionID)
	page, err := client.MemoryStores.Memories.List(ctx, st.ID, memorystores.MemoryListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	versions, err := client.MemoryStores.Versions.List(ctx, st.ID, memorystores.VersionListParams{})
	require.NoError(t, err)
	require.Len(t, versions.Data, 2)
	_, err = client.MemoryStores.Versions.Get(ctx, st.ID, first.Data[0].ID, memorystores.VersionGetParams{})
	require.NoError(t, err)
}
