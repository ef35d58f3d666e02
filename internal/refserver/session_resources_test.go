package refserver_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Session resources R1–R5 (docs/managed-agents-wire.md section 7).

type resourcePage struct {
	Data []struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		MountPath string `json:"mount_path"`
	} `json:"data"`
	NextPage *string `json:"next_page"`
}

func (p resourcePage) ids() []string {
	var out []string
	for _, r := range p.Data {
		out = append(out, r.ID)
	}
	return out
}

func (f sessionFixture) listResources(t *testing.T, id, query string) resourcePage {
	t.Helper()
	var p resourcePage
	r := f.ma(t, "GET", sessionsPath+"/"+id+"/resources"+query, "")
	wantOK(t, r)
	r.decode(t, &p)
	return p
}

func TestSessionResourcesListAndAdd(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	id := f.sessionID(t, `,"resources":[{"type":"file","file_id":"file_a"},{"type":"vcs_repository","url":"https://example.com/o/repo"}]`)
	base := sessionsPath + "/" + id + "/resources"
	created := f.listResources(t, id, "").ids()

	f.clock.Advance(time.Second)
	added := wantOK(t, f.ma(t, "POST", base, `{"type":"file","file_id":"file_b"}`))
	requireKeys(t, added, "type", "id", "file_id", "mount_path", "created_at", "updated_at")
	if added["mount_path"] != "/mnt/session/uploads/file_b" || !strings.HasPrefix(added["id"].(string), "sesrsc_") {
		t.Fatalf("added %v", added)
	}
	custom := wantOK(t, f.ma(t, "POST", base, `{"type":"file","file_id":"file_c","mount_path":"/data/c.csv"}`))
	if custom["mount_path"] != "/data/c.csv" {
		t.Fatalf("custom mount %v", custom)
	}
	wantOK(t, f.ma(t, "POST", base, `{"type":"file","file_id":"file_d","mount_path":null}`))
	session := wantOK(t, f.ma(t, "GET", sessionsPath+"/"+id, ""))
	if len(session["resources"].([]any)) != 5 || session["updated_at"] == testNow {
		t.Fatalf("session after adds %v", session)
	}

	// Ascending by created_at; without limit, all of them.
	all := f.listResources(t, id, "")
	want := append(slices.Clone(created), added["id"].(string), custom["id"].(string))
	if got := all.ids(); len(got) != 5 || !slices.Equal(got[:4], want) || all.NextPage != nil {
		t.Fatalf("list %v, want %v…", got, want)
	}
	// Walk with limit 2 to the end, and stop early.
	var walked []string
	p := f.listResources(t, id, "?limit=2")
	for pages := 1; ; pages++ {
		walked = append(walked, p.ids()...)
		if p.NextPage == nil {
			if pages != 3 {
				t.Fatalf("%d pages", pages)
			}
			break
		}
		p = f.listResources(t, id, "?limit=2&page="+*p.NextPage)
	}
	if !slices.Equal(walked, all.ids()) {
		t.Fatalf("walked %v, want %v", walked, all.ids())
	}
	first := f.listResources(t, id, "?limit=1")
	rest := f.listResources(t, id, "?page="+*first.NextPage)
	if !slices.Equal(rest.ids(), all.ids()[1:]) || rest.NextPage != nil {
		t.Fatalf("rest after the cursor, no limit: %v", rest.ids())
	}
	wantOK(t, f.ma(t, "GET", base+"?limit=1000", ""))
	wantInvalid(t, f.ma(t, "GET", base+"?limit=1001", ""), "limit: must be between 1 and 1000")
	wantInvalid(t, f.ma(t, "GET", base+"?limit=0", ""), "limit: must be between 1 and 1000")
	wantInvalid(t, f.ma(t, "GET", base+"?page=x", ""), "page: invalid cursor")

	for body, message := range map[string]string{
		``:                     "type: is required",
		`{"file_id":"file_x"}`: "type: is required",
		`{"type":"vcs_repository","url":"https://example.com/r"}`: "type: must be one of `file`",
		`{"type":"memory_store","memory_store_id":"memstore_1"}`:  "type: must be one of `file`",
		`{"type":"file"}`:                 "file_id: is required",
		`{"type":"file","file_id":"x_1"}`: "file_id: must be a file id (`file_…`)",
		`{"type":"file","file_id":"file_` + strings.Repeat("x", 124) + `"}`:                    "file_id: must be between 1 and 128 characters",
		`{"type":"file","file_id":"file_x","mount_path":""}`:                                   "mount_path: must be between 1 and 4096 characters",
		`{"type":"file","file_id":"file_x","mount_path":"/` + strings.Repeat("m", 4096) + `"}`: "mount_path: must be between 1 and 4096 characters",
		`{"type":"file","file_id":"file_x","mount_path":"/data/c.csv"}`:                        "mount_path: duplicate mount path `/data/c.csv`",
		`{"type":"file","file_id":"file_a"}`:                                                   "mount_path: duplicate mount path `/mnt/session/uploads/file_a`",
		`{"type":"file","file_id":"file_x","extra":1}`:                                         "extra: unknown field",
	} {
		wantInvalid(t, f.ma(t, "POST", base, body), message)
	}
	wantOK(t, f.ma(t, "POST", base, `{"type":"file","file_id":"file_`+strings.Repeat("x", 123)+`","mount_path":"/`+strings.Repeat("m", 4095)+`"}`))
	wantError(t, f.ma(t, "POST", sessionsPath+"/sesn_01nope/resources", `{"type":"file","file_id":"file_x"}`),
		http.StatusNotFound, "not_found_error", "Session `sesn_01nope` not found.")

	// Sessions in self-hosted environments mount nothing.
	sh := f.createEnvironment(t, `{"name":"sh","config":{"type":"self_hosted"}}`)["id"].(string)
	shSession := wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`","environment_id":"`+sh+`"}`))["id"].(string)
	wantConflict(t, f.ma(t, "POST", sessionsPath+"/"+shSession+"/resources", `{"type":"file","file_id":"file_x"}`),
		"conflict_error", "session_id: self-hosted environments cannot mount resources")
}

func TestSessionResourceGetUpdateDelete(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	store := f.createMemoryStore(t, `{"name":"notes"}`)
	id := f.sessionID(t, `,"resources":[
		{"type":"vcs_repository","url":"https://example.com/o/repo","authorization_token":"first-secret-token"},
		{"type":"file","file_id":"file_a"},
		{"type":"memory_store","memory_store_id":"`+store+`"}]`)
	ids := f.listResources(t, id, "").ids()
	repo, file, mem := ids[0], ids[1], ids[2]
	base := sessionsPath + "/" + id + "/resources/"

	got := wantOK(t, f.ma(t, "GET", base+repo, ""))
	requireKeys(t, got, "type", "id", "url", "checkout", "mount_path", "created_at", "updated_at")
	if got["checkout"] != nil || got["mount_path"] != "/workspace/repo" {
		t.Fatalf("repo %v", got)
	}
	requireKeys(t, wantOK(t, f.ma(t, "GET", base+mem, "")),
		"type", "id", "memory_store_id", "access", "name", "description", "instructions", "mount_path", "created_at", "updated_at")

	// Token rotation: repositories only; the token is never returned nor logged.
	f.srv.ResetRequests()
	f.clock.Advance(time.Second)
	r := f.ma(t, "POST", base+repo, `{"authorization_token":"second-secret-token"}`)
	rotated := wantOK(t, r)
	if rotated["updated_at"] == rotated["created_at"] {
		t.Fatalf("updated_at did not move: %v", rotated)
	}
	wantInvalid(t, f.ma(t, "POST", base+file, `{"authorization_token":"third-secret-token"}`),
		"authorization_token: only vcs_repository resources support token rotation")
	wantInvalid(t, f.ma(t, "POST", base+mem, `{"authorization_token":"third-secret-token"}`),
		"authorization_token: only vcs_repository resources support token rotation")
	for _, req := range f.srv.Requests() {
		if strings.Contains(string(req.Body), "secret-token") {
			t.Fatalf("request log holds a token: %s", req.Body)
		}
	}
	for _, path := range []string{sessionsPath + "/" + id, sessionsPath + "/" + id + "/resources", base + repo} {
		if body := f.ma(t, "GET", path, "").body; strings.Contains(string(body), "secret-token") {
			t.Fatalf("%s returned a token: %s", path, body)
		}
	}
	for body, message := range map[string]string{
		``:                             "authorization_token: is required",
		`{"authorization_token":null}`: "authorization_token: must not be null",
		`{"authorization_token":""}`:   "authorization_token: must be between 1 and 4096 characters",
		`{"authorization_token":"` + strings.Repeat("t", 4097) + `"}`: "authorization_token: must be between 1 and 4096 characters",
		`{"authorization_token":"t","url":"https://x.example"}`:       "url: unknown field",
	} {
		wantInvalid(t, f.ma(t, "POST", base+repo, body), message)
	}
	wantOK(t, f.ma(t, "POST", base+repo, `{"authorization_token":"`+strings.Repeat("t", 4096)+`"}`))

	// Unknown resources, and resources of another session, are 404.
	otherSession := f.sessionID(t, "")
	notFound := fmt.Sprintf("Session resource `%s` not found.", repo)
	wantError(t, f.ma(t, "GET", sessionsPath+"/"+otherSession+"/resources/"+repo, ""), http.StatusNotFound, "not_found_error", notFound)
	wantError(t, f.ma(t, "POST", sessionsPath+"/"+otherSession+"/resources/"+repo, `{"authorization_token":"t"}`), http.StatusNotFound, "not_found_error", notFound)
	wantError(t, f.ma(t, "DELETE", sessionsPath+"/"+otherSession+"/resources/"+repo, ""), http.StatusNotFound, "not_found_error", notFound)

	// Delete, any type.
	for _, rid := range []string{mem, repo} {
		requireJSON(t, f.ma(t, "DELETE", base+rid, ""), `{"id":"`+rid+`","type":"session_resource_deleted"}`)
		wantError(t, f.ma(t, "GET", base+rid, ""), http.StatusNotFound, "not_found_error", "Session resource `"+rid+"` not found.")
	}
	if got := f.listResources(t, id, "").ids(); !slices.Equal(got, []string{file}) {
		t.Fatalf("left %v", got)
	}
	// The mount path of a deleted resource is free again.
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+id+"/resources", `{"type":"file","file_id":"file_z","mount_path":"/workspace/repo"}`))
	// The memory store the session used is still there.
	wantOK(t, f.do(t, "GET", memoryStoresPath+"/"+store, "", memoryBeta))
}

// TestSessionResourcesListInAttachOrder: resources attached by one create
// request share created_at and have random ids; the list keeps the order
// the request gave them, as the session object does, on every page.
func TestSessionResourcesListInAttachOrder(t *testing.T) {
	e := newEnv(t, refserver.WithIDs(refserver.RandomIDs()))
	f := sessionFixture{env: e, agent: e.createAgent(t, "a"), envID: e.createEnvironment(t, `{"name":"e"}`)["id"].(string)}
	f.putFiles()
	for range 8 {
		id := f.sessionID(t, `,"resources":[{"type":"file","file_id":"file_c"},{"type":"file","file_id":"file_a"},`+
			`{"type":"vcs_repository","url":"https://example.com/o/repo"},{"type":"file","file_id":"file_b"}]`)
		var mounts []string
		for p := f.listResources(t, id, "?limit=1"); ; p = f.listResources(t, id, "?limit=1&page="+*p.NextPage) {
			for _, r := range p.Data {
				mounts = append(mounts, r.MountPath)
			}
			if p.NextPage == nil {
				break
			}
		}
		want := []string{"/mnt/session/uploads/file_c", "/mnt/session/uploads/file_a", "", "/mnt/session/uploads/file_b"}
		if len(mounts) != 4 || mounts[0] != want[0] || mounts[1] != want[1] || mounts[3] != want[3] {
			t.Fatalf("mounts %q, want the order of the request %q", mounts, want)
		}
	}
}
