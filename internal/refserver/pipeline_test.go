package refserver_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRequestIDOnEveryResponse(t *testing.T) {
	e := newEnv(t)
	e.srv.InjectFault(refserverFault503("/v1/faulted"))
	cases := []struct {
		name   string
		method string
		path   string
		body   string
		mods   []mod
		status int
	}{
		{"success", "GET", "/v1/models", "", nil, 200},
		{"unauthenticated", "GET", "/v1/models", "", []mod{noAuth}, 401},
		{"workspace rule 4", "GET", "/v1/models", "", []mod{noWorkspace}, 400},
		{"unknown route", "GET", "/v1/nothing", "", nil, 404},
		{"wrong method", "DELETE", "/v1/models", "", nil, 404},
		{"injected fault", "GET", "/v1/faulted", "", nil, 503},
		{"too large", "POST", "/v1/tunnels", strings.Repeat(" ", 32<<20+1), []mod{tunnelsBeta}, 413},
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(t, tc.method, tc.path, tc.body, tc.mods...)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			id := r.header.Get("request-id")
			if !requestIDPattern.MatchString(id) {
				t.Fatalf("request-id %q", id)
			}
			if seen[id] {
				t.Fatalf("request-id %q repeated", id)
			}
			seen[id] = true
			if got := r.header.Get("vendor-organization-id"); got != e.seed.OrganizationID {
				t.Fatalf("vendor-organization-id %q, want %q", got, e.seed.OrganizationID)
			}
		})
	}
}

func TestUnknownRoutesAreJSON404(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct{ method, path string }{
		{"GET", "/"},
		{"GET", "/v1/unknown"},
		{"POST", "/v1/models"},
		{"PUT", "/v1/tunnels"},
		{"GET", "/v1//models"},
		{"GET", "/v1/models/"},
		{"GET", "/v1/models/../models"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := e.do(t, tc.method, tc.path, "")
			wantError(t, r, http.StatusNotFound, "not_found_error", "No route for "+tc.method+" "+tc.path+".")
		})
	}
}

func TestTooLargeBody(t *testing.T) {
	e := newEnv(t)
	// The limit applies once the request is authenticated and routed: a
	// body of blanks at the limit reads as {} and reaches the handler's own
	// rule, and one byte more does not.
	atLimit := strings.Repeat(" ", 32<<20)
	wantInvalid(t, e.do(t, "POST", workspacesPath, atLimit), "name: is required")
	wantError(t, e.do(t, "POST", workspacesPath, atLimit+" "), http.StatusRequestEntityTooLarge, "request_too_large",
		"request body: must be at most 33554432 bytes")
}

func TestVersionHeader(t *testing.T) {
	e := newEnv(t)
	wantOK(t, e.do(t, "GET", "/v1/models", ""))
	wantOK(t, e.do(t, "GET", "/v1/models", "", withHeader("vendor-version", "2023-06-01")))
	r := e.do(t, "GET", "/v1/models", "", withHeader("vendor-version", "2024-01-01"))
	wantInvalid(t, r, "vendor-version: unsupported version `2024-01-01`; the served versions are `2023-06-01` and `2026-10-21`")
}

func TestBetaHeader(t *testing.T) {
	e := newEnv(t)
	const tunnels = "mcp-tunnels-2026-06-22"
	cases := []struct {
		name    string
		path    string
		values  []string
		message string // "" = accepted
	}{
		{"required and sent", "/v1/tunnels", []string{tunnels}, ""},
		{"comma separated", "/v1/tunnels", []string{"files-api-2025-04-14, " + tunnels}, ""},
		{"repeated headers", "/v1/tunnels", []string{"files-api-2025-04-14", tunnels}, ""},
		{"required missing", "/v1/tunnels", nil, "vendor-beta: this endpoint requires the beta value `" + tunnels + "`"},
		{"other value only", "/v1/tunnels", []string{"files-api-2025-04-14"}, "vendor-beta: this endpoint requires the beta value `" + tunnels + "`"},
		{"unknown value", "/v1/tunnels", []string{tunnels + ",made-up-2026-01-01"}, "vendor-beta: unknown beta value `made-up-2026-01-01`"},
		{"unknown values", "/v1/models", []string{"a-1", "b-2,a-1"}, "vendor-beta: unknown beta values `a-1`, `b-2`"},
		{"many unknown values", "/v1/models", []string{"u-1,u-2,u-3,u-4,u-5,u-6,u-7,u-1"},
			"vendor-beta: unknown beta values `u-1`, `u-2`, `u-3`, `u-4`, `u-5` and 2 more"},
		{"header too long", "/v1/models", []string{strings.Repeat("x-2026-01-01,", 1300)},
			"vendor-beta: too long: 16900 bytes, at most 16384"},
		{"too long over repeated headers", "/v1/models", []string{strings.Repeat("y", 9000), strings.Repeat("z", 9000)},
			"vendor-beta: too long: 18000 bytes, at most 16384"},
		{"not required", "/v1/models", []string{tunnels}, ""},
		{"none needed", "/v1/models", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(t, "GET", tc.path, "", withHeader("vendor-beta", tc.values...))
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantInvalid(t, r, tc.message)
		})
	}
}

func TestStrictJSONBodies(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, body, message string
	}{
		{"unknown field", `{"name":"a","colour":"red"}`, "colour: unknown field"},
		{"duplicate field", `{"name":"a","name":"b"}`, "name: duplicate field"},
		{"nested duplicate field", `{"name":"a","data_residency":{"workspace_geo":"us","workspace_geo":"eu"}}`, "data_residency.workspace_geo: duplicate field"},
		{"nested unknown field", `{"name":"a","data_residency":{"geo":"us"}}`, "data_residency.geo: unknown field"},
		{"wrong type", `{"name":5}`, "name: must be a string"},
		{"nested wrong type", `{"name":"a","data_residency":{"workspace_geo":true}}`, "data_residency.workspace_geo: must be a string"},
		{"tags wrong type", `{"name":"a","tags":[]}`, "tags: must be an object"},
		{"invalid JSON", `{"name":`, "request body: invalid JSON: unexpected end of input"},
		{"garbage", `{"name" "a"}`, "request body: invalid JSON at offset 9"},
		{"trailing data", `{"name":"a"} {}`, "request body: unexpected data after the JSON value"},
		{"not an object", `["a"]`, "request body: must be a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, e.do(t, "POST", "/v1/organizations/workspaces", tc.body), tc.message)
		})
	}
}

func TestResponseHeadersNameTheWorkspace(t *testing.T) {
	e := newEnv(t)
	r := e.do(t, "GET", "/v1/models", "")
	wantOK(t, r)
	if got := r.header.Get("vendor-workspace-id"); got != e.seed.DefaultWorkspaceID {
		t.Fatalf("vendor-workspace-id %q, want the default workspace %q (the default workspace's id is sent back)", got, e.seed.DefaultWorkspaceID)
	}
	other := e.srv.CreateWorkspace("other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, other))
	r = e.do(t, "GET", "/v1/models", "", withWorkspace(other))
	wantOK(t, r)
	if got := r.header.Get("vendor-workspace-id"); got != other {
		t.Fatalf("vendor-workspace-id %q, want %q", got, other)
	}
	r = e.do(t, "GET", "/v1/models", "", noWorkspace)
	if got := r.header.Get("vendor-workspace-id"); got != "" {
		t.Fatalf("vendor-workspace-id %q on a request that ran in no workspace", got)
	}
}

// A request body that is not valid UTF-8 is refused by every endpoint
// alike, before it can be stored and echoed back as text that is not JSON.
func TestBodiesMustBeUTF8(t *testing.T) {
	f := newSessionFixture(t)
	sid := f.sessionID(t, "")
	event := "{\"events\":[{\"type\":\"user.message\",\"content\":[{\"type\":\"text\",\"text\":\"caf\xe9\"}]}]}"
	wantInvalid(t, f.ma(t, "POST", sessionsPath+"/"+sid+"/events", event), "request body: must be valid UTF-8")
	list := wantOK(t, f.ma(t, "GET", sessionsPath+"/"+sid+"/events", ""))
	if data, _ := list["data"].([]any); len(data) != 0 {
		t.Fatalf("the refused event was stored: %v", data)
	}
	wantInvalid(t, f.do(t, "POST", "/v1/organizations/workspaces", "{\"name\":\"\xff\"}"), "request body: must be valid UTF-8")
	wantInvalid(t, f.do(t, "POST", "/v1/messages",
		"{\"model\":\""+sonnet+"\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"caf\xe9\"}]}"),
		"request body: must be valid UTF-8")
}

// A request without a key, or to a path no route serves, is answered
// without its body being read: what such a client sends costs the server no
// memory and holds nothing. The body here never ends, so a server that read
// it first would never answer.
func TestBodiesOfRefusedRequestsAreNotRead(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, path string
		mods       []mod
		status     int
	}{
		{"no key", "/v1/agents", []mod{noAuth, agentsBeta}, http.StatusUnauthorized},
		{"unknown path", "/v1/nowhere", nil, http.StatusNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			endless, stop := io.Pipe()
			defer stop.Close()
			go func() { _, _ = stop.Write([]byte(`{"name":`)) }() // then nothing, until the test ends
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, "POST", e.url+tc.path, endless)
			must(t, err)
			req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
			req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
			for _, m := range tc.mods {
				m(req.Header)
			}
			transport := &http.Transport{}
			defer transport.CloseIdleConnections()
			res, err := (&http.Client{Transport: transport}).Do(req)
			if err != nil {
				t.Fatalf("no answer while the body was still coming: %v", err)
			}
			res.Body.Close()
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tc.status)
			}
		})
	}
}
