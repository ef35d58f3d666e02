package memorystores_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
)

func TestMemoryListing(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	st := newStore(t, client, "tree")
	for _, p := range []string{"/z.md", "/projects/foo/notes.md", "/a.md", "/projects/baz/deep/x.md", "/projects/bar.md", "/projects/foo/todo.md"} {
		newMemory(t, client, st.ID, p, "content of "+p)
	}
	list := func(p memorystores.MemoryListParams) []string {
		t.Helper()
		page, err := client.MemoryStores.Memories.List(ctx, st.ID, p)
		require.NoError(t, err)
		return itemPaths(t, page.Data)
	}

	require.Equal(t, []string{"/a.md", "/projects/bar.md", "/projects/baz/deep/x.md", "/projects/foo/notes.md",
		"/projects/foo/todo.md", "/z.md"}, list(memorystores.MemoryListParams{}), "every memory, in path order")
	require.Equal(t, []string{"/a.md", "/projects/", "/z.md"}, list(memorystores.MemoryListParams{Depth: 1}),
		"depth 1 rolls deeper memories up into one prefix")
	require.Equal(t, []string{"/projects/bar.md", "/projects/baz/", "/projects/foo/"},
		list(memorystores.MemoryListParams{PathPrefix: "/projects/", Depth: 1}))
	require.Equal(t, []string{"/projects/bar.md", "/projects/baz/deep/", "/projects/foo/notes.md", "/projects/foo/todo.md"},
		list(memorystores.MemoryListParams{PathPrefix: "/projects/", Depth: 2}))
	require.Equal(t, []string{"/projects/foo/notes.md", "/projects/foo/todo.md"},
		list(memorystores.MemoryListParams{PathPrefix: "/projects/foo/"}))
	require.Empty(t, list(memorystores.MemoryListParams{PathPrefix: "/nothing/"}))

	t.Run("view", func(t *testing.T) {
		page, err := client.MemoryStores.Memories.List(ctx, st.ID, memorystores.MemoryListParams{PathPrefix: "/projects/foo/"})
		require.NoError(t, err)
		require.Nil(t, page.Data[0].(*memorystores.Memory).Content, "lists default to view=basic")
		page, err = client.MemoryStores.Memories.List(ctx, st.ID, memorystores.MemoryListParams{PathPrefix: "/projects/foo/", View: memorystores.ViewFull})
		require.NoError(t, err)
		require.Equal(t, "content of /projects/foo/notes.md", *page.Data[0].(*memorystores.Memory).Content)
	})

	t.Run("All walks to the end; writes meanwhile land by path", func(t *testing.T) {
		env.Server.ResetRequests()
		var got []string
		for item, err := range client.MemoryStores.Memories.All(ctx, st.ID, memorystores.MemoryListParams{Limit: 2, Depth: 2}) {
			require.NoError(t, err)
			got = append(got, itemPaths(t, []memorystores.ListItem{item})[0])
			if len(got) == 2 {
				newMemory(t, client, st.ID, "/0-before.md", "sorts before the cursor: not seen")
				newMemory(t, client, st.ID, "/y.md", "sorts after the cursor: seen")
			}
		}
		require.Equal(t, []string{"/a.md", "/projects/bar.md", "/projects/baz/", "/projects/foo/", "/y.md", "/z.md"}, got)
		require.Equal(t, 3, env.Count(http.MethodGet, "/v1/memory_stores/"+st.ID+"/memories"))
	})

	t.Run("breaking out stops fetching", func(t *testing.T) {
		env.Server.ResetRequests()
		for item, err := range client.MemoryStores.Memories.All(ctx, st.ID, memorystores.MemoryListParams{Limit: 1}) {
			require.NoError(t, err)
			require.Equal(t, "/0-before.md", item.(*memorystores.Memory).Path)
			break
		}
		require.Equal(t, 1, env.Count(http.MethodGet, "/v1/memory_stores/"+st.ID+"/memories"))
	})
}

func TestFullListingsAreCappedAt20(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	st := newStore(t, client, "many")
	for i := range 25 {
		newMemory(t, client, st.ID, fmt.Sprintf("/m%02d.md", i), "x")
	}
	ctx := context.Background()
	page, err := client.MemoryStores.Memories.List(ctx, st.ID, memorystores.MemoryListParams{Limit: 100})
	require.NoError(t, err)
	require.Len(t, page.Data, 25)
	page, err = client.MemoryStores.Memories.List(ctx, st.ID, memorystores.MemoryListParams{Limit: 100, View: memorystores.ViewFull})
	require.NoError(t, err, "a larger limit is capped, not refused")
	require.Len(t, page.Data, 20)
	require.True(t, page.HasMore())
	rest, err := client.MemoryStores.Memories.List(ctx, st.ID, memorystores.MemoryListParams{Page: page.NextPage, View: memorystores.ViewFull})
	require.NoError(t, err)
	require.Len(t, rest.Data, 5)
	require.False(t, rest.HasMore())
}
