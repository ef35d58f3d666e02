package refserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// testStart is the frozen time most tests run at.
var testStart = time.Date(2026, time.November, 25, 21, 56, 21, 123456000, time.UTC)

// env is a reference server behind a real HTTP listener.
type env struct {
	srv   *refserver.Server
	url   string
	seed  refserver.Seed
	clock *refserver.ManualClock
}

// newEnv starts a server with a manual clock and sequential ids; opts are
// applied after those, so they can override them.
func newEnv(t *testing.T, opts ...refserver.Option) *env {
	t.Helper()
	clock := refserver.NewManualClock(testStart)
	all := append([]refserver.Option{refserver.WithClock(clock), refserver.WithIDs(refserver.SequentialIDs())}, opts...)
	srv := refserver.New(all...)
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})
	return &env{srv: srv, url: ts.URL, seed: srv.Seed(), clock: clock}
}

// mod changes a request's headers before it is sent. By default a request
// carries the seed key as a Bearer token and the default workspace header.
type mod func(http.Header)

func withKey(secret string) mod {
	return func(h http.Header) { h.Set("Authorization", "Bearer "+secret) }
}

func withAPIKeyHeader(secret string) mod {
	return func(h http.Header) { h.Del("Authorization"); h.Set("x-api-key", secret) }
}

func noAuth(h http.Header) { h.Del("Authorization") }

func withWorkspace(id string) mod {
	return func(h http.Header) { h.Set("vendor-workspace-id", id) }
}

func noWorkspace(h http.Header) { h.Del("vendor-workspace-id") }

func withHeader(name string, values ...string) mod {
	return func(h http.Header) {
		h.Del(name)
		for _, v := range values {
			h.Add(name, v)
		}
	}
}

func tunnelsBeta(h http.Header) { h.Set("vendor-beta", "mcp-tunnels-2026-06-22") }

type response struct {
	status int
	header http.Header
	body   []byte
}

func (e *env) do(t *testing.T, method, path, body string, mods ...mod) response {
	t.Helper()
	return doWith(t, http.DefaultClient, e, method, path, body, mods...)
}

func doWith(t *testing.T, client *http.Client, e *env, method, path, body string, mods ...mod) response {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
	req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, m := range mods {
		m(req.Header)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// decode unmarshals the body into v, failing the test on invalid JSON.
func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("body is not the expected JSON: %v\n%s", err, r.body)
	}
}

// object decodes a JSON object body.
func (r response) object(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	r.decode(t, &m)
	return m
}

var requestIDPattern = regexp.MustCompile(`^req_[0-9A-Za-z]{24}$`)

// wantOK checks a 200 JSON response and returns its object.
func wantOK(t *testing.T, r response) map[string]any {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200; body %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
	return r.object(t)
}

type errorBody struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

// wantError checks an error response (the body of docs/api-choices.md
// "Errors"). An empty message skips the
// message comparison.
func wantError(t *testing.T, r response, status int, typ, message string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, want application/json", ct)
	}
	var e errorBody
	r.decode(t, &e)
	if e.Type != "error" || e.Error.Type != typ {
		t.Fatalf("error %q/%q, want error/%q; body %s", e.Type, e.Error.Type, typ, r.body)
	}
	if message != "" && e.Error.Message != message {
		t.Fatalf("message %q, want %q", e.Error.Message, message)
	}
	if rid := r.header.Get("request-id"); e.RequestID != rid || !requestIDPattern.MatchString(rid) {
		t.Fatalf("request_id %q, header %q: want equal req_<24 alnum>", e.RequestID, rid)
	}
}

// wantInvalid checks a 400 invalid_request_error with the exact message.
func wantInvalid(t *testing.T, r response, message string) {
	t.Helper()
	wantError(t, r, http.StatusBadRequest, "invalid_request_error", message)
}

// errorMessage returns error.message of an error body.
func errorMessage(t *testing.T, r response) string {
	t.Helper()
	var e errorBody
	r.decode(t, &e)
	return e.Error.Message
}

// createWorkspace creates a workspace over HTTP and returns its id.
func (e *env) createWorkspace(t *testing.T, name string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"name": name})
	return wantOK(t, e.do(t, "POST", "/v1/organizations/workspaces", string(body)))["id"].(string)
}

// createTunnel creates a tunnel in the default workspace and returns its id.
func (e *env) createTunnel(t *testing.T, mods ...mod) string {
	t.Helper()
	return wantOK(t, e.do(t, "POST", "/v1/tunnels", "", append([]mod{tunnelsBeta}, mods...)...))["id"].(string)
}

// mustKey creates an API key or fails the test.
func (e *env) mustKey(t *testing.T, spec refserver.KeySpec) refserver.APIKey {
	t.Helper()
	k, err := e.srv.CreateAPIKey(spec)
	if err != nil {
		t.Fatalf("CreateAPIKey(%+v): %v", spec, err)
	}
	return k
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
