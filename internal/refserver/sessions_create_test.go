package refserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Create Session rules (docs/managed-agents-wire.md 3.1, 3.8–3.10, 6.3):
// every limit at its boundary, references and their states, overrides.

func TestSessionCreateErrors(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	f.putVaults()
	n := func(k int) string { return strings.Repeat("x", k) }
	file := func(i int) string { return fmt.Sprintf(`{"type":"file","file_id":"file_%d"}`, i) }
	vault := func(i int) string { return fmt.Sprintf(`"vlt_%d"`, i) }
	msg := `{"type":"user.message","content":[{"type":"text","text":"hi"}]}`
	sys := `{"type":"system.message","content":[{"type":"text","text":"ctx"}]}`
	outcome := func(extra string) string {
		return `{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"}` + extra + `}`
	}
	repo := func(extra string) string {
		return `{"type":"vcs_repository","url":"https://example.com/o/r"` + extra + `}`
	}
	budget := func(money string) string {
		return `,"budget":{"type":"limit","max_list_cost":` + money + `}`
	}
	cases := []struct{ extra, message string }{
		{`,"title":"` + n(500) + `"`, ""},
		{`,"title":"` + n(501) + `"`, "title: must be between 1 and 500 characters"},
		{`,"title":""`, "title: must be between 1 and 500 characters"},
		{`,"title":7`, "title: must be a string"},
		{`,"metadata":` + metadataJSON(16), ""},
		{`,"metadata":` + metadataJSON(17), "metadata: must have at most 16 pairs"},
		{`,"metadata":{"k":"` + n(513) + `"}`, "metadata.k: must be at most 512 characters"},
		{`,"metadata":null`, "metadata: must not be null"},
		{`,"nope":1`, "nope: unknown field"},

		{`,"resources":[` + jsonItems(500, file) + `]`, ""},
		{`,"resources":[` + jsonItems(501, file) + `]`, "resources: must have at most 500 items"},
		{`,"resources":null`, "resources: must not be null"},
		{`,"resources":[{"type":"disk"}]`, "resources[0].type: must be one of `file`, `vcs_repository`, `memory_store`"},
		{`,"resources":[{"file_id":"file_1"}]`, "resources[0].type: is required"},
		{`,"resources":[{"type":"file","file_id":"file_1","url":"x"}]`, "resources[0].url: unknown field"},
		{`,"resources":[{"type":"file"}]`, "resources[0].file_id: is required"},
		{`,"resources":[{"type":"file","file_id":"file_` + n(123) + `"}]`, ""},
		{`,"resources":[{"type":"file","file_id":"file_` + n(124) + `"}]`, "resources[0].file_id: must be between 1 and 128 characters"},
		{`,"resources":[{"type":"file","file_id":"doc_1"}]`, "resources[0].file_id: must be a file id (`file_…`)"},
		{`,"resources":[{"type":"file","file_id":"file_1","mount_path":"/` + n(4095) + `"}]`, ""},
		{`,"resources":[{"type":"file","file_id":"file_1","mount_path":"/` + n(4096) + `"}]`, "resources[0].mount_path: must be between 1 and 4096 characters"},
		{`,"resources":[{"type":"file","file_id":"file_1","mount_path":"rel"}]`, "resources[0].mount_path: must start with `/`"},
		{`,"resources":[{"type":"file","file_id":"file_1","mount_path":"/workspace/../etc/passwd"}]`, "resources[0].mount_path: must not contain a `.` or `..` segment"},
		{`,"resources":[{"type":"file","file_id":"file_1","mount_path":"/workspace//in.csv"}]`, "resources[0].mount_path: must not contain an empty segment (`//`)"},
		{`,"resources":[{"type":"file","file_id":"file_1","mount_path":"/workspace/in\u0000.csv"}]`, "resources[0].mount_path: must not contain a NUL character"},
		{`,"resources":[{"type":"file","file_id":"file_1","mount_path":null}]`, ""},
		{`,"resources":[{"type":"file","file_id":"file_1"},{"type":"file","file_id":"file_2","mount_path":"/mnt/session/uploads/file_1"}]`,
			"resources[1].mount_path: duplicate mount path `/mnt/session/uploads/file_1`"},
		{`,"resources":[` + repo(`,"authorization_token":"`+n(4096)+`"`) + `]`, ""},
		{`,"resources":[` + repo(`,"authorization_token":"`+n(4097)+`"`) + `]`, "resources[0].authorization_token: must be between 1 and 4096 characters"},
		{`,"resources":[` + repo(`,"authorization_token":null`) + `]`, "resources[0].authorization_token: must not be null"},
		{`,"resources":[{"type":"vcs_repository","url":"http://example.com/r"}]`, "resources[0].url: must be an absolute https URL"},
		{`,"resources":[{"type":"vcs_repository"}]`, "resources[0].url: is required"},
		{`,"resources":[` + repo(`,"checkout":{"type":"branch","name":"`+n(255)+`"}`) + `]`, ""},
		{`,"resources":[` + repo(`,"checkout":{"type":"branch","name":"`+n(256)+`"}`) + `]`, "resources[0].checkout.name: must be between 1 and 255 characters"},
		{`,"resources":[` + repo(`,"checkout":{"type":"commit","sha":"abcdef0"}`) + `]`, ""},
		{`,"resources":[` + repo(`,"checkout":{"type":"commit","sha":"abcdef"}`) + `]`, "resources[0].checkout.sha: must be between 7 and 64 characters"},
		{`,"resources":[` + repo(`,"checkout":{"type":"commit","sha":"`+strings.Repeat("a", 64)+`"}`) + `]`, ""},
		{`,"resources":[` + repo(`,"checkout":{"type":"commit","sha":"`+strings.Repeat("a", 65)+`"}`) + `]`, "resources[0].checkout.sha: must be between 7 and 64 characters"},
		{`,"resources":[` + repo(`,"checkout":{"type":"commit","sha":"zzzzzzz"}`) + `]`, "resources[0].checkout.sha: must be a hexadecimal commit id"},
		{`,"resources":[` + repo(`,"checkout":{"type":"tag","name":"v1"}`) + `]`, "resources[0].checkout.type: must be one of `branch`, `commit`"},
		{`,"resources":[` + repo(`,"checkout":{"type":"branch","sha":"abcdef0"}`) + `]`, "resources[0].checkout.sha: unknown field"},
		{`,"resources":[` + repo(``) + `,` + repo(``) + `]`, "resources[1].mount_path: duplicate mount path `/workspace/r`"},

		{`,"vault_ids":[` + jsonItems(50, vault) + `]`, ""},
		{`,"vault_ids":[` + jsonItems(51, vault) + `]`, "vault_ids: must have at most 50 items"},
		{`,"vault_ids":["vault_1"]`, "vault_ids[0]: must be a vault id (`vlt_…`)"},
		{`,"vault_ids":["vlt_1","vlt_1"]`, "vault_ids[1]: duplicate vault id `vlt_1`"},
		{`,"vault_ids":[null]`, "vault_ids[0]: must not be null"},
		{`,"vault_ids":null`, "vault_ids: must not be null"},

		{budget(`{"amount":"1","currency":"USD"}`), ""},
		{budget(`{"amount":"999999999999999999","currency":"USD"}`), ""},
		{budget(`{"amount":"1000000000000000000","currency":"USD"}`), "budget.max_list_cost.amount: must have at most 18 digits"},
		{budget(`{"amount":"0","currency":"USD"}`), "budget.max_list_cost.amount: must be at least 1"},
		{budget(`{"amount":"0100","currency":"USD"}`), "budget.max_list_cost.amount: must be a decimal integer string without leading zeros"},
		{budget(`{"amount":100,"currency":"USD"}`), "budget.max_list_cost.amount: must be a string"},
		{budget(`{"amount":"100","currency":"EUR"}`), "budget.max_list_cost.currency: must be one of `USD`"},
		{budget(`{"amount":"100"}`), "budget.max_list_cost.currency: is required"},
		{`,"budget":{"type":"limit"}`, "budget.max_list_cost: is required"},
		{`,"budget":{"type":"cap","max_list_cost":{"amount":"1","currency":"USD"}}`, "budget.type: must be one of `limit`"},
		{`,"budget":{"max_list_cost":{"amount":"1","currency":"USD"}}`, "budget.type: is required"},

		{`,"initial_events":[` + jsonItems(50, func(int) string { return msg }) + `]`, ""},
		{`,"initial_events":[` + jsonItems(51, func(int) string { return msg }) + `]`, "initial_events: must have at most 50 items"},
		{`,"initial_events":[` + msg + `,` + sys + `]`, ""},
		{`,"initial_events":[` + sys + `]`, "initial_events[0]: system.message must be the last event and follow a user.message"},
		{`,"initial_events":[` + msg + `,` + sys + `,` + msg + `]`, "initial_events[1]: system.message must be the last event and follow a user.message"},
		{`,"initial_events":[` + outcome(``) + `,` + sys + `]`, "initial_events[1]: system.message must be the last event and follow a user.message"},
		{`,"initial_events":[` + msg + `,` + sys + `,` + sys + `]`, "initial_events[1]: system.message must be the last event and follow a user.message"},
		{`,"initial_events":[{"type":"user.interrupt"}]`, "initial_events[0].type: must be one of `user.message`, `user.define_outcome`, `system.message`"},
		{`,"initial_events":[{"type":"user.message","content":[]}]`, "initial_events[0].content: must have at least 1 item"},
		{`,"initial_events":[{"type":"user.message"}]`, "initial_events[0].content: is required"},
		{`,"initial_events":[{"type":"user.message","content":[{"type":"image","source":{}}]}]`, "initial_events[0].content[0].type: must be one of `text`"},
		{`,"initial_events":[{"type":"user.message","content":[{"type":"text","text":""}]}]`, "initial_events[0].content[0].text: must be at least 1 character"},
		{`,"initial_events":[{"type":"user.message","content":[{"type":"text","text":"a","cache":1}]}]`, "initial_events[0].content[0].cache: unknown field"},
		{`,"initial_events":[` + outcome(`,"max_iterations":20`) + `]`, ""},
		{`,"initial_events":[` + outcome(`,"max_iterations":21`) + `]`, "initial_events[0].max_iterations: must be between 1 and 20"},
		{`,"initial_events":[` + outcome(`,"max_iterations":0`) + `]`, "initial_events[0].max_iterations: must be between 1 and 20"},
		{`,"initial_events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"` + n(262144) + `"}}]`, ""},
		{`,"initial_events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"` + n(262145) + `"}}]`,
			"initial_events[0].rubric.content: must be between 1 and 262144 characters"},
		{`,"initial_events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"file","file_id":"file_1"}}]`, ""},
		{`,"initial_events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"file","file_id":"f"}}]`,
			"initial_events[0].rubric.file_id: must be a file id (`file_…`)"},
		{`,"initial_events":[{"type":"user.define_outcome","description":"d"}]`, "initial_events[0].rubric: is required"},
		{`,"initial_events":[{"type":"user.define_outcome","description":"","rubric":{"type":"file","file_id":"file_1"}}]`,
			"initial_events[0].description: must be at least 1 character"},
		{`,"initial_events":null`, "initial_events: must not be null"},
	}
	for _, tc := range cases {
		name := tc.extra
		if len(name) > 70 {
			name = name[:70]
		}
		t.Run(name, func(t *testing.T) {
			r := f.ma(t, "POST", sessionsPath, f.sessionBody(tc.extra))
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantInvalid(t, r, tc.message)
		})
	}

	// Required fields, references and their states.
	wantInvalid(t, f.ma(t, "POST", sessionsPath, ``), "agent: is required")
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`"}`), "environment_id: is required")
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`","environment_id":"`+n(129)+`"}`),
		"environment_id: must be between 1 and 128 characters")
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_ref","id":"x"},"environment_id":"e"}`),
		"agent.type: must be one of `agent`, `agent_with_overrides`")
	wantError(t, f.ma(t, "POST", sessionsPath, `{"agent":"agent_01nope","environment_id":"`+f.envID+`"}`),
		http.StatusNotFound, "not_found_error", "Agent `agent_01nope` not found.")
	wantError(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent","id":"`+f.agent+`","version":9},"environment_id":"`+f.envID+`"}`),
		http.StatusNotFound, "not_found_error", "Agent `"+f.agent+"` version `9` not found.")
	wantError(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`","environment_id":"env_01nope"}`),
		http.StatusNotFound, "not_found_error", "Environment `env_01nope` not found.")
	wantError(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[{"type":"memory_store","memory_store_id":"memstore_01nope"}]`)),
		http.StatusNotFound, "not_found_error", "Memory store `memstore_01nope` not found.")

	archivedEnv := f.createEnvironment(t, `{"name":"gone"}`)["id"].(string)
	wantOK(t, f.ma(t, "POST", "/v1/environments/"+archivedEnv+"/archive", ""))
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`","environment_id":"`+archivedEnv+`"}`),
		"environment_id: environment `"+archivedEnv+"` is archived")
	archivedAgent := f.createAgent(t, "gone")
	wantOK(t, f.ma(t, "POST", "/v1/agents/"+archivedAgent+"/archive", ""))
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+archivedAgent+`","environment_id":"`+f.envID+`"}`),
		"agent: agent `"+archivedAgent+"` is archived")

	selfHosted := f.createEnvironment(t, `{"name":"sh","config":{"type":"self_hosted"}}`)["id"].(string)
	wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`","environment_id":"`+selfHosted+`","resources":[]}`))
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+f.agent+`","environment_id":"`+selfHosted+`","resources":[`+file(1)+`]}`),
		"resources: self-hosted environments cannot mount resources")

	// Memory stores: at most 8, each once, archived ones refused, slugs unique.
	var stores []string
	for i := range 9 {
		stores = append(stores, f.createMemoryStore(t, fmt.Sprintf(`{"name":"store %d"}`, i)))
	}
	mem := func(i int) string { return `{"type":"memory_store","memory_store_id":"` + stores[i] + `"}` }
	wantOK(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[`+jsonItems(8, mem)+`]`)))
	wantInvalid(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[`+jsonItems(9, mem)+`]`)),
		"resources: must have at most 8 memory stores")
	wantInvalid(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[`+mem(0)+`,`+mem(0)+`]`)),
		"resources[1].memory_store_id: duplicate memory store `"+stores[0]+"`")
	twin := f.createMemoryStore(t, `{"name":"Store 0!"}`)
	wantInvalid(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[`+mem(0)+`,{"type":"memory_store","memory_store_id":"`+twin+`"}]`)),
		"resources[1].mount_path: duplicate mount path `/mnt/memory/store-0`")
	wantOK(t, f.do(t, "POST", memoryStoresPath+"/"+stores[1]+"/archive", "", memoryBeta))
	wantInvalid(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[`+mem(1)+`]`)),
		"resources[0].memory_store_id: memory store `"+stores[1]+"` is archived")
	wantInvalid(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[{"type":"memory_store","memory_store_id":"`+stores[2]+`","mount_path":"/x"}]`)),
		"resources[0].mount_path: unknown field")
	wantInvalid(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[{"type":"memory_store","memory_store_id":"`+stores[2]+`","access":"write"}]`)),
		"resources[0].access: must be one of `read_write`, `read_only`")
	wantOK(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[{"type":"memory_store","memory_store_id":"`+stores[2]+`","instructions":"`+n(4096)+`"}]`)))
	wantInvalid(t, f.ma(t, "POST", sessionsPath, f.sessionBody(`,"resources":[{"type":"memory_store","memory_store_id":"`+stores[2]+`","instructions":"`+n(4097)+`"}]`)),
		"resources[0].instructions: must be at most 4096 characters")

	// A budget needs every model the agent can run to be priced.
	custom := f.createAgentJSON(t, `{"name":"c","model":"vendor-sonnet-4-5"}`)["id"].(string)
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+custom+`","environment_id":"`+f.envID+`"`+budget(`{"amount":"1","currency":"USD"}`)+`}`),
		"budget: model_not_budgetable: model `vendor-sonnet-4-5` has no public list price")
	lead := f.createAgentJSON(t, `{"name":"l","model":"vendor-opus-5-5","multiagent":{"type":"coordinator","agents":["`+custom+`"]}}`)["id"].(string)
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+lead+`","environment_id":"`+f.envID+`"`+budget(`{"amount":"1","currency":"USD"}`)+`}`),
		"budget: model_not_budgetable: model `vendor-sonnet-4-5` has no public list price")
	wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+custom+`","environment_id":"`+f.envID+`"}`))
}

func TestSessionAgentWithOverrides(t *testing.T) {
	f := newSessionFixture(t)
	body := `{"agent":{"type":"agent_with_overrides","id":"` + f.agent + `","model":{"id":"vendor-opus-5-5","effort":"low"},
		"system":"overridden","skills":[{"type":"vendor","skill_id":"xlsx"}],
		"tools":[{"type":"mcp_toolset","mcp_server_name":"m"}],"mcp_servers":[{"type":"url","name":"m","url":"https://m.example"}]},
		"environment_id":"` + f.envID + `"}`
	got := wantOK(t, f.ma(t, "POST", sessionsPath, body))
	agent := got["agent"].(map[string]any)
	if agent["system"] != "overridden" || mustMarshal(agent["model"]) != `{"effort":{"type":"low"},"id":"vendor-opus-5-5","inference_geo":null,"speed":"standard"}` ||
		len(agent["tools"].([]any)) != 1 || len(agent["mcp_servers"].([]any)) != 1 || len(agent["skills"].([]any)) != 1 ||
		agent["id"] != f.agent || agent["version"] != float64(1) {
		t.Fatalf("overridden agent %s", mustMarshal(agent))
	}
	stored := wantOK(t, f.ma(t, "GET", "/v1/agents/"+f.agent, ""))
	if stored["system"] != nil || stored["version"] != float64(1) {
		t.Fatalf("the agent itself changed: %v", stored)
	}
	// system null clears; [] clears a list.
	got = wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`","system":null,"skills":[]},"environment_id":"`+f.envID+`"}`))
	if a := got["agent"].(map[string]any); a["system"] != nil || mustMarshal(a["skills"]) != `[]` {
		t.Fatalf("cleared %v", a)
	}
	for extra, message := range map[string]string{
		`,"tools":null`:      "agent.tools: must not be null",
		`,"model":null`:      "agent.model: must not be null",
		`,"multiagent":null`: "agent.multiagent: unknown field",
		`,"system":"` + strings.Repeat("s", 100001) + `"`:         "agent.system: must be at most 100000 characters",
		`,"tools":[{"type":"mcp_toolset","mcp_server_name":"m"}]`: "agent.tools[0].mcp_server_name: no mcp_servers entry named `m`",
		`,"skills":[{"type":"custom","skill_id":"x"}]`:            "agent.skills[0].skill_id: must be a custom skill id (`skill_…`)",
	} {
		wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`"`+extra+`},"environment_id":"`+f.envID+`"}`), message)
	}
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides"},"environment_id":"`+f.envID+`"}`), "agent.id: is required")
	wantError(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`","version":2},"environment_id":"`+f.envID+`"}`),
		http.StatusNotFound, "not_found_error", "Agent `"+f.agent+"` version `2` not found.")
	// An override to an unpriced model cannot carry a budget.
	wantInvalid(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`","model":"vendor-sonnet-4-5"},
		"environment_id":"`+f.envID+`","budget":{"type":"limit","max_list_cost":{"amount":"5","currency":"USD"}}}`),
		"budget: model_not_budgetable: model `vendor-sonnet-4-5` has no public list price")
}
