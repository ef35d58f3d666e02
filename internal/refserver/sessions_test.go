package refserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Sessions over raw HTTP (docs/managed-agents-wire.md section 6): the wire
// shape, create rules and limits, archive and delete.

const (
	sessionsPath = "/v1/sessions"
	testNow      = "2026-11-25T21:56:21.123456Z"
)

// ma sends a managed-agents request (the beta value set).
func (e *env) ma(t *testing.T, method, path, body string, mods ...mod) response {
	t.Helper()
	return e.do(t, method, path, body, append([]mod{agentsBeta}, mods...)...)
}

// sessionFixture is a server with an agent on a priced model and a cloud
// environment, the two things every session needs.
type sessionFixture struct {
	*env
	agent string
	envID string
}

func newSessionFixture(t *testing.T) sessionFixture {
	t.Helper()
	e := newEnv(t)
	return sessionFixture{env: e, agent: e.createAgent(t, "a"), envID: e.createEnvironment(t, `{"name":"e"}`)["id"].(string)}
}

// fixtureFileIDs are the file ids the managed-agents tests attach as
// file resources: file_0…file_500, file_a…file_z, an id of the platform's
// form, and one of 128 characters. A file resource must name an existing
// file (docs/files-wire.md 4), so putFiles stores them.
var fixtureFileIDs = func() []string {
	ids := []string{"file_011CNha8iCJcU1wXNR6q4V8w", "file_" + strings.Repeat("x", 123)}
	for i := range 501 {
		ids = append(ids, fmt.Sprintf("file_%d", i))
	}
	for c := 'a'; c <= 'z'; c++ {
		ids = append(ids, "file_"+string(c))
	}
	return ids
}()

// putFiles stores fixtureFileIDs in the default workspace.
func (f sessionFixture) putFiles() {
	f.srv.PutFilesForTest(f.seed.DefaultWorkspaceID, fixtureFileIDs...)
}

// fixtureVaultIDs are the vault ids the managed-agents tests name in
// vault_ids: vlt_0…vlt_50 and an id of the platform's form. vault_ids must
// name usable vaults (docs/vaults-wire.md 5), so putVaults stores them.
var fixtureVaultIDs = func() []string {
	ids := []string{"vlt_011CZkZDLs7fYzm1hXNPeRjv"}
	for i := range 51 {
		ids = append(ids, fmt.Sprintf("vlt_%d", i))
	}
	return ids
}()

// putVaults stores fixtureVaultIDs in the default workspace.
func (f sessionFixture) putVaults() {
	f.srv.PutVaultsForTest(f.seed.DefaultWorkspaceID, fixtureVaultIDs...)
}

// sessionBody is a create body with the fixture's agent and environment,
// plus extra members (",\"title\":\"x\"").
func (f sessionFixture) sessionBody(extra string) string {
	return `{"agent":"` + f.agent + `","environment_id":"` + f.envID + `"` + extra + `}`
}

func (f sessionFixture) createSession(t *testing.T, extra string) map[string]any {
	t.Helper()
	return wantOK(t, f.ma(t, "POST", sessionsPath, f.sessionBody(extra)))
}

func (f sessionFixture) sessionID(t *testing.T, extra string) string {
	t.Helper()
	return f.createSession(t, extra)["id"].(string)
}

// jsonItems renders n comma-separated copies of item(i).
func jsonItems(n int, item func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = item(i)
	}
	return strings.Join(parts, ",")
}

func TestSessionWireShape(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	f.putVaults()
	store := f.createMemoryStore(t, `{"name":"User Preferences","description":"Per-user preferences."}`)
	r := f.ma(t, "POST", sessionsPath, f.sessionBody(`,
		"title": "Order #1234 inquiry",
		"metadata": {"k": "v"},
		"resources": [
			{"type": "file", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"},
			{"type": "vcs_repository", "url": "https://github.com/example-org/example-repo.git", "authorization_token": "ghp_secret",
			 "checkout": {"type": "branch", "name": "main"}},
			{"type": "memory_store", "memory_store_id": "`+store+`"}
		],
		"vault_ids": ["vlt_011CZkZDLs7fYzm1hXNPeRjv"],
		"budget": {"type": "limit", "max_list_cost": {"amount": "2500", "currency": "USD"}},
		"initial_events": [{"type": "user.message", "content": [{"type": "text", "text": "hi"}]}]`))
	got := wantOK(t, r)
	id := got["id"].(string)
	if !strings.HasPrefix(id, "sesn_") || strings.Contains(string(r.body), "ghp_secret") {
		t.Fatalf("id %q or token leaked: %s", id, r.body)
	}
	rid := func(i int) string { return got["resources"].([]any)[i].(map[string]any)["id"].(string) }
	for i := range 3 {
		if !strings.HasPrefix(rid(i), "sesrsc_") {
			t.Fatalf("resource id %q", rid(i))
		}
	}
	want := `{
	  "type": "session", "id": "` + id + `",
	  "agent": {"type": "agent", "id": "` + f.agent + `", "version": 1, "name": "a", "description": null, "system": null,
	    "model": {"id": "vendor-haiku-5-5", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"},
	    "tools": [], "mcp_servers": [], "skills": [], "execution_identity": {"type": "service_account"}, "multiagent": null},
	  "environment_id": "` + f.envID + `",
	  "status": "running",
	  "title": "Order #1234 inquiry",
	  "metadata": {"k": "v"},
	  "resources": [
	    {"type": "file", "id": "` + rid(0) + `", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w",
	     "mount_path": "/mnt/session/uploads/file_011CNha8iCJcU1wXNR6q4V8w", "created_at": "` + testNow + `", "updated_at": "` + testNow + `"},
	    {"type": "vcs_repository", "id": "` + rid(1) + `", "url": "https://github.com/example-org/example-repo.git",
	     "checkout": {"type": "branch", "name": "main"}, "mount_path": "/workspace/example-repo",
	     "created_at": "` + testNow + `", "updated_at": "` + testNow + `"},
	    {"type": "memory_store", "id": "` + rid(2) + `", "memory_store_id": "` + store + `", "access": "read_write",
	     "name": "User Preferences", "description": "Per-user preferences.", "instructions": null,
	     "mount_path": "/mnt/memory/user-preferences", "created_at": "` + testNow + `", "updated_at": "` + testNow + `"}
	  ],
	  "vault_ids": ["vlt_011CZkZDLs7fYzm1hXNPeRjv"],
	  "budget": {"type": "limit", "max_list_cost": {"amount": "2500", "currency": "USD"}},
	  "deployment_id": null,
	  "outcome_evaluations": [],
	  "stats": {"active_seconds": 0, "duration_seconds": 0},
	  "usage": {"active_seconds": 0, "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
	            "cache_read_input_tokens": 0, "input_tokens": 0, "output_tokens": 0,
	            "list_cost": {"amount": "0", "currency": "USD"},
	            "server_tool_use": {"web_fetch_requests": 0, "web_search_requests": 0}},
	  "archived_at": null,
	  "created_at": "` + testNow + `",
	  "updated_at": "` + testNow + `"
	}`
	// The response shows the state right after acceptance: the initial
	// user.message started a turn. That turn (the default script) ran in
	// the same request, so the session read back is idle, with its usage.
	requireJSON(t, r, want)
	after := strings.Replace(want, `"status": "running"`, `"status": "idle"`, 1)
	after = strings.Replace(after, `"input_tokens": 0, "output_tokens": 0`, `"input_tokens": 1000, "output_tokens": 100`, 1)
	requireJSON(t, f.ma(t, "GET", sessionsPath+"/"+id, ""), after)

	// Later renames of the store do not reach the attached snapshot.
	wantOK(t, f.do(t, "POST", memoryStoresPath+"/"+store, `{"name":"Renamed"}`, memoryBeta))
	res := wantOK(t, f.ma(t, "GET", sessionsPath+"/"+id+"/resources/"+rid(2), ""))
	if res["name"] != "User Preferences" || res["mount_path"] != "/mnt/memory/user-preferences" {
		t.Fatalf("snapshot changed: %v", res)
	}
	// A session created afterwards takes the new name and mount path.
	later := f.createSession(t, `,"resources":[{"type":"memory_store","memory_store_id":"`+store+`","access":"read_only","instructions":"be brief"}]`)
	lr := later["resources"].([]any)[0].(map[string]any)
	if lr["name"] != "Renamed" || lr["mount_path"] != "/mnt/memory/renamed" || lr["access"] != "read_only" || lr["instructions"] != "be brief" {
		t.Fatalf("new attachment %v", lr)
	}
}

func TestSessionCreateDefaults(t *testing.T) {
	f := newSessionFixture(t)
	got := f.createSession(t, `,"title":null,"budget":null,"resources":[],"vault_ids":[],"initial_events":[]`)
	for key, want := range map[string]string{
		"title": `null`, "metadata": `{}`, "resources": `[]`, "vault_ids": `[]`, "budget": `null`,
		"deployment_id": `null`, "status": `"idle"`, "archived_at": `null`, "outcome_evaluations": `[]`,
	} {
		if b := mustMarshal(got[key]); b != want {
			t.Errorf("%s = %s, want %s", key, b, want)
		}
	}
	// The reference form and a pinned version resolve too.
	wantOK(t, f.do(t, "POST", "/v1/agents/"+f.agent, `{"system":"v2"}`, agentsBeta))
	for body, version := range map[string]float64{
		`{"type":"agent","id":"` + f.agent + `"}`:             2,
		`{"type":"agent","id":"` + f.agent + `","version":1}`: 1,
		`"` + f.agent + `"`:                                   2,
	} {
		x := wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":`+body+`,"environment_id":"`+f.envID+`"}`))
		if v := x["agent"].(map[string]any)["version"]; v != version {
			t.Fatalf("%s: version %v, want %v", body, v, version)
		}
	}
}

func TestSessionInitialEventsAreRecorded(t *testing.T) {
	f := newSessionFixture(t)
	created := f.createSession(t, `,"initial_events":[
		{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"}},
		{"type":"user.message","content":[{"type":"text","text":"hi"}]},
		{"type":"system.message","content":[{"type":"text","text":"ctx"}]}]`)
	if created["status"] != "running" {
		t.Fatalf("status %v, want running right after acceptance", created["status"])
	}
	id := created["id"].(string)
	events := f.srv.SessionEventsForTest(id)
	// The echoes, in order; the define_outcome gains its outcome_id and
	// resolved max_iterations (docs/session-events-wire.md 3.2).
	want := []string{
		`{"id":"sevt_010000000000000000000001","processed_at":"` + testNow + `","type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"},"max_iterations":3,"outcome_id":"outc_010000000000000000000001"}`,
		`{"id":"sevt_010000000000000000000002","processed_at":"` + testNow + `","type":"user.message","content":[{"type":"text","text":"hi"}]}`,
		`{"id":"sevt_010000000000000000000003","processed_at":"` + testNow + `","type":"system.message","content":[{"type":"text","text":"ctx"}]}`,
	}
	if len(events) < len(want) {
		t.Fatalf("events %s", events)
	}
	for i, w := range want {
		if string(events[i]) != w {
			t.Fatalf("event %d\n got %s\nwant %s", i, events[i], w)
		}
	}
	// Then the turn they started ran in the create request.
	if last := string(events[len(events)-1]); !strings.Contains(last, `"type":"session.status_idle"`) {
		t.Fatalf("last event %s", last)
	}
	if got := wantOK(t, f.ma(t, "GET", sessionsPath+"/"+id, "")); got["status"] != "idle" || len(got["outcome_evaluations"].([]any)) != 1 {
		t.Fatalf("session %v", got)
	}
}

func TestSessionArchiveAndDelete(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	id := f.sessionID(t, `,"resources":[{"type":"file","file_id":"file_1"}]`)
	one := sessionsPath + "/" + id
	rsc := wantOK(t, f.ma(t, "GET", one+"/resources", ""))["data"].([]any)[0].(map[string]any)["id"].(string)
	wantInvalid(t, f.ma(t, "POST", one+"/archive", `{"x":1}`), "x: unknown field")
	archived := wantOK(t, f.ma(t, "POST", one+"/archive", ""))
	if archived["archived_at"] != testNow || archived["updated_at"] != testNow {
		t.Fatalf("archived %v", archived)
	}
	f.clock.Advance(1e9)
	if again := wantOK(t, f.ma(t, "POST", one+"/archive", `{}`)); again["archived_at"] != testNow {
		t.Fatalf("archive is not idempotent: %v", again)
	}
	conflict := "session_id: session `" + id + "` is archived"
	wantConflict(t, f.ma(t, "POST", one, `{"title":"x"}`), "conflict_error", conflict)
	wantConflict(t, f.ma(t, "POST", one+"/resources", `{"type":"file","file_id":"file_2"}`), "conflict_error", conflict)
	wantConflict(t, f.ma(t, "POST", one+"/resources/"+rsc, `{"authorization_token":"t"}`), "conflict_error", conflict)
	wantConflict(t, f.ma(t, "DELETE", one+"/resources/"+rsc, ""), "conflict_error", conflict)
	// Archived sessions are read: get, resources, and list with include_archived.
	wantOK(t, f.ma(t, "GET", one, ""))
	wantOK(t, f.ma(t, "GET", one+"/resources/"+rsc, ""))
	if data := wantOK(t, f.ma(t, "GET", sessionsPath, ""))["data"].([]any); len(data) != 0 {
		t.Fatalf("archived session listed: %v", data)
	}
	if data := wantOK(t, f.ma(t, "GET", sessionsPath+"?include_archived=true", ""))["data"].([]any); len(data) != 1 {
		t.Fatalf("include_archived: %v", data)
	}
	requireJSON(t, f.ma(t, "DELETE", one, ""), `{"id":"`+id+`","type":"session_deleted"}`)
	wantError(t, f.ma(t, "GET", one, ""), http.StatusNotFound, "not_found_error", "Session `"+id+"` not found.")
	wantError(t, f.ma(t, "DELETE", one, ""), http.StatusNotFound, "not_found_error", "Session `"+id+"` not found.")

	// Running sessions: archive interrupts them, delete is refused.
	running := f.sessionID(t, "")
	f.srv.SetSessionStateForTest(running, "running", 0)
	wantConflict(t, f.ma(t, "DELETE", sessionsPath+"/"+running, ""), "conflict_error", "session_id: session is running; interrupt it first")
	f.srv.SetSessionStateForTest(running, "rescheduling", 0)
	wantConflict(t, f.ma(t, "DELETE", sessionsPath+"/"+running, ""), "conflict_error", "session_id: session is running; interrupt it first")
	if got := wantOK(t, f.ma(t, "POST", sessionsPath+"/"+running+"/archive", "")); got["status"] != "idle" || got["archived_at"] == nil {
		t.Fatalf("archived running session %v", got)
	}
	wantOK(t, f.ma(t, "DELETE", sessionsPath+"/"+running, ""))

	// Terminated sessions: read-only, but archive and delete work.
	done := f.sessionID(t, "")
	f.terminate(t, done)
	wantConflict(t, f.ma(t, "POST", sessionsPath+"/"+done, `{"metadata":{"a":"b"}}`), "conflict_error", "session_id: session `"+done+"` is terminated")
	wantConflict(t, f.ma(t, "POST", sessionsPath+"/"+done+"/resources", `{"type":"file","file_id":"file_2"}`), "conflict_error",
		"session_id: session `"+done+"` is terminated")
	if got := wantOK(t, f.ma(t, "POST", sessionsPath+"/"+done+"/archive", "")); got["status"] != "terminated" {
		t.Fatalf("archive changed a terminated status: %v", got)
	}
	wantOK(t, f.ma(t, "DELETE", sessionsPath+"/"+done, ""))
}

func TestSessionsAreWorkspaceScoped(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	id := f.sessionID(t, `,"resources":[{"type":"file","file_id":"file_1"}]`)
	other := f.srv.CreateWorkspace("other")
	must(t, f.srv.GrantAPIAccess(f.seed.UserID, other))
	in := withWorkspace(other)
	notFound := "Session `" + id + "` not found."
	for _, r := range []response{
		f.ma(t, "GET", sessionsPath+"/"+id, "", in),
		f.ma(t, "POST", sessionsPath+"/"+id, `{}`, in),
		f.ma(t, "POST", sessionsPath+"/"+id+"/archive", ``, in),
		f.ma(t, "DELETE", sessionsPath+"/"+id, ``, in),
		f.ma(t, "GET", sessionsPath+"/"+id+"/resources", ``, in),
	} {
		wantError(t, r, http.StatusNotFound, "not_found_error", notFound)
	}
	if data := wantOK(t, f.ma(t, "GET", sessionsPath+"?include_archived=true", "", in))["data"].([]any); len(data) != 0 {
		t.Fatalf("other workspace lists %v", data)
	}
	// Another workspace's agent and environment are unknown there too.
	wantError(t, f.ma(t, "POST", sessionsPath, f.sessionBody(""), in), http.StatusNotFound, "not_found_error", "Agent `"+f.agent+"` not found.")
	wantInvalid(t, f.do(t, "GET", sessionsPath, ""), "vendor-beta: this endpoint requires the beta value `managed-agents-2026-04-01`")
}

// requireKeys fails unless m's keys are exactly keys: every key is sent,
// null or not.
func requireKeys(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	if len(m) != len(keys) {
		t.Fatalf("keys %v, want %v", mapKeys(m), keys)
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Fatalf("key %q missing from %v", k, mapKeys(m))
		}
	}
}

func mapKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
