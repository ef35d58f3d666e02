package refserver_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func refserverFault503(path string) refserver.Fault {
	return refserver.Fault{Path: path, Status: 503}
}

func TestFaultStatusAndHeaders(t *testing.T) {
	e := newEnv(t)
	e.srv.InjectFault(refserver.Fault{
		Method: "GET",
		Path:   "/v1/models",
		Status: 429,
		Header: http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"1500"}, "X-Should-Retry": {"true"}},
	})
	r := e.do(t, "GET", "/v1/models", "")
	wantError(t, r, 429, "rate_limit_error", "Too Many Requests (injected fault)")
	for name, want := range map[string]string{"retry-after": "2", "retry-after-ms": "1500", "x-should-retry": "true"} {
		if got := r.header.Get(name); got != want {
			t.Fatalf("%s: %q, want %q", name, got, want)
		}
	}
	wantOK(t, e.do(t, "GET", "/v1/models", "")) // used up
}

func TestFaultDefaultErrorTypes(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		status int
		typ    string
	}{
		{400, "invalid_request_error"},
		{401, "authentication_error"},
		{403, "permission_error"},
		{404, "not_found_error"},
		{408, "invalid_request_error"},
		{409, "invalid_request_error"},
		{413, "request_too_large"},
		{429, "rate_limit_error"},
		{500, "api_error"},
		{502, "api_error"},
		{503, "api_error"},
		{529, "overloaded_error"},
	}
	for _, tc := range cases {
		e.srv.InjectFault(refserver.Fault{Status: tc.status})
		wantError(t, e.do(t, "GET", "/v1/models", ""), tc.status, tc.typ, "")
	}
	e.srv.InjectFault(refserver.Fault{Status: 500, ErrorType: "overloaded_error", Message: "busy"})
	wantError(t, e.do(t, "GET", "/v1/models", ""), 500, "overloaded_error", "busy")
}

func TestFaultVerbatimBody(t *testing.T) {
	e := newEnv(t)
	const page = "<html><body><h1>502 Bad Gateway</h1></body></html>"
	e.srv.InjectFault(refserver.Fault{Status: 502, Body: page})
	e.srv.InjectFault(refserver.Fault{Status: 503, Body: "busy", Header: http.Header{"Content-Type": {"text/plain"}}})
	r := e.do(t, "GET", "/v1/models", "")
	if r.status != 502 || string(r.body) != page || r.header.Get("Content-Type") != "text/html; charset=utf-8" ||
		!requestIDPattern.MatchString(r.header.Get("request-id")) {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
	r = e.do(t, "GET", "/v1/models", "")
	if r.status != 503 || string(r.body) != "busy" || r.header.Get("Content-Type") != "text/plain" {
		t.Fatalf("%d %v %s", r.status, r.header, r.body)
	}
}

func TestFaultMatchingOrderAndTimes(t *testing.T) {
	e := newEnv(t)
	e.srv.InjectFault(refserver.Fault{Method: "POST", Status: 500})
	e.srv.InjectFault(refserver.Fault{Path: "/v1/models", Status: 529, Times: 2})
	e.srv.InjectFault(refserver.Fault{Path: "/v1/models", Status: 503})
	e.srv.InjectFault(refserver.Fault{Path: "/v1/tunnels", Status: 502})
	wantError(t, e.do(t, "GET", "/v1/models", ""), 529, "overloaded_error", "")
	wantError(t, e.do(t, "GET", "/v1/models", ""), 529, "overloaded_error", "")
	wantError(t, e.do(t, "GET", "/v1/models", ""), 503, "api_error", "")
	wantOK(t, e.do(t, "GET", "/v1/models", ""))
	wantError(t, e.do(t, "POST", "/v1/tunnels", "", tunnelsBeta), 500, "api_error", "")
	e.srv.ClearFaults()
	wantOK(t, e.do(t, "GET", "/v1/tunnels", "", tunnelsBeta))
	// Faults apply before authentication and routing.
	e.srv.InjectFault(refserver.Fault{Path: "/v1/nowhere", Status: 503})
	wantError(t, e.do(t, "GET", "/v1/nowhere", "", noAuth), 503, "api_error", "")
}

func TestFaultDelay(t *testing.T) {
	e := newEnv(t)
	e.srv.InjectFault(refserver.Fault{Path: "/v1/models", Delay: 150 * time.Millisecond})
	e.srv.InjectFault(refserver.Fault{Path: "/v1/models", Delay: 150 * time.Millisecond, Status: 503})
	start := time.Now()
	wantOK(t, e.do(t, "GET", "/v1/models", ""))
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Fatalf("answered after %v, want at least 150ms", d)
	}
	start = time.Now()
	wantError(t, e.do(t, "GET", "/v1/models", ""), 503, "api_error", "")
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Fatalf("answered after %v, want at least 150ms", d)
	}
}

// TestFaultDelayEndsWhenTheClientLeaves: a long delay does not hold the
// handler once its client is gone, so a graceful stop is quick.
func TestFaultDelayEndsWhenTheClientLeaves(t *testing.T) {
	srv := refserver.New()
	base, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.InjectFault(refserver.Fault{Delay: time.Minute})
	client := &http.Client{Timeout: 100 * time.Millisecond, Transport: &http.Transport{}}
	if _, err := client.Get(base + "/v1/models"); err == nil {
		t.Fatal("request did not time out")
	}
	start := time.Now()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("stop took %v: the delayed handler kept running", d)
	}
}

// freshClient opens a new connection per request, so that net/http does not
// transparently retry a request whose reused connection was dropped.
func freshClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
}

func wantDropped(t *testing.T, e *env, method, path, body string, mods ...mod) {
	t.Helper()
	req, err := http.NewRequest(method, e.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
	req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
	for _, m := range mods {
		m(req.Header)
	}
	res, err := freshClient().Do(req)
	if err == nil {
		res.Body.Close()
		t.Fatalf("got a response (%d), want a dropped connection", res.StatusCode)
	}
	if !errors.Is(err, io.EOF) && !strings.Contains(err.Error(), "EOF") && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("unexpected error %v", err)
	}
}

func TestFaultDrop(t *testing.T) {
	e := newEnv(t)
	e.srv.InjectFault(refserver.Fault{Path: "/v1/tunnels", Method: "POST", Drop: true})
	wantDropped(t, e, "POST", "/v1/tunnels", "", tunnelsBeta)
	if n := len(listTunnelIDs(t, e, "")); n != 0 {
		t.Fatalf("a dropped request created %d tunnels", n)
	}
	// The request log still saw it, so tests can count attempts.
	if reqs := e.srv.Requests(); len(reqs) == 0 || reqs[0].Method != "POST" || reqs[0].Path != "/v1/tunnels" {
		t.Fatalf("request log %+v", reqs)
	}
}

func TestFaultDropAfterHandling(t *testing.T) {
	e := newEnv(t)
	e.srv.InjectFault(refserver.Fault{Path: "/v1/tunnels", Method: "POST", DropAfterHandling: true})
	wantDropped(t, e, "POST", "/v1/tunnels", `{"display_name":"once"}`, tunnelsBeta, idempotencyKey("retry-me"))
	ids := listTunnelIDs(t, e, "")
	if len(ids) != 1 {
		t.Fatalf("%d tunnels after the handled request, want 1", len(ids))
	}
	// The retry of the same call is answered from the idempotency record.
	r := e.do(t, "POST", "/v1/tunnels", `{"display_name":"once"}`, tunnelsBeta, idempotencyKey("retry-me"))
	got := wantOK(t, r)
	if r.header.Get("idempotent-replayed") != "true" || got["id"] != ids[0] {
		t.Fatalf("retry: %v %v", r.header, got)
	}
	if n := len(listTunnelIDs(t, e, "")); n != 1 {
		t.Fatalf("%d tunnels after the retry, want 1", n)
	}
}
