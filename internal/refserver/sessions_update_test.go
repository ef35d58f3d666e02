package refserver_test

import (
	"net/http"
	"testing"
	"time"
)

// Update Session (docs/managed-agents-wire.md 6.5, 6.6).

const budget25 = `{"type":"limit","max_list_cost":{"amount":"2500","currency":"USD"}}`

func TestSessionUpdateMetadataAndTitle(t *testing.T) {
	f := newSessionFixture(t)
	id := f.sessionID(t, `,"title":"t","metadata":{"a":"1","b":"2"}`)
	path := sessionsPath + "/" + id
	update := func(body string) map[string]any {
		t.Helper()
		f.clock.Advance(time.Second)
		return wantOK(t, f.ma(t, "POST", path, body))
	}
	// A patch: strings upsert, null deletes, keys not named are kept.
	got := update(`{"metadata":{"a":"one","b":null,"c":"3"}}`)
	if mustMarshal(got["metadata"]) != `{"a":"one","c":"3"}` || got["title"] != "t" {
		t.Fatalf("patched %v", got)
	}
	moved := got["updated_at"]
	if moved == testNow {
		t.Fatal("updated_at did not move")
	}
	// Omitted and null metadata keep the map; an empty update changes nothing.
	for _, body := range []string{`{}`, `{"metadata":null}`, `{"metadata":{}}`, `{"title":"t"}`, `{"metadata":{"zz":null}}`} {
		got = update(body)
		if mustMarshal(got["metadata"]) != `{"a":"one","c":"3"}` || got["updated_at"] != moved {
			t.Fatalf("%s: %v", body, got)
		}
	}
	got = update(`{"title":null}`)
	if got["title"] != nil || got["updated_at"] == moved {
		t.Fatalf("title cleared %v", got)
	}
	got = update(`{"title":"new"}`)
	if got["title"] != "new" {
		t.Fatalf("title %v", got)
	}
	// The 16-pair limit applies to the result.
	wantOK(t, f.ma(t, "POST", path, `{"metadata":`+metadataJSON(14)+`}`)) // k0..k13 plus a, c
	wantInvalid(t, f.ma(t, "POST", path, `{"metadata":{"one_more":"x"}}`), "metadata: must have at most 16 pairs")
	wantOK(t, f.ma(t, "POST", path, `{"metadata":{"a":null,"one_more":"x"}}`))
	for body, message := range map[string]string{
		`{"title":""}`:                          "title: must be between 1 and 500 characters",
		`{"metadata":{"k":1}}`:                  "metadata.k: must be a string",
		`{"vault_ids":["vlt_1"]}`:               "vault_ids: cannot be updated",
		`{"vault_ids":null}`:                    "vault_ids: cannot be updated",
		`{"vault_ids":[]}`:                      "vault_ids: cannot be updated",
		`{"status":"idle"}`:                     "status: unknown field",
		`{"agent":null}`:                        "agent: must not be null",
		`{"agent":{"model":"vendor-opus-5-5"}}`: "agent.model: unknown field",
		`{"agent":{"tools":null}}`:              "agent.tools: must not be null",
		`{"agent":{"mcp_servers":[{"type":"url","name":"m","url":"https://m.example"}]}}`: "agent.mcp_servers[0].name: server `m` is not referenced by any mcp_toolset",
	} {
		wantInvalid(t, f.ma(t, "POST", path, body), message)
	}
	wantError(t, f.ma(t, "POST", sessionsPath+"/sesn_01nope", `{}`), http.StatusNotFound, "not_found_error", "Session `sesn_01nope` not found.")
}

func TestSessionUpdateAgent(t *testing.T) {
	f := newSessionFixture(t)
	id := f.sessionID(t, "")
	path := sessionsPath + "/" + id
	got := wantOK(t, f.ma(t, "POST", path, `{"agent":{"tools":[{"type":"mcp_toolset","mcp_server_name":"m"}],
		"mcp_servers":[{"type":"url","name":"m","url":"https://m.example"}]}}`))
	agent := got["agent"].(map[string]any)
	if len(agent["tools"].([]any)) != 1 || len(agent["mcp_servers"].([]any)) != 1 || agent["version"] != float64(1) {
		t.Fatalf("agent %v", agent)
	}
	// Kept tools are checked against the new servers; [] clears both.
	wantInvalid(t, f.ma(t, "POST", path, `{"agent":{"mcp_servers":[]}}`), "agent.tools[0].mcp_server_name: no mcp_servers entry named `m`")
	got = wantOK(t, f.ma(t, "POST", path, `{"agent":{"tools":[],"mcp_servers":[]}}`))
	if a := got["agent"].(map[string]any); mustMarshal(a["tools"]) != `[]` || mustMarshal(a["mcp_servers"]) != `[]` {
		t.Fatalf("cleared %v", a)
	}
	// The agent's own versions are untouched.
	if a := wantOK(t, f.ma(t, "GET", "/v1/agents/"+f.agent, "")); a["version"] != float64(1) || mustMarshal(a["tools"]) != `[]` {
		t.Fatalf("agent changed %v", a)
	}
	// Only while not running; budget and metadata still change then.
	f.srv.SetSessionStateForTest(id, "running", 0)
	wantConflict(t, f.ma(t, "POST", path, `{"agent":{"tools":[]}}`), "conflict_error", "agent: session is running; interrupt it first")
	wantOK(t, f.ma(t, "POST", path, `{"metadata":{"a":"b"},"budget":null}`))
	// Only for sessions created from a reference: not with overrides.
	over := wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":{"type":"agent_with_overrides","id":"`+f.agent+`","system":"s"},"environment_id":"`+f.envID+`"}`))["id"].(string)
	wantInvalid(t, f.ma(t, "POST", sessionsPath+"/"+over, `{"agent":{"tools":[]}}`),
		"agent: only sessions created from an agent or deployment reference can be updated")
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+over, `{"title":"fine"}`))
}

func TestSessionUpdateBudget(t *testing.T) {
	f := newSessionFixture(t)
	raise := func(amount string) string {
		return `{"budget":{"type":"limit","max_list_cost":{"amount":"` + amount + `","currency":"USD"}}}`
	}
	// budget_create_only: no budget at creation.
	none := f.sessionID(t, "")
	wantInvalid(t, f.ma(t, "POST", sessionsPath+"/"+none, raise("100")),
		"budget: budget_create_only: a budget can only be set when the session is created")
	wantOK(t, f.ma(t, "POST", sessionsPath+"/"+none, `{"budget":null}`)) // removing nothing is fine

	id := f.sessionID(t, `,"budget":`+budget25)
	path := sessionsPath + "/" + id
	// budget_not_raised: at or below the consumed list cost.
	f.srv.SetSessionStateForTest(id, "idle", 1200)
	if got := wantOK(t, f.ma(t, "GET", path, "")); mustMarshal(got["usage"].(map[string]any)["list_cost"]) != `{"amount":"1200","currency":"USD"}` {
		t.Fatalf("usage %v", got["usage"])
	}
	for _, amount := range []string{"1200", "1199", "1"} {
		wantInvalid(t, f.ma(t, "POST", path, raise(amount)), "budget: budget_not_raised: max_list_cost must be above the consumed list cost 1200")
	}
	got := wantOK(t, f.ma(t, "POST", path, raise("1201")))
	if mustMarshal(got["budget"]) != `{"max_list_cost":{"amount":"1201","currency":"USD"},"type":"limit"}` {
		t.Fatalf("budget %v", got["budget"])
	}
	// Lowering is fine while above the consumed cost; any non-terminated status.
	f.srv.SetSessionStateForTest(id, "running", 1200)
	wantOK(t, f.ma(t, "POST", path, raise("5000")))
	f.srv.SetSessionStateForTest(id, "rescheduling", 1200)
	wantOK(t, f.ma(t, "POST", path, raise("4000")))
	wantInvalid(t, f.ma(t, "POST", path, `{"budget":{"type":"limit"}}`), "budget.max_list_cost: is required")
	// Removed, a budget cannot come back.
	got = wantOK(t, f.ma(t, "POST", path, `{"budget":null}`))
	if got["budget"] != nil {
		t.Fatalf("budget not removed: %v", got["budget"])
	}
	wantInvalid(t, f.ma(t, "POST", path, raise("9000")), "budget: budget_create_only: a budget can only be set when the session is created")
	f.terminate(t, id)
	wantConflict(t, f.ma(t, "POST", path, `{"budget":null}`), "conflict_error", "session_id: session `"+id+"` is terminated")

	// model_not_budgetable: an agent that can run an unpriced model.
	custom := f.createAgentJSON(t, `{"name":"c","model":"vendor-sonnet-4-5"}`)["id"].(string)
	unpriced := wantOK(t, f.ma(t, "POST", sessionsPath, `{"agent":"`+custom+`","environment_id":"`+f.envID+`"}`))["id"].(string)
	wantInvalid(t, f.ma(t, "POST", sessionsPath+"/"+unpriced, raise("100")),
		"budget: model_not_budgetable: model `vendor-sonnet-4-5` has no public list price")
}
