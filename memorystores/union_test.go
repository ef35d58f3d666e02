package memorystores_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/option"
)

// newerServer answers as a server newer than this SDK might: a listing
// item, an actor and an operation the SDK does not know.
func newerServer(t *testing.T) *agentplatform.Client {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/memory_stores/{id}/memories", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":[
			{"type":"memory_prefix","path":"/a/"},
			{"type":"memory_link","path":"/b","target":"/a/x"},
			{"type":"memory","id":"mem_1","memory_store_id":"memstore_1","path":"/c","content":null,
			 "content_sha256":"x","content_size_bytes":0,"memory_version_id":"memver_1",
			 "created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z"}],
			"next_page":null}`))
	})
	mux.HandleFunc("GET /v1/memory_stores/{id}/memory_versions/{vid}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":"memory_version","id":"memver_1","memory_store_id":"memstore_1","memory_id":"mem_1",
			"operation":"merged","path":null,"content":null,"content_sha256":null,"content_size_bytes":null,
			"created_by":{"type":"agent_actor","agent_id":"agent_1"},
			"redacted_at":"2026-03-15T11:00:00Z","redacted_by":{"type":"user_actor","user_id":"user_1"},
			"created_at":"2026-03-15T10:00:00Z"}`))
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	c, err := agentplatform.NewClient(option.WithBaseURL(ts.URL), option.WithAPIKey("sk-test"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestUnknownVariantsAreKept(t *testing.T) {
	client := newerServer(t)
	ctx := context.Background()

	page, err := client.MemoryStores.Memories.List(ctx, "memstore_1", memorystores.MemoryListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 3)
	require.Equal(t, &memorystores.MemoryPrefix{Path: "/a/"}, page.Data[0])
	unknown, ok := page.Data[1].(*memorystores.UnknownListItem)
	require.True(t, ok, "%T", page.Data[1])
	require.Equal(t, "memory_link", unknown.Type)
	b, err := json.Marshal(unknown)
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"memory_link","path":"/b","target":"/a/x"}`, string(b), "kept whole")
	require.Equal(t, "/c", page.Data[2].(*memorystores.Memory).Path)
	require.False(t, page.HasMore())

	v, err := client.MemoryStores.Versions.Get(ctx, "memstore_1", "memver_1", memorystores.VersionGetParams{})
	require.NoError(t, err)
	require.Equal(t, memorystores.Operation("merged"), v.Operation, "unknown enum values are kept")
	actor, ok := v.CreatedBy.(*memorystores.UnknownActor)
	require.True(t, ok, "%T", v.CreatedBy)
	require.Equal(t, "agent_actor", actor.Type)
	require.Equal(t, &memorystores.UserActor{UserID: "user_1"}, v.RedactedBy)
	require.True(t, v.Redacted())
	require.Empty(t, v.Path)

	// A version round-trips through JSON with its actors.
	b, err = json.Marshal(v)
	require.NoError(t, err)
	var back memorystores.MemoryVersion
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, v.CreatedBy, back.CreatedBy)
	require.Equal(t, v.RedactedBy, back.RedactedBy)
}

// TestDecodeErrorsNameThePath: a malformed actor fails the decode with
// where it is, its type, and what in it is wrong.
func TestDecodeErrorsNameThePath(t *testing.T) {
	var v memorystores.MemoryVersion
	err := json.Unmarshal([]byte(`{"created_by":{"type":"api_actor","api_key_id":5}}`), &v)
	require.ErrorContains(t, err, `"/created_by": api_actor:`)
	require.ErrorContains(t, err, `"/api_key_id"`)
}
