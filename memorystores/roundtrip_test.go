package memorystores_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/option"
)

// rawEqual compares raw JSON by value: a round trip writes it compacted.
var rawEqual = cmp.Comparer(func(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
})

// checkWire decodes a response as T and checks the round trip: the SDK
// writes it back as the wire had it, and that decodes to an equal value.
func checkWire[T any](t *testing.T, data []byte) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal(data, &v), "%s", data)
	out, err := json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, wiretest.SameJSON(data, out), "wire %s\nSDK  %s", data, out)
	var again T
	require.NoError(t, json.Unmarshal(out, &again))
	require.Empty(t, cmp.Diff(v, again, rawEqual))
	return v
}

func typeName(v any) string { return reflect.TypeOf(v).Elem().Name() }

// TestWireRoundTrip drives the reference server through every response
// type of the package (the variants it cannot produce, such as a
// session's or a user's write, are in the fuzz corpora, checked by
// TestCorporaRoundTrip) and checks each response against the round-trip
// rule.
func TestWireRoundTrip(t *testing.T) {
	env, _, clock := newClockEnv(t)
	ctx := context.Background()
	key, err := env.Server.CreateAPIKey(refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: env.Seed.UserID})
	require.NoError(t, err)
	var rec wiretest.Recorder
	client := env.Client(t, option.WithAPIKey(key.Secret), rec.Option())
	mems, versions := client.MemoryStores.Memories, client.MemoryStores.Versions

	st, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "notes", Description: "d", Metadata: map[string]string{"k": "v"}})
	require.NoError(t, err)
	m := newMemory(t, client, st.ID, "/a/one.md", "one")
	newMemory(t, client, st.ID, "/a/b/two.md", "")
	clock.Advance(time.Second)
	_, err = mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("uno"), View: memorystores.ViewFull})
	require.NoError(t, err)
	_, err = mems.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{})
	require.NoError(t, err)
	for _, err := range mems.All(ctx, st.ID, memorystores.MemoryListParams{PathPrefix: "/a/", Depth: 1}) {
		require.NoError(t, err)
	}
	for _, err := range mems.All(ctx, st.ID, memorystores.MemoryListParams{View: memorystores.ViewFull}) {
		require.NoError(t, err)
	}
	require.NoError(t, mems.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{}))
	page, err := versions.List(ctx, st.ID, memorystores.VersionListParams{MemoryID: m.ID})
	require.NoError(t, err)
	_, err = versions.Redact(ctx, st.ID, page.Data[len(page.Data)-1].ID)
	require.NoError(t, err)
	for _, err := range versions.All(ctx, st.ID, memorystores.VersionListParams{View: memorystores.ViewFull}) {
		require.NoError(t, err)
	}
	_, err = versions.Get(ctx, st.ID, page.Data[0].ID, memorystores.VersionGetParams{})
	require.NoError(t, err)
	_, err = client.MemoryStores.Archive(ctx, st.ID)
	require.NoError(t, err)
	for _, err := range client.MemoryStores.All(ctx, memorystores.ListParams{IncludeArchived: true}) {
		require.NoError(t, err)
	}

	seen := map[string]bool{}
	version := func(data []byte) {
		v := checkWire[memorystores.MemoryVersion](t, data)
		seen["MemoryVersion"] = true
		for _, a := range []memorystores.Actor{v.CreatedBy, v.RedactedBy} {
			if a != nil {
				seen[typeName(a)] = true
			}
		}
	}
	item := func(data []byte) {
		var probe struct{ Type string }
		require.NoError(t, json.Unmarshal(data, &probe))
		switch probe.Type {
		case "memory":
			checkWire[memorystores.Memory](t, data)
			seen["Memory"] = true
		case "memory_prefix":
			checkWire[memorystores.MemoryPrefix](t, data)
			seen["MemoryPrefix"] = true
		default:
			t.Fatalf("the reference server listed a %q", probe.Type)
		}
	}
	for _, r := range rec.Bodies() {
		switch {
		case r.Method == http.MethodDelete:
		case strings.HasSuffix(r.Path, "/memory_versions"):
			for _, data := range pageItems(t, r.Body) {
				version(data)
			}
		case strings.HasSuffix(r.Path, "/memories"):
			if r.Method == http.MethodPost {
				checkWire[memorystores.Memory](t, r.Body)
				continue
			}
			for _, data := range pageItems(t, r.Body) {
				item(data)
			}
		case strings.Contains(r.Path, "/memory_versions/"):
			version(r.Body)
		case strings.Contains(r.Path, "/memories/"):
			checkWire[memorystores.Memory](t, r.Body)
			seen["Memory"] = true
		case r.Path == "/v1/memory_stores" && r.Method == http.MethodGet:
			for _, data := range pageItems(t, r.Body) {
				checkWire[memorystores.MemoryStore](t, data)
			}
		default:
			checkWire[memorystores.MemoryStore](t, r.Body)
			seen["MemoryStore"] = true
		}
	}
	for _, name := range []string{"MemoryStore", "Memory", "MemoryPrefix", "MemoryVersion", "APIActor"} {
		require.True(t, seen[name], "no %s was seen", name)
	}
}

// pageItems returns the items of a list page as sent.
func pageItems(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	var page struct {
		Data []json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(body, &page))
	return page.Data
}

// TestWireTypesHaveCodecs: every exported struct with an Extra field has
// its own MarshalJSON and UnmarshalJSON, without which encoding/json would
// write an "Extra" member. The list of such structs is read from the
// package's source, so a new one cannot be forgotten.
func TestWireTypesHaveCodecs(t *testing.T) {
	known := map[string]reflect.Type{}
	for _, v := range []any{memorystores.MemoryStore{}, memorystores.Memory{}, memorystores.MemoryPrefix{},
		memorystores.MemoryVersion{}, memorystores.APIActor{}, memorystores.SessionActor{}, memorystores.UserActor{},
		memorystores.ServiceAccountActor{}} {
		known[reflect.TypeOf(v).Name()] = reflect.TypeOf(v)
	}
	names := wiretest.Methods(t, ".")
	for _, name := range names {
		typ, ok := known[name]
		require.True(t, ok, "add %s to this test", name)
		require.True(t, typ.Implements(reflect.TypeFor[json.Marshaler]()), "%s is not a json.Marshaler", name)
		require.True(t, reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Unmarshaler]()), "*%s is not a json.Unmarshaler", name)
	}
	require.Len(t, known, len(names), "a type listed here has no Extra field")
}
