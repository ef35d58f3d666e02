package conformance_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/apikeys"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// The tests in this file need control of the server: they script the
// agent, inject faults, move the clock or seed keys. Against an external
// target they skip, saying so.

const (
	whyScript = "scripts the agent's turns"
	whyFaults = "injects faults"
	whyClock  = "advances the server's clock"
	whyKeys   = "seeds users and API keys, which the API cannot create"
)

// TestToolConfirmation: a built-in tool under always_ask waits for the
// client's confirmation, then runs.
func TestToolConfirmation(t *testing.T) {
	tg := needsControl(t, whyScript)
	ctx := tg.ctx(t)
	c := tg.Client
	agent := newAgent(t, tg, agents.CreateParams{Tools: []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{
		{Name: agents.ToolBash, PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)},
	}}}})
	s := newSession(t, tg, sessions.CreateParams{Agent: agents.AgentID(agent.ID)})
	if err := tg.Ref.Server.ScriptSession(s.ID, []refserver.Step{
		refserver.UseTool("bash", map[string]any{"command": "ls"}, refserver.ToolOutput("notes.md", false)),
		refserver.Say("There is one file."),
	}); err != nil {
		t.Fatal(err)
	}

	stream, err := c.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
	if err != nil {
		t.Fatalf("stream: %v", err)
	}
	defer stream.Close()
	if _, err := c.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("List the files.")}}); err != nil {
		t.Fatalf("send: %v", err)
	}
	var seen []sessions.Event
	var asked []string
	for ev, err := range stream.Events() {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		seen = append(seen, ev)
		idle, ok := ev.(*sessions.SessionStatusIdleEvent)
		if !ok {
			continue
		}
		ra, waiting := idle.StopReason.(sessions.StopRequiresAction)
		if !waiting {
			break
		}
		for _, id := range ra.EventIDs {
			asked = append(asked, id)
			if _, err := c.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.Allow(id)}}); err != nil {
				t.Fatalf("confirm %s: %v", id, err)
			}
		}
	}
	use, ok := firstOf[*sessions.AgentToolUseEvent](seen)
	if !ok || use.Name != agents.ToolBash || use.EvaluatedPermission != sessions.PermissionAsk {
		t.Fatalf("tool use: %+v", use)
	}
	if in, err := use.ToolInput(); err != nil || in.(agents.BashInput).Command != "ls" {
		t.Errorf("tool input %#v, %v", in, err)
	}
	if d := cmp.Diff([]string{use.ID}, asked); d != "" {
		t.Errorf("requires_action event ids (-want +got):\n%s", d)
	}
	if conf, ok := firstOf[*sessions.ToolConfirmationEvent](seen); !ok || conf.Result != sessions.ConfirmationAllow || conf.ToolUseID != use.ID {
		t.Errorf("confirmation: %+v", conf)
	}
	if res, ok := firstOf[*sessions.AgentToolResultEvent](seen); !ok || res.ToolUseID != use.ID || sessions.Text(res.Content) != "notes.md" || res.IsError {
		t.Errorf("tool result: %+v", res)
	}
	if got := agentText(seen); got != "There is one file." {
		t.Errorf("agent said %q", got)
	}
}

// TestMessagePreviews: with event deltas asked for, an agent.message is
// previewed as it is written, and the previews add up to the message.
func TestMessagePreviews(t *testing.T) {
	tg := needsControl(t, whyScript)
	ctx := tg.ctx(t)
	s := newSession(t, tg, sessions.CreateParams{})
	if err := tg.Ref.Server.ScriptSession(s.ID, []refserver.Step{refserver.SayChunks("Order 1234 ", "shipped ", "yesterday.")}); err != nil {
		t.Fatal(err)
	}
	tr := runTurn(ctx, t, tg, s.ID, sessions.StreamParams{EventDeltas: []sessions.EventType{sessions.EventAgentMessage}}, sessions.UserMessage("Where is order 1234?"))

	var previews sessions.Previews
	var deltas int
	var previewed string
	for _, ev := range tr.streamed {
		switch ev := ev.(type) {
		case *sessions.EventDelta:
			deltas++
		case *sessions.AgentMessageEvent:
			previewed = previews.Text(ev.ID) // before the final event closes it
		}
		previews.Add(ev)
	}
	if deltas != 3 {
		t.Errorf("%d deltas, want 3", deltas)
	}
	if previewed != "Order 1234 shipped yesterday." || agentText(tr.streamed) != previewed {
		t.Errorf("previewed %q, message %q", previewed, agentText(tr.streamed))
	}
	if open := previews.Open(); len(open) != 0 {
		t.Errorf("previews still open after the turn: %v", open)
	}
	checkNoLoss(ctx, t, tg, s.ID, tr)
}

// TestSessionErrorEndsTheTurn: a model request that fails for good gives a
// session.error and an idle session with stop reason retries_exhausted.
func TestSessionErrorEndsTheTurn(t *testing.T) {
	tg := needsControl(t, whyScript)
	ctx := tg.ctx(t)
	s := newSession(t, tg, sessions.CreateParams{})
	if err := tg.Ref.Server.ScriptSession(s.ID, []refserver.Step{refserver.Fail("model_overloaded_error", "Overloaded.")}); err != nil {
		t.Fatal(err)
	}
	tr := runTurn(ctx, t, tg, s.ID, sessions.StreamParams{}, sessions.UserMessage("Hello."))
	se, ok := firstOf[*sessions.SessionErrorEvent](tr.streamed)
	if !ok || se.Error.Type != "model_overloaded_error" || se.Error.Message != "Overloaded." {
		t.Fatalf("session.error: %+v", se)
	}
	if _, ok := se.Error.RetryStatus.(sessions.RetryExhausted); !ok {
		t.Errorf("retry status %#v", se.Error.RetryStatus)
	}
	if _, ok := tr.idle.StopReason.(sessions.StopRetriesExhausted); !ok {
		t.Errorf("stop reason %#v", tr.idle.StopReason)
	}
	checkNoLoss(ctx, t, tg, s.ID, tr)
}

// TestStreamCutIsRepaired: the server drops the event stream mid-turn; the
// SDK reconnects and fills the gap from the history, so nothing is lost or
// repeated.
func TestStreamCutIsRepaired(t *testing.T) {
	tg := needsControl(t, whyFaults)
	ctx := tg.ctx(t)
	s := newSession(t, tg, sessions.CreateParams{})
	if err := tg.Ref.Server.ScriptSession(s.ID, []refserver.Step{
		refserver.Think("Reading."), refserver.Say("One."), refserver.Say("Two."), refserver.Say("Three."),
	}); err != nil {
		t.Fatal(err)
	}
	streamPath := "/v1/sessions/" + s.ID + "/events/stream"
	tg.Ref.Server.InjectFault(refserver.Fault{Method: http.MethodGet, Path: streamPath, StreamCutAfter: 3})
	tr := runTurn(ctx, t, tg, s.ID, sessions.StreamParams{}, sessions.UserMessage("Count to three."))
	if n := tg.Ref.Count(http.MethodGet, streamPath); n < 2 {
		t.Errorf("the stream connected %d times; the cut should have made it reconnect", n)
	}
	if got := agentText(tr.streamed); got != "One.Two.Three." {
		t.Errorf("agent said %q", got)
	}
	checkNoLoss(ctx, t, tg, s.ID, tr)
}

// TestTransientFailuresAreRetried: 503s are retried; a create whose
// response is lost is retried under the same Idempotency-Key and makes one
// resource; retries run out with a typed error.
func TestTransientFailuresAreRetried(t *testing.T) {
	tg := needsControl(t, whyFaults)
	ctx := tg.ctx(t)
	srv := tg.Ref.Server

	srv.InjectFault(refserver.Fault{Method: http.MethodGet, Path: "/v1/models", Status: http.StatusServiceUnavailable, Times: 2})
	if _, err := tg.Client.Models.List(ctx, models.ListParams{}); err != nil {
		t.Fatalf("list models after two 503s: %v", err)
	}
	if n := tg.Ref.Count(http.MethodGet, "/v1/models"); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}

	srv.InjectFault(refserver.Fault{Method: http.MethodGet, Path: "/v1/models", Status: http.StatusInternalServerError, Times: 10})
	_, err := tg.Client.Models.List(ctx, models.ListParams{})
	if !errors.Is(err, apierror.ErrServer) {
		t.Errorf("after the retries ran out: want ErrServer, got %v", err)
	}
	srv.ClearFaults()

	c := tg.NewClient(t, reftest.FreshConnections())
	srv.InjectFault(refserver.Fault{Method: http.MethodPost, Path: "/v1/memory_stores", DropAfterHandling: true})
	st, err := c.MemoryStores.Create(ctx, memorystores.CreateParams{Name: name(t)})
	if err != nil {
		t.Fatalf("create after a lost response: %v", err)
	}
	removeMemoryStore(t, tg, st.ID)
	n := 0
	for x, err := range c.MemoryStores.All(ctx, memorystores.ListParams{}) {
		if err != nil {
			t.Fatalf("list stores: %v", err)
		}
		if x.Name == st.Name {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d stores named %q, want 1", n, st.Name)
	}
}

// TestScheduledDeploymentFires: moving the clock past a cron time makes the
// deployment run, recorded with its schedule trigger.
func TestScheduledDeploymentFires(t *testing.T) {
	clock := refserver.NewManualClock(time.Date(2026, time.March, 2, 8, 30, 0, 0, time.UTC))
	tg := needsControl(t, whyClock, refserver.WithClock(clock))
	ctx := tg.ctx(t)
	c := tg.Client

	agent := newAgent(t, tg, agents.CreateParams{})
	env := newEnvironment(t, tg, environments.CreateParams{})
	dep, err := c.Deployments.Create(ctx, deployments.CreateParams{
		Name: name(t), Agent: agents.AgentID(agent.ID), EnvironmentID: env.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Daily report.")},
		Schedule:      &deployments.ScheduleParam{Expression: "0 9 * * *", Timezone: "UTC"},
	})
	if err != nil {
		t.Fatalf("create deployment: %v", err)
	}
	cleanup(t, "archive deployment "+dep.ID, func(ctx context.Context) error {
		_, err := c.Deployments.Archive(ctx, dep.ID)
		return err
	})
	nine := time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)
	if len(dep.Schedule.UpcomingRunsAt) == 0 || !dep.Schedule.UpcomingRunsAt[0].Equal(nine) {
		t.Fatalf("upcoming runs %v, want %s first", dep.Schedule.UpcomingRunsAt, nine)
	}

	clock.Advance(time.Hour)
	page, err := c.Deployments.Runs.List(ctx, deployments.RunListParams{DeploymentID: dep.ID})
	if err != nil {
		t.Fatalf("list runs: %v", err)
	}
	if len(page.Data) != 1 {
		t.Fatalf("%d runs after the clock passed 09:00, want 1", len(page.Data))
	}
	run := page.Data[0]
	if tr, ok := run.TriggerContext.(deployments.ScheduleTrigger); !ok || !tr.ScheduledAt.Equal(nine) {
		t.Errorf("trigger %#v, want the schedule at %s", run.TriggerContext, nine)
	}
	if run.SessionID != "" {
		removeSession(t, tg, run.SessionID)
	}
	if run.Failed() || run.SessionID == "" {
		t.Errorf("run: %+v", run)
	}
	got, err := c.Deployments.Get(ctx, dep.ID)
	if err != nil {
		t.Fatalf("get deployment: %v", err)
	}
	if !got.Schedule.LastRunAt.Equal(nine) || len(got.Schedule.UpcomingRunsAt) == 0 || !got.Schedule.UpcomingRunsAt[0].Equal(nine.Add(24*time.Hour)) {
		t.Errorf("schedule after the run: %+v", got.Schedule)
	}
}

// TestAPIKeyStatusMoves: a seeded key is disabled, re-enabled and deleted
// through the admin API, and stops working while disabled and once deleted.
func TestAPIKeyStatusMoves(t *testing.T) {
	tg := needsControl(t, whyKeys)
	ctx := tg.ctx(t)
	srv := tg.Ref.Server
	user := srv.CreateUser("Conformance User")
	if err := srv.GrantAPIAccess(user, tg.WorkspaceID); err != nil {
		t.Fatal(err)
	}
	key, err := srv.CreateAPIKey(refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: user, Name: "conformance-key"})
	if err != nil {
		t.Fatal(err)
	}
	theirs := tg.NewClient(t, option.WithAPIKey(key.Secret), option.WithMaxRetries(0))
	works := func() error { _, err := theirs.Models.List(ctx, models.ListParams{}); return err }
	if err := works(); err != nil {
		t.Fatalf("the new key does not work: %v", err)
	}

	admin := tg.Client.APIKeys
	k, err := admin.Get(ctx, key.ID)
	if err != nil {
		t.Fatalf("get key: %v", err)
	}
	if p, ok := k.Principal.(*apikeys.UserActor); k.Name != "conformance-key" || k.Status != apikeys.StatusActive || !ok || p.UserID != user {
		t.Fatalf("get key: %+v", k)
	}
	if strings.Contains(k.PartialKeyHint, key.Secret) {
		t.Errorf("the key record holds the secret")
	}
	if k, err = admin.Disable(ctx, key.ID); err != nil || k.Status != apikeys.StatusInactive {
		t.Fatalf("disable: %v, %+v", err, k)
	}
	if err := works(); !errors.Is(err, apierror.ErrAuthentication) {
		t.Errorf("a disabled key: want ErrAuthentication, got %v", err)
	}
	if k, err = admin.Enable(ctx, key.ID); err != nil || k.Status != apikeys.StatusActive {
		t.Fatalf("enable: %v, %+v", err, k)
	}
	if err := works(); err != nil {
		t.Errorf("a re-enabled key: %v", err)
	}
	if k, err = admin.Delete(ctx, key.ID); err != nil || k.Status != apikeys.StatusArchived {
		t.Fatalf("delete: %v, %+v", err, k)
	}
	if err := works(); !errors.Is(err, apierror.ErrAuthentication) {
		t.Errorf("a deleted key: want ErrAuthentication, got %v", err)
	}
	_, err = admin.Enable(ctx, key.ID)
	wantStatus(t, err, 409)
	found := false
	for x, err := range admin.All(ctx, apikeys.ListParams{Status: apikeys.StatusArchived}) {
		if err != nil {
			t.Fatalf("list keys: %v", err)
		}
		found = found || x.ID == key.ID
	}
	if !found {
		t.Errorf("the deleted key is not listed")
	}
}

// TestScopedKeyCannotUseTheAdminAPI: a key scoped to one workspace works
// there, and the admin API refuses it with a typed 403.
func TestScopedKeyCannotUseTheAdminAPI(t *testing.T) {
	tg := needsControl(t, whyKeys)
	ctx := tg.ctx(t)
	key, err := tg.Ref.Server.CreateAPIKey(refserver.KeySpec{
		Kind: refserver.PersonalKey, OwnerID: tg.Ref.Seed.UserID, WorkspaceID: tg.WorkspaceID,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := tg.NewClient(t, option.WithAPIKey(key.Secret))
	if _, err := c.Models.List(ctx, models.ListParams{}); err != nil {
		t.Fatalf("the scoped key in its workspace: %v", err)
	}
	_, err = c.Workspaces.List(ctx, workspaces.ListParams{})
	if !errors.Is(err, apierror.ErrPermission) {
		t.Fatalf("the admin API with a scoped key: want ErrPermission, got %v", err)
	}
	wantStatus(t, err, http.StatusForbidden)
}
