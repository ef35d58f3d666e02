package refserver_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

const memoryStoresPath = "/v1/memory_stores"

// Either beta value opens the memory endpoints (docs/managed-agents-wire.md
// 1.1).
func memoryBeta(h http.Header)        { h.Set("vendor-beta", "agent-memory-2026-07-22") }
func managedAgentsBeta(h http.Header) { h.Set("vendor-beta", "managed-agents-2026-04-01") }

// createMemoryStore creates a store in the default workspace and returns its id.
func (e *env) createMemoryStore(t *testing.T, body string, mods ...mod) string {
	t.Helper()
	return wantOK(t, e.do(t, "POST", memoryStoresPath, body, append([]mod{memoryBeta}, mods...)...))["id"].(string)
}

// wantConflict checks a 409 that the client must not retry.
func wantConflict(t *testing.T, r response, typ, message string) {
	t.Helper()
	wantError(t, r, http.StatusConflict, typ, message)
	if got := r.header.Get("x-should-retry"); got != "false" {
		t.Fatalf("x-should-retry %q, want false", got)
	}
}

func TestMemoryStoreWireShape(t *testing.T) {
	e := newEnv(t)
	got := wantOK(t, e.do(t, "POST", memoryStoresPath,
		`{"name":"User Preferences","description":"Per-user preferences.","metadata":{"user":"u-42"}}`, memoryBeta))
	want := map[string]any{
		"type":        "memory_store",
		"id":          "memstore_010000000000000000000001",
		"name":        "User Preferences",
		"description": "Per-user preferences.",
		"metadata":    map[string]any{"user": "u-42"},
		"archived_at": nil,
		"created_at":  "2026-11-25T21:56:21.123456Z",
		"updated_at":  "2026-11-25T21:56:21.123456Z",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("created\n got %v\nwant %v", got, want)
	}
	if again := wantOK(t, e.do(t, "GET", memoryStoresPath+"/"+want["id"].(string), "", memoryBeta)); !reflect.DeepEqual(again, want) {
		t.Fatalf("get %v", again)
	}
	bare := wantOK(t, e.do(t, "POST", memoryStoresPath, `{"name":"bare","description":null}`, memoryBeta))
	if bare["description"] != "" || !reflect.DeepEqual(bare["metadata"], map[string]any{}) {
		t.Fatalf("defaults: %v", bare)
	}
}

func TestMemoryStoreCreateRules(t *testing.T) {
	e := newEnv(t)
	n := func(k int) string { return strings.Repeat("n", k) }
	meta := func(k int) string {
		pairs := make([]string, k)
		for i := range pairs {
			pairs[i] = fmt.Sprintf(`"k%d":"v"`, i)
		}
		return `{"name":"a","metadata":{` + strings.Join(pairs, ",") + `}}`
	}
	cases := []struct{ body, message string }{
		{``, "name: is required"},
		{`{}`, "name: is required"},
		{`{"name":null}`, "name: must not be null"},
		{`{"name":""}`, "name: must be between 1 and 255 characters"},
		{`{"name":"a"}`, ""},
		{`{"name":"` + n(255) + `"}`, ""},
		{`{"name":"` + n(256) + `"}`, "name: must be between 1 and 255 characters"},
		{`{"name":"` + strings.Repeat("é", 255) + `"}`, ""},
		{`{"name":"a\u0007b"}`, "name: must not contain control characters"},
		{`{"name":"a\nb"}`, "name: must not contain control characters"},
		{`{"name":1}`, "name: must be a string"},
		{`{"name":"a","description":"` + strings.Repeat("d", 1024) + `"}`, ""},
		{`{"name":"a","description":"` + strings.Repeat("d", 1025) + `"}`, "description: must be at most 1024 characters"},
		{`{"name":"a","description":false}`, "description: must be a string"},
		{meta(16), ""},
		{meta(17), "metadata: must have at most 16 pairs"},
		{`{"name":"a","metadata":{"` + strings.Repeat("k", 64) + `":"v"}}`, ""},
		{`{"name":"a","metadata":{"` + strings.Repeat("k", 65) + `":"v"}}`, "metadata: keys must be between 1 and 64 characters"},
		{`{"name":"a","metadata":{"":"v"}}`, "metadata: keys must be between 1 and 64 characters"},
		{`{"name":"a","metadata":{"k":"` + strings.Repeat("v", 512) + `"}}`, ""},
		{`{"name":"a","metadata":{"k":"` + strings.Repeat("v", 513) + `"}}`, "metadata.k: must be at most 512 characters"},
		{`{"name":"a","metadata":{"k":null}}`, "metadata.k: must not be null"},
		{`{"name":"a","metadata":{"k":1}}`, "metadata.k: must be a string"},
		{`{"name":"a","metadata":null}`, "metadata: must not be null"},
		{`{"name":"a","metadata":[]}`, "metadata: must be an object"},
		{`{"name":"a","mount_path":"/x"}`, "mount_path: unknown field"},
		{`[]`, "request body: must be a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.body[:min(len(tc.body), 60)], func(t *testing.T) {
			r := e.do(t, "POST", memoryStoresPath, tc.body, memoryBeta)
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantInvalid(t, r, tc.message)
		})
	}
	wantInvalid(t, e.do(t, "POST", memoryStoresPath, `{"name":"a"`, memoryBeta), "request body: invalid JSON: unexpected end of input")
}

func TestMemoryStoreUpdate(t *testing.T) {
	e := newEnv(t)
	id := e.createMemoryStore(t, `{"name":"s","description":"d","metadata":{"a":"1","b":"2"}}`)
	path := memoryStoresPath + "/" + id
	update := func(body string) map[string]any {
		t.Helper()
		e.clock.Advance(time.Second)
		return wantOK(t, e.do(t, "POST", path, body, memoryBeta))
	}
	created := "2026-11-25T21:56:21.123456Z"

	got := update(`{}`)
	if got["updated_at"] != created {
		t.Fatalf("an empty update changed updated_at: %v", got)
	}
	got = update(`{"name":null,"metadata":null}`)
	if got["name"] != "s" || got["updated_at"] != created || !reflect.DeepEqual(got["metadata"], map[string]any{"a": "1", "b": "2"}) {
		t.Fatalf("null name and metadata keep: %v", got)
	}
	got = update(`{"name":"s","description":"d","metadata":{"a":"1"}}`)
	if got["updated_at"] != created {
		t.Fatalf("same values changed updated_at: %v", got)
	}
	got = update(`{"name":"renamed"}`)
	if got["name"] != "renamed" || got["description"] != "d" || got["updated_at"] != "2026-11-25T21:56:25.123456Z" {
		t.Fatalf("rename: %v", got)
	}
	got = update(`{"metadata":{"a":null,"c":"3","b":"two"}}`)
	if !reflect.DeepEqual(got["metadata"], map[string]any{"b": "two", "c": "3"}) || got["updated_at"] != "2026-11-25T21:56:26.123456Z" {
		t.Fatalf("patch: %v", got)
	}
	got = update(`{"metadata":{"missing":null}}`)
	if got["updated_at"] != "2026-11-25T21:56:26.123456Z" {
		t.Fatalf("deleting an absent key is no change: %v", got)
	}
	got = update(`{"description":null}`)
	if got["description"] != "" || got["updated_at"] != "2026-11-25T21:56:28.123456Z" {
		t.Fatalf("null clears the description: %v", got)
	}
	update(`{"description":"again"}`)
	if got = update(`{"description":""}`); got["description"] != "" {
		t.Fatalf(`"" clears the description: %v`, got)
	}
	if got["created_at"] != created {
		t.Fatalf("created_at moved: %v", got)
	}

	// The pair limit applies to the result of the patch.
	var sb strings.Builder
	for i := range 14 {
		fmt.Fprintf(&sb, `"k%d":"v",`, i)
	}
	update(`{"metadata":{` + strings.TrimSuffix(sb.String(), ",") + `}}`) // 2 + 14 = 16
	wantInvalid(t, e.do(t, "POST", path, `{"metadata":{"one-more":"v"}}`, memoryBeta), "metadata: must have at most 16 pairs")
	if got = update(`{"metadata":{"one-more":"v","b":null}}`); len(got["metadata"].(map[string]any)) != 16 {
		t.Fatalf("swap: %v", got)
	}

	for body, message := range map[string]string{
		`{"name":""}`: "name: must be between 1 and 255 characters",
		`{"name":"` + strings.Repeat("n", 256) + `"}`:           "name: must be between 1 and 255 characters",
		`{"name":"\u0000"}`:                                     "name: must not contain control characters",
		`{"description":"` + strings.Repeat("d", 1025) + `"}`:   "description: must be at most 1024 characters",
		`{"metadata":{"k":"` + strings.Repeat("v", 513) + `"}}`: "metadata.k: must be at most 512 characters",
		`{"metadata":{"` + strings.Repeat("k", 65) + `":null}}`: "metadata: keys must be between 1 and 64 characters",
		`{"archived_at":null}`:                                  "archived_at: unknown field",
	} {
		wantInvalid(t, e.do(t, "POST", path, body, memoryBeta), message)
	}
	wantError(t, e.do(t, "POST", memoryStoresPath+"/memstore_01nothere", `{}`, memoryBeta),
		http.StatusNotFound, "not_found_error", "Memory store `memstore_01nothere` not found.")
}

func TestMemoryStoreArchiveAndDelete(t *testing.T) {
	e := newEnv(t)
	id := e.createMemoryStore(t, `{"name":"old"}`)
	path := memoryStoresPath + "/" + id
	wantInvalid(t, e.do(t, "POST", path+"/archive", `{"now":true}`, memoryBeta), "now: unknown field")
	e.clock.Advance(time.Second)
	archived := wantOK(t, e.do(t, "POST", path+"/archive", `{}`, memoryBeta))
	if archived["archived_at"] != "2026-11-25T21:56:22.123456Z" || archived["updated_at"] != "2026-11-25T21:56:21.123456Z" {
		t.Fatalf("archived %v", archived)
	}
	e.clock.Advance(time.Second)
	if again := wantOK(t, e.do(t, "POST", path+"/archive", "", memoryBeta)); !reflect.DeepEqual(again, archived) {
		t.Fatalf("archive is not idempotent: %v", again)
	}
	archivedMsg := "memory_store_id: memory store `" + id + "` is archived"
	wantConflict(t, e.do(t, "POST", path, `{"name":"new"}`, memoryBeta), "conflict_error", archivedMsg)
	wantConflict(t, e.do(t, "POST", path, `{}`, memoryBeta), "conflict_error", archivedMsg)
	if got := wantOK(t, e.do(t, "GET", path, "", memoryBeta)); !reflect.DeepEqual(got, archived) {
		t.Fatalf("get archived %v", got)
	}

	deleted := wantOK(t, e.do(t, "DELETE", path, "", memoryBeta))
	if !reflect.DeepEqual(deleted, map[string]any{"id": id, "type": "memory_store_deleted"}) {
		t.Fatalf("deleted %v", deleted)
	}
	notFound := "Memory store `" + id + "` not found."
	for _, req := range []struct{ method, path string }{
		{"GET", path}, {"POST", path}, {"POST", path + "/archive"}, {"DELETE", path},
		{"GET", path + "/memories"}, {"POST", path + "/memories"}, {"GET", path + "/memory_versions"},
	} {
		body := ""
		if req.method == "POST" && !strings.HasSuffix(req.path, "/archive") {
			body = `{"path":"/a","content":""}`
			if req.path == path {
				body = `{}`
			}
		}
		wantError(t, e.do(t, req.method, req.path, body, memoryBeta), http.StatusNotFound, "not_found_error", notFound)
	}
}

func TestMemoryStoreList(t *testing.T) {
	e := newEnv(t)
	var ids []string // oldest first, one second apart
	for i := range 23 {
		ids = append(ids, e.createMemoryStore(t, fmt.Sprintf(`{"name":"s%d"}`, i)))
		e.clock.Advance(time.Second)
	}
	list := func(query string) (names []string, next any) {
		t.Helper()
		got := wantOK(t, e.do(t, "GET", memoryStoresPath+query, "", memoryBeta))
		for _, item := range got["data"].([]any) {
			names = append(names, item.(map[string]any)["name"].(string))
		}
		return names, got["next_page"]
	}
	first, next := list("")
	if len(first) != 20 || first[0] != "s22" || first[19] != "s3" || next == nil {
		t.Fatalf("default page: %v, next %v", first, next)
	}
	rest, next := list("?page=" + next.(string))
	if !reflect.DeepEqual(rest, []string{"s2", "s1", "s0"}) || next != nil {
		t.Fatalf("second page: %v, next %v", rest, next)
	}

	gte := "2026-11-25T21:56:22.123456Z" // s1's created_at
	lte := "2026-11-25T21:56:24.123456Z" // s3's
	if got, _ := list("?created_at[gte]=" + gte + "&created_at[lte]=" + lte); !reflect.DeepEqual(got, []string{"s3", "s2", "s1"}) {
		t.Fatalf("inclusive window: %v", got)
	}
	escaped := "?" + url.Values{"created_at[gte]": {"2026-11-25T21:56:43+00:00"}}.Encode()
	if got, _ := list(escaped); !reflect.DeepEqual(got, []string{"s22"}) {
		t.Fatalf("escaped brackets and an offset: %v", got)
	}

	wantOK(t, e.do(t, "POST", memoryStoresPath+"/"+ids[22]+"/archive", "", memoryBeta))
	if got, _ := list("?limit=2"); !reflect.DeepEqual(got, []string{"s21", "s20"}) {
		t.Fatalf("archived hidden: %v", got)
	}
	if got, _ := list("?limit=2&include_archived=true"); !reflect.DeepEqual(got, []string{"s22", "s21"}) {
		t.Fatalf("archived included: %v", got)
	}
	if got, _ := list("?limit=100&include_archived=false"); len(got) != 22 {
		t.Fatalf("limit 100: %d", len(got))
	}

	for query, message := range map[string]string{
		"?limit=0":                    "limit: must be between 1 and 100",
		"?limit=101":                  "limit: must be between 1 and 100",
		"?limit=ten":                  "limit: must be an integer",
		"?include_archived=yes":       "include_archived: must be true or false",
		"?created_at[gte]=yesterday":  "created_at[gte]: must be an RFC 3339 timestamp",
		"?created_at[lte]=2026-11-25": "created_at[lte]: must be an RFC 3339 timestamp",
		"?page=garbage":               "page: invalid cursor",
		"?page=page_%21%21":           "page: invalid cursor",
	} {
		wantInvalid(t, e.do(t, "GET", memoryStoresPath+query, "", memoryBeta), message)
	}
}

func TestMemoryStoresBelongToTheirWorkspace(t *testing.T) {
	e := newEnv(t)
	other := e.srv.CreateWorkspace("other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, other))
	id := e.createMemoryStore(t, `{"name":"here"}`)
	inOther := withWorkspace(other)
	wantError(t, e.do(t, "GET", memoryStoresPath+"/"+id, "", memoryBeta, inOther), http.StatusNotFound, "not_found_error",
		"Memory store `"+id+"` not found.")
	if got := wantOK(t, e.do(t, "GET", memoryStoresPath, "", memoryBeta, inOther)); !reflect.DeepEqual(got["data"], []any{}) {
		t.Fatalf("listed in another workspace: %v", got)
	}
	theirs := e.createMemoryStore(t, `{"name":"there"}`, inOther)
	if got := wantOK(t, e.do(t, "GET", memoryStoresPath, "", memoryBeta)); len(got["data"].([]any)) != 1 {
		t.Fatalf("the default workspace sees %v", got)
	}
	wantError(t, e.do(t, "DELETE", memoryStoresPath+"/"+theirs, "", memoryBeta), http.StatusNotFound, "not_found_error", "")
}

func TestMemoryEndpointsTakeEitherBeta(t *testing.T) {
	e := newEnv(t)
	id := e.createMemoryStore(t, `{"name":"b"}`)
	store := memoryStoresPath + "/" + id
	mem := wantOK(t, e.do(t, "POST", store+"/memories", `{"path":"/a","content":"1"}`, memoryBeta))["id"].(string)
	wantOK(t, e.do(t, "POST", store+"/memories/"+mem, `{"content":"2"}`, memoryBeta))
	versions := wantOK(t, e.do(t, "GET", store+"/memory_versions", "", memoryBeta))["data"].([]any)
	older := versions[1].(map[string]any)["id"].(string)
	endpoints := []struct{ method, path, body string }{
		{"POST", memoryStoresPath, `{"name":"x"}`},
		{"GET", memoryStoresPath, ""},
		{"GET", store, ""},
		{"POST", store, `{"name":"y"}`},
		{"GET", store + "/memories", ""},
		{"GET", store + "/memories/" + mem, ""},
		{"POST", store + "/memories/" + mem, `{"content":"3"}`},
		{"GET", store + "/memory_versions", ""},
		{"GET", store + "/memory_versions/" + older, ""},
		{"POST", store + "/memory_versions/" + older + "/redact", ""},
		{"POST", store + "/memories", `{"path":"/b","content":""}`},
		{"DELETE", store + "/memories/" + mem, ""},
		{"POST", store + "/archive", ""},
		{"DELETE", store, ""},
	}
	wantMessage := "vendor-beta: this endpoint requires one of the beta values `agent-memory-2026-07-22`, `managed-agents-2026-04-01`"
	for _, ep := range endpoints {
		t.Run(ep.method+" "+ep.path, func(t *testing.T) {
			wantInvalid(t, e.do(t, ep.method, ep.path, ep.body), wantMessage)
			wantInvalid(t, e.do(t, ep.method, ep.path, ep.body, tunnelsBeta), wantMessage)
			wantOK(t, e.do(t, ep.method, ep.path, ep.body, managedAgentsBeta))
		})
	}
	// Both at once, and with another value, in one comma-separated header.
	wantOK(t, e.do(t, "GET", memoryStoresPath, "", withHeader("vendor-beta", "mcp-tunnels-2026-06-22, agent-memory-2026-07-22,managed-agents-2026-04-01")))
	wantOK(t, e.do(t, "GET", memoryStoresPath, "", withHeader("vendor-beta", "skills-2025-10-02", "agent-memory-2026-07-22")))
}
