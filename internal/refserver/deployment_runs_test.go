package refserver_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

// Deployment runs DR1–DR2 (docs/managed-agents-wire.md section 9).

func (f sessionFixture) listRunIDs(t *testing.T, query string) ([]string, *string) {
	t.Helper()
	var p struct {
		Data     []runJSON `json:"data"`
		NextPage *string   `json:"next_page"`
	}
	r := f.ma(t, "GET", "/v1/deployment_runs"+query, "")
	wantOK(t, r)
	r.decode(t, &p)
	var ids []string
	for _, run := range p.Data {
		ids = append(ids, run.ID)
	}
	return ids, p.NextPage
}

func TestDeploymentRunsGetAndList(t *testing.T) {
	f := newSessionFixture(t) // 21:56:21 UTC
	hourly := f.deploymentID(t, `"schedule":{"type":"cron","expression":"0 * * * *","timezone":"UTC"}`)
	manual := f.deploymentID(t)
	ok1 := wantRun(t, f, deploymentsPath+"/"+manual, "")["id"].(string) // 21:56:21
	f.clock.Advance(time.Hour)                                          // fires 22:00
	ok2 := wantRun(t, f, deploymentsPath+"/"+manual, "")["id"].(string) // 22:56:21
	wantOK(t, f.ma(t, "POST", "/v1/environments/"+f.envID+"/archive", ""))
	failed := wantRun(t, f, deploymentsPath+"/"+manual, "environment_archived_error")["id"].(string)
	f.clock.Advance(time.Hour) // fires 23:00, fails, pauses
	sched := f.runsOf(t, hourly)
	if len(sched) != 2 {
		t.Fatalf("scheduled runs %+v", sched)
	}
	s1, s2 := sched[0].ID, sched[1].ID

	got := wantOK(t, f.ma(t, "GET", "/v1/deployment_runs/"+ok1, ""))
	requireJSON(t, f.ma(t, "GET", "/v1/deployment_runs/"+ok1, ""), `{"type":"deployment_run","id":"`+ok1+`","deployment_id":"`+manual+`",
		"agent":{"type":"agent","id":"`+f.agent+`","version":1},"trigger_context":{"type":"manual"},
		"session_id":"`+got["session_id"].(string)+`","error":null,"created_at":"`+testNow+`"}`)
	wantError(t, f.ma(t, "GET", "/v1/deployment_runs/drun_01nope", ""), http.StatusNotFound, "not_found_error", "Deployment run `drun_01nope` not found.")

	at := func(d time.Duration) string { return url.QueryEscape(testStart.Add(d).Format(time.RFC3339Nano)) }
	for query, want := range map[string][]string{
		"":                                     {s2, failed, ok2, s1, ok1},
		"?deployment_id=" + manual:             {failed, ok2, ok1},
		"?deployment_id=" + hourly:             {s2, s1},
		"?deployment_id=depl_01nope":           nil,
		"?has_error=true":                      {s2, failed},
		"?has_error=false":                     {ok2, s1, ok1},
		"?trigger_type=schedule":               {s2, s1},
		"?trigger_type=manual&has_error=false": {ok2, ok1},
		"?created_at[gt]=" + at(0):             {s2, failed, ok2, s1},
		"?created_at[gte]=" + at(time.Hour):    {s2, failed, ok2},
		"?created_at[lt]=" + at(time.Hour):     {s1, ok1},
		"?created_at[lte]=" + at(0):            {ok1},
	} {
		if got, _ := f.listRunIDs(t, query); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", query, got, want)
		}
	}
	// Walk to the end two at a time; stop early and resume.
	var walked []string
	ids, next := f.listRunIDs(t, "?limit=2")
	for pages := 1; ; pages++ {
		walked = append(walked, ids...)
		if next == nil {
			if pages != 3 {
				t.Fatalf("%d pages", pages)
			}
			break
		}
		ids, next = f.listRunIDs(t, "?limit=2&page="+*next)
	}
	if !slices.Equal(walked, []string{s2, failed, ok2, s1, ok1}) {
		t.Fatalf("walked %v", walked)
	}
	_, next = f.listRunIDs(t, "?limit=1&has_error=false")
	if ids, _ := f.listRunIDs(t, "?limit=1&has_error=false&page="+*next); !slices.Equal(ids, []string{s1}) {
		t.Fatalf("second page %v", ids)
	}
	for query, message := range map[string]string{
		"?limit=1001":              "limit: must be between 1 and 1000",
		"?limit=0":                 "limit: must be between 1 and 1000",
		"?page=nope":               "page: invalid cursor",
		"?has_error=maybe":         "has_error: must be true or false",
		"?trigger_type=webhook":    "trigger_type: must be one of `schedule`, `manual`",
		"?created_at[lt]=tomorrow": "created_at[lt]: must be an RFC 3339 timestamp",
	} {
		wantInvalid(t, f.ma(t, "GET", "/v1/deployment_runs"+query, ""), message)
	}
	wantOK(t, f.ma(t, "GET", "/v1/deployment_runs?limit=1000", ""))

	// Runs of archived deployments are listed; other workspaces see none.
	wantOK(t, f.ma(t, "POST", deploymentsPath+"/"+manual+"/archive", ""))
	if ids, _ := f.listRunIDs(t, "?deployment_id="+manual); len(ids) != 3 {
		t.Fatalf("archived deployment's runs %v", ids)
	}
	ws := f.srv.CreateWorkspace("other")
	must(t, f.srv.GrantAPIAccess(f.seed.UserID, ws))
	wantError(t, f.ma(t, "GET", "/v1/deployment_runs/"+ok1, "", withWorkspace(ws)), http.StatusNotFound, "not_found_error",
		"Deployment run `"+ok1+"` not found.")
	if data := wantOK(t, f.ma(t, "GET", "/v1/deployment_runs", "", withWorkspace(ws)))["data"].([]any); len(data) != 0 {
		t.Fatalf("other workspace lists %v", data)
	}
}
