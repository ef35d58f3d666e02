package refserver_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestEveryConflictIsConflictError: the 409s of unrelated families (a state
// rule of a session, of a deployment and of a memory store, and an
// Idempotency-Key still in flight) all carry the one error type of a
// conflict, so that a client can tell them from a request that was wrong
// in itself. Only a key in flight is worth retrying.
func TestEveryConflictIsConflictError(t *testing.T) {
	f := newSessionFixture(t)

	sid := f.sessionID(t, "")
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/archive", ""))
	wantConflict(t, f.ma(t, "POST", sessionsPath+"/"+sid, `{"title":"x"}`),
		"conflict_error", "session_id: session `"+sid+"` is archived")

	did := f.deploymentID(t)
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+did+"/archive", ""))
	wantConflict(t, f.ma(t, "POST", deploymentsPath+"/"+did+"/pause", ""),
		"conflict_error", "deployment_id: deployment `"+did+"` is archived")

	store := f.createMemoryStore(t, `{"name":"notes"}`)
	wantOK(t, f.do(t, "POST", memoryStoresPath+"/"+store+"/archive", "", memoryBeta))
	wantConflict(t, f.do(t, "POST", memoryStoresPath+"/"+store+"/memories", `{"path":"/a.md","content":"x"}`, memoryBeta),
		"conflict_error", "memory_store_id: memory store `"+store+"` is archived")

	const hold = "/v1/test/hold"
	entered, release := f.srv.HoldRouteForTest(hold)
	t.Cleanup(release)
	first := make(chan int, 1)
	go func() {
		// Not f.do: t.Fatal must not be called from this goroutine.
		req, _ := http.NewRequest("POST", f.url+hold, strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer "+f.seed.APIKey)
		req.Header.Set("vendor-workspace-id", f.seed.DefaultWorkspaceID)
		req.Header.Set("Idempotency-Key", "k-conflict")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- 0
			return
		}
		res.Body.Close()
		first <- res.StatusCode
	}()
	<-entered
	r := f.do(t, "POST", hold, `{}`, idempotencyKey("k-conflict"))
	wantError(t, r, http.StatusConflict, "conflict_error", "Idempotency-Key: a request with this key is still in progress")
	if got := r.header.Get("x-should-retry"); got != "true" {
		t.Fatalf("x-should-retry %q, want true: a retry gets the first request's answer", got)
	}
	release()
	if status := <-first; status != http.StatusOK {
		t.Fatalf("first request: %d", status)
	}
}
