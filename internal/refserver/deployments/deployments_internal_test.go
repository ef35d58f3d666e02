package deployments

// White-box tests of the state that keeps scheduled firing cheap, and of
// the state's zero value. The family runs here on stand-ins for the rest of
// the server (fakeDeps); the black-box tests in package refserver run it
// inside the whole server.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/memory"
)

const testWorkspace = "wrkspc_01test"

// fakeDeps stands in for the server: every agent and environment named
// exists, every run's session is created.
func fakeDeps(clock kit.Clock) Deps {
	sessions := 0
	return Deps{
		Deps: &kit.Deps{Clock: clock, IDs: kit.SequentialIDs()},
		ResolveAgentLocked: func(_, _ string, raw json.RawMessage) (Agent, error) {
			var id string
			if err := json.Unmarshal(raw, &id); err != nil {
				return Agent{}, err
			}
			return Agent{ID: id, Reference: map[string]any{"type": "agent", "id": id, "version": 1}}, nil
		},
		CheckBudgetable: func(Agent) error { return nil },
		EnvironmentFieldLocked: func(ws string, o kit.Optional[string]) (Environment, error) {
			return Environment{ID: o.Value, WorkspaceID: ws}, nil
		},
		EnvironmentLocked: func(id string) (Environment, bool) {
			return Environment{ID: id, WorkspaceID: testWorkspace}, true
		},
		StoreLocked: func(_, id string) (memory.StoreInfo, error) {
			return memory.StoreInfo{}, kit.NotFound("Memory store `%s` not found.", id)
		},
		ParseInitialEvents: func(_ string, raw json.RawMessage, _ int) (Events, error) {
			var stored []json.RawMessage
			err := json.Unmarshal(raw, &stored)
			return Events{Stored: stored}, err
		},
		ParseBudget:          func(string, json.RawMessage) (*Budget, error) { return nil, nil },
		ParseResources:       func(string, json.RawMessage) (Resources, error) { return Resources{}, nil },
		ParseVaultIDs:        func(string, json.RawMessage) ([]string, error) { return []string{}, nil },
		CheckResourcesLocked: func(string, bool, Resources, time.Time) error { return nil },
		CreateSessionLocked: func(string, SessionSpec, time.Time) (string, error) {
			sessions++
			return fmt.Sprintf("sesn_%d", sessions), nil
		},
		ParentTurns: func(*kit.Call) func() { return func() {} },
	}
}

type fireFixture struct {
	s     *Service
	clock *kit.ManualClock
}

func newFireFixture(start time.Time) *fireFixture {
	clock := kit.NewManualClock(start)
	return &fireFixture{s: New(fakeDeps(clock)), clock: clock}
}

// call runs the handler of the route named op, as the server would after
// authentication, and returns the object it answered.
func (f *fireFixture) call(t *testing.T, op, id, body string) map[string]any {
	t.Helper()
	for _, rt := range f.s.Routes() {
		if rt.Op != op {
			continue
		}
		r := httptest.NewRequest(rt.Method, "/", strings.NewReader(body))
		r.SetPathValue("deployment_id", id)
		w := httptest.NewRecorder()
		c := &kit.Call{Deps: f.s.deps.Deps, W: w, R: r, Ex: &kit.Exchange{Body: []byte(body)}, WorkspaceID: testWorkspace}
		if err := rt.Handle(c); err != nil {
			t.Fatalf("%s %s: %v", op, id, err)
		}
		if w.Code != http.StatusOK {
			t.Fatalf("%s %s: %d %s", op, id, w.Code, w.Body)
		}
		var m map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	t.Fatalf("no route %s", op)
	return nil
}

func (f *fireFixture) earliest() time.Time {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	return f.s.deployments.earliest
}

// advance moves the clock and ticks, as the server does.
func (f *fireFixture) advance(d time.Duration) {
	f.clock.Advance(d)
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	f.s.FireDueLocked(f.s.deps.Now())
}

func TestEarliestFireTimeBookkeeping(t *testing.T) {
	start := time.Date(2026, 3, 15, 10, 20, 0, 0, time.UTC)
	f := newFireFixture(start)
	if !f.earliest().IsZero() {
		t.Fatal("earliest set with no deployment")
	}
	const agent, env = "agent_01a", "env_01e"
	create := func(expr string) string {
		return f.call(t, "deployments.create", "", fmt.Sprintf(`{"agent":%q,"environment_id":%q,"name":"d",
			"initial_events":[{"type":"user.message","content":[{"type":"text","text":"go"}]}],
			"schedule":{"type":"cron","expression":%q,"timezone":"UTC"}}`, agent, env, expr))["id"].(string)
	}
	hourly := create("0 * * * *")    // next 11:00
	halfPast := create("30 * * * *") // next 10:30
	create("0 0 30 2 *")             // never fires: no next fire time
	f.call(t, "deployments.create", "", fmt.Sprintf(`{"agent":%q,"environment_id":%q,"name":"m",
		"initial_events":[{"type":"user.message","content":[{"type":"text","text":"go"}]}]}`, agent, env)) // no schedule
	want := func(s string) {
		t.Helper()
		if got := f.earliest(); got.Format("15:04") != s {
			t.Fatalf("earliest %v, want %s", got, s)
		}
	}
	want("10:30")
	f.call(t, "deployments.pause", halfPast, "")
	want("11:00")
	f.call(t, "deployments.archive", hourly, "")
	if !f.earliest().IsZero() {
		t.Fatalf("earliest %v with nothing to fire", f.earliest())
	}
	f.call(t, "deployments.unpause", halfPast, "")
	want("10:30")
	f.advance(15 * time.Minute) // 10:35: the 10:30 run fired
	want("11:30")
	if got := f.call(t, "deployments.retrieve", halfPast, "")["schedule"].(map[string]any)["last_run_at"]; got != "2026-03-15T10:30:00.000000Z" {
		t.Fatalf("last_run_at %v after the 10:30 fire", got)
	}
	f.call(t, "deployments.update", halfPast, `{"schedule":{"type":"cron","expression":"45 * * * *","timezone":"UTC"}}`)
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
	if allocs := testing.AllocsPerRun(100, func() { f.s.FireDueLocked(now) }); allocs != 0 {
		t.Fatalf("%v allocations with nothing due", allocs)
	}
}

func TestZeroValueDeploymentState(t *testing.T) {
	s := &Service{}
	if _, err := s.deploymentLocked("w", "depl_x"); err == nil {
		t.Fatal("deployment found in a zero state")
	}
	s.FireDueLocked(time.Now()) // nothing scheduled: returns at once
	s.ArchiveAgentLocked("agent_x", time.Now())
	s.refreshEarliestLocked()
	if !s.deployments.earliest.IsZero() {
		t.Fatal("earliest set in a zero state")
	}
}
