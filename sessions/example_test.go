package sessions_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// A session is one conversation of an agent in an environment: send it a
// user message and read the agent's events until it goes idle. The example
// uses platformtest, the in-process reference server, whose agent is
// scripted; a program calls agentplatform.NewClient() instead.
func Example() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "support"})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, agents.CreateParams{Name: "Support", Model: agents.ModelID(models.VendorSonnet55)})
	if err != nil {
		log.Fatal(err)
	}
	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent:         agents.AgentID(agent.ID), // its latest version
		EnvironmentID: env.ID,
	})
	if err != nil {
		log.Fatal(err)
	}
	// What the test server's agent will answer; a real agent needs no script.
	if err := srv.ScriptSession(sess.ID, []platformtest.Step{platformtest.Say("Order 1234 shipped yesterday.")}); err != nil {
		log.Fatal(err)
	}

	// A stream delivers what is recorded after it opens: open it, then send.
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
	for ev, err := range stream.Events() {
		if err != nil {
			log.Fatal(err)
		}
		switch ev := ev.(type) {
		case *sessions.AgentMessageEvent:
			fmt.Println("agent:", sessions.Text(ev.Content))
		case *sessions.SessionStatusIdleEvent:
			// Idle ends a turn. StopEndTurn means the agent is done;
			// StopRequiresAction, that it waits for a tool result or a
			// confirmation (see package toolrunner).
			if _, ok := ev.StopReason.(sessions.StopEndTurn); ok {
				fmt.Println("turn ended")
				return
			}
		}
	}
	// Output:
	// agent: Order 1234 shipped yesterday.
	// turn ended
}

// The history holds every event of the session, oldest first: what was
// sent, what the agent did, and the status changes.
func ExampleEventsService_All() {
	srv, client, done := exampleServer()
	defer done()
	ctx := context.Background()

	sess := exampleSession(client)
	// The test server's agent thinks, then answers.
	err := srv.ScriptSession(sess.ID, []platformtest.Step{platformtest.Think("Look it up."), platformtest.Say("Shipped.")})
	if err != nil {
		log.Fatal(err)
	}

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
		fmt.Println(ev.Type())
	}
	// Output:
	// user.message
	// session.status_running
	// span.model_request_start
	// agent.thinking
	// agent.message
	// span.model_request_end
	// session.usage
	// session.status_idle
}

// Resources are mounted into the session's container: files, repositories
// and memory stores. A repository token is a param.Secret, never printed,
// logged or returned.
func ExampleResourcesService() {
	_, client, done := exampleServer()
	defer done()
	ctx := context.Background()

	sess := exampleSession(client, sessions.RepositoryResourceParam{
		URL:                "https://github.com/example-org/example-repo",
		AuthorizationToken: param.Secret("ghp_example"),
		Checkout:           sessions.BranchCheckout{Name: "main"},
	})
	orders, err := client.Files.Upload(ctx, files.UploadParams{Reader: strings.NewReader("id,total\n1,42\n"), Filename: "orders.csv"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Sessions.Resources.Add(ctx, sess.ID, sessions.FileResourceParam{FileID: orders.ID, MountPath: "/data/orders.csv"}); err != nil {
		log.Fatal(err)
	}
	for res, err := range client.Sessions.Resources.All(ctx, sess.ID, sessions.ResourceListParams{}) {
		if err != nil {
			log.Fatal(err)
		}
		switch r := res.(type) {
		case sessions.RepositoryResource:
			fmt.Println("repository", r.URL, "at", r.MountPath)
		case sessions.FileResource:
			fmt.Println("file", r.FileID == orders.ID, "at", r.MountPath)
		}
	}
	// Output:
	// repository https://github.com/example-org/example-repo at /workspace/example-repo
	// file true at /data/orders.csv
}

// Update changes only what it names. param.Value sets a field, param.Null
// clears it, and in the metadata patch a nil value deletes its key.
func ExampleService_Update() {
	_, client, done := exampleServer()
	defer done()
	ctx := context.Background()

	sess := exampleSession(client)
	sess, err := client.Sessions.Update(ctx, sess.ID, sessions.UpdateParams{
		Title:    param.Value("Order 1234"),
		Metadata: map[string]*string{"ticket": new("T-41"), "queue": new("returns")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %v\n", sess.Title, sess.Metadata)

	sess, err = client.Sessions.Update(ctx, sess.ID, sessions.UpdateParams{
		Title:    param.Null[string](),                                    // cleared
		Metadata: map[string]*string{"ticket": new("T-42"), "queue": nil}, // upserted, deleted
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q %v\n", sess.Title, sess.Metadata)
	// Output:
	// "Order 1234" map[queue:returns ticket:T-41]
	// "" map[ticket:T-42]
}

// A budget the API refuses is an error that errors.Is matches with its
// reason, and that is still the API's *apierror.Error.
func ExampleBudgetRefusal() {
	_, client, done := exampleServer()
	defer done()
	ctx := context.Background()

	sess := exampleSession(client) // created without a budget
	_, err := client.Sessions.Update(ctx, sess.ID, sessions.UpdateParams{
		Budget: param.Value(sessions.Limit(money.USD(500))),
	})
	var apiErr *apierror.Error
	fmt.Println(errors.Is(err, sessions.ErrBudgetCreateOnly), errors.As(err, &apiErr), apiErr.StatusCode)
	// Output:
	// true true 400
}

// Events marshal with encoding/json to the JSON the API sent, and
// DecodeEvent reads them back: to store them, or to hand them on.
func ExampleDecodeEvent() {
	ev, err := sessions.DecodeEvent([]byte(`{"type":"agent.message","id":"sevt_1","processed_at":"2026-01-05T09:00:00Z",` +
		`"content":[{"type":"text","text":"Shipped."}],"mood":"upbeat"}`))
	if err != nil {
		log.Fatal(err)
	}
	msg := ev.(*sessions.AgentMessageEvent)
	fmt.Println(msg.ID, sessions.Text(msg.Content), string(msg.Extra["mood"]))
	b, err := json.Marshal(ev)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// sevt_1 Shipped. "upbeat"
	// {"type":"agent.message","id":"sevt_1","processed_at":"2026-01-05T09:00:00Z","content":[{"type":"text","text":"Shipped."}],"mood":"upbeat"}
}

// exampleSession creates an environment, an agent and a session of it
// with resources, as Example does.
func exampleSession(client *agentplatform.Client, resources ...sessions.ResourceParam) *sessions.Session {
	ctx := context.Background()
	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "support"})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, agents.CreateParams{Name: "Support", Model: agents.ModelID(models.VendorSonnet55)})
	if err != nil {
		log.Fatal(err)
	}
	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent: agents.AgentID(agent.ID), EnvironmentID: env.ID, Resources: resources,
	})
	if err != nil {
		log.Fatal(err)
	}
	return sess
}

// exampleServer starts a reference server and returns it with a client for
// it and a function that closes both, as Example does step by step. A
// fixed start time makes ids and timestamps the same on every run.
func exampleServer() (*platformtest.Server, *agentplatform.Client, func()) {
	srv, err := platformtest.NewServer(platformtest.WithStartTime(time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)))
	if err != nil {
		log.Fatal(err)
	}
	client, err := srv.Client()
	if err != nil {
		srv.Close()
		log.Fatal(err)
	}
	return srv, client, func() {
		client.Close()
		srv.Close()
	}
}

// A coordinator's child threads have endpoints of their own: list a
// session's threads, then read what one child did.
func ExampleThreadsService() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "review"})
	if err != nil {
		log.Fatal(err)
	}
	reviewer, err := client.Agents.Create(ctx, agents.CreateParams{Name: "code-reviewer", Model: agents.ModelID(models.VendorHaiku55)})
	if err != nil {
		log.Fatal(err)
	}
	lead, err := client.Agents.Create(ctx, agents.CreateParams{Name: "lead", Model: agents.ModelID(models.VendorSonnet55),
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(reviewer.ID)}}})
	if err != nil {
		log.Fatal(err)
	}
	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(lead.ID), EnvironmentID: env.ID})
	if err != nil {
		log.Fatal(err)
	}
	err = srv.ScriptSession(sess.ID, []platformtest.Step{platformtest.Spawn("code-reviewer", platformtest.Say("Two issues.")), platformtest.Say("Reviewed.")})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Sessions.Events.Send(ctx, sess.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("Review the diff.")}}); err != nil {
		log.Fatal(err)
	}

	for th, err := range client.Sessions.Threads.All(ctx, sess.ID, sessions.ThreadListParams{}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s primary=%v %s\n", th.AgentName(), th.Primary(), th.Status)
		if th.Primary() {
			continue
		}
		for ev, err := range client.Sessions.Threads.AllEvents(ctx, sess.ID, th.ID, sessions.EventListParams{}) {
			if err != nil {
				log.Fatal(err)
			}
			if m, ok := ev.(*sessions.AgentMessageEvent); ok {
				fmt.Println("  said:", sessions.Text(m.Content))
			}
		}
	}
	// Output:
	// lead primary=true idle
	// code-reviewer primary=false idle
	//   said: Two issues.
}
