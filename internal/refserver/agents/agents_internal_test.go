package agents

// White-box tests of the helpers that sessions and deployments build on:
// resolveAgentRefLocked, agentVersionLocked, the reference, thread and
// session agent views, ModelIDs, ParseTools, environmentLocked and the
// Service methods the rest of the server calls.

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

type maFixture struct {
	s   *Service
	mux *http.ServeMux
	ws  string
}

// newMAFixture serves the family's routes in one workspace, without the
// server's pipeline (authentication, beta checks, idempotency).
func newMAFixture(t *testing.T) *maFixture {
	t.Helper()
	deps := &kit.Deps{Clock: kit.SystemClock{}, IDs: kit.SequentialIDs(), Logger: slog.New(slog.DiscardHandler)}
	f := &maFixture{s: New(Deps{Deps: deps}), mux: http.NewServeMux(), ws: "wrkspc_01default"}
	for _, rt := range f.s.Routes() {
		f.mux.HandleFunc(rt.Method+" "+rt.Path, func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			c := &kit.Call{Deps: deps, W: w, R: r, Ex: &kit.Exchange{Body: body}, WorkspaceID: f.ws}
			c.Run(rt.Handle)
		})
	}
	return f
}

func (f *maFixture) do(t *testing.T, method, path, body string) map[string]any {
	t.Helper()
	w := httptest.NewRecorder()
	f.mux.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
	if w.Code != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
	}
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func (f *maFixture) post(t *testing.T, path, body string) map[string]any {
	t.Helper()
	return f.do(t, http.MethodPost, path, body)
}

func maMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func maSameJSON(t *testing.T, got any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want: %v", err)
	}
	var g any
	if err := json.Unmarshal([]byte(maMarshal(t, got)), &g); err != nil {
		t.Fatal(err)
	}
	if maMarshal(t, g) != maMarshal(t, w) {
		t.Fatalf("got  %s\nwant %s", maMarshal(t, g), maMarshal(t, w))
	}
}

func TestResolveAgentRef(t *testing.T) {
	f := newMAFixture(t)
	id := f.post(t, "/v1/agents", `{"name":"a","model":"vendor-haiku-5-5"}`)["id"].(string)
	f.post(t, "/v1/agents/"+id, `{"system":"v2"}`)
	gone := f.post(t, "/v1/agents", `{"name":"g","model":"vendor-opus-5-5"}`)["id"].(string)
	f.post(t, "/v1/agents/"+gone+"/archive", ``)

	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	cases := []struct {
		raw     string
		version int
		status  int
		message string
	}{
		{`"` + id + `"`, 2, 0, ""},
		{`{"type":"agent","id":"` + id + `"}`, 2, 0, ""},
		{`{"type":"agent","id":"` + id + `","version":1}`, 1, 0, ""},
		{`{"type":"agent","id":"` + id + `","version":3}`, 0, 404, "Agent `" + id + "` version `3` not found."},
		{`"agent_01nope"`, 0, 404, "Agent `agent_01nope` not found."},
		{`"` + gone + `"`, 0, 400, "agent: agent `" + gone + "` is archived"},
		{`{"type":"agent_with_overrides","id":"x"}`, 0, 400, "agent.type: must be one of `agent`"},
		{`{"type":"agent","id":"x","model":"vendor-opus-5-5"}`, 0, 400, "agent.model: unknown field"},
		{`{"type":"agent","id":"x","version":0}`, 0, 400, "agent.version: must be at least 1"},
		{`{"type":"agent"}`, 0, 400, "agent.id: is required"},
		{`""`, 0, 400, "agent: must be between 1 and 128 characters"},
		{`null`, 0, 400, "agent: must not be null"},
		{`7`, 0, 400, "agent: must be an agent id string or an object"},
	}
	for _, tc := range cases {
		v, err := f.s.resolveAgentRefLocked(f.ws, "agent", json.RawMessage(tc.raw))
		if tc.status == 0 {
			if err != nil || v.Version != tc.version {
				t.Fatalf("%s: %v, %v", tc.raw, v, err)
			}
			continue
		}
		ae, ok := err.(*kit.APIError)
		if !ok || ae.Status != tc.status || ae.Message != tc.message {
			t.Fatalf("%s: %v, want %d %s", tc.raw, err, tc.status, tc.message)
		}
	}
	if _, err := f.s.resolveAgentRefLocked("wrkspc_01other", "agent", json.RawMessage(`"`+id+`"`)); err == nil {
		t.Fatal("another workspace's agent resolved")
	}
	v1, err := f.s.agentVersionLocked(f.ws, id, 1)
	if err != nil {
		t.Fatal(err)
	}
	maSameJSON(t, v1.ReferenceJSON(), `{"type":"agent","id":"`+id+`","version":1}`)
	if _, err := f.s.agentVersionLocked(f.ws, gone, 1); err != nil {
		t.Fatalf("archived agents' versions are readable: %v", err)
	}
	if _, err := f.s.agentVersionLocked(f.ws, id, 0); err == nil {
		t.Fatal("version 0 found")
	}
}

func TestSessionAgentAndModels(t *testing.T) {
	f := newMAFixture(t)
	helper := f.post(t, "/v1/agents", `{"name":"helper","model":"vendor-sonnet-5-5","system":"help"}`)["id"].(string)
	coord := f.post(t, "/v1/agents", `{"name":"c","model":"vendor-opus-5-5","multiagent":{"type":"coordinator",
		"agents":["`+helper+`",{"type":"self"},{"type":"advisor","model":"vendor-haiku-4-5"}]}}`)["id"].(string)
	lead := f.post(t, "/v1/agents", `{"name":"l","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001",
		"advisor":{"type":"enabled","model":"vendor-sonnet-4-5"},"subagents":{"type":"enabled","predefined_agents":["`+helper+`"]},
		"workflows":{"type":"enabled","predefined_agents":[{"type":"self"}]}}}`)["id"].(string)

	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	h, _ := f.s.agentVersionLocked(f.ws, helper, 1)
	c, _ := f.s.agentVersionLocked(f.ws, coord, 1)
	l, _ := f.s.agentVersionLocked(f.ws, lead, 1)

	thread := func(id, name, model, system string) string {
		sys := `null`
		if system != "" {
			sys = `"` + system + `"`
		}
		return `{"type":"agent","id":"` + id + `","version":1,"name":"` + name + `","description":null,"system":` + sys + `,
			"model":{"id":"` + model + `","effort":{"type":"high"},"inference_geo":null,"speed":"standard"},
			"tools":[],"mcp_servers":[],"skills":[],"execution_identity":{"type":"service_account"}`
	}
	maSameJSON(t, h.SessionAgentJSON(), thread(helper, "helper", "vendor-sonnet-5-5", "help")+`,"multiagent":null}`)
	maSameJSON(t, c.SessionAgentJSON(), thread(coord, "c", "vendor-opus-5-5", "")+`,"multiagent":{"type":"coordinator","agents":[`+
		thread(helper, "helper", "vendor-sonnet-5-5", "help")+`},`+thread(coord, "c", "vendor-opus-5-5", "")+`},{"type":"advisor","model":"vendor-haiku-4-5"}]}}`)
	maSameJSON(t, l.SessionAgentJSON(), thread(lead, "l", "vendor-opus-5-5", "")+`,"multiagent":{"type":"multiagent_20261001",
		"advisor":{"type":"enabled","model":"vendor-sonnet-4-5"},
		"subagents":{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[`+thread(helper, "helper", "vendor-sonnet-5-5", "help")+`}]},
		"workflows":{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[`+thread(lead, "l", "vendor-opus-5-5", "")+`}]}}}`)

	for _, tc := range []struct {
		v    *Version
		want string
	}{
		{h, `["vendor-sonnet-5-5"]`},
		{c, `["vendor-opus-5-5","vendor-sonnet-5-5","vendor-haiku-4-5"]`},
		{l, `["vendor-opus-5-5","vendor-sonnet-4-5","vendor-sonnet-5-5"]`},
	} {
		if got := maMarshal(t, tc.v.ModelIDs()); got != tc.want {
			t.Fatalf("modelIDs %s, want %s", got, tc.want)
		}
	}

	// A session's tools are replaced on a copy of the snapshot.
	tools, err := ParseTools("agent", json.RawMessage(`[{"type":"mcp_toolset","mcp_server_name":"s"}]`),
		json.RawMessage(`[{"type":"url","name":"s","url":"https://s.example"}]`), h.Tools)
	if err != nil {
		t.Fatal(err)
	}
	copied := *h
	copied.Tools = tools
	got := copied.SessionAgentJSON().(sessionAgentJSONView)
	if maMarshal(t, got.MCPServers) != `[{"type":"url","name":"s","url":"https://s.example"}]` || len(got.Tools) != 1 || len(h.Tools.Tools) != 0 {
		t.Fatalf("copy %s", maMarshal(t, got))
	}
	_, err = ParseTools("agent", nil, json.RawMessage(`[]`), tools)
	if ae, ok := err.(*kit.APIError); !ok || ae.Message != "agent.tools[0].mcp_server_name: no mcp_servers entry named `s`" {
		t.Fatalf("kept tools are checked against new servers: %v", err)
	}
	_, err = ParseTools("agent", json.RawMessage(`[{"type":"custom"}]`), nil, Tools{})
	if ae, ok := err.(*kit.APIError); !ok || ae.Message != "agent.tools[0].name: is required" {
		t.Fatalf("field prefix: %v", err)
	}
	kept, err := ParseTools("agent", nil, nil, tools)
	if err != nil || len(kept.Tools) != 1 || len(kept.mcpServers) != 1 {
		t.Fatalf("nil keeps: %v %v", kept, err)
	}
}

func TestEnvironmentHelpers(t *testing.T) {
	f := newMAFixture(t)
	cloud := f.post(t, "/v1/environments", `{"name":"c"}`)["id"].(string)
	self := f.post(t, "/v1/environments", `{"name":"s","config":{"type":"self_hosted"}}`)["id"].(string)
	f.post(t, "/v1/environments/"+self+"/archive", ``)
	gone := f.post(t, "/v1/environments", `{"name":"g"}`)["id"].(string)
	f.do(t, http.MethodDelete, "/v1/environments/"+gone, "")

	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	c, err := f.s.environmentLocked(f.ws, cloud)
	if err != nil || c.archived() || c.selfHosted() {
		t.Fatalf("cloud %v %v", c, err)
	}
	s, err := f.s.environmentLocked(f.ws, self)
	if err != nil || !s.archived() || !s.selfHosted() {
		t.Fatalf("self-hosted %v %v", s, err)
	}
	for _, tc := range []struct{ ws, id string }{{f.ws, gone}, {f.ws, "env_01nope"}, {"wrkspc_01other", cloud}} {
		_, err := f.s.environmentLocked(tc.ws, tc.id)
		if ae, ok := err.(*kit.APIError); !ok || ae.Status != 404 || ae.Message != "Environment `"+tc.id+"` not found." {
			t.Fatalf("%s: %v", tc.id, err)
		}
		if info, err := f.s.EnvironmentLocked(tc.ws, tc.id); err == nil || err.Error() != "404 not_found_error: Environment `"+tc.id+"` not found." {
			t.Fatalf("EnvironmentLocked %s: %+v %v", tc.id, info, err)
		}
	}

	// What sessions and deployments see: copies.
	if info, err := f.s.EnvironmentLocked(f.ws, cloud); err != nil || info != (EnvironmentInfo{ID: cloud, WorkspaceID: f.ws}) {
		t.Fatalf("EnvironmentLocked cloud: %+v %v", info, err)
	}
	want := EnvironmentInfo{ID: self, WorkspaceID: f.ws, Archived: true, SelfHosted: true}
	if info, err := f.s.EnvironmentLocked(f.ws, self); err != nil || info != want {
		t.Fatalf("EnvironmentLocked self-hosted: %+v %v", info, err)
	}
	if info, ok := f.s.EnvironmentByIDLocked(self); !ok || info != want {
		t.Fatalf("EnvironmentByIDLocked: %+v %v", info, ok)
	}
	if info, ok := f.s.EnvironmentByIDLocked(gone); ok {
		t.Fatalf("EnvironmentByIDLocked found a deleted environment: %+v", info)
	}
}

// TestServiceSurface pins what the rest of the server calls besides the
// environment lookups: LatestLocked, ResolveRefLocked and the hook that
// archives an archived agent's deployments.
func TestServiceSurface(t *testing.T) {
	f := newMAFixture(t)
	var archived []string
	f.s.archiveDeploymentsLocked = func(agentID string, now time.Time) {
		if now.IsZero() {
			t.Error("zero time")
		}
		archived = append(archived, agentID)
	}
	id := f.post(t, "/v1/agents", `{"name":"a","model":"vendor-haiku-5-5"}`)["id"].(string)
	f.post(t, "/v1/agents/"+id, `{"system":"v2"}`)
	f.post(t, "/v1/agents/"+id+"/archive", ``)
	f.post(t, "/v1/agents/"+id+"/archive", ``)
	if len(archived) != 1 || archived[0] != id {
		t.Fatalf("deployments archived for %v, want once for %s", archived, id)
	}

	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	if v, ok := f.s.LatestLocked(id); !ok || v.Version != 2 || v.Agent.ID != id || *v.System != "v2" {
		t.Fatalf("LatestLocked: %+v %v", v, ok)
	}
	if _, ok := f.s.LatestLocked("agent_01nope"); ok {
		t.Fatal("LatestLocked found an unknown agent")
	}
	if _, err := f.s.ResolveRefLocked(f.ws, "agent", []byte(`"`+id+`"`)); err == nil || err.Error() != "400 invalid_request_error: agent: agent `"+id+"` is archived" {
		t.Fatalf("ResolveRefLocked of an archived agent: %v", err)
	}
}

// TestZeroValueStates pins that the states work as their zero values.
func TestZeroValueStates(t *testing.T) {
	var s agentState
	if s.byID != nil {
		t.Fatal("zero agentState is not empty")
	}
	var e environmentState
	if e.byID != nil {
		t.Fatal("zero environmentState is not empty")
	}
	srv := &Service{}
	if _, err := srv.environmentLocked("w", "env_x"); err == nil {
		t.Fatal("lookup in a zero state found something")
	}
	if _, err := srv.agentVersionLocked("w", "agent_x", 1); err == nil {
		t.Fatal("lookup in a zero state found something")
	}
}
