package refserver

// White-box tests of the state that keeps scheduled firing cheap, and of
// the zero values of the session and deployment states.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

type fireFixture struct {
	s     *Server
	clock *ManualClock
	ts    *httptest.Server
}

func newFireFixture(t *testing.T, start time.Time) *fireFixture {
	t.Helper()
	clock := NewManualClock(start)
	s := New(WithClock(clock), WithIDs(SequentialIDs()))
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &fireFixture{s: s, clock: clock, ts: ts}
}

func (f *fireFixture) call(t *testing.T, method, path, body string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(method, f.ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.s.Seed().APIKey)
	req.Header.Set("vendor-workspace-id", f.s.Seed().DefaultWorkspaceID)
	req.Header.Set("vendor-beta", betaManagedAgents)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, b)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func (f *fireFixture) earliest() time.Time {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	return f.s.deployments.earliest
}

func TestEarliestFireTimeBookkeeping(t *testing.T) {
	start := time.Date(2026, 3, 15, 10, 20, 0, 0, time.UTC)
	f := newFireFixture(t, start)
	if !f.earliest().IsZero() {
		t.Fatal("earliest set with no deployment")
	}
	agent := f.call(t, "POST", "/v1/agents", `{"name":"a","model":"vendor-haiku-5-5"}`)["id"].(string)
	env := f.call(t, "POST", "/v1/environments", `{"name":"e"}`)["id"].(string)
	create := func(expr string) string {
		return f.call(t, "POST", "/v1/deployments", fmt.Sprintf(`{"agent":%q,"environment_id":%q,"name":"d",
			"initial_events":[{"type":"user.message","content":[{"type":"text","text":"go"}]}],
			"schedule":{"type":"cron","expression":%q,"timezone":"UTC"}}`, agent, env, expr))["id"].(string)
	}
	hourly := create("0 * * * *")    // next 11:00
	halfPast := create("30 * * * *") // next 10:30
	create("0 0 30 2 *")             // never fires: no next fire time
	f.call(t, "POST", "/v1/deployments", fmt.Sprintf(`{"agent":%q,"environment_id":%q,"name":"m",
		"initial_events":[{"type":"user.message","content":[{"type":"text","text":"go"}]}]}`, agent, env)) // no schedule
	want := func(s string) {
		t.Helper()
		if got := f.earliest(); got.Format("15:04") != s {
			t.Fatalf("earliest %v, want %s", got, s)
		}
	}
	want("10:30")
	f.call(t, "POST", "/v1/deployments/"+halfPast+"/pause", "")
	want("11:00")
	f.call(t, "POST", "/v1/deployments/"+hourly+"/archive", "")
	if !f.earliest().IsZero() {
		t.Fatalf("earliest %v with nothing to fire", f.earliest())
	}
	f.call(t, "POST", "/v1/deployments/"+halfPast+"/unpause", "")
	want("10:30")
	f.clock.Advance(15 * time.Minute) // 10:35: the 10:30 run fired
	want("11:30")
	f.call(t, "POST", "/v1/deployments/"+halfPast, `{"schedule":{"type":"cron","expression":"45 * * * *","timezone":"UTC"}}`)
	want("10:45")

	// Nothing due: no work, no allocation, however many deployments wait.
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	for i := range 1000 {
		id := fmt.Sprintf("depl_x%d", i)
		d := *f.s.deployments.byID[halfPast]
		d.id = id
		f.s.deployments.byID[id] = &d
	}
	now := f.clock.Now()
	if allocs := testing.AllocsPerRun(100, func() { f.s.fireDueDeploymentsLocked(now) }); allocs != 0 {
		t.Fatalf("%v allocations with nothing due", allocs)
	}
}

func TestZeroValueSessionAndDeploymentStates(t *testing.T) {
	srv := &Server{}
	if _, err := srv.sessionLocked("w", "sesn_x"); err == nil {
		t.Fatal("session found in a zero state")
	}
	if _, err := srv.deploymentLocked("w", "depl_x"); err == nil {
		t.Fatal("deployment found in a zero state")
	}
	srv.fireDueDeploymentsLocked(time.Now()) // nothing scheduled: returns at once
	srv.archiveAgentDeploymentsLocked("agent_x", time.Now())
	srv.refreshEarliestLocked()
	if !srv.deployments.earliest.IsZero() {
		t.Fatal("earliest set in a zero state")
	}
}

func TestSessionEventEcho(t *testing.T) {
	x := &session{}
	e := &engine{s: New(WithIDs(SequentialIDs())), x: x, now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	e.feed = newFeed(x)
	ev := e.echo(eventParam{typ: "user.message", payload: json.RawMessage(`{"type":"user.message","content":[]}`)})
	want := `{"id":"sevt_010000000000000000000001","processed_at":"2026-01-02T03:04:05.000000Z","type":"user.message","content":[]}`
	if got := string(ev.view()); got != want || string(x.events[0].view()) != want {
		t.Fatalf("view %s, want %s", got, want)
	}
}

func TestRepositoryMountPath(t *testing.T) {
	for url, want := range map[string]string{
		"https://github.com/o/repo.git":   "/workspace/repo",
		"https://github.com/o/repo/":      "/workspace/repo",
		"https://github.com/o/repo":       "/workspace/repo",
		"https://git.example.com":         "/workspace/git.example.com",
		"https://git.example.com:8443/":   "/workspace/git.example.com",
		"https://example.com/a/b/c.d.git": "/workspace/c.d",
	} {
		if got := repositoryMountPath(url); got != want {
			t.Errorf("%s: %s, want %s", url, got, want)
		}
	}
}
