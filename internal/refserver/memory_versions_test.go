package refserver_test

import (
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func TestMemoryVersionWireShapes(t *testing.T) {
	f := newMemoryFixture(t)
	m := f.create(t, "/doc.md", "v1")
	memPath := f.store + "/memories/" + m["id"].(string)
	f.clock.Advance(time.Second)
	wantOK(t, f.do(t, "POST", memPath, `{"content":"v2","path":"/moved.md"}`, memoryBeta))
	f.clock.Advance(time.Second)
	wantOK(t, f.do(t, "DELETE", memPath, "", memoryBeta))

	seedKey := "apikey_010000000000000000000001"
	actor := map[string]any{"type": "api_actor", "api_key_id": seedKey}
	created := map[string]any{
		"type": "memory_version", "id": "memver_010000000000000000000001", "memory_store_id": f.id,
		"memory_id": m["id"], "operation": "created", "path": "/doc.md", "content": "v1",
		"content_sha256": contentSHA("v1"), "content_size_bytes": float64(2), "created_by": actor,
		"redacted_at": nil, "redacted_by": nil, "created_at": "2026-11-25T21:56:21.123456Z",
	}
	if got := wantOK(t, f.do(t, "GET", f.store+"/memory_versions/"+created["id"].(string), "", memoryBeta)); !reflect.DeepEqual(got, created) {
		t.Fatalf("get defaults to view=full\n got %v\nwant %v", got, created)
	}
	deleted := map[string]any{
		"type": "memory_version", "id": "memver_010000000000000000000003", "memory_store_id": f.id,
		"memory_id": m["id"], "operation": "deleted", "path": "/moved.md", "content": nil,
		"content_sha256": nil, "content_size_bytes": nil, "created_by": actor,
		"redacted_at": nil, "redacted_by": nil, "created_at": "2026-11-25T21:56:23.123456Z",
	}
	page := wantOK(t, f.do(t, "GET", f.store+"/memory_versions?view=full", "", memoryBeta))
	data := page["data"].([]any)
	if len(data) != 3 || !reflect.DeepEqual(data[0], deleted) || page["next_page"] != nil {
		t.Fatalf("newest first, deletion without content: %v", page)
	}
	if mod := data[1].(map[string]any); mod["operation"] != "modified" || mod["path"] != "/moved.md" || mod["content"] != "v2" {
		t.Fatalf("modified %v", mod)
	}
	basic := wantOK(t, f.do(t, "GET", f.store+"/memory_versions", "", memoryBeta))["data"].([]any)
	if v := basic[2].(map[string]any); v["content"] != nil || v["content_sha256"] != contentSHA("v1") || v["content_size_bytes"] != float64(2) {
		t.Fatalf("list defaults to view=basic: %v", v)
	}

	f.clock.Advance(time.Second)
	redacted := wantOK(t, f.do(t, "POST", f.store+"/memory_versions/"+created["id"].(string)+"/redact", "", memoryBeta))
	want := map[string]any{
		"type": "memory_version", "id": created["id"], "memory_store_id": f.id,
		"memory_id": m["id"], "operation": "created", "path": nil, "content": nil,
		"content_sha256": nil, "content_size_bytes": nil, "created_by": actor,
		"redacted_at": "2026-11-25T21:56:24.123456Z", "redacted_by": actor, "created_at": "2026-11-25T21:56:21.123456Z",
	}
	if !reflect.DeepEqual(redacted, want) {
		t.Fatalf("redacted\n got %v\nwant %v", redacted, want)
	}
	f.clock.Advance(time.Second)
	if again := wantOK(t, f.do(t, "POST", f.store+"/memory_versions/"+created["id"].(string)+"/redact", `{}`, memoryBeta)); !reflect.DeepEqual(again, want) {
		t.Fatalf("redaction is not idempotent: %v", again)
	}
}

func TestMemoryVersionRules(t *testing.T) {
	f := newMemoryFixture(t)
	m := f.create(t, "/doc.md", "v1")
	memPath := f.store + "/memories/" + m["id"].(string)
	head := m["memory_version_id"].(string)
	wantInvalid(t, f.do(t, "POST", f.store+"/memory_versions/"+head+"/redact", `{"reason":"x"}`, memoryBeta), "reason: unknown field")
	wantConflict(t, f.do(t, "POST", f.store+"/memory_versions/"+head+"/redact", "", memoryBeta),
		"conflict_error", "memory_version_id: cannot redact the current version of a memory")
	wantError(t, f.do(t, "GET", f.store+"/memory_versions/memver_01nothere", "", memoryBeta), http.StatusNotFound, "not_found_error",
		"Memory version `memver_01nothere` not found.")
	wantError(t, f.do(t, "POST", f.store+"/memory_versions/memver_01nothere/redact", "", memoryBeta), http.StatusNotFound, "not_found_error",
		"Memory version `memver_01nothere` not found.")

	// Once superseded, the old head can be redacted; the memory is untouched.
	wantOK(t, f.do(t, "POST", memPath, `{"content":"v2"}`, memoryBeta))
	wantOK(t, f.do(t, "POST", f.store+"/memory_versions/"+head+"/redact", "", memoryBeta))
	if got := wantOK(t, f.do(t, "GET", memPath, "", memoryBeta)); got["content"] != "v2" {
		t.Fatalf("memory %v", got)
	}
	// A version belongs to its store.
	other := memoryStoresPath + "/" + f.createMemoryStore(t, `{"name":"other"}`)
	wantError(t, f.do(t, "GET", other+"/memory_versions/"+head, "", memoryBeta), http.StatusNotFound, "not_found_error", "")

	for q, message := range map[string]string{
		"?operation=merged":     "operation: must be one of `created`, `modified`, `deleted`",
		"?view=diff":            "view: must be one of `basic`, `full`",
		"?limit=0":              "limit: must be between 1 and 100",
		"?limit=101":            "limit: must be between 1 and 100",
		"?created_at[lte]=soon": "created_at[lte]: must be an RFC 3339 timestamp",
		"?page=garbage":         "page: invalid cursor",
		"?page=page_cDov":       "page: invalid cursor", // a memory-list cursor ("p:/")
		"?page=page_djp4":       "page: invalid cursor", // "v:x"
	} {
		wantInvalid(t, f.do(t, "GET", f.store+"/memory_versions"+q, "", memoryBeta), message)
	}
}

func TestMemoryVersionListFilters(t *testing.T) {
	f := newMemoryFixture(t)
	key := f.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: f.seed.UserID})
	a := f.create(t, "/a", "1")["id"].(string)
	f.clock.Advance(time.Second)
	wantOK(t, f.do(t, "POST", f.store+"/memories/"+a, `{"content":"2"}`, memoryBeta, withKey(key.Secret)))
	f.clock.Advance(time.Second)
	b := wantOK(t, f.do(t, "POST", f.store+"/memories", `{"path":"/b","content":""}`, memoryBeta, withKey(key.Secret)))["id"].(string)
	f.clock.Advance(time.Second)
	wantOK(t, f.do(t, "DELETE", f.store+"/memories/"+a, "", memoryBeta))

	ops := func(query string) []string {
		t.Helper()
		var out []string
		for _, v := range wantOK(t, f.do(t, "GET", f.store+"/memory_versions"+query, "", memoryBeta))["data"].([]any) {
			out = append(out, v.(map[string]any)["operation"].(string)+" "+v.(map[string]any)["path"].(string))
		}
		return out
	}
	for query, want := range map[string][]string{
		"":                            {"deleted /a", "created /b", "modified /a", "created /a"},
		"?memory_id=" + a:             {"deleted /a", "modified /a", "created /a"},
		"?memory_id=" + b:             {"created /b"},
		"?operation=created":          {"created /b", "created /a"},
		"?api_key_id=" + key.ID:       {"created /b", "modified /a"},
		"?api_key_id=apikey_01nobody": nil,
		"?session_id=sesn_01none":     nil,
		"?created_at[gte]=2026-11-25T21:56:22.123456Z&created_at[lte]=2026-11-25T21:56:23.123456Z": {"created /b", "modified /a"},
		"?operation=created&memory_id=" + a: {"created /a"},
	} {
		if got := ops(query); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %v, want %v", query, got, want)
		}
	}

	// Pages by write order: a version written between two page requests is newer than the cursor.
	first := wantOK(t, f.do(t, "GET", f.store+"/memory_versions?limit=3", "", memoryBeta))
	f.create(t, "/c", "newer")
	second := wantOK(t, f.do(t, "GET", f.store+"/memory_versions?limit=3&page="+first["next_page"].(string), "", memoryBeta))
	if d := second["data"].([]any); len(d) != 1 || d[0].(map[string]any)["path"] != "/a" || second["next_page"] != nil {
		t.Fatalf("second page %v", second)
	}
	// Several writes within one microsecond keep their write order.
	for _, p := range []string{"/d", "/e", "/f"} {
		f.create(t, p, "")
	}
	if got := ops("?limit=3&operation=created"); !reflect.DeepEqual(got, []string{"created /f", "created /e", "created /d"}) {
		t.Fatalf("same-instant order %v", got)
	}
}
