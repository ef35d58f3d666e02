package refserver

// White-box tests for paths no endpoint can reach on purpose: a handler
// that panics, one that is still running, one that fails with a 5xx.

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

func testServer(t *testing.T, routes ...kit.Route) (*Server, *httptest.Server) {
	t.Helper()
	s := New(WithIDs(SequentialIDs()))
	for _, rt := range routes {
		s.handle(rt)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

func send(t *testing.T, s *Server, ts *httptest.Server, method, path, idempotencyKey string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.Seed().APIKey)
	req.Header.Set("vendor-workspace-id", s.Seed().DefaultWorkspaceID)
	if idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", idempotencyKey)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}

func TestHandlerPanicIsJSON500(t *testing.T) {
	s, ts := testServer(t, kit.Route{Method: "GET", Path: "/v1/test/panic", Handle: func(c *kit.Call) error {
		c.W.Header().Set("Content-Type", "text/plain")
		_, _ = c.W.Write([]byte("half a response"))
		panic("boom")
	}})
	res, body := send(t, s, ts, "GET", "/v1/test/panic", "")
	var e kit.ErrorBody
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	if res.StatusCode != 500 || e.Error.Type != "api_error" || res.Header.Get("Content-Type") != "application/json" ||
		e.RequestID == "" || e.RequestID != res.Header.Get("request-id") {
		t.Fatalf("status %d, body %s, headers %v", res.StatusCode, body, res.Header)
	}
	// The server keeps serving.
	if res, _ := send(t, s, ts, "GET", "/v1/models", ""); res.StatusCode != 200 {
		t.Fatalf("after a panic: %d", res.StatusCode)
	}
}

func TestIdempotencyKeyInFlight(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	s, ts := testServer(t, kit.Route{Method: "POST", Path: "/v1/test/slow", Handle: func(c *kit.Call) error {
		close(entered)
		<-release
		return c.OK(map[string]string{"done": "yes"})
	}})
	// A failed check must not leave the first request, and so the test
	// server's Close, waiting forever.
	releaseOnce := sync.OnceFunc(func() { close(release) })
	t.Cleanup(releaseOnce)
	first := make(chan int)
	go func() {
		// Not send: t.Fatal must not be called from this goroutine.
		req, _ := http.NewRequest("POST", ts.URL+"/v1/test/slow", strings.NewReader(`{}`))
		req.Header.Set("Authorization", "Bearer "+s.Seed().APIKey)
		req.Header.Set("vendor-workspace-id", s.Seed().DefaultWorkspaceID)
		req.Header.Set("Idempotency-Key", "key-1")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			first <- 0
			return
		}
		res.Body.Close()
		first <- res.StatusCode
	}()
	<-entered
	res, body := send(t, s, ts, "POST", "/v1/test/slow", "key-1")
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, `"type":"conflict_error"`) ||
		!strings.Contains(body, "Idempotency-Key: a request with this key is still in progress") {
		t.Fatalf("in flight: %d %s", res.StatusCode, body)
	}
	if got := res.Header.Get("x-should-retry"); got != "true" {
		t.Fatalf("in flight: x-should-retry %q, want true: a retry gets the first request's answer", got)
	}
	releaseOnce()
	if status := <-first; status != 200 {
		t.Fatalf("first request: %d", status)
	}
	res, body = send(t, s, ts, "POST", "/v1/test/slow", "key-1")
	if res.StatusCode != 200 || res.Header.Get("idempotent-replayed") != "true" || body != `{"done":"yes"}` {
		t.Fatalf("replay: %d %v %s", res.StatusCode, res.Header, body)
	}
}

func TestIdempotencyForgetsServerErrors(t *testing.T) {
	var calls atomic.Int32
	s, ts := testServer(t,
		kit.Route{Method: "POST", Path: "/v1/test/flaky", Handle: func(c *kit.Call) error {
			if calls.Add(1) == 1 {
				return kit.NewAPIError(http.StatusServiceUnavailable, kit.ErrAPI, "try again")
			}
			return c.OK(map[string]int32{"call": calls.Load()})
		}},
		kit.Route{Method: "POST", Path: "/v1/test/panics", Handle: func(c *kit.Call) error {
			if calls.Add(1) == 3 {
				panic(errors.New("first time only"))
			}
			return c.OK(map[string]int32{"call": calls.Load()})
		}},
	)
	steps := []struct {
		path     string
		status   int
		replayed bool
		calls    int32
	}{
		{"/v1/test/flaky", 503, false, 1},
		{"/v1/test/flaky", 200, false, 2}, // the 5xx was not remembered
		{"/v1/test/flaky", 200, true, 2},
		{"/v1/test/panics", 500, false, 3},
		{"/v1/test/panics", 200, false, 4}, // nor the panic
	}
	for i, st := range steps {
		res, body := send(t, s, ts, "POST", st.path, "key"+st.path)
		if res.StatusCode != st.status || (res.Header.Get("idempotent-replayed") == "true") != st.replayed || calls.Load() != st.calls {
			t.Fatalf("step %d: %d replayed=%q calls=%d body %s", i, res.StatusCode, res.Header.Get("idempotent-replayed"), calls.Load(), body)
		}
	}
}
