package refserver_test

import (
	"testing"
)

// Helpers of the work queue tests (docs/environment-work-wire.md): a
// self-hosted environment with its environment key, sessions in it, and
// the work routes called with either credential.

type workFixture struct {
	sessionFixture
	shID string // the self-hosted environment
	key  string // its environment key
}

func newWorkFixture(t *testing.T) workFixture {
	t.Helper()
	f := newSessionFixture(t)
	sh := f.createEnvironment(t, `{"name":"sh","config":{"type":"self_hosted"}}`)["id"].(string)
	key, err := f.srv.EnvironmentKey(sh)
	must(t, err)
	return workFixture{sessionFixture: f, shID: sh, key: key}
}

func (f workFixture) workPath(rest string) string {
	return "/v1/environments/" + f.shID + "/work" + rest
}

// asWorker sends a managed-agents request with the environment key.
func (f workFixture) asWorker(t *testing.T, method, path, body string, mods ...mod) response {
	t.Helper()
	return f.ma(t, method, path, body, append([]mod{withKey(f.key)}, mods...)...)
}

// newSession creates a session in the self-hosted environment.
func (f workFixture) newSession(t *testing.T) string {
	t.Helper()
	return wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`","environment_id":"`+f.shID+`"}`))["id"].(string)
}

// pollNow polls without waiting and returns the item, or nil for null.
func (f workFixture) pollNow(t *testing.T, query string, mods ...mod) map[string]any {
	t.Helper()
	r := f.asWorker(t, "GET", f.workPath("/poll"+query), "", mods...)
	if r.status != 200 {
		t.Fatalf("poll: status %d; body %s", r.status, r.body)
	}
	if string(r.body) == "null" {
		return nil
	}
	return r.object(t)
}

func (f workFixture) ack(t *testing.T, id string) map[string]any {
	t.Helper()
	return wantOK(t, f.asWorker(t, "POST", f.workPath("/"+id+"/ack"), ""))
}

func (f workFixture) beat(t *testing.T, id, expected, query string) response {
	t.Helper()
	return f.asWorker(t, "POST", f.workPath("/"+id+"/heartbeat?expected_last_heartbeat="+expected+query), "")
}

// item reads a work item with the API key.
func (f workFixture) item(t *testing.T, id string) map[string]any {
	t.Helper()
	return wantOK(t, f.ma(t, "GET", f.workPath("/"+id), ""))
}

// items lists the environment's work, newest first (one page of 100).
func (f workFixture) items(t *testing.T) []map[string]any {
	t.Helper()
	var page struct {
		Data []map[string]any `json:"data"`
	}
	r := f.asWorker(t, "GET", f.workPath("?limit=100"), "")
	wantOK(t, r)
	r.decode(t, &page)
	return page.Data
}

func (f workFixture) stats(t *testing.T) map[string]any {
	t.Helper()
	return wantOK(t, f.asWorker(t, "GET", f.workPath("/stats"), ""))
}

// claim polls, acks and sends the first heartbeat of the next item; it
// returns the item's id and the heartbeat token.
func (f workFixture) claim(t *testing.T) (string, string) {
	t.Helper()
	it := f.pollNow(t, "")
	if it == nil {
		t.Fatal("poll: no item")
	}
	id := it["id"].(string)
	f.ack(t, id)
	hb := wantOK(t, f.beat(t, id, "NO_HEARTBEAT", ""))
	return id, hb["last_heartbeat"].(string)
}
