package refserver_test

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

// Scheduled fires (docs/managed-agents-wire.md 8.5, 8.7), driven by the
// manual clock: every move of it fires what fell due before Advance or Set
// returns.

type runJSON struct {
	ID             string  `json:"id"`
	DeploymentID   string  `json:"deployment_id"`
	SessionID      *string `json:"session_id"`
	CreatedAt      string  `json:"created_at"`
	TriggerContext struct {
		Type        string `json:"type"`
		ScheduledAt string `json:"scheduled_at"`
	} `json:"trigger_context"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// runsOf lists a deployment's runs, oldest first.
func (f sessionFixture) runsOf(t *testing.T, deploymentID string) []runJSON {
	t.Helper()
	var p struct {
		Data []runJSON `json:"data"`
	}
	r := f.ma(t, "GET", "/v1/deployment_runs?limit=1000&deployment_id="+deploymentID, "")
	wantOK(t, r)
	r.decode(t, &p)
	slices.Reverse(p.Data)
	return p.Data
}

func utcAt(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// wire is a time as the server writes it.
func wire(s string) string { return utcAt(s).Format("2006-01-02T15:04:05.000000Z") }

func scheduleOf(t *testing.T, d map[string]any) map[string]any {
	t.Helper()
	s, ok := d["schedule"].(map[string]any)
	if !ok {
		t.Fatalf("no schedule: %v", d)
	}
	return s
}

func TestScheduledFiringAcrossSpringForward(t *testing.T) {
	f := newSessionFixture(t)
	f.clock.Set(utcAt("2026-03-07T12:00:00Z"))
	d := f.createDeployment(t, `"schedule":{"type":"cron","expression":"30 2 * * *","timezone":"America/New_York"}`)
	id := d["id"].(string)
	// 02:30 does not exist on 2026-03-08: it fires at 03:00 EDT (07:00 UTC).
	upcoming := scheduleOf(t, d)["upcoming_runs_at"].([]any)
	if upcoming[0] != wire("2026-03-08T07:00:00Z") || upcoming[1] != wire("2026-03-09T06:30:00Z") {
		t.Fatalf("upcoming %v", upcoming)
	}
	f.clock.Set(utcAt("2026-03-09T12:00:00Z"))
	runs := f.runsOf(t, id)
	want := []string{wire("2026-03-08T07:00:00Z"), wire("2026-03-09T06:30:00Z")}
	if len(runs) != 2 {
		t.Fatalf("runs %+v", runs)
	}
	for i, run := range runs {
		if run.TriggerContext.Type != "schedule" || run.TriggerContext.ScheduledAt != want[i] || run.CreatedAt != want[i] ||
			run.SessionID == nil || run.Error != nil {
			t.Fatalf("run %d: %+v", i, run)
		}
		// The session is dated at the occurrence too.
		sess := wantOK(t, f.ma(t, "GET", sessionsPath+"/"+*run.SessionID, ""))
		if sess["created_at"] != want[i] || sess["deployment_id"] != id {
			t.Fatalf("session %v", sess)
		}
	}
	d = wantOK(t, f.ma(t, "GET", deploymentsPath+"/"+id, ""))
	s := scheduleOf(t, d)
	if s["last_run_at"] != want[1] || s["upcoming_runs_at"].([]any)[0] != wire("2026-03-10T06:30:00Z") || d["updated_at"] != wire("2026-03-07T12:00:00Z") {
		t.Fatalf("after fires %v", d)
	}
}

func TestScheduledFiringAcrossFallBack(t *testing.T) {
	f := newSessionFixture(t)
	f.clock.Set(utcAt("2026-10-31T12:00:00Z"))
	id := f.deploymentID(t, `"schedule":{"type":"cron","expression":"30 1 * * *","timezone":"America/New_York"}`)
	hourly := f.deploymentID(t, `"schedule":{"type":"cron","expression":"0 * * * *","timezone":"America/New_York"}`)
	// Walk through the repeated hour in small steps: each step fires only
	// what is new, and 01:30 (EDT, 05:30 UTC) fires once, not again at 01:30 EST.
	for f.clock.Now().Before(utcAt("2026-11-01T12:00:00Z")) {
		f.clock.Advance(7 * time.Minute)
	}
	runs := f.runsOf(t, id)
	if len(runs) != 1 || runs[0].TriggerContext.ScheduledAt != wire("2026-11-01T05:30:00Z") {
		t.Fatalf("runs %+v", runs)
	}
	f.clock.Set(utcAt("2026-11-02T12:00:00Z"))
	if runs = f.runsOf(t, id); len(runs) != 2 || runs[1].TriggerContext.ScheduledAt != wire("2026-11-02T06:30:00Z") {
		t.Fatalf("runs %+v", runs)
	}
	// The hourly schedule does not fire at 01:00 EST: two hours pass
	// between its 01:00 EDT (05:00 UTC) and 02:00 EST (07:00 UTC) runs.
	var at []string
	for _, run := range f.runsOf(t, hourly) {
		at = append(at, run.CreatedAt)
	}
	i := slices.Index(at, wire("2026-11-01T05:00:00Z"))
	if i < 0 || at[i+1] != wire("2026-11-01T07:00:00Z") || len(at) != 47 {
		t.Fatalf("hourly runs %v", at)
	}
	// Runs of both deployments are listed newest first, interleaved by time.
	var all struct {
		Data []runJSON `json:"data"`
	}
	r := f.ma(t, "GET", "/v1/deployment_runs?limit=1000", "")
	wantOK(t, r)
	r.decode(t, &all)
	if len(all.Data) != 49 || !slices.IsSortedFunc(all.Data, func(a, b runJSON) int { return -utcAt(a.CreatedAt).Compare(utcAt(b.CreatedAt)) }) {
		t.Fatalf("%d runs, not newest first", len(all.Data))
	}
}

func TestPausedDeploymentsDoNotFireOrBackfill(t *testing.T) {
	f := newSessionFixture(t) // 21:56:21 UTC
	id := f.deploymentID(t, `"schedule":{"type":"cron","expression":"0 * * * *","timezone":"UTC"}`)
	path := deploymentsPath + "/" + id
	wantOK(t, f.ma(t, "POST", path+"/pause", ""))
	f.clock.Advance(3 * time.Hour) // 22:00, 23:00 and 00:00 pass while paused
	if runs := f.runsOf(t, id); len(runs) != 0 {
		t.Fatalf("a paused deployment fired: %+v", runs)
	}
	d := wantOK(t, f.ma(t, "POST", path+"/unpause", ""))
	if up := scheduleOf(t, d)["upcoming_runs_at"].([]any); up[0] != wire("2026-11-26T01:00:00Z") {
		t.Fatalf("upcoming after unpause %v", up)
	}
	if runs := f.runsOf(t, id); len(runs) != 0 {
		t.Fatalf("unpause backfilled: %+v", runs)
	}
	f.clock.Advance(10 * time.Minute)
	runs := f.runsOf(t, id)
	if len(runs) != 1 || runs[0].TriggerContext.ScheduledAt != wire("2026-11-26T01:00:00Z") {
		t.Fatalf("runs %+v", runs)
	}
	// A schedule removed by update stops firing; a new one starts from now.
	wantOK(t, f.ma(t, "POST", path, `{"schedule":null}`))
	f.clock.Advance(2 * time.Hour)
	if runs := f.runsOf(t, id); len(runs) != 1 {
		t.Fatalf("fired without a schedule: %+v", runs)
	}
	wantOK(t, f.ma(t, "POST", path, `{"schedule":{"type":"cron","expression":"30 * * * *","timezone":"UTC"}}`))
	f.clock.Advance(time.Hour)
	if runs := f.runsOf(t, id); len(runs) != 2 || runs[1].TriggerContext.ScheduledAt != wire("2026-11-26T03:30:00Z") {
		t.Fatalf("runs %+v", runs)
	}
}

func TestFailedFiresAutoPause(t *testing.T) {
	f := newSessionFixture(t)
	every5 := `"schedule":{"type":"cron","expression":"*/5 * * * *","timezone":"UTC"}`
	store := f.createMemoryStore(t, `{"name":"s"}`)
	mem := `"resources":[{"type":"memory_store","memory_store_id":"` + store + `"}]`
	envFail := f.deploymentID(t, every5)
	storeFail := f.deploymentID(t, every5, mem)
	other := f.createEnvironment(t, `{"name":"other"}`)["id"].(string)
	goneEnv := f.deploymentID(t, every5, `"environment_id":"`+other+`"`)
	store2 := f.createMemoryStore(t, `{"name":"s2"}`)
	ownEnv := f.createEnvironment(t, `{"name":"own"}`)["id"].(string)
	goneStore := f.deploymentID(t, every5, `"environment_id":"`+ownEnv+`"`,
		`"resources":[{"type":"memory_store","memory_store_id":"`+store2+`"}]`)

	wantOK(t, f.ma(t, "POST", "/v1/environments/"+f.envID+"/archive", ""))
	wantOK(t, f.ma(t, "DELETE", "/v1/environments/"+other, ""))
	wantOK(t, f.do(t, "DELETE", memoryStoresPath+"/"+store2, "", memoryBeta))
	// The second deployment uses the archived environment too: the
	// environment is checked before the memory store.
	f.clock.Advance(20 * time.Minute)
	first := wire("2026-11-25T22:00:00Z")
	for id, errType := range map[string]string{
		envFail: "environment_archived_error", storeFail: "environment_archived_error",
		goneEnv: "environment_not_found_error",
	} {
		runs := f.runsOf(t, id)
		if len(runs) != 1 || runs[0].SessionID != nil || runs[0].Error == nil || runs[0].Error.Type != errType ||
			runs[0].CreatedAt != first || runs[0].TriggerContext.ScheduledAt != first {
			t.Fatalf("%s: runs %+v", id, runs)
		}
		d := wantOK(t, f.ma(t, "GET", deploymentsPath+"/"+id, ""))
		if d["status"] != "paused" || mustMarshal(d["paused_reason"]) != `{"error":{"type":"`+errType+`"},"type":"error"}` ||
			scheduleOf(t, d)["last_run_at"] != first || d["updated_at"] != first {
			t.Fatalf("%s: %v", id, d)
		}
	}
	runs := f.runsOf(t, envFail)
	if runs[0].Error.Message != "environment `"+f.envID+"` is archived" {
		t.Fatalf("message %q", runs[0].Error.Message)
	}
	if runs := f.runsOf(t, goneStore); len(runs) != 1 || runs[0].Error.Type != "session_resource_not_found_error" ||
		runs[0].Error.Message != "memory store `"+store2+"` not found" {
		t.Fatalf("deleted store: %+v", runs)
	}
	// The raw JSON has both keys, session_id null.
	r := f.ma(t, "GET", "/v1/deployment_runs/"+runs[0].ID, "")
	requireKeys(t, wantOK(t, r), "type", "id", "deployment_id", "agent", "trigger_context", "session_id", "error", "created_at")

	// With the environment back in a usable one, the memory store is next.
	fresh := f.createEnvironment(t, `{"name":"fresh"}`)["id"].(string)
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+storeFail, `{"environment_id":"`+fresh+`"}`))
	wantOK(t, f.do(t, "POST", memoryStoresPath+"/"+store+"/archive", "", memoryBeta))
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+storeFail+"/unpause", ""))
	f.clock.Advance(5 * time.Minute)
	runs = f.runsOf(t, storeFail)
	if len(runs) != 2 || runs[1].Error == nil || runs[1].Error.Type != "memory_store_archived_error" {
		t.Fatalf("archived store: %+v", runs)
	}
	if d := wantOK(t, f.ma(t, "GET", deploymentsPath+"/"+storeFail, "")); d["status"] != "paused" {
		t.Fatalf("not paused again: %v", d)
	}
	// Without the store the deployment fires again.
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+storeFail, `{"resources":[]}`))
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+storeFail+"/unpause", ""))
	f.clock.Advance(5 * time.Minute)
	if runs = f.runsOf(t, storeFail); len(runs) != 3 || runs[2].SessionID == nil {
		t.Fatalf("runs %+v", runs)
	}
	// A run's session can be deleted; the run stays as it was.
	wantOK(t, f.ma(t, "DELETE", sessionsPath+"/"+*runs[2].SessionID, ""))
	if again := f.runsOf(t, storeFail); again[2].SessionID == nil || *again[2].SessionID != *runs[2].SessionID {
		t.Fatalf("run changed: %+v", again[2])
	}
	wantError(t, f.ma(t, "GET", sessionsPath+"/"+*runs[2].SessionID, ""), http.StatusNotFound, "not_found_error", "")
}
