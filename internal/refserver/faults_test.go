package refserver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
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
		{409, "conflict_error"},
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
	if got := e.srv.PendingFaults(); len(got) != 2 || got[0].Method != "POST" || got[0].Times != 1 || got[1].Path != "/v1/tunnels" {
		t.Fatalf("pending %+v", got)
	}
	wantError(t, e.do(t, "POST", "/v1/tunnels", "", tunnelsBeta), 500, "api_error", "")
	if got := e.srv.PendingFaults(); len(got) != 1 || got[0].Path != "/v1/tunnels" || got[0].Times != 1 {
		t.Fatalf("pending %+v", got)
	}
	e.srv.InjectFault(refserver.Fault{Path: "/v1/models", Status: 503, Times: 3})
	wantError(t, e.do(t, "GET", "/v1/models", ""), 503, "api_error", "")
	if got := e.srv.PendingFaults(); len(got) != 2 || got[1].Times != 2 {
		t.Fatalf("pending %+v", got)
	}
	e.srv.ClearFaults()
	if got := e.srv.PendingFaults(); len(got) != 0 {
		t.Fatalf("pending after ClearFaults %+v", got)
	}
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
// handler once its client is gone, so a graceful stop need not wait for it.
// The delay is an hour and nothing here has a deadline: were the handler
// held, the test would hang until go test's -timeout, whatever the
// machine's speed.
func TestFaultDelayEndsWhenTheClientLeaves(t *testing.T) {
	srv := refserver.New()
	entered, left := make(chan struct{}), make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		defer close(left)
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	srv.InjectFault(refserver.Fault{Delay: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", ts.URL+"/v1/models", nil)
	if err != nil {
		t.Fatal(err)
	}
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	failed := make(chan error, 1)
	go func() {
		res, err := (&http.Client{Transport: transport}).Do(req)
		if err == nil {
			res.Body.Close()
		}
		failed <- err
	}()
	<-entered // the server has the request: the client leaves now
	cancel()
	if err := <-failed; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client got %v, want its cancellation", err)
	}
	<-left // the handler returned without waiting out its delay
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests logged, want the one delayed", n)
	}
}

// A StreamOnly fault is passed by, not used up, by requests that do not
// ask for a stream; the next stream meets it.
func TestFaultStreamOnly(t *testing.T) {
	e := newEnv(t)
	e.srv.InjectFault(refserver.Fault{Method: "POST", Path: "/v1/messages", Status: 529, StreamCutAfter: 2, StreamOnly: true})
	for range 3 {
		wantOK(t, e.do(t, "POST", "/v1/messages", base(""))) // not streamed
	}
	// Count Tokens never streams: its handler, not the fault, answers.
	wantInvalid(t, e.do(t, "POST", "/v1/messages/count_tokens", `{"model":"vendor-sonnet-5-5",`+hiMsg+`,"stream":true}`),
		"stream: Extra inputs are not permitted")
	frames, _ := e.stream(t, streamOf(base("")))
	if got := frameTypes(frames); !slices.Equal(got, []string{"message_start", "content_block_start", "error"}) {
		t.Fatalf("the stream was not cut: %q", got)
	}
	frames, _ = e.stream(t, streamOf(base("")))
	if got := frameTypesNoPing(frames); got[len(got)-1] != "message_stop" {
		t.Fatalf("the fault was not used up: %q", got)
	}

	// Any kind of fault can be StreamOnly, and "stream": false is no
	// stream. A fault behind a StreamOnly one still meets the requests it
	// passes by.
	e.srv.InjectFault(refserver.Fault{Status: 503, StreamOnly: true})
	e.srv.InjectFault(refserver.Fault{Path: "/v1/messages", Status: 500})
	wantError(t, e.do(t, "POST", "/v1/messages", base(`"stream":false`)), 500, "api_error", "")
	wantOK(t, e.do(t, "GET", "/v1/models", ""))
	wantOpenAIError(t, e.do(t, "POST", chatPath, strings.TrimSuffix(chatHello, "}")+`,"stream":true}`), 503, "api_error", "Service Unavailable (injected fault)")

	// Stream Events is a stream by its route; listing the same session's
	// events is not.
	f := newEvFixture(t)
	sid := f.sessionID(t, "")
	f.srv.InjectFault(refserver.Fault{StreamCutAfter: 1, StreamOnly: true})
	wantOK(t, f.ma(t, "GET", eventsPath(sid), ""))
	wantOK(t, f.do(t, "GET", "/v1/models", ""))
	cut, whole := f.stream(t, sid, ""), f.stream(t, sid, "")
	f.post(t, sid, msgEvent("hi"))
	cut.next(t)
	if err := cut.wantEnd(t); err == nil {
		t.Fatal("the first stream was not cut")
	}
	whole.until(t, "session.status_idle")
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
