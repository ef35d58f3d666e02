package refserver_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// Deployments D1–D8 over raw HTTP (docs/managed-agents-wire.md section 8).

const (
	deploymentsPath = "/v1/deployments"
	userMessage     = `{"type":"user.message","content":[{"type":"text","text":"Compile the report."}]}`
)

// deploymentBody is a valid create body with fields replaced or added:
// each override is `"key":value`; a value of - removes the key.
func (f sessionFixture) deploymentBody(overrides ...string) string {
	keys := []string{"agent", "environment_id", "initial_events", "name"}
	vals := map[string]string{
		"agent": `"` + f.agent + `"`, "environment_id": `"` + f.envID + `"`,
		"initial_events": `[` + userMessage + `]`, "name": `"report"`,
	}
	for _, o := range overrides {
		k, v, _ := strings.Cut(o, ":")
		k = strings.Trim(k, `"`)
		if _, ok := vals[k]; !ok {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	var parts []string
	for _, k := range keys {
		if vals[k] != "-" {
			parts = append(parts, `"`+k+`":`+vals[k])
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func (f sessionFixture) createDeployment(t *testing.T, overrides ...string) map[string]any {
	t.Helper()
	return wantOK(t, f.ma(t, "POST", deploymentsPath, f.deploymentBody(overrides...)))
}

func (f sessionFixture) deploymentID(t *testing.T, overrides ...string) string {
	t.Helper()
	return f.createDeployment(t, overrides...)["id"].(string)
}

func TestDeploymentWireShape(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	f.putVaults()
	store := f.createMemoryStore(t, `{"name":"notes"}`)
	r := f.ma(t, "POST", deploymentsPath, `{
		"agent": "`+f.agent+`", "environment_id": "`+f.envID+`",
		"initial_events": [`+userMessage+`,
			{"type": "user.define_outcome", "description": "d", "rubric": {"type": "file", "file_id": "file_1"}}],
		"name": "Daily order report",
		"budget": `+budget25+`,
		"description": "Compiles yesterday's orders.",
		"metadata": {"team": "ops"},
		"resources": [
			{"type": "vcs_repository", "url": "https://github.com/example-org/example-repo", "authorization_token": "deploy-secret",
			 "checkout": {"type": "branch", "name": "main"}},
			{"type": "file", "file_id": "file_1", "mount_path": "/data/in.csv"},
			{"type": "memory_store", "memory_store_id": "`+store+`", "access": null}
		],
		"schedule": {"type": "cron", "expression": "0 9 * * 1-5", "timezone": "America/Los_Angeles"},
		"vault_ids": ["vlt_011CZkZDLs7fYzm1hXNPeRjv"]
	}`)
	got := wantOK(t, r)
	id := got["id"].(string)
	if !strings.HasPrefix(id, "depl_") || strings.Contains(string(r.body), "deploy-secret") {
		t.Fatalf("id %q or token leaked: %s", id, r.body)
	}
	// 2026-11-25 is a Wednesday; 09:00 PST is 17:00 UTC.
	want := `{
	  "type": "deployment", "id": "` + id + `", "name": "Daily order report", "description": "Compiles yesterday's orders.",
	  "agent": {"type": "agent", "id": "` + f.agent + `", "version": 1},
	  "environment_id": "` + f.envID + `",
	  "initial_events": [` + userMessage + `,
	    {"type": "user.define_outcome", "description": "d", "rubric": {"type": "file", "file_id": "file_1"}, "max_iterations": 3}],
	  "resources": [
	    {"type": "vcs_repository", "url": "https://github.com/example-org/example-repo", "checkout": {"type": "branch", "name": "main"}, "mount_path": null},
	    {"type": "file", "file_id": "file_1", "mount_path": "/data/in.csv"},
	    {"type": "memory_store", "memory_store_id": "` + store + `", "access": null, "instructions": null}
	  ],
	  "vault_ids": ["vlt_011CZkZDLs7fYzm1hXNPeRjv"],
	  "budget": ` + budget25 + `,
	  "schedule": {"type": "cron", "expression": "0 9 * * 1-5", "timezone": "America/Los_Angeles", "last_run_at": null,
	    "upcoming_runs_at": ["2026-11-26T17:00:00.000000Z", "2026-11-27T17:00:00.000000Z", "2026-11-30T17:00:00.000000Z",
	                         "2026-12-01T17:00:00.000000Z", "2026-12-02T17:00:00.000000Z"]},
	  "status": "active", "paused_reason": null, "metadata": {"team": "ops"}, "archived_at": null,
	  "created_at": "` + testNow + `", "updated_at": "` + testNow + `"
	}`
	requireJSON(t, r, want)
	requireJSON(t, f.ma(t, "GET", deploymentsPath+"/"+id, ""), want)

	// Defaults: no schedule, no budget, empty lists.
	bare := f.createDeployment(t, `"description":null`, `"schedule":null`, `"budget":null`)
	for key, want := range map[string]string{
		"description": `null`, "schedule": `null`, "budget": `null`, "resources": `[]`, "vault_ids": `[]`, "metadata": `{}`,
	} {
		if b := mustMarshal(bare[key]); b != want {
			t.Errorf("%s = %s, want %s", key, b, want)
		}
	}
	if d := f.createDeployment(t, `"description":""`); d["description"] != nil {
		t.Fatalf(`"" description is stored as null: %v`, d["description"])
	}
}

type deploymentPage struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	NextPage *string `json:"next_page"`
}

func (f sessionFixture) listDeploymentIDs(t *testing.T, query string) ([]string, *string) {
	t.Helper()
	var p deploymentPage
	r := f.ma(t, "GET", deploymentsPath+query, "")
	wantOK(t, r)
	r.decode(t, &p)
	var out []string
	for _, d := range p.Data {
		out = append(out, d.ID)
	}
	return out, p.NextPage
}

func TestDeploymentListAndIsolation(t *testing.T) {
	f := newSessionFixture(t)
	other := f.createAgent(t, "other")
	var ids []string
	for i := range 4 {
		agent := f.agent
		if i == 3 {
			agent = other
		}
		ids = append(ids, f.deploymentID(t, `"agent":"`+agent+`"`))
		f.clock.Advance(time.Second)
	}
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+ids[0]+"/archive", ""))
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+ids[1]+"/pause", ""))
	at := func(d time.Duration) string { return testStart.Add(d).Format(time.RFC3339Nano) }
	for query, want := range map[string][]string{
		"":                                      {ids[3], ids[2], ids[1]},
		"?include_archived=true":                {ids[3], ids[2], ids[1], ids[0]},
		"?agent_id=" + f.agent:                  {ids[2], ids[1]},
		"?status=paused":                        {ids[1]},
		"?status=active":                        {ids[3], ids[2]},
		"?created_at[gte]=" + at(2*time.Second): {ids[3], ids[2]},
		"?created_at[lte]=" + at(time.Second):   {ids[1]},
	} {
		if got, _ := f.listDeploymentIDs(t, query); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", query, got, want)
		}
	}
	// Pages walked to the end, and a cursor used after stopping early.
	var walked []string
	page, next := f.listDeploymentIDs(t, "?include_archived=true&limit=3")
	walked = append(walked, page...)
	page, next2 := f.listDeploymentIDs(t, "?include_archived=true&limit=3&page="+*next)
	walked = append(walked, page...)
	if !slices.Equal(walked, []string{ids[3], ids[2], ids[1], ids[0]}) || next2 != nil {
		t.Fatalf("walked %v", walked)
	}
	for query, message := range map[string]string{
		"?status=running":                      "status: must be one of `active`, `paused`",
		"?status=active&include_archived=true": "status: cannot be combined with include_archived",
		"?limit=101":                           "limit: must be between 1 and 100",
		"?page=bad":                            "page: invalid cursor",
		"?created_at[gte]=soon":                "created_at[gte]: must be an RFC 3339 timestamp",
	} {
		wantInvalid(t, f.ma(t, "GET", deploymentsPath+query, ""), message)
	}
	wantOK(t, f.ma(t, "GET", deploymentsPath+"?status=active&include_archived=false&limit=100", ""))

	ws := f.srv.CreateWorkspace("other")
	must(t, f.srv.GrantAPIAccess(f.seed.UserID, ws))
	in := withWorkspace(ws)
	if got, _ := f.listDeploymentIDs(t, "?include_archived=true"); len(got) != 4 {
		t.Fatalf("own list %v", got)
	}
	r := f.ma(t, "GET", deploymentsPath+"?include_archived=true", "", in)
	if data := wantOK(t, r)["data"].([]any); len(data) != 0 {
		t.Fatalf("other workspace lists %v", data)
	}
	notFound := "Deployment `" + ids[2] + "` not found."
	for _, r := range []response{
		f.ma(t, "GET", deploymentsPath+"/"+ids[2], "", in),
		f.ma(t, "POST", deploymentsPath+"/"+ids[2], `{}`, in),
		f.ma(t, "POST", deploymentsPath+"/"+ids[2]+"/pause", ``, in),
		f.ma(t, "POST", deploymentsPath+"/"+ids[2]+"/run", ``, in),
	} {
		wantError(t, r, http.StatusNotFound, "not_found_error", notFound)
	}
}

func TestDeploymentUpdate(t *testing.T) {
	f := newSessionFixture(t)
	f.putFiles()
	f.putVaults()
	store := f.createMemoryStore(t, `{"name":"s"}`)
	id := f.deploymentID(t, `"description":"d"`, `"metadata":{"a":"1","b":"2"}`, `"vault_ids":["vlt_1"]`, `"budget":`+budget25,
		`"resources":[{"type":"memory_store","memory_store_id":"`+store+`"}]`,
		`"schedule":{"type":"cron","expression":"0 9 * * *","timezone":"UTC"}`)
	path := deploymentsPath + "/" + id
	f.clock.Advance(time.Second)
	got := wantOK(t, f.ma(t, "POST", path, `{}`))
	if got["updated_at"] != testNow {
		t.Fatalf("an empty update moved updated_at: %v", got["updated_at"])
	}
	got = wantOK(t, f.ma(t, "POST", path, `{"name":"renamed","metadata":{"a":null,"c":"3"},"description":"","vault_ids":null,
		"resources":[],"budget":null,"schedule":{"type":"cron","expression":"30 6 * * *","timezone":"Europe/Paris"},
		"initial_events":[`+userMessage+`,`+userMessage+`]}`))
	if got["name"] != "renamed" || mustMarshal(got["metadata"]) != `{"b":"2","c":"3"}` || got["description"] != nil ||
		mustMarshal(got["vault_ids"]) != `[]` || mustMarshal(got["resources"]) != `[]` || got["budget"] != nil ||
		len(got["initial_events"].([]any)) != 2 || got["updated_at"] == testNow || got["status"] != "active" {
		t.Fatalf("updated %v", got)
	}
	sch := got["schedule"].(map[string]any)
	if sch["expression"] != "30 6 * * *" || sch["upcoming_runs_at"].([]any)[0] != "2026-11-26T05:30:00.000000Z" {
		t.Fatalf("schedule %v", sch)
	}
	got = wantOK(t, f.ma(t, "POST", path, `{"schedule":null,"resources":null}`))
	if got["schedule"] != nil || mustMarshal(got["resources"]) != `[]` {
		t.Fatalf("cleared %v", got)
	}
	// The agent is re-pinned; the budget rule follows it.
	wantOK(t, f.ma(t, "POST", "/v1/agents/"+f.agent, `{"system":"v2"}`))
	if got = wantOK(t, f.ma(t, "POST", path, `{"agent":"`+f.agent+`"}`)); mustMarshal(got["agent"]) != `{"id":"`+f.agent+`","type":"agent","version":2}` {
		t.Fatalf("agent %v", got["agent"])
	}
	wantOK(t, f.ma(t, "POST", path, `{"budget":`+budget25+`}`))
	custom := f.createAgentJSON(t, `{"name":"c","model":"vendor-sonnet-4-5"}`)["id"].(string)
	wantInvalid(t, f.ma(t, "POST", path, `{"agent":"`+custom+`"}`), "budget: model_not_budgetable: model `vendor-sonnet-4-5` has no public list price")
	wantOK(t, f.ma(t, "POST", path, `{"agent":"`+custom+`","budget":null}`))
	// A self-hosted environment cannot take the existing resources.
	wantOK(t, f.ma(t, "POST", path, `{"resources":[{"type":"file","file_id":"file_1"}]}`))
	sh := f.createEnvironment(t, `{"name":"sh","config":{"type":"self_hosted"}}`)["id"].(string)
	wantInvalid(t, f.ma(t, "POST", path, `{"environment_id":"`+sh+`"}`), "resources: self-hosted environments cannot mount resources")
	wantOK(t, f.ma(t, "POST", path, `{"environment_id":"`+sh+`","resources":[]}`))

	for body, message := range map[string]string{
		`{"name":null}`:                         "name: must not be null",
		`{"agent":null}`:                        "agent: must not be null",
		`{"environment_id":null}`:               "environment_id: must not be null",
		`{"initial_events":null}`:               "initial_events: must not be null",
		`{"initial_events":[]}`:                 "initial_events: must have between 1 and 50 items",
		`{"status":"active"}`:                   "status: unknown field",
		`{"metadata":` + metadataJSON(17) + `}`: "metadata: must have at most 16 pairs",
	} {
		wantInvalid(t, f.ma(t, "POST", path, body), message)
	}
	// Update changes neither status nor paused_reason; archived is final.
	wantOK(t, f.ma(t, "POST", path+"/pause", ""))
	if got = wantOK(t, f.ma(t, "POST", path, `{"name":"x"}`)); got["status"] != "paused" || mustMarshal(got["paused_reason"]) != `{"type":"manual"}` {
		t.Fatalf("update touched the status: %v", got)
	}
	wantOK(t, f.ma(t, "POST", path+"/archive", ""))
	wantConflict(t, f.ma(t, "POST", path, `{"name":"y"}`), "conflict_error", "deployment_id: deployment `"+id+"` is archived")
	wantError(t, f.ma(t, "POST", deploymentsPath+"/depl_01nope", `{}`), http.StatusNotFound, "not_found_error", "Deployment `depl_01nope` not found.")
}

func TestDeploymentPauseUnpauseArchive(t *testing.T) {
	f := newSessionFixture(t)
	id := f.deploymentID(t, `"schedule":{"type":"cron","expression":"0 * * * *","timezone":"UTC"}`)
	path := deploymentsPath + "/" + id
	wantInvalid(t, f.ma(t, "POST", path+"/pause", `{"reason":"x"}`), "reason: unknown field")
	f.clock.Advance(time.Second)
	got := wantOK(t, f.ma(t, "POST", path+"/pause", ""))
	if got["status"] != "paused" || mustMarshal(got["paused_reason"]) != `{"type":"manual"}` ||
		len(got["schedule"].(map[string]any)["upcoming_runs_at"].([]any)) != 5 {
		t.Fatalf("paused %v", got)
	}
	if again := wantOK(t, f.ma(t, "POST", path+"/pause", `{}`)); again["updated_at"] != got["updated_at"] {
		t.Fatalf("pausing twice changed something: %v", again)
	}
	got = wantOK(t, f.ma(t, "POST", path+"/unpause", ""))
	if got["status"] != "active" || got["paused_reason"] != nil {
		t.Fatalf("unpaused %v", got)
	}
	wantOK(t, f.ma(t, "POST", path+"/unpause", ""))
	wantOK(t, f.ma(t, "POST", path+"/pause", ""))
	got = wantOK(t, f.ma(t, "POST", path+"/archive", ""))
	if got["archived_at"] == nil || got["status"] != "active" || got["paused_reason"] != nil ||
		mustMarshal(got["schedule"].(map[string]any)["upcoming_runs_at"]) != `[]` {
		t.Fatalf("archived %v", got)
	}
	f.clock.Advance(time.Second)
	if again := wantOK(t, f.ma(t, "POST", path+"/archive", "")); again["archived_at"] != got["archived_at"] {
		t.Fatalf("archive is not idempotent: %v", again)
	}
	conflict := "deployment_id: deployment `" + id + "` is archived"
	for _, action := range []string{"/pause", "/unpause", "/run"} {
		wantConflict(t, f.ma(t, "POST", path+action, ""), "conflict_error", conflict)
	}
	wantOK(t, f.ma(t, "GET", path, ""))
}

func TestDeploymentRunNow(t *testing.T) {
	f := newSessionFixture(t)
	f.putVaults()
	store := f.createMemoryStore(t, `{"name":"Team Notes"}`)
	id := f.deploymentID(t, `"budget":`+budget25, `"vault_ids":["vlt_1"]`,
		`"initial_events":[`+userMessage+`,{"type":"system.message","content":[{"type":"text","text":"ctx"}]}]`,
		`"resources":[{"type":"vcs_repository","url":"https://example.com/o/app.git","authorization_token":"run-secret"},
			{"type":"memory_store","memory_store_id":"`+store+`","access":"read_only"}]`)
	path := deploymentsPath + "/" + id
	f.clock.Advance(time.Minute)
	now := testStart.Add(time.Minute).Format("2006-01-02T15:04:05.000000Z")
	r := f.ma(t, "POST", path+"/run", "")
	run := wantOK(t, r)
	requireKeys(t, run, "type", "id", "deployment_id", "agent", "trigger_context", "session_id", "error", "created_at")
	sid, _ := run["session_id"].(string)
	if !strings.HasPrefix(run["id"].(string), "drun_") || run["error"] != nil || sid == "" ||
		mustMarshal(run["trigger_context"]) != `{"type":"manual"}` || run["created_at"] != now || run["deployment_id"] != id ||
		mustMarshal(run["agent"]) != `{"id":"`+f.agent+`","type":"agent","version":1}` {
		t.Fatalf("run %s", r.body)
	}
	// The session is what the deployment describes.
	sess := wantOK(t, f.ma(t, "GET", sessionsPath+"/"+sid, ""))
	if sess["deployment_id"] != id || sess["title"] != nil || mustMarshal(sess["metadata"]) != `{}` ||
		mustMarshal(sess["vault_ids"]) != `["vlt_1"]` || mustMarshal(sess["budget"]) != mustMarshal(jsonValue(t, budget25)) ||
		sess["created_at"] != now || sess["environment_id"] != f.envID {
		t.Fatalf("session %v", sess)
	}
	res := sess["resources"].([]any)
	if len(res) != 2 || res[0].(map[string]any)["mount_path"] != "/workspace/app" ||
		res[1].(map[string]any)["mount_path"] != "/mnt/memory/team-notes" || res[1].(map[string]any)["access"] != "read_only" {
		t.Fatalf("resources %v", res)
	}
	// The initial events are recorded, then the turn they start runs in
	// the run's request (docs/session-events-wire.md 6.2).
	if events := f.srv.SessionEventsForTest(sid); len(events) < 4 || !strings.Contains(string(events[1]), `"type":"system.message"`) ||
		!strings.Contains(string(events[2]), `"type":"session.status_running"`) ||
		!strings.Contains(string(events[len(events)-1]), `"type":"session.status_idle"`) {
		t.Fatalf("events %s", events)
	}
	if ids := f.listSessions(t, "?deployment_id="+id).ids(); !slices.Equal(ids, []string{sid}) {
		t.Fatalf("sessions of the deployment %v", ids)
	}
	d := wantOK(t, f.ma(t, "GET", path, ""))
	if d["updated_at"] != testNow {
		t.Fatalf("run moved updated_at: %v", d["updated_at"])
	}

	// Paused deployments run by hand; a failed manual run is a 200 and pauses nothing.
	wantOK(t, f.ma(t, "POST", path+"/pause", ""))
	wantRun(t, f, path, "")
	wantOK(t, f.ma(t, "POST", path+"/unpause", ""))
	wantOK(t, f.ma(t, "POST", "/v1/environments/"+f.envID+"/archive", ""))
	failed := wantRun(t, f, path, "environment_archived_error")
	if e := failed["error"].(map[string]any); e["message"] != "environment `"+f.envID+"` is archived" {
		t.Fatalf("error %v", e)
	}
	if d := wantOK(t, f.ma(t, "GET", path, "")); d["status"] != "active" {
		t.Fatalf("a manual failure paused the deployment: %v", d)
	}
	wantInvalid(t, f.ma(t, "POST", path+"/run", `{"x":1}`), "x: unknown field")
}

// wantRun runs a deployment now and checks the run's error type ("" for
// success: a session id and a null error).
func wantRun(t *testing.T, f sessionFixture, path, errType string) map[string]any {
	t.Helper()
	run := wantOK(t, f.ma(t, "POST", path+"/run", ""))
	checkRun(t, run, errType)
	return run
}

func checkRun(t *testing.T, run map[string]any, errType string) {
	t.Helper()
	if errType == "" {
		if run["error"] != nil || run["session_id"] == nil {
			t.Fatalf("want a successful run: %v", run)
		}
		return
	}
	e, _ := run["error"].(map[string]any)
	if run["session_id"] != nil || e == nil || e["type"] != errType {
		t.Fatalf("want a %s run: %v", errType, run)
	}
}

func jsonValue(t *testing.T, s string) any {
	t.Helper()
	var v any
	response{body: []byte(s)}.decode(t, &v)
	return v
}

func TestArchivingAnAgentArchivesItsDeployments(t *testing.T) {
	f := newSessionFixture(t)
	other := f.createAgent(t, "other")
	a := f.deploymentID(t, `"schedule":{"type":"cron","expression":"* * * * *","timezone":"UTC"}`)
	b := f.deploymentID(t)
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+b+"/pause", ""))
	keep := f.deploymentID(t, `"agent":"`+other+`"`)
	f.clock.Advance(30 * time.Second)
	wantOK(t, f.ma(t, "POST", "/v1/agents/"+f.agent+"/archive", ""))
	for _, id := range []string{a, b} {
		d := wantOK(t, f.ma(t, "GET", deploymentsPath+"/"+id, ""))
		if d["archived_at"] == nil || d["status"] != "active" || d["paused_reason"] != nil {
			t.Fatalf("%s not archived: %v", id, d)
		}
	}
	if d := wantOK(t, f.ma(t, "GET", deploymentsPath+"/"+keep, "")); d["archived_at"] != nil {
		t.Fatalf("another agent's deployment archived: %v", d)
	}
	// The archived schedule never fires, and no run was recorded.
	f.clock.Advance(10 * time.Minute)
	if runs := wantOK(t, f.ma(t, "GET", "/v1/deployment_runs", ""))["data"].([]any); len(runs) != 0 {
		t.Fatalf("runs %v", runs)
	}
}
