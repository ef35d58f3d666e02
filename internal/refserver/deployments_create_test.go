package refserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Create Deployment rules (docs/managed-agents-wire.md 8.2, 11): every limit at its
// boundary, the schedule, references and their states.

func TestDeploymentCreateErrors(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	f.putVaults()
	n := func(k int) string { return strings.Repeat("x", k) }
	file := func(i int) string { return fmt.Sprintf(`{"type":"file","file_id":"file_%d"}`, i) }
	vault := func(i int) string { return fmt.Sprintf(`"vlt_%d"`, i) }
	msgs := func(k int) string { return `[` + jsonItems(k, func(int) string { return userMessage }) + `]` }
	expr := func(k int) string { // a valid expression of exactly k characters
		if k%2 == 1 {
			return strings.Repeat("1,", (k-9)/2) + "1 * * * *"
		}
		return strings.Repeat("1,", (k-10)/2) + "10 * * * *"
	}
	cases := []struct{ override, message string }{
		{`"name":"` + n(256) + `"`, ""},
		{`"name":"` + n(257) + `"`, "name: must be between 1 and 256 characters"},
		{`"name":""`, "name: must be between 1 and 256 characters"},
		{`"name":-`, "name: is required"},
		{`"name":null`, "name: must not be null"},
		{`"agent":-`, "agent: is required"},
		{`"agent":{"type":"agent_with_overrides","id":"x"}`, "agent.type: must be one of `agent`"},
		{`"environment_id":-`, "environment_id: is required"},
		{`"environment_id":"` + n(129) + `"`, "environment_id: must be between 1 and 128 characters"},
		{`"initial_events":-`, "initial_events: is required"},
		{`"initial_events":[]`, "initial_events: must have between 1 and 50 items"},
		{`"initial_events":` + msgs(50), ""},
		{`"initial_events":` + msgs(51), "initial_events: must have between 1 and 50 items"},
		{`"initial_events":[{"type":"user.interrupt"}]`, "initial_events[0].type: must be one of `user.message`, `user.define_outcome`, `system.message`"},
		{`"initial_events":[` + userMessage + `,{"type":"system.message","content":[{"type":"text","text":"s"}]}]`, ""},
		{`"initial_events":[{"type":"system.message","content":[{"type":"text","text":"s"}]}]`,
			"initial_events[0]: system.message must be the last event and follow a user.message"},
		{`"description":"` + n(2048) + `"`, ""},
		{`"description":"` + n(2049) + `"`, "description: must be at most 2048 characters"},
		{`"metadata":` + metadataJSON(16), ""},
		{`"metadata":` + metadataJSON(17), "metadata: must have at most 16 pairs"},
		{`"metadata":{"` + n(64) + `":"v"}`, ""},
		{`"metadata":{"` + n(65) + `":"v"}`, "metadata: keys must be between 1 and 64 characters"},
		{`"metadata":{"k":"` + n(512) + `"}`, ""},
		{`"metadata":{"k":"` + n(513) + `"}`, "metadata.k: must be at most 512 characters"},
		{`"resources":[` + jsonItems(500, file) + `]`, ""},
		{`"resources":[` + jsonItems(501, file) + `]`, "resources: must have at most 500 items"},
		{`"resources":null`, "resources: must not be null"},
		{`"resources":[{"type":"file","file_id":"file_1"},{"type":"file","file_id":"file_1"}]`,
			"resources[1].mount_path: duplicate mount path `/mnt/session/uploads/file_1`"},
		{`"vault_ids":[` + jsonItems(50, vault) + `]`, ""},
		{`"vault_ids":[` + jsonItems(51, vault) + `]`, "vault_ids: must have at most 50 items"},
		{`"vault_ids":null`, "vault_ids: must not be null"},
		{`"budget":{"type":"limit","max_list_cost":{"amount":"-1","currency":"USD"}}`,
			"budget.max_list_cost.amount: must be a decimal integer string without leading zeros"},
		{`"schedule":{"type":"cron","expression":"` + expr(256) + `","timezone":"UTC"}`, ""},
		{`"schedule":{"type":"cron","expression":"` + expr(255) + ` ","timezone":"UTC"}`, ""},
		{`"schedule":{"type":"cron","expression":"` + expr(257) + `","timezone":"UTC"}`, "schedule.expression: must be between 1 and 256 characters"},
		{`"schedule":{"type":"cron","expression":"","timezone":"UTC"}`, "schedule.expression: must be between 1 and 256 characters"},
		{`"schedule":{"type":"cron","timezone":"UTC"}`, "schedule.expression: is required"},
		{`"schedule":{"type":"cron","expression":"0 9 * * *"}`, "schedule.timezone: is required"},
		{`"schedule":{"type":"cron","expression":"0 9 * * *","timezone":""}`, "schedule.timezone: must be at least 1 character"},
		{`"schedule":{"type":"cron","expression":"0 9 * * *","timezone":"Mars/Olympus"}`, `schedule.timezone: unknown IANA time zone "Mars/Olympus"`},
		{`"schedule":{"type":"cron","expression":"0 9 * * 8","timezone":"UTC"}`, "schedule.expression: day-of-week value 8 is out of range 0-7"},
		{`"schedule":{"type":"cron","expression":"0 9 * * 7","timezone":"UTC"}`, ""},
		{`"schedule":{"type":"rate","expression":"0 9 * * *","timezone":"UTC"}`, "schedule.type: must be one of `cron`"},
		{`"schedule":{"expression":"0 9 * * *","timezone":"UTC"}`, "schedule.type: is required"},
		{`"schedule":{"type":"cron","expression":"0 9 * * *","timezone":"UTC","jitter":1}`, "schedule.jitter: unknown field"},
		{`"status":"paused"`, "status: unknown field"},
	}
	for _, tc := range cases {
		name := tc.override
		if len(name) > 70 {
			name = name[:70]
		}
		t.Run(name, func(t *testing.T) {
			r := f.ma(t, "POST", deploymentsPath, f.deploymentBody(tc.override))
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantInvalid(t, r, tc.message)
		})
	}
	// @daily and friends are refused by the schedule package; its rule is the message.
	r := f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"schedule":{"type":"cron","expression":"@daily","timezone":"UTC"}`))
	wantError(t, r, http.StatusBadRequest, "invalid_request_error", "")
	if m := errorMessage(t, r); !strings.HasPrefix(m, "schedule.expression: ") || !strings.Contains(m, "descriptors") {
		t.Fatalf("@daily: %s", m)
	}

	// References and their states.
	wantError(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"agent":"agent_01nope"`)), http.StatusNotFound, "not_found_error", "Agent `agent_01nope` not found.")
	wantError(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"environment_id":"env_01nope"`)), http.StatusNotFound, "not_found_error", "Environment `env_01nope` not found.")
	gone := f.createAgent(t, "gone")
	wantOK(t, f.ma(t, "POST", "/v1/agents/"+gone+"/archive", ""))
	wantInvalid(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"agent":"`+gone+`"`)), "agent: agent `"+gone+"` is archived")
	oldEnv := f.createEnvironment(t, `{"name":"old"}`)["id"].(string)
	wantOK(t, f.ma(t, "POST", "/v1/environments/"+oldEnv+"/archive", ""))
	wantInvalid(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"environment_id":"`+oldEnv+`"`)), "environment_id: environment `"+oldEnv+"` is archived")
	sh := f.createEnvironment(t, `{"name":"sh","config":{"type":"self_hosted"}}`)["id"].(string)
	wantOK(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"environment_id":"`+sh+`"`)))
	wantInvalid(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"environment_id":"`+sh+`"`, `"resources":[`+file(1)+`]`)),
		"resources: self-hosted environments cannot mount resources")
	store := f.createMemoryStore(t, `{"name":"s"}`)
	wantOK(t, f.do(t, "POST", memoryStoresPath+"/"+store+"/archive", "", memoryBeta))
	wantInvalid(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"resources":[{"type":"memory_store","memory_store_id":"`+store+`"}]`)),
		"resources[0].memory_store_id: memory store `"+store+"` is archived")
	custom := f.createAgentJSON(t, `{"name":"c","model":"vendor-sonnet-4-5"}`)["id"].(string)
	wantInvalid(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(`"agent":"`+custom+`"`, `"budget":`+budget25)),
		"budget: model_not_budgetable: model `vendor-sonnet-4-5` has no public list price")
	wantInvalid(t, f.do(t, "POST", deploymentsPath, f.deploymentBody()), "vendor-beta: this endpoint requires the beta value `managed-agents-2026-04-01`")
}
