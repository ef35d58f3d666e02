package platformtest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// start is the fixed start of the examples' server clocks, which makes
// their output the same on every run.
var start = time.Date(2026, time.January, 5, 8, 0, 0, 0, time.UTC)

// The agent's turn is scripted; the test reads the reply from the history.
func ExampleServer_ScriptSession() {
	ctx := context.Background()
	srv, err := platformtest.NewServer(platformtest.WithStartTime(start))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "support"})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, agents.CreateParams{Name: "Support", Model: agents.ModelID(models.VendorHaiku55)})
	if err != nil {
		log.Fatal(err)
	}
	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(agent.ID), EnvironmentID: env.ID})
	if err != nil {
		log.Fatal(err)
	}

	// The session's next turn: think, then answer in two chunks.
	err = srv.ScriptSession(sess.ID, []platformtest.Step{
		platformtest.Think("The user wants the order's status."),
		platformtest.SayChunks("Order 1234 ", "shipped yesterday."),
	})
	if err != nil {
		log.Fatal(err)
	}

	// The turn runs inside Send: once it returns, the reply is in the history.
	_, err = client.Sessions.Events.Send(ctx, sess.ID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage("Where is order 1234?")},
	})
	if err != nil {
		log.Fatal(err)
	}
	for ev, err := range client.Sessions.Events.All(ctx, sess.ID, sessions.EventListParams{}) {
		if err != nil {
			log.Fatal(err)
		}
		switch ev := ev.(type) {
		case *sessions.UserMessageEvent:
			fmt.Println("user: ", sessions.Text(ev.Content))
		case *sessions.AgentMessageEvent:
			fmt.Println("agent:", sessions.Text(ev.Content))
		case *sessions.SessionStatusIdleEvent:
			fmt.Printf("idle:  %T at %s\n", ev.StopReason, ev.ProcessedAt.Format(time.DateTime))
		}
	}
	// Output:
	// user:  Where is order 1234?
	// agent: Order 1234 shipped yesterday.
	// idle:  sessions.StopEndTurn at 2026-01-05 08:00:00
}

// The agent calls a custom tool; the application's tool runner answers it,
// and the agent's turn goes on.
func ExampleUseCustomTool() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv, err := platformtest.NewServer(platformtest.WithStartTime(start))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	// The application's tool. It runs on the runner's goroutine, and
	// reports its calls on a channel.
	type lookupInput struct {
		OrderID string `json:"order_id"`
	}
	looked := make(chan string, 10)
	lookupOrder := tool.Must(tool.New("lookup_order", "Look up an order by its id.",
		func(ctx context.Context, in lookupInput) (tool.Result, error) {
			looked <- in.OrderID
			return tool.Text("shipped with DHL"), nil
		}))

	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "support"})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "Support", Model: agents.ModelID(models.VendorHaiku55),
		Tools: agents.FromTools(lookupOrder),
	})
	if err != nil {
		log.Fatal(err)
	}
	// Every session of the agent: call the tool, then answer.
	err = srv.ScriptAgent(agent.ID, []platformtest.Step{
		platformtest.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}),
		platformtest.Say("Order 1234 shipped with DHL."),
	})
	if err != nil {
		log.Fatal(err)
	}
	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(agent.ID), EnvironmentID: env.ID})
	if err != nil {
		log.Fatal(err)
	}

	runner, err := toolrunner.New(client.Sessions, []tool.Tool{lookupOrder})
	if err != nil {
		log.Fatal(err)
	}
	defer runner.Close(ctx)
	if err := runner.Add(sess.ID); err != nil {
		log.Fatal(err)
	}

	stream, err := client.Sessions.Events.Stream(ctx, sess.ID, sessions.StreamParams{})
	if err != nil {
		log.Fatal(err)
	}
	defer stream.Close()
	_, err = client.Sessions.Events.Send(ctx, sess.ID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage("Where is order 1234?")},
	})
	if err != nil {
		log.Fatal(err)
	}
turn:
	for ev, err := range stream.Events() {
		if err != nil {
			log.Fatal(err)
		}
		switch ev := ev.(type) {
		case *sessions.AgentCustomToolUseEvent:
			fmt.Printf("agent: calls %s %s\n", ev.Name, ev.Input)
		case *sessions.CustomToolResultEvent: // sent by the runner
			fmt.Println("user: ", sessions.Text(ev.Content))
		case *sessions.AgentMessageEvent:
			fmt.Println("agent:", sessions.Text(ev.Content))
		case *sessions.SessionStatusIdleEvent:
			if _, done := ev.StopReason.(sessions.StopEndTurn); done {
				break turn
			}
		}
	}
	fmt.Println("the tool looked up order", <-looked)
	// Output:
	// agent: calls lookup_order {"order_id":"1234"}
	// user:  shipped with DHL
	// agent: Order 1234 shipped with DHL.
	// the tool looked up order 1234
}

// Two injected 503s, each asking for a 30-second wait: the SDK retries, and
// the server's request log shows every attempt. The clients of
// Server.Client cap retry waits at a few milliseconds.
func ExampleServer_InjectFault() {
	ctx := context.Background()
	srv, err := platformtest.NewServer(platformtest.WithStartTime(start))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	srv.InjectFault(platformtest.Fault{
		Method: http.MethodGet, Path: "/v1/models",
		Status: http.StatusServiceUnavailable,
		Header: http.Header{"Retry-After": {"30"}},
		Times:  2,
	})
	if _, err := client.Models.List(ctx, models.ListParams{}); err != nil {
		log.Fatal(err)
	}
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Path, r.Header.Get("Authorization"))
	}

	// A failure that outlasts the retries reaches the caller as an
	// *apierror.Error.
	srv.InjectFault(platformtest.Fault{Path: "/v1/models", Status: http.StatusTooManyRequests, Times: 100})
	_, err = client.Models.List(ctx, models.ListParams{}, option.WithMaxRetries(1))
	if apiErr, ok := errors.AsType[*apierror.Error](err); ok {
		fmt.Println(apiErr.StatusCode, apiErr.Type)
	}
	// Output:
	// GET /v1/models Bearer [redacted]
	// GET /v1/models Bearer [redacted]
	// GET /v1/models Bearer [redacted]
	// 429 rate_limit_error
}

// A deployment scheduled for 09:00 fires when the test moves the clock past
// it; the session it starts follows the agent's script.
func ExampleServer_Advance() {
	ctx := context.Background()
	srv, err := platformtest.NewServer(platformtest.WithStartTime(start)) // 08:00
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()

	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "reports"})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, agents.CreateParams{Name: "Reporter", Model: agents.ModelID(models.VendorHaiku55)})
	if err != nil {
		log.Fatal(err)
	}
	err = srv.ScriptAgent(agent.ID, []platformtest.Step{platformtest.Say("Report written.")})
	if err != nil {
		log.Fatal(err)
	}
	dep, err := client.Deployments.Create(ctx, deployments.CreateParams{
		Name:          "Daily report",
		Agent:         agents.AgentID(agent.ID),
		EnvironmentID: env.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Write the daily report.")},
		Schedule:      &deployments.ScheduleParam{Expression: "0 9 * * *", Timezone: "UTC"},
	})
	if err != nil {
		log.Fatal(err)
	}

	srv.Advance(90 * time.Minute) // 09:30: the 09:00 run has fired
	fmt.Println("now:", srv.Now().Format(time.DateTime))
	for run, err := range client.Deployments.Runs.All(ctx, deployments.RunListParams{DeploymentID: dep.ID}) {
		if err != nil {
			log.Fatal(err)
		}
		if t, ok := run.TriggerContext.(deployments.ScheduleTrigger); ok {
			fmt.Println("run scheduled at", t.ScheduledAt.Format(time.DateTime))
		}
		for ev, err := range client.Sessions.Events.All(ctx, run.SessionID, sessions.EventListParams{
			Types: []sessions.EventType{sessions.EventAgentMessage},
		}) {
			if err != nil {
				log.Fatal(err)
			}
			fmt.Println("agent:", sessions.Text(ev.(*sessions.AgentMessageEvent).Content))
		}
	}
	// Output:
	// now: 2026-01-05 09:30:00
	// run scheduled at 2026-01-05 09:00:00
	// agent: Report written.
}

// A workload that authenticates with workload identity federation instead
// of an API key, tested against the embedded server.
func ExampleServer_AddFederation() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	fed, err := srv.AddFederation("system:serviceaccount:prod:report-worker")
	if err != nil {
		log.Fatal(err)
	}
	creds, err := auth.Federation(fed.Config()) // exchanges identity tokens for access tokens
	if err != nil {
		log.Fatal(err)
	}
	defer creds.Close()
	client, err := agentplatform.NewClient(option.WithBaseURL(srv.URL()), option.WithCredentials(creds))
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	page, err := client.Models.List(context.Background(), models.ListParams{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("models visible to the service account:", len(page.Data) > 0)
	// Output: models visible to the service account: true
}
