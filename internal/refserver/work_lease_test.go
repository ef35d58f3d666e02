package refserver_test

import (
	"net/http"
	"runtime"
	"testing"
	"time"
)

// Leases, reclaim and the long poll (docs/environment-work-wire.md
// "Leases"): the server's clock decides leases and reclaim, the long poll
// waits in real time.

func TestWorkLeaseExpiry(t *testing.T) {
	f := newWorkFixture(t)
	f.newSession(t)
	id, token := f.claim(t)
	wantOK(t, f.beat(t, id, token, "&desired_ttl_seconds=10"))
	f.clock.Advance(9 * time.Second)
	if it := f.item(t, id); it["state"] != "active" {
		t.Fatalf("before the lease ends: %v", it)
	}
	f.clock.Advance(time.Second) // the tick sweeps
	it := f.item(t, id)
	if it["state"] != "queued" || it["latest_heartbeat_at"] != nil || it["acknowledged_at"] == nil || it["started_at"] == nil {
		t.Fatalf("after the lease ends: %v", it)
	}
	if st := f.stats(t); st["depth"] != 1.0 {
		t.Fatalf("stats %v", st)
	}
	// The old holder has lost it.
	r := f.beat(t, id, token, "")
	wantError(t, r, http.StatusPreconditionFailed, "invalid_request_error", "")
	// Another worker gets it.
	again := f.pollNow(t, "")
	if again == nil || again["id"] != id {
		t.Fatalf("poll after expiry %v", again)
	}
	f.ack(t, id)
	wantOK(t, f.beat(t, id, "NO_HEARTBEAT", ""))

	// A stopping item whose lease ends is stopped.
	wantOK(t, f.asWorker(t, "POST", f.workPath("/"+id+"/stop"), ""))
	f.clock.Advance(30 * time.Second)
	if it := f.item(t, id); it["state"] != "stopped" || it["stopped_at"] == nil {
		t.Fatalf("stopping after its lease %v", it)
	}
}

func TestWorkAckStartsLease(t *testing.T) {
	f := newWorkFixture(t)
	f.newSession(t)
	id := f.pollNow(t, "")["id"].(string)
	f.ack(t, id)
	f.clock.Advance(30 * time.Second) // acked, never beat: the default 30 s lease
	if it := f.item(t, id); it["state"] != "queued" {
		t.Fatalf("acked item after 30 s %v", it)
	}
}

func TestWorkReclaim(t *testing.T) {
	f := newWorkFixture(t)
	f.newSession(t)
	id := f.pollNow(t, "")["id"].(string)
	f.clock.Advance(4999 * time.Millisecond)
	if it := f.pollNow(t, ""); it != nil {
		t.Fatalf("reclaimed before 5 s: %v", it)
	}
	if it := f.pollNow(t, "?reclaim_older_than_ms=4999"); it == nil || it["id"] != id {
		t.Fatalf("reclaim_older_than_ms=4999: %v", it)
	}
	f.clock.Advance(5 * time.Second)
	if it := f.pollNow(t, ""); it == nil || it["id"] != id {
		t.Fatalf("default reclaim after 5 s: %v", it)
	}
	f.ack(t, id)
}

// waitForPolls yields until n long polls wait (no sleep: the count changes
// when the poll's goroutine runs).
func waitForPolls(t *testing.T, f workFixture, n int) {
	t.Helper()
	for f.srv.WorkPollsWaitingForTest() != n {
		runtime.Gosched()
	}
}

func TestWorkLongPollWakes(t *testing.T) {
	f := newWorkFixture(t)
	got := make(chan response, 1)
	go func() {
		got <- f.asWorker(t, "GET", f.workPath("/poll?block_ms=999"), "")
	}()
	waitForPolls(t, f, 1)
	sid := f.newSession(t)
	r := <-got
	it := wantOK(t, r)
	if it["data"].(map[string]any)["id"] != sid || it["state"] != "queued" {
		t.Fatalf("long poll returned %v", it)
	}
	if st := f.stats(t); st["pending"] != 1.0 {
		t.Fatalf("stats %v", st)
	}
}

func TestWorkLongPollWakesOnLeaseExpiry(t *testing.T) {
	f := newWorkFixture(t)
	f.newSession(t)
	id, _ := f.claim(t)
	got := make(chan response, 1)
	go func() {
		got <- f.asWorker(t, "GET", f.workPath("/poll?block_ms=999"), "")
	}()
	waitForPolls(t, f, 1)
	f.clock.Advance(30 * time.Second)
	if it := wantOK(t, <-got); it["id"] != id {
		t.Fatalf("long poll returned %v", it)
	}
}

func TestWorkLongPollEmpty(t *testing.T) {
	f := newWorkFixture(t)
	r := f.asWorker(t, "GET", f.workPath("/poll?block_ms=1"), "")
	if r.status != 200 || string(r.body) != "null" {
		t.Fatalf("empty long poll: %d %s", r.status, r.body)
	}
	if n := f.srv.WorkPollsWaitingForTest(); n != 0 {
		t.Fatalf("%d polls still waiting", n)
	}
}
