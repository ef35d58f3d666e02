package refserver_test

import (
	"net/http"
	"strings"
	"testing"
)

// Environments over raw HTTP (docs/managed-agents-wire.md section 5).

func (e *env) createEnvironment(t *testing.T, body string, mods ...mod) map[string]any {
	t.Helper()
	return wantOK(t, e.do(t, "POST", "/v1/environments", body, append([]mod{agentsBeta}, mods...)...))
}

func TestEnvironmentWireShape(t *testing.T) {
	e := newEnv(t)
	r := e.do(t, "POST", "/v1/environments", `{"name":"python-data-analysis","description":"Python environment with data-analysis packages.",
		"config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["api.example.com"],"allow_package_managers":true},
		"packages":{"pip":["pandas","numpy"]}}}`, agentsBeta)
	id := wantOK(t, r)["id"].(string)
	if !strings.HasPrefix(id, "env_") {
		t.Fatalf("id %q", id)
	}
	requireJSON(t, r, `{
	  "type": "environment", "id": "`+id+`", "name": "python-data-analysis",
	  "description": "Python environment with data-analysis packages.",
	  "config": {"type": "cloud",
	             "networking": {"type": "limited", "allowed_hosts": ["api.example.com"], "allow_mcp_servers": false, "allow_package_managers": true},
	             "packages": {"type": "packages", "apt": [], "cargo": [], "gem": [], "go": [], "npm": [], "pip": ["pandas", "numpy"]}},
	  "scope": "organization", "metadata": {}, "archived_at": null,
	  "created_at": "2026-11-25T21:56:21.123456Z", "updated_at": "2026-11-25T21:56:21.123456Z"
	}`)
	r = e.do(t, "POST", "/v1/environments", `{"name":"d","description":null,"config":null,"scope":null}`, agentsBeta)
	got := wantOK(t, r)
	if got["description"] != nil || mustMarshal(got["config"]) !=
		`{"networking":{"type":"unrestricted"},"packages":{"apt":[],"cargo":[],"gem":[],"go":[],"npm":[],"pip":[],"type":"packages"},"type":"cloud"}` {
		t.Fatalf("defaults %s", r.body)
	}
	sh := e.createEnvironment(t, `{"name":"s","config":{"type":"self_hosted"},"description":""}`)
	if mustMarshal(sh["config"]) != `{"type":"self_hosted"}` || sh["description"] != "" {
		t.Fatalf("self-hosted %v", sh)
	}
}

func TestEnvironmentBodyErrors(t *testing.T) {
	e := newEnv(t)
	n := func(k int) string { return strings.Repeat("x", k) }
	many := func(k int, item string) string {
		items := make([]string, k)
		for i := range items {
			items[i] = `"` + item + `"`
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	cases := []struct{ body, message string }{
		{`{}`, "name: is required"},
		{`{"name":null}`, "name: must not be null"},
		{`{"name":""}`, "name: must be between 1 and 256 characters"},
		{`{"name":"` + n(257) + `"}`, "name: must be between 1 and 256 characters"},
		{`{"name":"e","description":"` + n(1025) + `"}`, "description: must be at most 1024 characters"},
		{`{"name":"e","colour":"red"}`, "colour: unknown field"},
		{`{"name":"e","scope":"account"}`, "scope: `account` is not supported for API organizations"},
		{`{"name":"e","scope":"planet"}`, "scope: must be one of `organization`, `account`"},
		{`{"name":"e","config":{"type":"kubernetes"}}`, "config.type: must be one of `cloud`, `self_hosted`"},
		{`{"name":"e","config":{}}`, "config.type: is required"},
		{`{"name":"e","config":"cloud"}`, "config: must be an object"},
		{`{"name":"e","config":{"type":"self_hosted","networking":{"type":"unrestricted"}}}`, "config.networking: unknown field"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"vpn"}}}`, "config.networking.type: must be one of `unrestricted`, `limited`"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"unrestricted","allowed_hosts":[]}}}`, "config.networking.allowed_hosts: unknown field"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["https://x.com"]}}}`,
			"config.networking.allowed_hosts[0]: must be a hostname"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":` + many(101, "a.com") + `}}}`,
			"config.networking.allowed_hosts: must have at most 100 items"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"limited","allow_mcp_servers":"yes"}}}`,
			"config.networking.allow_mcp_servers: must be a boolean"},
		{`{"name":"e","config":{"type":"cloud","packages":{"type":"bundle"}}}`, "config.packages.type: must be one of `packages`"},
		{`{"name":"e","config":{"type":"cloud","packages":{"conda":[]}}}`, "config.packages.conda: unknown field"},
		{`{"name":"e","config":{"type":"cloud","packages":{"pip":[""]}}}`, "config.packages.pip[0]: must be between 1 and 256 characters"},
		{`{"name":"e","config":{"type":"cloud","packages":{"pip":["` + n(257) + `"]}}}`, "config.packages.pip[0]: must be between 1 and 256 characters"},
		{`{"name":"e","config":{"type":"cloud","packages":{"npm":` + many(101, "p") + `}}}`, "config.packages.npm: must have at most 100 items"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"limited"},"packages":{"apt":["jq"]}}}`,
			"config.networking.allow_package_managers: must be true when packages are specified"},
		{`{"name":"e","metadata":` + metadataJSON(17) + `}`, "metadata: must have at most 16 pairs"},
		{`{"name":"e","metadata":{"":"v"}}`, "metadata: keys must be between 1 and 64 characters"},
	}
	for _, tc := range cases {
		t.Run(tc.message, func(t *testing.T) {
			wantInvalid(t, e.do(t, "POST", "/v1/environments", tc.body, agentsBeta), tc.message)
		})
	}
	for _, body := range []string{
		`{"name":"` + n(256) + `","description":"` + n(1024) + `","metadata":` + metadataJSON(16) + `}`,
		`{"name":"e","config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":` + many(100, "a.com") + `,"allow_package_managers":true},` +
			`"packages":{"type":"packages","npm":` + many(100, "p") + `,"pip":["` + n(256) + `"]}}}`,
		`{"name":"e","config":{"type":"cloud","networking":{"type":"limited","allow_package_managers":false},"packages":{"pip":[]}}}`,
	} {
		wantOK(t, e.do(t, "POST", "/v1/environments", body, agentsBeta))
	}
}

func TestEnvironmentUpdateRules(t *testing.T) {
	e := newEnv(t)
	id := e.createEnvironment(t, `{"name":"e","description":"d","metadata":{"a":"1","b":"2"},
		"config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["a.com"],"allow_package_managers":true},"packages":{"pip":["x"],"apt":["y"]}}}`)["id"].(string)
	update := func(body string) map[string]any {
		t.Helper()
		return wantOK(t, e.do(t, "POST", "/v1/environments/"+id, body, agentsBeta))
	}
	e.clock.Advance(1e9)
	got := update(`{"name":null,"description":"","metadata":{"a":"","b":null,"c":"3"},"config":{"type":"cloud","packages":{"pip":null}}}`)
	if got["name"] != "e" || got["description"] != "" || mustMarshal(got["metadata"]) != `{"c":"3"}` ||
		mustMarshal(got["config"].(map[string]any)["packages"]) != `{"apt":["y"],"cargo":[],"gem":[],"go":[],"npm":[],"pip":[],"type":"packages"}` ||
		got["updated_at"] != "2026-11-25T21:56:22.123456Z" {
		t.Fatalf("updated %v", got)
	}
	got = update(`{"config":{"type":"cloud","networking":{"type":"limited","allow_mcp_servers":true}}}`)
	if mustMarshal(got["config"].(map[string]any)["networking"]) !=
		`{"allow_mcp_servers":true,"allow_package_managers":true,"allowed_hosts":["a.com"],"type":"limited"}` {
		t.Fatalf("merged networking %v", got["config"])
	}
	got = update(`{"description":null,"config":null}`)
	if got["description"] != nil || got["config"].(map[string]any)["networking"].(map[string]any)["type"] != "limited" {
		t.Fatalf("null description / kept config %v", got)
	}
	wantInvalid(t, e.do(t, "POST", "/v1/environments/"+id, `{"config":{"type":"cloud","networking":{"type":"limited","allow_package_managers":null}}}`, agentsBeta),
		"config.networking.allow_package_managers: must be true when packages are specified")
	wantInvalid(t, e.do(t, "POST", "/v1/environments/"+id, `{"config":{"type":"self_hosted"}}`, agentsBeta), "config.type: cannot change the environment type")
	wantInvalid(t, e.do(t, "POST", "/v1/environments/"+id, `{"metadata":`+metadataJSON(16)+`}`, agentsBeta), "metadata: must have at most 16 pairs")

	wantInvalid(t, e.do(t, "POST", "/v1/environments/"+id+"/archive", `{"x":1}`, agentsBeta), "x: unknown field")
	archived := wantOK(t, e.do(t, "POST", "/v1/environments/"+id+"/archive", "", agentsBeta))
	e.clock.Advance(1e9)
	if again := wantOK(t, e.do(t, "POST", "/v1/environments/"+id+"/archive", "", agentsBeta)); mustMarshal(again) != mustMarshal(archived) {
		t.Fatalf("archive is not idempotent: %v", again)
	}
	wantError(t, e.do(t, "POST", "/v1/environments/"+id, `{"name":"x"}`, agentsBeta), http.StatusConflict, "conflict_error",
		"environment_id: environment `"+id+"` is archived")
	requireJSON(t, e.do(t, "DELETE", "/v1/environments/"+id, "", agentsBeta), `{"id":"`+id+`","type":"environment_deleted"}`)
	for _, req := range []struct{ method, path string }{
		{"GET", "/v1/environments/" + id}, {"POST", "/v1/environments/" + id}, {"DELETE", "/v1/environments/" + id},
		{"POST", "/v1/environments/" + id + "/archive"},
	} {
		wantError(t, e.do(t, req.method, req.path, "", agentsBeta), http.StatusNotFound, "not_found_error", "Environment `"+id+"` not found.")
	}
}

func TestEnvironmentListAndIsolation(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for range 3 {
		ids = append(ids, e.createEnvironment(t, `{"name":"e"}`)["id"].(string))
	}
	wantOK(t, e.do(t, "POST", "/v1/environments/"+ids[0]+"/archive", "", agentsBeta))
	list := func(query string, mods ...mod) (out []string, next *string) {
		t.Helper()
		var p struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
			NextPage *string `json:"next_page"`
		}
		r := e.do(t, "GET", "/v1/environments"+query, "", append([]mod{agentsBeta}, mods...)...)
		wantOK(t, r)
		r.decode(t, &p)
		for _, x := range p.Data {
			out = append(out, x.ID)
		}
		return out, p.NextPage
	}
	if got, _ := list(""); strings.Join(got, ",") != ids[2]+","+ids[1] {
		t.Fatalf("list %v", got)
	}
	got, next := list("?include_archived=true&limit=2")
	if strings.Join(got, ",") != ids[2]+","+ids[1] || next == nil {
		t.Fatalf("page 1 %v %v", got, next)
	}
	if got, next = list("?include_archived=true&limit=2&page=" + *next); strings.Join(got, ",") != ids[0] || next != nil {
		t.Fatalf("page 2 %v %v", got, next)
	}
	wantInvalid(t, e.do(t, "GET", "/v1/environments?limit=1001", "", agentsBeta), "limit: must be between 1 and 1000")
	wantOK(t, e.do(t, "GET", "/v1/environments?limit=1000", "", agentsBeta))

	other := e.srv.CreateWorkspace("other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, other))
	if got, _ := list("?include_archived=true", withWorkspace(other)); len(got) != 0 {
		t.Fatalf("other workspace lists %v", got)
	}
	wantError(t, e.do(t, "DELETE", "/v1/environments/"+ids[1], "", agentsBeta, withWorkspace(other)), http.StatusNotFound, "not_found_error",
		"Environment `"+ids[1]+"` not found.")
	wantInvalid(t, e.do(t, "GET", "/v1/environments", ""), "vendor-beta: this endpoint requires the beta value `managed-agents-2026-04-01`")
	wantInvalid(t, e.do(t, "DELETE", "/v1/environments/"+ids[1], ""), "vendor-beta: this endpoint requires the beta value `managed-agents-2026-04-01`")
}
