package refserver_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func contentSHA(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// memoryFixture is a store in the default workspace and helpers on its paths.
type memoryFixture struct {
	*env
	store string // "/v1/memory_stores/<id>"
	id    string
}

func newMemoryFixture(t *testing.T) memoryFixture {
	e := newEnv(t)
	id := e.createMemoryStore(t, `{"name":"notes"}`)
	return memoryFixture{env: e, store: memoryStoresPath + "/" + id, id: id}
}

func (f memoryFixture) create(t *testing.T, path, content string) map[string]any {
	t.Helper()
	return wantOK(t, f.do(t, "POST", f.store+"/memories", jsonBody(t, map[string]string{"path": path, "content": content}), memoryBeta))
}

func TestMemoryWireShape(t *testing.T) {
	f := newMemoryFixture(t)
	got := wantOK(t, f.do(t, "POST", f.store+"/memories?view=full",
		`{"path":"/projects/foo/notes.md","content":"All reports use ISO-8601 dates."}`, memoryBeta))
	want := map[string]any{
		"type":               "memory",
		"id":                 "mem_010000000000000000000001",
		"memory_store_id":    f.id,
		"path":               "/projects/foo/notes.md",
		"content":            "All reports use ISO-8601 dates.",
		"content_sha256":     "b0f0251b4180690966d9b7f259183b696564c3cd2692823ae268f223b08852c0",
		"content_size_bytes": float64(31),
		"memory_version_id":  "memver_010000000000000000000001",
		"created_at":         "2026-11-25T21:56:21.123456Z",
		"updated_at":         "2026-11-25T21:56:21.123456Z",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("created\n got %v\nwant %v", got, want)
	}
	path := f.store + "/memories/" + want["id"].(string)
	if g := wantOK(t, f.do(t, "GET", path, "", memoryBeta)); !reflect.DeepEqual(g, want) {
		t.Fatalf("get defaults to view=full: %v", g)
	}
	basic := wantOK(t, f.do(t, "GET", path+"?view=basic", "", memoryBeta))
	if v, ok := basic["content"]; !ok || v != nil {
		t.Fatalf("view=basic sends content: null, got %v (present %v)", v, ok)
	}
	// Create, update and list default to view=basic.
	if c := f.create(t, "/b", "x"); c["content"] != nil {
		t.Fatalf("create default view: %v", c)
	}
	if u := wantOK(t, f.do(t, "POST", path, `{"content":"y"}`, memoryBeta)); u["content"] != nil || u["content_size_bytes"] != float64(1) {
		t.Fatalf("update default view: %v", u)
	}
	if l := wantOK(t, f.do(t, "GET", f.store+"/memories", "", memoryBeta)); l["data"].([]any)[0].(map[string]any)["content"] != nil {
		t.Fatalf("list default view: %v", l)
	}
	// Bytes, not characters.
	if c := f.create(t, "/é", "é"); c["content_size_bytes"] != float64(2) {
		t.Fatalf("size counts bytes: %v", c)
	}
}

func TestMemoryCreateRules(t *testing.T) {
	f := newMemoryFixture(t)
	long := "/" + strings.Repeat("p", 1023)
	cases := []struct{ body, message string }{
		{`{}`, "path: is required"},
		{`{"path":null,"content":""}`, "path: must not be null"},
		{`{"path":"/a"}`, "content: is required"},
		{`{"path":"/a","content":null}`, "content: must not be null"},
		{`{"path":"/a","content":1}`, "content: must be a string"},
		{`{"path":"/a","content":"","extra":1}`, "extra: unknown field"},
		{`{"path":"","content":""}`, "path: must start with `/`"},
		{`{"path":"a","content":""}`, "path: must start with `/`"},
		{`{"path":"/","content":""}`, "path: must not contain empty, `.` or `..` segments"},
		{`{"path":"` + long + `","content":""}`, ""},
		{`{"path":"` + long + `p","content":""}`, "path: must be between 2 and 1024 bytes"},
		{`{"path":"/` + strings.Repeat("é", 511) + `p","content":""}`, ""},
		{`{"path":"/` + strings.Repeat("é", 512) + `","content":""}`, "path: must be between 2 and 1024 bytes"},
		{`{"path":"/d/","content":""}`, "path: must not contain empty, `.` or `..` segments"},
		{`{"path":"/a//b","content":""}`, "path: must not contain empty, `.` or `..` segments"},
		{`{"path":"/a/./b","content":""}`, "path: must not contain empty, `.` or `..` segments"},
		{`{"path":"/..","content":""}`, "path: must not contain empty, `.` or `..` segments"},
		{`{"path":"/a\u0000","content":""}`, "path: must not contain control or format characters"},
		{`{"path":"/a\u200d","content":""}`, "path: must not contain control or format characters"},
		{`{"path":"/a\u2029","content":""}`, "path: must not contain control or format characters"},
		{`{"path":"/.x/..y/Z Z.md","content":""}`, ""},
		{`{"path":"/big","content":"` + strings.Repeat("c", 102400) + `"}`, ""},
		{`{"path":"/bigger","content":"` + strings.Repeat("c", 102401) + `"}`, "content: must be at most 102400 bytes"},
		{`{"path":"/wide","content":"` + strings.Repeat("é", 51201) + `"}`, "content: must be at most 102400 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.body[:min(len(tc.body), 60)], func(t *testing.T) {
			r := f.do(t, "POST", f.store+"/memories", tc.body, memoryBeta)
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantInvalid(t, r, tc.message)
		})
	}
	wantInvalid(t, f.do(t, "POST", f.store+"/memories?view=everything", `{"path":"/v","content":""}`, memoryBeta), "view: must be one of `basic`, `full`")
	wantError(t, f.do(t, "POST", memoryStoresPath+"/memstore_01nothere/memories", `{"path":"/v","content":""}`, memoryBeta),
		http.StatusNotFound, "not_found_error", "Memory store `memstore_01nothere` not found.")
}

func TestMemoryPathConflictBody(t *testing.T) {
	f := newMemoryFixture(t)
	held := f.create(t, "/a/b.md", "x")["id"].(string)
	other := f.create(t, "/c.md", "y")["id"].(string)
	for _, req := range []struct{ method, path, body string }{
		{"POST", f.store + "/memories", `{"path":"/a/b.md","content":""}`},        // the same path
		{"POST", f.store + "/memories", `{"path":"/a/b.md/deeper","content":""}`}, // below it
		{"POST", f.store + "/memories", `{"path":"/a","content":""}`},             // above it
		{"POST", f.store + "/memories/" + other, `{"path":"/a/b.md"}`},            // a rename onto it
		{"POST", f.store + "/memories/" + other, `{"path":"/a"}`},                 // a rename above it
	} {
		r := f.do(t, req.method, req.path, req.body, memoryBeta)
		wantConflict(t, r, "memory_path_conflict_error", "path: occupied by memory `"+held+"` at `/a/b.md`")
		var body struct {
			Error map[string]any `json:"error"`
		}
		r.decode(t, &body)
		want := map[string]any{
			"type":                  "memory_path_conflict_error",
			"message":               "path: occupied by memory `" + held + "` at `/a/b.md`",
			"conflicting_memory_id": held,
			"conflicting_path":      "/a/b.md",
		}
		if !reflect.DeepEqual(body.Error, want) {
			t.Fatalf("%s: error %v", req.body, body.Error)
		}
	}
	// A path sharing only a name prefix is not below it; a memory may move under its own old path.
	f.create(t, "/a/b.mdx", "")
	wantOK(t, f.do(t, "POST", f.store+"/memories/"+other, `{"path":"/c.md/inside.md"}`, memoryBeta))
	// Case-sensitive paths.
	f.create(t, "/A/B.md", "")
}

func TestMemoryUpdateRules(t *testing.T) {
	f := newMemoryFixture(t)
	m := f.create(t, "/doc.md", "v1")
	path := f.store + "/memories/" + m["id"].(string)
	sha1 := contentSHA("v1")
	for body, message := range map[string]string{
		`{"precondition":null}`: "precondition: must not be null",
		`{"precondition":{}}`:   "precondition.type: is required",
		`{"precondition":{"type":"etag","content_sha256":"x"}}`:                                       "precondition.type: must be one of `content_sha256`",
		`{"precondition":{"type":"content_sha256"}}`:                                                  "precondition.content_sha256: is required",
		`{"precondition":{"type":"content_sha256","content_sha256":null}}`:                            "precondition.content_sha256: must not be null",
		`{"precondition":{"type":"content_sha256","content_sha256":"` + strings.ToUpper(sha1) + `"}}`: "precondition.content_sha256: must be 64 lowercase hexadecimal characters",
		`{"precondition":{"type":"content_sha256","content_sha256":"` + sha1[:63] + `"}}`:             "precondition.content_sha256: must be 64 lowercase hexadecimal characters",
		`{"precondition":{"type":"content_sha256","content_sha256":"` + sha1 + `","x":1}}`:            "precondition.x: unknown field",
		`{"precondition":"` + sha1 + `"}`:                                                             "precondition: must be an object",
		`{"content":"` + strings.Repeat("c", 102401) + `"}`:                                           "content: must be at most 102400 bytes",
		`{"path":"relative"}`:              "path: must start with `/`",
		`{"memory_version_id":"memver_x"}`: "memory_version_id: unknown field",
	} {
		wantInvalid(t, f.do(t, "POST", path, body, memoryBeta), message)
	}

	// Nulls keep; an unchanged write records nothing.
	f.clock.Advance(time.Second)
	for _, body := range []string{`{}`, `{"content":null,"path":null}`, `{"content":"v1","path":"/doc.md"}`} {
		if got := wantOK(t, f.do(t, "POST", path, body, memoryBeta)); !reflect.DeepEqual(got, m) {
			t.Fatalf("%s changed the memory: %v", body, got)
		}
	}
	stale := `{"content":"v1","precondition":{"type":"content_sha256","content_sha256":"` + strings.Repeat("0", 64) + `"}}`
	if got := wantOK(t, f.do(t, "POST", path, stale, memoryBeta)); !reflect.DeepEqual(got, m) {
		t.Fatalf("a no-op with a stale precondition: %v", got)
	}

	updated := wantOK(t, f.do(t, "POST", path+"?view=full",
		`{"content":"v2","precondition":{"type":"content_sha256","content_sha256":"`+sha1+`"}}`, memoryBeta))
	if updated["content"] != "v2" || updated["content_sha256"] != contentSHA("v2") || updated["updated_at"] != "2026-11-25T21:56:22.123456Z" ||
		updated["memory_version_id"] == m["memory_version_id"] || updated["created_at"] != m["created_at"] {
		t.Fatalf("updated %v", updated)
	}
	wantConflict(t, f.do(t, "POST", path, `{"content":"v3","precondition":{"type":"content_sha256","content_sha256":"`+sha1+`"}}`, memoryBeta),
		"memory_precondition_failed_error", "precondition.content_sha256: stored content_sha256 is `"+contentSHA("v2")+"`")
	renamed := wantOK(t, f.do(t, "POST", path, `{"path":"/moved/doc.md"}`, memoryBeta))
	if renamed["id"] != m["id"] || renamed["path"] != "/moved/doc.md" || renamed["content_sha256"] != contentSHA("v2") {
		t.Fatalf("renamed %v", renamed)
	}
	f.create(t, "/doc.md", "the old path is free")
	wantError(t, f.do(t, "POST", f.store+"/memories/mem_01nothere", `{}`, memoryBeta), http.StatusNotFound, "not_found_error", "Memory `mem_01nothere` not found.")

	// The store's updated_at does not follow memory writes.
	if st := wantOK(t, f.do(t, "GET", f.store, "", memoryBeta)); st["updated_at"] != "2026-11-25T21:56:21.123456Z" {
		t.Fatalf("store %v", st)
	}
}

func TestMemoryDeleteRules(t *testing.T) {
	f := newMemoryFixture(t)
	m := f.create(t, "/doc.md", "v1")
	path := f.store + "/memories/" + m["id"].(string)
	wantInvalid(t, f.do(t, "DELETE", path+"?expected_content_sha256=abc", "", memoryBeta), "expected_content_sha256: must be 64 lowercase hexadecimal characters")
	wantConflict(t, f.do(t, "DELETE", path+"?expected_content_sha256="+contentSHA("v0"), "", memoryBeta),
		"memory_precondition_failed_error", "expected_content_sha256: stored content_sha256 is `"+contentSHA("v1")+"`")
	wantOK(t, f.do(t, "GET", path, "", memoryBeta))
	deleted := wantOK(t, f.do(t, "DELETE", path+"?expected_content_sha256="+contentSHA("v1"), "", memoryBeta))
	if !reflect.DeepEqual(deleted, map[string]any{"id": m["id"], "type": "memory_deleted"}) {
		t.Fatalf("deleted %v", deleted)
	}
	wantError(t, f.do(t, "DELETE", path, "", memoryBeta), http.StatusNotFound, "not_found_error", "Memory `"+m["id"].(string)+"` not found.")
	wantError(t, f.do(t, "GET", path, "", memoryBeta), http.StatusNotFound, "not_found_error", "")
}

func TestMemoryWritesToArchivedStore(t *testing.T) {
	f := newMemoryFixture(t)
	m := f.create(t, "/doc.md", "v1")
	path := f.store + "/memories/" + m["id"].(string)
	wantOK(t, f.do(t, "POST", f.store+"/archive", "", memoryBeta))
	msg := "memory_store_id: memory store `" + f.id + "` is archived"
	wantConflict(t, f.do(t, "POST", f.store+"/memories", `{"path":"/new","content":""}`, memoryBeta), "conflict_error", msg)
	wantConflict(t, f.do(t, "POST", path, `{"content":"v2"}`, memoryBeta), "conflict_error", msg)
	wantConflict(t, f.do(t, "POST", path, `{}`, memoryBeta), "conflict_error", msg)
	wantConflict(t, f.do(t, "DELETE", path, "", memoryBeta), "conflict_error", msg)
	// The request is checked first (400), then the objects named (404), then the state (409).
	wantInvalid(t, f.do(t, "POST", f.store+"/memories", `{"path":"rel","content":""}`, memoryBeta), "path: must start with `/`")
	wantError(t, f.do(t, "DELETE", f.store+"/memories/mem_01nothere", "", memoryBeta), http.StatusNotFound, "not_found_error", "")
	if got := wantOK(t, f.do(t, "GET", path+"?view=basic", "", memoryBeta)); !reflect.DeepEqual(got, m) {
		t.Fatalf("read %v", got)
	}
	wantOK(t, f.do(t, "GET", f.store+"/memories", "", memoryBeta))
}

func TestMemoryList(t *testing.T) {
	f := newMemoryFixture(t)
	for _, p := range []string{"/z.md", "/projects/foo/notes.md", "/a.md", "/projects/baz/deep/x.md", "/projects/bar.md", "/projects/foo/todo.md", "/projects-old.md"} {
		f.create(t, p, "c")
	}
	list := func(query string) (items []string, next any) {
		t.Helper()
		got := wantOK(t, f.do(t, "GET", f.store+"/memories"+query, "", memoryBeta))
		for _, it := range got["data"].([]any) {
			item := it.(map[string]any)
			switch item["type"] {
			case "memory":
				items = append(items, item["path"].(string))
			case "memory_prefix":
				if len(item) != 2 {
					t.Fatalf("prefix item %v", item)
				}
				items = append(items, "prefix "+item["path"].(string))
			default:
				t.Fatalf("item %v", item)
			}
		}
		return items, got["next_page"]
	}
	for query, want := range map[string][]string{
		"":                                          {"/a.md", "/projects-old.md", "/projects/bar.md", "/projects/baz/deep/x.md", "/projects/foo/notes.md", "/projects/foo/todo.md", "/z.md"},
		"?depth=0":                                  {"/a.md", "/projects-old.md", "/projects/bar.md", "/projects/baz/deep/x.md", "/projects/foo/notes.md", "/projects/foo/todo.md", "/z.md"},
		"?depth=1":                                  {"/a.md", "/projects-old.md", "prefix /projects/", "/z.md"},
		"?path_prefix=/projects/&depth=1":           {"/projects/bar.md", "prefix /projects/baz/", "prefix /projects/foo/"},
		"?path_prefix=/projects/&depth=2":           {"/projects/bar.md", "prefix /projects/baz/deep/", "/projects/foo/notes.md", "/projects/foo/todo.md"},
		"?path_prefix=/projects/&depth=99":          {"/projects/bar.md", "/projects/baz/deep/x.md", "/projects/foo/notes.md", "/projects/foo/todo.md"},
		"?path_prefix=/projects/foo/":               {"/projects/foo/notes.md", "/projects/foo/todo.md"},
		"?path_prefix=/nothing/":                    nil,
		"?path_prefix=/&depth=1&limit=2":            {"/a.md", "/projects-old.md"},
		"?path_prefix=%2Fprojects%2Fbaz%2F&depth=1": {"prefix /projects/baz/deep/"},
	} {
		if got, _ := list(query); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: got %v, want %v", query, got, want)
		}
	}

	// Walk with limit 2: prefixes and memories share one order and both count.
	var walked []string
	query := "?depth=1&limit=2"
	for {
		items, next := list(query)
		walked = append(walked, items...)
		if next == nil {
			break
		}
		if len(walked) == 2 {
			f.create(t, "/0.md", "before the cursor: not seen")
			f.create(t, "/projects/new.md", "inside a prefix still to come: rolled up")
			f.create(t, "/y.md", "after the cursor: seen")
		}
		query = "?depth=1&limit=2&page=" + next.(string)
	}
	if want := []string{"/a.md", "/projects-old.md", "prefix /projects/", "/y.md", "/z.md"}; !reflect.DeepEqual(walked, want) {
		t.Fatalf("walked %v", walked)
	}

	for q, message := range map[string]string{
		"?path_prefix=/projects": "path_prefix: must end with `/`",
		"?path_prefix=projects/": "path_prefix: must start with `/`",
		"?path_prefix=//":        "path_prefix: must not contain empty, `.` or `..` segments",
		"?path_prefix=/../":      "path_prefix: must not contain empty, `.` or `..` segments",
		"?depth=-1":              "depth: must be between 0 and 2147483647",
		"?depth=2147483648":      "depth: must be between 0 and 2147483647",
		"?depth=one":             "depth: must be an integer",
		"?limit=0":               "limit: must be between 1 and 100",
		"?limit=101":             "limit: must be between 1 and 100",
		"?view=all":              "view: must be one of `basic`, `full`",
		"?page=garbage":          "page: invalid cursor",
		"?page=page_djox":        "page: invalid cursor", // a version-list cursor ("v:1")
	} {
		wantInvalid(t, f.do(t, "GET", f.store+"/memories"+q, "", memoryBeta), message)
	}
	if got, _ := list("?limit=100"); len(got) != 10 {
		t.Fatalf("limit 100: %v", got)
	}
}

func TestMemoryFullListIsCappedAt20(t *testing.T) {
	f := newMemoryFixture(t)
	for i := range 25 {
		f.create(t, fmt.Sprintf("/m%02d", i), "c")
	}
	got := wantOK(t, f.do(t, "GET", f.store+"/memories?view=full&limit=100", "", memoryBeta))
	data := got["data"].([]any)
	if len(data) != 20 || got["next_page"] == nil || data[0].(map[string]any)["content"] != "c" {
		t.Fatalf("full page of %d, next %v", len(data), got["next_page"])
	}
	got = wantOK(t, f.do(t, "GET", f.store+"/memories?view=full&limit=5", "", memoryBeta))
	if len(got["data"].([]any)) != 5 {
		t.Fatalf("smaller limits are kept")
	}
	got = wantOK(t, f.do(t, "GET", f.store+"/memories?view=basic&limit=100", "", memoryBeta))
	if len(got["data"].([]any)) != 25 || got["next_page"] != nil {
		t.Fatalf("basic pages are not capped")
	}
}
