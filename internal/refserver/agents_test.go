package refserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Agents over raw HTTP: the wire shape, and the rules the SDK cannot send
// because it checks them first (docs/managed-agents-wire.md sections 3, 4).

func agentsBeta(h http.Header) { h.Set("vendor-beta", "managed-agents-2026-04-01") }

// createAgentJSON creates an agent from a raw body and returns it.
func (e *env) createAgentJSON(t *testing.T, body string, mods ...mod) map[string]any {
	t.Helper()
	return wantOK(t, e.do(t, "POST", "/v1/agents", body, append([]mod{agentsBeta}, mods...)...))
}

func (e *env) createAgent(t *testing.T, name string) string {
	t.Helper()
	return e.createAgentJSON(t, `{"name":"`+name+`","model":"vendor-haiku-5-5"}`)["id"].(string)
}

// requireJSON compares a response body with the expected JSON document.
func requireJSON(t *testing.T, r response, want string) {
	t.Helper()
	var got, exp any
	r.decode(t, &got)
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		t.Fatalf("bad expected JSON: %v", err)
	}
	gb, _ := json.Marshal(got)
	eb, _ := json.Marshal(exp)
	if string(gb) != string(eb) {
		t.Fatalf("body\n%s\nwant\n%s", gb, eb)
	}
}

func TestAgentWireShape(t *testing.T) {
	e := newEnv(t)
	helper := e.createAgent(t, "helper")
	skill, version := e.createSkill(t, "research")
	r := e.do(t, "POST", "/v1/agents", `{
		"name": "Researcher",
		"description": "Finds and summarises sources.",
		"system": "You are a careful research agent.",
		"model": {"id": "vendor-opus-5-5", "effort": "high"},
		"tools": [
			{"type": "agent_toolset_20260401",
			 "configs": [{"name": "bash", "permission_policy": {"type": "always_ask"}},
			             {"type": "web_fetch", "name": "web_fetch", "allowed_domains": ["docs.example.com"]},
			             {"name": "web_search", "enabled": false, "user_location": {"type": "approximate", "country": "FR"}}]},
			{"type": "mcp_toolset", "mcp_server_name": "example-mcp"},
			{"type": "custom", "name": "lookup_order", "description": "Look up an order by id.",
			 "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"], "additionalProperties": false}}
		],
		"mcp_servers": [{"type": "url", "name": "example-mcp", "url": "https://mcp.example.com/sse"}],
		"skills": [{"type": "vendor", "skill_id": "xlsx"}, {"type": "custom", "skill_id": "`+skill+`", "version": "`+version+`"}],
		"multiagent": {"type": "coordinator", "agents": ["`+helper+`", {"type": "self"}, {"type": "advisor", "model": "vendor-opus-5-5"}]},
		"metadata": {"team": "research"}
	}`, agentsBeta)
	a := wantOK(t, r)
	id := a["id"].(string)
	requireJSON(t, r, `{
	  "type": "agent", "id": "`+id+`", "version": 1, "name": "Researcher",
	  "description": "Finds and summarises sources.", "system": "You are a careful research agent.",
	  "model": {"id": "vendor-opus-5-5", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"},
	  "tools": [
	    {"type": "agent_toolset_20260401",
	     "configs": [{"type": "bash", "name": "bash", "enabled": true, "permission_policy": {"type": "always_ask"}},
	                 {"type": "web_fetch", "name": "web_fetch", "enabled": true, "permission_policy": {"type": "always_allow"},
	                  "allowed_domains": ["docs.example.com"], "blocked_domains": null, "max_content_tokens": null, "url_sources": null},
	                 {"type": "web_search", "name": "web_search", "enabled": false, "permission_policy": {"type": "always_allow"},
	                  "allowed_domains": null, "blocked_domains": null,
	                  "user_location": {"type": "approximate", "city": null, "country": "FR", "region": null, "timezone": null}}],
	     "default_config": {"enabled": true, "permission_policy": {"type": "always_allow"}}},
	    {"type": "mcp_toolset", "mcp_server_name": "example-mcp", "configs": [],
	     "default_config": {"enabled": true, "permission_policy": {"type": "always_ask"}}},
	    {"type": "custom", "name": "lookup_order", "description": "Look up an order by id.",
	     "input_schema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"], "additionalProperties": false}}
	  ],
	  "mcp_servers": [{"type": "url", "name": "example-mcp", "url": "https://mcp.example.com/sse"}],
	  "skills": [{"type": "vendor", "skill_id": "xlsx", "version": "latest"},
	             {"type": "custom", "skill_id": "`+skill+`", "version": "`+version+`"}],
	  "multiagent": {"type": "coordinator", "agents": [{"type": "agent", "id": "`+helper+`", "version": 1},
	                 {"type": "agent", "id": "`+id+`", "version": 1}, {"type": "advisor", "model": "vendor-opus-5-5"}]},
	  "execution_identity": {"type": "service_account"},
	  "metadata": {"team": "research"},
	  "archived_at": null,
	  "created_at": "2026-11-25T21:56:21.123456Z",
	  "updated_at": "2026-11-25T21:56:21.123456Z"
	}`)
	if !strings.Contains(string(r.body), `"input_schema":{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"],"additionalProperties":false}`) {
		t.Fatalf("input_schema is not echoed as received: %s", r.body)
	}

	// multiagent_20261001 renders every key.
	r = e.do(t, "POST", "/v1/agents", `{"name":"lead","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001",
		"advisor":{"type":"enabled","model":"vendor-opus-5-5"},"subagents":{"type":"enabled","predefined_agents":[{"type":"agent","id":"`+helper+`"}]},
		"workflows":{"type":"disabled"}}}`, agentsBeta)
	got := wantOK(t, r)
	want := `{"type":"multiagent_20261001","advisor":{"type":"enabled","model":"vendor-opus-5-5"},` +
		`"subagents":{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[{"type":"agent","id":"` + helper + `","version":1}]},` +
		`"workflows":{"type":"disabled"}}`
	if b, _ := json.Marshal(got["multiagent"]); !jsonEqual(string(b), want) {
		t.Fatalf("multiagent %s\nwant %s", b, want)
	}
	// Defaults of the variant.
	got = e.createAgentJSON(t, `{"name":"d","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001"}}`)
	want = `{"type":"multiagent_20261001","advisor":{"type":"disabled"},` +
		`"subagents":{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[]},` +
		`"workflows":{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[]}}`
	if b, _ := json.Marshal(got["multiagent"]); !jsonEqual(string(b), want) {
		t.Fatalf("multiagent %s\nwant %s", b, want)
	}
	// Cloud role identity and model config fields.
	got = e.createAgentJSON(t, `{"name":"c","model":{"id":"vendor-opus-5-5","effort":{"type":"low"},"inference_geo":"us","speed":"fast"},
		"execution_identity":{"type":"cloud_role","role_arn":"arn:aws:iam::1:role/r"},"description":"","system":null}`)
	for key, want := range map[string]string{
		"model":              `{"id":"vendor-opus-5-5","effort":{"type":"low"},"inference_geo":"us","speed":"fast"}`,
		"execution_identity": `{"type":"cloud_role","role_arn":"arn:aws:iam::1:role/r"}`,
		"description":        `null`,
		"system":             `null`,
	} {
		if b, _ := json.Marshal(got[key]); !jsonEqual(string(b), want) {
			t.Fatalf("%s %s, want %s", key, b, want)
		}
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

func TestAgentBodyErrors(t *testing.T) {
	e := newEnv(t)
	nested := e.createAgentJSON(t, `{"name":"nested","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001"}}`)["id"].(string)
	gone := e.createAgent(t, "gone")
	wantOK(t, e.do(t, "POST", "/v1/agents/"+gone+"/archive", "", agentsBeta))
	plain := e.createAgent(t, "plain")

	n := func(k int, s string) string { return strings.Repeat(s, k) }
	list := func(k int, item string) string {
		items := make([]string, k)
		for i := range items {
			items[i] = strings.ReplaceAll(item, "%d", fmt.Sprint(i))
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	toolset := func(configs string) string {
		return `{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"agent_toolset_20260401","configs":[` + configs + `]}]}`
	}
	cases := []struct{ body, message string }{
		{`{"model":"vendor-opus-5-5"}`, "name: is required"},
		{`{"name":null,"model":"vendor-opus-5-5"}`, "name: must not be null"},
		{`{"name":1,"model":"vendor-opus-5-5"}`, "name: must be a string"},
		{`{"name":"n"}`, "model: is required"},
		{`{"name":"n","model":7}`, "model: must be a model id string or a model config object"},
		{`{"name":"n","model":{"effort":"low"}}`, "model.id: is required"},
		{`{"name":"n","model":{"id":"vendor-opus-5-5","temperature":1}}`, "model.temperature: unknown field"},
		{`{"name":"n","model":{"id":"vendor-opus-5-5","effort":{"type":"huge"}}}`, "model.effort.type: must be one of `low`, `medium`, `high`, `xhigh`, `max`"},
		{`{"name":"n","model":{"id":"vendor-opus-5-5","effort":"huge"}}`, "model.effort: must be one of `low`, `medium`, `high`, `xhigh`, `max`"},
		{`{"name":"n","model":{"id":"vendor-opus-5-5","inference_geo":"eu"}}`, "model.inference_geo: must be one of `global`, `us`"},
		{`{"name":"n","model":{"id":"vendor-opus-5-5","speed":"ludicrous"}}`, "model.speed: must be one of `standard`, `fast`"},
		{`{"name":"n","model":"` + n(257, "m") + `"}`, "model: must be between 1 and 256 characters"},
		{`{"name":"` + n(257, "é") + `","model":"vendor-opus-5-5"}`, "name: must be between 1 and 256 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","description":"` + n(2049, "d") + `"}`, "description: must be at most 2048 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","system":"` + n(100001, "s") + `"}`, "system: must be at most 100000 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","bogus":1}`, "bogus: unknown field"},
		{`{"name":"n","model":"vendor-opus-5-5","version":1}`, "version: unknown field"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":null}`, "tools: must not be null"},
		{`{"name":"n","model":"vendor-opus-5-5","metadata":null}`, "metadata: must not be null"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":"x"}`, "tools: must be an array"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{}]}`, "tools[0].type: is required"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"browser"}]}`, "tools[0].type: must be one of `agent_toolset_20260401`, `mcp_toolset`, `custom`"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":` + list(129, `{"type":"custom","name":"t%d","description":"d","input_schema":{"type":"object"}}`) + `}`,
			"tools: must have at most 128 items"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"agent_toolset_20260401"},{"type":"agent_toolset_20260401"}]}`,
			"tools[1].type: duplicate toolset `agent_toolset_20260401`"},
		{toolset(`{"name":"bash","extra":1}`), "tools[0].configs[0].extra: unknown field"},
		{toolset(`{"name":"bash"},{"name":"bash"}`), "tools[0].configs[1].name: duplicate tool `bash`"},
		{toolset(`{"enabled":true}`), "tools[0].configs[0].name: is required"},
		{toolset(`{"name":"bash","type":"edit"}`), "tools[0].configs[0].type: must be `bash`, the same as name"},
		{toolset(`{"name":"bash","allowed_domains":["a.com"]}`), "tools[0].configs[0].allowed_domains: unknown field"},
		{toolset(`{"name":"web_search","max_content_tokens":5}`), "tools[0].configs[0].max_content_tokens: unknown field"},
		{toolset(`{"name":"web_fetch","user_location":{"type":"approximate"}}`), "tools[0].configs[0].user_location: unknown field"},
		{toolset(`{"name":"web_fetch","allowed_domains":["a.com"],"blocked_domains":["b.com"]}`),
			"tools[0].configs[0].blocked_domains: cannot be combined with allowed_domains"},
		{toolset(`{"name":"web_fetch","allowed_domains":[]}`), "tools[0].configs[0].allowed_domains: must have between 1 and 64 items"},
		{toolset(`{"name":"web_fetch","allowed_domains":` + list(65, `"h%d.com"`) + `}`), "tools[0].configs[0].allowed_domains: must have between 1 and 64 items"},
		{toolset(`{"name":"web_fetch","blocked_domains":["https://a.com/x"]}`), "tools[0].configs[0].blocked_domains[0]: must be a plain hostname"},
		{toolset(`{"name":"web_fetch","blocked_domains":[3]}`), "tools[0].configs[0].blocked_domains[0]: must be a string"},
		{toolset(`{"name":"web_fetch","max_content_tokens":0}`), "tools[0].configs[0].max_content_tokens: must be at least 1"},
		{toolset(`{"name":"web_fetch","max_content_tokens":1.5}`), "tools[0].configs[0].max_content_tokens: must be an integer"},
		{toolset(`{"name":"web_search","user_location":{"type":"approximate","country":"fr"}}`),
			"tools[0].configs[0].user_location.country: must be 2 uppercase letters"},
		{toolset(`{"name":"web_search","user_location":{"type":"exact"}}`), "tools[0].configs[0].user_location.type: must be one of `approximate`"},
		{toolset(`{"name":"bash","permission_policy":{"type":"never"}}`),
			"tools[0].configs[0].permission_policy.type: must be one of `always_allow`, `always_ask`, `auto`"},
		{toolset(`{"name":"bash","permission_policy":{"type":"auto","why":1}}`), "tools[0].configs[0].permission_policy.why: unknown field"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"agent_toolset_20260401","default_config":{"enabled":"yes"}}]}`,
			"tools[0].default_config.enabled: must be a boolean"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"custom","name":"` + n(129, "t") + `","description":"d","input_schema":{"type":"object"}}]}`,
			"tools[0].name: must be between 1 and 128 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"custom","name":"has space","description":"d","input_schema":{"type":"object"}}]}`,
			"tools[0].name: must contain only letters, digits, underscores and hyphens"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"custom","name":"t","description":"","input_schema":{"type":"object"}}]}`,
			"tools[0].description: must be between 1 and 1024 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"custom","name":"t","description":"d"}]}`, "tools[0].input_schema: is required"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"custom","name":"t","description":"d","input_schema":{"type":"array"}}]}`,
			"tools[0].input_schema.type: must be one of `object`"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"custom","name":"t","description":"d","input_schema":{"type":"object","required":[1]}}]}`,
			"tools[0].input_schema.required[0]: must be a string"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"custom","name":"t","description":"d","input_schema":{"type":"object"}},` +
			`{"type":"custom","name":"t","description":"d","input_schema":{"type":"object"}}]}`, "tools[1].name: duplicate custom tool `t`"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"mcp_toolset","mcp_server_name":"s"}]}`, "tools[0].mcp_server_name: no mcp_servers entry named `s`"},
		{`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"mcp_toolset","mcp_server_name":"s","configs":[{"name":"` + n(129, "x") + `"}]}],` +
			`"mcp_servers":[{"type":"url","name":"s","url":"https://s"}]}`, "tools[0].configs[0].name: must be between 1 and 128 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","mcp_servers":[{"type":"url","name":"s","url":"https://s"}]}`,
			"mcp_servers[0].name: server `s` is not referenced by any mcp_toolset"},
		{`{"name":"n","model":"vendor-opus-5-5","mcp_servers":[{"type":"stdio","name":"s"}]}`, "mcp_servers[0].type: must be one of `url`"},
		{`{"name":"n","model":"vendor-opus-5-5","mcp_servers":[{"type":"url","name":"s","url":"ftp://s"}]}`, "mcp_servers[0].url: must be an absolute http or https URL"},
		{`{"name":"n","model":"vendor-opus-5-5","mcp_servers":` + list(21, `{"type":"url","name":"s%d","url":"https://s"}`) + `}`, "mcp_servers: must have at most 20 items"},
		{`{"name":"n","model":"vendor-opus-5-5","mcp_servers":[{"type":"url","name":"s","url":"https://s"},{"type":"url","name":"s","url":"https://t"}]}`,
			"mcp_servers[1].name: duplicate mcp server `s`"},
		{`{"name":"n","model":"vendor-opus-5-5","skills":` + list(21, `{"type":"vendor","skill_id":"s%d"}`) + `}`, "skills: must have at most 20 items"},
		{`{"name":"n","model":"vendor-opus-5-5","skills":[{"type":"vendor","skill_id":"` + n(65, "s") + `"}]}`, "skills[0].skill_id: must be between 1 and 64 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","skills":[{"type":"vendor","skill_id":"s","version":""}]}`, "skills[0].version: must be between 1 and 64 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","skills":[{"type":"custom","skill_id":"xlsx"}]}`, "skills[0].skill_id: must be a custom skill id (`skill_…`)"},
		{`{"name":"n","model":"vendor-opus-5-5","skills":[{"type":"vendor","skill_id":"s"},{"type":"vendor","skill_id":"s"}]}`, "skills[1].skill_id: duplicate skill `s`"},
		{`{"name":"n","model":"vendor-opus-5-5","skills":[{"type":"anthropic","skill_id":"s"}]}`, "skills[0].type: must be one of `vendor`, `custom`"},
		{`{"name":"n","model":"vendor-opus-5-5","execution_identity":{"type":"cloud_role"}}`, "execution_identity.role_arn: is required"},
		{`{"name":"n","model":"vendor-opus-5-5","execution_identity":{"type":"cloud_role","role_arn":"` + n(2049, "r") + `"}}`,
			"execution_identity.role_arn: must be between 1 and 2048 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","execution_identity":{"type":"service_account","role_arn":"r"}}`, "execution_identity.role_arn: unknown field"},
		{`{"name":"n","model":"vendor-opus-5-5","execution_identity":{"type":"root"}}`, "execution_identity.type: must be one of `service_account`, `cloud_role`, `aws_role`"},
		{`{"name":"n","model":"vendor-opus-5-5","metadata":` + metadataJSON(17) + `}`, "metadata: must have at most 16 pairs"},
		{`{"name":"n","model":"vendor-opus-5-5","metadata":{"` + n(65, "k") + `":"v"}}`, "metadata: keys must be between 1 and 64 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","metadata":{"k":"` + n(513, "v") + `"}}`, "metadata.k: must be at most 512 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","metadata":{"k":1}}`, "metadata.k: must be a string"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"swarm"}}`, "multiagent.type: must be one of `coordinator`, `multiagent_20261001`"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator"}}`, "multiagent.agents: is required"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[]}}`, "multiagent.agents: must have between 1 and 20 items"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":` + list(21, `{"type":"self"}`) + `}}`,
			"multiagent.agents: must have between 1 and 20 items"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[{"type":"self"},{"type":"self"}]}}`,
			"multiagent.agents[1]: duplicate agent `self`"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":["` + plain + `",{"type":"agent","id":"` + plain + `","version":1}]}}`,
			"multiagent.agents[1]: duplicate agent `" + plain + "`"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[{"type":"advisor","model":"vendor-haiku-5-5"},{"type":"advisor","model":"vendor-sonnet-5-5"}]}}`,
			"multiagent.agents[1]: duplicate advisor `vendor-sonnet-5-5`"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[{"type":"advisor","model":"gpt-4o"}]}}`,
			"multiagent.agents[0].model: unknown model `gpt-4o`; the models are listed by GET /v1/models"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","advisor":{"type":"enabled","model":"gpt-4o"}}}`,
			"multiagent.advisor.model: unknown model `gpt-4o`; the models are listed by GET /v1/models"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[{"type":"advisor"}]}}`, "multiagent.agents[0].model: is required"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[{"type":"team"}]}}`,
			"multiagent.agents[0].type: must be one of `agent`, `self`, `advisor`"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[3]}}`, "multiagent.agents[0]: must be an agent id string or an object"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[{"type":"agent","id":"` + plain + `","version":0}]}}`,
			"multiagent.agents[0].version: must be at least 1"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":[{"type":"agent"}]}}`, "multiagent.agents[0].id: is required"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":["` + gone + `"]}}`, "multiagent.agents[0]: agent `" + gone + "` is archived"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":["` + nested + `"]}}`,
			"multiagent.agents[0]: agent `" + nested + "` has multiagent set; nesting is not allowed"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","subagents":{"type":"enabled","predefined_agents":[{"type":"advisor","model":"vendor-haiku-5-5"}]}}}`,
			"multiagent.subagents.predefined_agents[0].type: must be one of `agent`, `self`"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","subagents":{"type":"enabled","inline_agents":{"type":"disabled"}}}}`,
			"multiagent.subagents.predefined_agents: must name at least one agent when inline_agents is disabled"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","workflows":{"type":"enabled","inline_agents":{"type":"disabled"},"predefined_agents":null}}}`,
			"multiagent.workflows.predefined_agents: must name at least one agent when inline_agents is disabled"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","workflows":{"type":"enabled","predefined_agents":` + list(21, `{"type":"self"}`) + `}}}`,
			"multiagent.workflows.predefined_agents: must have at most 20 items"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","advisor":{"type":"enabled"}}}`, "multiagent.advisor.model: is required"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","advisor":{"type":"enabled","model":"` + n(257, "m") + `"}}}`,
			"multiagent.advisor.model: must be between 1 and 256 characters"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","advisor":{"type":"maybe"}}}`,
			"multiagent.advisor.type: must be one of `enabled`, `disabled`"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","subagents":{"type":"disabled","predefined_agents":[]}}}`,
			"multiagent.subagents.predefined_agents: unknown field"},
		{`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001","subagents":{"type":"enabled","inline_agents":{"type":"on"}}}}`,
			"multiagent.subagents.inline_agents.type: must be one of `enabled`, `disabled`"},
	}
	for _, tc := range cases {
		name := tc.message
		t.Run(name, func(t *testing.T) {
			wantInvalid(t, e.do(t, "POST", "/v1/agents", tc.body, agentsBeta), tc.message)
		})
	}

	// Boundaries that pass.
	for _, body := range []string{
		`{"name":"` + n(256, "é") + `","model":"vendor-opus-5-5","description":"` + n(2048, "d") + `"}`,
		`{"name":"n","model":"vendor-opus-5-5","metadata":` + metadataJSON(16) + `}`,
		`{"name":"n","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":` + list(20, `{"type":"advisor","model":"m%d"}`)[:0] + `[{"type":"self"}]}}`,
		toolset(`{"name":"web_fetch","allowed_domains":` + list(64, `"h%d.com"`) + `,"max_content_tokens":2147483647}`),
		`{"name":"n","model":"vendor-opus-5-5","execution_identity":{"type":"cloud_role","role_arn":"` + n(2048, "r") + `"}}`,
		`{"name":"n","model":"vendor-opus-5-5","tools":[{"type":"custom","name":"` + n(128, "t") + `","description":"d","input_schema":{"type":"object","properties":null,"required":null}}]}`,
	} {
		wantOK(t, e.do(t, "POST", "/v1/agents", body, agentsBeta))
	}
}

func metadataJSON(pairs int) string {
	m := map[string]string{}
	for i := range pairs {
		m[fmt.Sprint("k", i)] = "v"
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestAgentStateErrors(t *testing.T) {
	e := newEnv(t)
	id := e.createAgent(t, "a")
	wantNotFound := func(r response, message string) {
		t.Helper()
		wantError(t, r, http.StatusNotFound, "not_found_error", message)
	}
	wantNotFound(e.do(t, "GET", "/v1/agents/agent_01nope", "", agentsBeta), "Agent `agent_01nope` not found.")
	wantNotFound(e.do(t, "POST", "/v1/agents/agent_01nope", `{}`, agentsBeta), "Agent `agent_01nope` not found.")
	wantNotFound(e.do(t, "GET", "/v1/agents/agent_01nope/versions", "", agentsBeta), "Agent `agent_01nope` not found.")
	wantNotFound(e.do(t, "GET", "/v1/agents/"+id+"?version=2", "", agentsBeta), "Agent `"+id+"` version `2` not found.")
	wantInvalid(t, e.do(t, "GET", "/v1/agents/"+id+"?version=0", "", agentsBeta), "version: must be at least 1")
	wantInvalid(t, e.do(t, "GET", "/v1/agents/"+id+"?version=x", "", agentsBeta), "version: must be an integer")

	wantInvalid(t, e.do(t, "POST", "/v1/agents/"+id, `{"version":0}`, agentsBeta), "version: must be at least 1")
	wantInvalid(t, e.do(t, "POST", "/v1/agents/"+id, `{"name":null}`, agentsBeta), "name: must not be null")
	wantInvalid(t, e.do(t, "POST", "/v1/agents/"+id, `{"model":null}`, agentsBeta), "model: must not be null")
	wantError(t, e.do(t, "POST", "/v1/agents/"+id, `{"version":2,"name":"b"}`, agentsBeta), http.StatusConflict, "conflict_error",
		"version: does not match the current version `1`")

	// Null clears lists and resets the identity; an update is a new version.
	v2 := wantOK(t, e.do(t, "POST", "/v1/agents/"+id, `{"version":1,"tools":null,"skills":[],"execution_identity":{"type":"cloud_role","role_arn":"r"}}`, agentsBeta))
	if v2["version"] != 2.0 {
		t.Fatalf("version %v", v2["version"])
	}
	v3 := wantOK(t, e.do(t, "POST", "/v1/agents/"+id, `{"execution_identity":null,"metadata":null}`, agentsBeta))
	if v3["version"] != 3.0 || !jsonEqual(mustMarshal(v3["execution_identity"]), `{"type":"service_account"}`) {
		t.Fatalf("v3 %v", v3)
	}
	same := wantOK(t, e.do(t, "POST", "/v1/agents/"+id, `{"name":"a","metadata":{}}`, agentsBeta))
	if same["version"] != 3.0 {
		t.Fatalf("a no-op update wrote version %v", same["version"])
	}

	wantInvalid(t, e.do(t, "POST", "/v1/agents/"+id+"/archive", `{"now":true}`, agentsBeta), "now: unknown field")
	wantOK(t, e.do(t, "POST", "/v1/agents/"+id+"/archive", `{}`, agentsBeta))
	wantError(t, e.do(t, "POST", "/v1/agents/"+id, `{"name":"b"}`, agentsBeta), http.StatusConflict, "conflict_error",
		"agent_id: agent `"+id+"` is archived")
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestAgentMultiagentMerge(t *testing.T) {
	e := newEnv(t)
	h1, h2 := e.createAgent(t, "h1"), e.createAgent(t, "h2")
	id := e.createAgentJSON(t, `{"name":"lead","model":"vendor-opus-5-5","multiagent":{"type":"multiagent_20261001",
		"advisor":{"type":"enabled","model":"vendor-haiku-5-5"},
		"subagents":{"type":"enabled","inline_agents":{"type":"disabled"},"predefined_agents":["`+h1+`"]},
		"workflows":{"type":"disabled"}}}`)["id"].(string)
	update := func(body string) map[string]any {
		t.Helper()
		return wantOK(t, e.do(t, "POST", "/v1/agents/"+id, body, agentsBeta))["multiagent"].(map[string]any)
	}
	// Same type: merged; the advisor model is kept, predefined kept.
	m := update(`{"multiagent":{"type":"multiagent_20261001","advisor":{"type":"enabled"},"subagents":{"type":"enabled"}}}`)
	if mustMarshal(m["advisor"]) != `{"model":"vendor-haiku-5-5","type":"enabled"}` ||
		!jsonEqual(mustMarshal(m["subagents"]), `{"type":"enabled","inline_agents":{"type":"disabled"},"predefined_agents":[{"type":"agent","id":"`+h1+`","version":1}]}`) {
		t.Fatalf("merged %v", m)
	}
	// null takes the default; another type replaces with defaults.
	m = update(`{"multiagent":{"type":"multiagent_20261001","advisor":null,"workflows":{"type":"enabled","predefined_agents":["` + h2 + `"]}}}`)
	if mustMarshal(m["advisor"]) != `{"type":"disabled"}` ||
		!jsonEqual(mustMarshal(m["workflows"]), `{"type":"enabled","inline_agents":{"type":"enabled"},"predefined_agents":[{"type":"agent","id":"`+h2+`","version":1}]}`) {
		t.Fatalf("replaced %v", m)
	}
	// The merged result is validated.
	wantInvalid(t, e.do(t, "POST", "/v1/agents/"+id, `{"multiagent":{"type":"multiagent_20261001","subagents":{"type":"enabled","predefined_agents":[]}}}`, agentsBeta),
		"multiagent.subagents.predefined_agents: must name at least one agent when inline_agents is disabled")
	// Another variant replaces the whole value; null removes it.
	m = update(`{"multiagent":{"type":"coordinator","agents":["` + h2 + `"]}}`)
	if m["type"] != "coordinator" {
		t.Fatalf("coordinator %v", m)
	}
	if got := wantOK(t, e.do(t, "POST", "/v1/agents/"+id, `{"multiagent":null}`, agentsBeta)); got["multiagent"] != nil {
		t.Fatalf("multiagent %v", got["multiagent"])
	}
}

func TestAgentListQuery(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for range 3 {
		ids = append(ids, e.createAgent(t, "a"))
		e.clock.Advance(1e9)
	}
	list := func(query string) []string {
		t.Helper()
		var p struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
			NextPage *string `json:"next_page"`
		}
		r := e.do(t, "GET", "/v1/agents"+query, "", agentsBeta)
		wantOK(t, r)
		r.decode(t, &p)
		var out []string
		for _, a := range p.Data {
			out = append(out, a.ID)
		}
		return out
	}
	second := testStart.Add(1e9).Format("2006-01-02T15:04:05.999999Z07:00")
	if got := list("?created_at[gte]=" + url.QueryEscape(second)); strings.Join(got, ",") != ids[2]+","+ids[1] {
		t.Fatalf("gte: %v", got)
	}
	if got := list("?created_at[lte]=" + url.QueryEscape(second)); strings.Join(got, ",") != ids[1]+","+ids[0] {
		t.Fatalf("lte: %v", got)
	}
	for query, message := range map[string]string{
		"?created_at[gte]=yesterday":  "created_at[gte]: must be an RFC 3339 timestamp",
		"?created_at[lte]=2026-01-01": "created_at[lte]: must be an RFC 3339 timestamp",
		"?limit=101":                  "limit: must be between 1 and 100",
		"?limit=0":                    "limit: must be between 1 and 100",
		"?page=nope":                  "page: invalid cursor",
		"?include_archived=1":         "include_archived: must be true or false",
	} {
		wantInvalid(t, e.do(t, "GET", "/v1/agents"+query, "", agentsBeta), message)
	}
	wantInvalid(t, e.do(t, "GET", "/v1/agents/"+ids[0]+"/versions?limit=101", "", agentsBeta), "limit: must be between 1 and 100")
	wantOK(t, e.do(t, "GET", "/v1/agents?limit=100", "", agentsBeta))
}

func TestAgentsRequireTheirBetaAndWorkspace(t *testing.T) {
	e := newEnv(t)
	id := e.createAgent(t, "a")
	for _, req := range []struct{ method, path string }{
		{"POST", "/v1/agents"}, {"GET", "/v1/agents"}, {"GET", "/v1/agents/" + id}, {"POST", "/v1/agents/" + id},
		{"POST", "/v1/agents/" + id + "/archive"}, {"GET", "/v1/agents/" + id + "/versions"},
	} {
		wantInvalid(t, e.do(t, req.method, req.path, ""), "vendor-beta: this endpoint requires the beta value `managed-agents-2026-04-01`")
	}
	other := e.srv.CreateWorkspace("other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, other))
	wantError(t, e.do(t, "GET", "/v1/agents/"+id, "", agentsBeta, withWorkspace(other)), http.StatusNotFound, "not_found_error",
		"Agent `"+id+"` not found.")
	// A roster cannot name another workspace's agent.
	r := e.do(t, "POST", "/v1/agents", `{"name":"x","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":["`+id+`"]}}`, agentsBeta, withWorkspace(other))
	wantError(t, r, http.StatusNotFound, "not_found_error", "Agent `"+id+"` not found.")
}
