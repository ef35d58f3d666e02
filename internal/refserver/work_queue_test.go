package refserver_test

import (
	"net/http"
	"strings"
	"testing"
)

// The work queue routes (docs/environment-work-wire.md): one item's life
// from queued to stopped, the heartbeat protocol, stop rules, stats, list
// and the validation of every parameter.

func TestWorkItemLifecycle(t *testing.T) {
	f := newWorkFixture(t)
	sid := f.newSession(t)

	// Creating the session queued one item.
	it := f.pollNow(t, "")
	if it == nil {
		t.Fatal("no item queued for a new session")
	}
	requireKeys(t, it, "type", "id", "environment_id", "state", "data", "metadata", "secret", "created_at",
		"acknowledged_at", "started_at", "latest_heartbeat_at", "stop_requested_at", "stopped_at")
	id := it["id"].(string)
	if it["type"] != "work" || !strings.HasPrefix(id, "work_") || it["state"] != "queued" || it["environment_id"] != f.shID ||
		mustMarshal(it["data"]) != `{"id":"`+sid+`","type":"session"}` || it["secret"] != nil || it["acknowledged_at"] != nil {
		t.Fatalf("polled item %v", it)
	}
	if st := f.stats(t); st["depth"] != 0.0 || st["pending"] != 1.0 || st["oldest_queued_at"] != it["created_at"] || st["type"] != "work_queue_stats" {
		t.Fatalf("stats after poll %v", st)
	}
	// Polled, not reclaimable yet: nothing else to hand out.
	if again := f.pollNow(t, ""); again != nil {
		t.Fatalf("second poll %v", again)
	}

	acked := f.ack(t, id)
	if acked["state"] != "starting" || acked["acknowledged_at"] == nil || acked["started_at"] != nil {
		t.Fatalf("ack %v", acked)
	}
	wantConflict(t, f.asWorker(t, "POST", f.workPath("/"+id+"/ack"), ""), "conflict_error",
		"work item `"+id+"` is not awaiting acknowledgement")
	if st := f.stats(t); st["depth"] != 0.0 || st["pending"] != 0.0 || st["oldest_queued_at"] != nil {
		t.Fatalf("stats after ack %v", st)
	}

	// The first heartbeat: NO_HEARTBEAT, then each response's token.
	hb := wantOK(t, f.beat(t, id, "NO_HEARTBEAT", "&desired_ttl_seconds=60"))
	token := hb["last_heartbeat"].(string)
	if hb["type"] != "work_heartbeat" || hb["lease_extended"] != true || hb["state"] != "active" || hb["ttl_seconds"] != 60.0 || token == "" {
		t.Fatalf("heartbeat %v", hb)
	}
	active := f.item(t, id)
	if active["state"] != "active" || active["started_at"] == nil || active["latest_heartbeat_at"] == nil {
		t.Fatalf("item %v", active)
	}
	// A stale token is 412 with the lease as the server sees it.
	r := f.beat(t, id, "NO_HEARTBEAT", "")
	wantError(t, r, http.StatusPreconditionFailed, "invalid_request_error",
		"expected_last_heartbeat does not match the lease of work item `"+id+"`")
	var details struct {
		Error struct {
			Details struct {
				CurrentState map[string]any `json:"current_state"`
			} `json:"details"`
		} `json:"error"`
	}
	r.decode(t, &details)
	if cs := details.Error.Details.CurrentState; cs["state"] != "active" || cs["ttl_seconds"] != 60.0 || cs["last_heartbeat"] != token {
		t.Fatalf("details %s", r.body)
	}
	hb2 := wantOK(t, f.beat(t, id, token, ""))
	if hb2["last_heartbeat"] == token || hb2["ttl_seconds"] != 30.0 {
		t.Fatalf("second heartbeat %v", hb2)
	}

	// Metadata through the API key.
	upd := wantOK(t, f.ma(t, "POST", f.workPath("/"+id), `{"metadata":{"host":"a","x":"1"}}`))
	if mustMarshal(upd["metadata"]) != `{"host":"a","x":"1"}` {
		t.Fatalf("metadata %v", upd["metadata"])
	}
	upd = wantOK(t, f.ma(t, "POST", f.workPath("/"+id), `{"metadata":{"x":null}}`))
	if mustMarshal(upd["metadata"]) != `{"host":"a"}` {
		t.Fatalf("metadata %v", upd["metadata"])
	}
	wantInvalid(t, f.ma(t, "POST", f.workPath("/"+id), `{"state":"stopped"}`), "state: unknown field")

	// Graceful stop, then force.
	stopping := wantOK(t, f.asWorker(t, "POST", f.workPath("/"+id+"/stop"), `{}`))
	if stopping["state"] != "stopping" || stopping["stop_requested_at"] == nil || stopping["stopped_at"] != nil {
		t.Fatalf("stop %v", stopping)
	}
	hb3 := wantOK(t, f.beat(t, id, "whatever", ""))
	if hb3["lease_extended"] != false || hb3["state"] != "stopping" {
		t.Fatalf("heartbeat while stopping %v", hb3)
	}
	if again := wantOK(t, f.asWorker(t, "POST", f.workPath("/"+id+"/stop"), `{"force":false}`)); again["state"] != "stopping" {
		t.Fatalf("graceful stop of a stopping item %v", again)
	}
	stopped := wantOK(t, f.ma(t, "POST", f.workPath("/"+id+"/stop"), `{"force":true}`))
	if stopped["state"] != "stopped" || stopped["stopped_at"] == nil {
		t.Fatalf("force stop %v", stopped)
	}
	if hb4 := wantOK(t, f.beat(t, id, "x", "")); hb4["lease_extended"] != false || hb4["state"] != "stopped" {
		t.Fatalf("heartbeat when stopped %v", hb4)
	}
	wantConflict(t, f.asWorker(t, "POST", f.workPath("/"+id+"/stop"), ""), "conflict_error",
		"work item `"+id+"` is already stopped")
	wantInvalid(t, f.asWorker(t, "POST", f.workPath("/"+id+"/stop"), `{"force":"yes"}`), "force: must be a boolean")
}

func TestWorkStopRules(t *testing.T) {
	f := newWorkFixture(t)
	f.newSession(t)
	queued := f.items(t)[0]["id"].(string)
	if s := wantOK(t, f.asWorker(t, "POST", f.workPath("/"+queued+"/stop"), "")); s["state"] != "stopped" || s["stop_requested_at"] != nil {
		t.Fatalf("stop of a queued item %v", s)
	}
	f.newSession(t)
	id, _ := f.claim(t)
	if s := wantOK(t, f.asWorker(t, "POST", f.workPath("/"+id+"/stop"), `{"force":true}`)); s["state"] != "stopped" {
		t.Fatalf("force stop of an active item %v", s)
	}
	if st := f.stats(t); st["depth"] != 0.0 || st["pending"] != 0.0 {
		t.Fatalf("stats %v", st)
	}
}

func TestWorkValidation(t *testing.T) {
	f := newWorkFixture(t)
	f.newSession(t)
	for _, q := range []string{"?block_ms=0", "?block_ms=1000", "?block_ms=-1"} {
		wantInvalid(t, f.asWorker(t, "GET", f.workPath("/poll"+q), ""), "block_ms: must be between 1 and 999")
	}
	wantInvalid(t, f.asWorker(t, "GET", f.workPath("/poll?block_ms=soon"), ""), "block_ms: must be an integer")
	wantInvalid(t, f.asWorker(t, "GET", f.workPath("/poll?reclaim_older_than_ms=0"), ""),
		"reclaim_older_than_ms: must be between 1 and 2147483647")
	wantInvalid(t, f.asWorker(t, "GET", f.workPath("/poll"), "", withHeader("vendor-worker-id", strings.Repeat("w", 129))),
		"vendor-worker-id: must be at most 128 characters")
	id, token := f.claim(t)
	for _, q := range []string{"&desired_ttl_seconds=0", "&desired_ttl_seconds=601"} {
		wantInvalid(t, f.beat(t, id, token, q), "desired_ttl_seconds: must be between 1 and 600")
	}
	wantInvalid(t, f.asWorker(t, "POST", f.workPath("/"+id+"/heartbeat"), ""),
		"expected_last_heartbeat: is required (`NO_HEARTBEAT` before the first heartbeat)")
	wantInvalid(t, f.asWorker(t, "GET", f.workPath("?limit=101"), ""), "limit: must be between 1 and 100")

	for _, r := range []response{
		f.asWorker(t, "POST", f.workPath("/work_nope/ack"), ""),
		f.beat(t, "work_nope", "NO_HEARTBEAT", ""),
		f.asWorker(t, "POST", f.workPath("/work_nope/stop"), ""),
		f.ma(t, "GET", f.workPath("/work_nope"), ""),
		f.ma(t, "POST", f.workPath("/work_nope"), `{}`),
	} {
		wantError(t, r, http.StatusNotFound, "not_found_error", "Work item `work_nope` not found.")
	}
	wantError(t, f.ma(t, "GET", "/v1/environments/env_nope/work/stats", ""), http.StatusNotFound, "not_found_error",
		"Environment `env_nope` not found.")
	wantInvalid(t, f.ma(t, "GET", "/v1/environments/"+f.envID+"/work/stats", ""),
		"environment `"+f.envID+"` is not self_hosted; only self-hosted environments have a work queue")
	// The beta is required, like every environment route.
	wantError(t, f.do(t, "GET", f.workPath("/stats"), ""), http.StatusBadRequest, "invalid_request_error", "")
}

func TestWorkStatsAndList(t *testing.T) {
	f := newWorkFixture(t)
	var sessions []string
	for range 5 {
		sessions = append(sessions, f.newSession(t))
		f.clock.Advance(1e9)
	}
	first := f.pollNow(t, "", withHeader("vendor-worker-id", "w1"))
	if first["data"].(map[string]any)["id"] != sessions[0] {
		t.Fatalf("poll gave %v, want the oldest item", first)
	}
	f.pollNow(t, "", withHeader("vendor-worker-id", "w2"))
	f.pollNow(t, "", withHeader("vendor-worker-id", "w2"))
	st := f.stats(t)
	if st["depth"] != 2.0 || st["pending"] != 3.0 || st["oldest_queued_at"] != first["created_at"] || st["workers_polling"] != 2.0 {
		t.Fatalf("stats %v", st)
	}
	// Stats take the API key too; workers are forgotten after 30 s.
	f.clock.Advance(30e9)
	if st := wantOK(t, f.ma(t, "GET", f.workPath("/stats"), "")); st["workers_polling"] != 0.0 {
		t.Fatalf("stats after 30 s %v", st)
	}

	// List: newest first, pages of limit with next_page.
	var got []string
	page := ""
	for {
		r := f.asWorker(t, "GET", f.workPath("?limit=2"+page), "")
		var body struct {
			Data     []map[string]any `json:"data"`
			NextPage *string          `json:"next_page"`
		}
		wantOK(t, r)
		r.decode(t, &body)
		for _, it := range body.Data {
			got = append(got, it["data"].(map[string]any)["id"].(string))
		}
		if body.NextPage == nil {
			break
		}
		page = "&page=" + *body.NextPage
	}
	if len(got) != 5 || got[0] != sessions[4] || got[4] != sessions[0] {
		t.Fatalf("listed sessions %v, want %v reversed", got, sessions)
	}
}
