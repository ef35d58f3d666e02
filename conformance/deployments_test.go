package conformance_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestDeploymentLifecycle creates a deployment with a schedule that does not
// fire during the test (00:00 UTC on January 1st), runs it by hand, finds
// the run and its session, pauses and unpauses it, updates and archives it.
func TestDeploymentLifecycle(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	agent := newAgent(t, tg, agents.CreateParams{System: "You are terse."})
	env := newEnvironment(t, tg, environments.CreateParams{})
	dep, err := c.Deployments.Create(ctx, deployments.CreateParams{
		Name:          name(t),
		Description:   "created by the conformance tests",
		Agent:         agent.Reference(),
		EnvironmentID: env.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Reply with the word ok.")},
		Schedule:      &deployments.ScheduleParam{Expression: "0 0 1 1 *", Timezone: "UTC"},
		Metadata:      metadata(),
	})
	if err != nil {
		t.Fatalf("create deployment: %v", err)
	}
	cleanup(t, "archive deployment "+dep.ID, func(ctx context.Context) error {
		_, err := c.Deployments.Archive(ctx, dep.ID)
		return err
	})
	if dep.Type != "deployment" || !strings.HasPrefix(dep.ID, "depl_") || dep.Status != deployments.StatusActive || dep.PausedReason != nil {
		t.Fatalf("created deployment: %+v", dep)
	}
	if dep.Agent.ID != agent.ID || dep.Agent.Version != agent.Version || dep.EnvironmentID != env.ID || len(dep.InitialEvents) != 1 {
		t.Errorf("deployment agent %+v, environment %s, %d initial events", dep.Agent, dep.EnvironmentID, len(dep.InitialEvents))
	}
	if dep.Schedule == nil || dep.Schedule.Expression != "0 0 1 1 *" || len(dep.Schedule.UpcomingRunsAt) == 0 {
		t.Fatalf("schedule: %+v", dep.Schedule)
	}
	for _, at := range dep.Schedule.UpcomingRunsAt {
		if at.UTC().Month() != time.January || at.UTC().Day() != 1 || at.UTC().Hour() != 0 || at.UTC().Minute() != 0 {
			t.Errorf("upcoming run at %s is not 00:00 UTC on January 1st", at)
		}
	}

	got, err := c.Deployments.Get(ctx, dep.ID)
	if err != nil {
		t.Fatalf("get deployment: %v", err)
	}
	if got.ID != dep.ID || got.Name != dep.Name {
		t.Errorf("Get: %+v", got)
	}

	run, err := c.Deployments.RunNow(ctx, dep.ID)
	if err != nil {
		t.Fatalf("run deployment: %v", err)
	}
	if run.SessionID != "" {
		removeSession(t, tg, run.SessionID)
	}
	if run.Failed() {
		t.Fatalf("the run failed: %v", run.Error)
	}
	if run.DeploymentID != dep.ID || run.SessionID == "" || run.Agent.ID != agent.ID {
		t.Errorf("run: %+v", run)
	}
	if _, ok := run.TriggerContext.(deployments.ManualTrigger); !ok {
		t.Errorf("trigger context %#v, want ManualTrigger", run.TriggerContext)
	}

	gotRun, err := c.Deployments.Runs.Get(ctx, run.ID)
	if err != nil {
		t.Fatalf("get run: %v", err)
	}
	if d := cmp.Diff(run, gotRun); d != "" {
		t.Errorf("Runs.Get differs from Run (-run +get):\n%s", d)
	}
	var runs []string
	for r, err := range c.Deployments.Runs.All(ctx, deployments.RunListParams{DeploymentID: dep.ID}) {
		if err != nil {
			t.Fatalf("list runs: %v", err)
		}
		runs = append(runs, r.ID)
	}
	if d := cmp.Diff([]string{run.ID}, runs); d != "" {
		t.Errorf("runs of the deployment (-want +got):\n%s", d)
	}

	sess, err := c.Sessions.Get(ctx, run.SessionID)
	if err != nil {
		t.Fatalf("get the run's session: %v", err)
	}
	if sess.DeploymentID != dep.ID || sess.Agent.ID != agent.ID || sess.EnvironmentID != env.ID {
		t.Errorf("the run's session: deployment %q, agent %s, environment %s", sess.DeploymentID, sess.Agent.ID, sess.EnvironmentID)
	}
	found := false
	for s, err := range c.Sessions.All(ctx, sessions.ListParams{DeploymentID: dep.ID}) {
		if err != nil {
			t.Fatalf("list the deployment's sessions: %v", err)
		}
		found = found || s.ID == run.SessionID
	}
	if !found {
		t.Errorf("session %s is not listed for deployment %s", run.SessionID, dep.ID)
	}

	paused, err := c.Deployments.Pause(ctx, dep.ID)
	if err != nil {
		t.Fatalf("pause: %v", err)
	}
	if _, ok := paused.PausedReason.(deployments.ManualPause); paused.Status != deployments.StatusPaused || !ok {
		t.Errorf("after pause: status %s, reason %#v", paused.Status, paused.PausedReason)
	}
	active, err := c.Deployments.Unpause(ctx, dep.ID)
	if err != nil {
		t.Fatalf("unpause: %v", err)
	}
	if active.Status != deployments.StatusActive || active.PausedReason != nil {
		t.Errorf("after unpause: status %s, reason %#v", active.Status, active.PausedReason)
	}

	newName := name(t)
	upd, err := c.Deployments.Update(ctx, dep.ID, deployments.UpdateParams{
		Name:        newName,
		Description: param.Null[string](),
		Schedule:    param.Null[deployments.ScheduleParam](),
	})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if upd.Name != newName || upd.Description != "" || upd.Schedule != nil {
		t.Errorf("after update: name %q, description %q, schedule %+v", upd.Name, upd.Description, upd.Schedule)
	}

	arch, err := c.Deployments.Archive(ctx, dep.ID)
	if err != nil || !arch.Archived() {
		t.Fatalf("archive: %v, %+v", err, arch)
	}
	_, err = c.Deployments.RunNow(ctx, dep.ID)
	wantStatus(t, err, 409)
	_, err = c.Deployments.Pause(ctx, dep.ID)
	wantStatus(t, err, 409)
}
