// Command quickstart is a first tour of the SDK: it creates an environment
// and an agent with a custom tool, starts a session, lets the tool runner
// answer the agent's tool call, streams the reply, and prints a summary of
// the trace the calls left.
//
//	go run ./examples/quickstart
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process: no account, no network. With VENDOR_API_KEY set it calls
// the API at VENDOR_BASE_URL (default https://api.vendor.com), in the
// workspace VENDOR_WORKSPACE_ID if the key needs one, and archives what it
// created.
package main

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"go.opentelemetry.io/otel"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// orderQuery is the custom tool's input; the tool's JSON Schema is generated
// from this type.
type orderQuery struct {
	OrderID string `json:"order_id" jsonschema:"the order's id, e.g. 1234"`
}

// lookupOrder is a custom tool: the agent calls it, and this program runs it.
var lookupOrder = tool.Must(tool.New("lookup_order", "Look up an order by its id.",
	func(ctx context.Context, in orderQuery) (tool.Result, error) {
		// A real tool would query a database here.
		return tool.JSON(map[string]string{"order_id": in.OrderID, "status": "shipped", "carrier": "DHL"})
	}))

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("quickstart: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// Record spans in memory, to summarize them at the end. The client and
	// the tool runner send theirs to the global provider by default.
	traces := newTraces()
	otel.SetTracerProvider(traces.provider)
	defer traces.summary(ctx)

	// The target: the API when VENDOR_API_KEY is set, else the SDK's
	// reference server, started in this process.
	var (
		srv    *platformtest.Server // nil against the real API
		client *agentplatform.Client
		err    error
	)
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Target: the API at", cmp.Or(os.Getenv("VENDOR_BASE_URL"), "https://api.vendor.com"))
		client, err = agentplatform.NewClient() // reads VENDOR_API_KEY, VENDOR_BASE_URL, VENDOR_WORKSPACE_ID
	} else {
		if srv, err = platformtest.NewServer(traces.embeddedServerOption()); err != nil { // it records its spans too
			return err
		}
		defer srv.Close()
		fmt.Println("Target: the embedded reference server at", srv.URL(), "(set VENDOR_API_KEY to use the real API)")
		client, err = srv.Client() // its address, seeded key and workspace
	}
	if err != nil {
		return err
	}
	defer client.Close()

	// An environment is where the agent's sessions run; the default is a
	// cloud container with unrestricted networking.
	environment, err := client.Environments.Create(ctx, environments.CreateParams{Name: "quickstart"})
	if err != nil {
		return err
	}
	defer client.Environments.Archive(ctx, environment.ID) // best effort: tidies up the real API

	// The agent: a model, a system prompt and the custom tool.
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:   "Order helper",
		Model:  agents.ModelID(models.VendorSonnet55),
		System: "You answer questions about orders. Look orders up with lookup_order.",
		Tools:  agents.FromTools(lookupOrder),
	})
	if err != nil {
		return err
	}
	defer client.Agents.Archive(ctx, agent.ID)
	fmt.Printf("Agent %s %q (%s) with tool %s\n", agent.ID, agent.Name, agent.Model.ID, lookupOrder.Name())
	// The embedded server has no model: it is told what a model would do.
	if err := scriptEmbeddedAgent(srv, agent.ID); err != nil {
		return err
	}

	session, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent:         agents.AgentID(agent.ID),
		EnvironmentID: environment.ID,
		Title:         "Where is order 1234?",
	})
	if err != nil {
		return err
	}
	defer client.Sessions.Archive(ctx, session.ID)
	fmt.Printf("Session %s\n\n", session.ID)

	// The tool runner follows the session in the background and answers
	// each call of lookup_order exactly once.
	runner, err := toolrunner.New(client.Sessions, []tool.Tool{lookupOrder})
	if err != nil {
		return err
	}
	defer runner.Close(ctx) // waits for tools still running
	if err := runner.Add(session.ID); err != nil {
		return err
	}

	// Open the stream before sending: it delivers what happens after it opens.
	stream, err := client.Sessions.Events.Stream(ctx, session.ID, sessions.StreamParams{})
	if err != nil {
		return err
	}
	defer stream.Close()

	question := "Where is order 1234?"
	fmt.Println("user:  ", question)
	if _, err := client.Sessions.Events.Send(ctx, session.ID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage(question)},
	}); err != nil {
		return err
	}

	for ev, err := range stream.Events() {
		if err != nil {
			return err
		}
		switch ev := ev.(type) {
		case *sessions.AgentCustomToolUseEvent:
			fmt.Printf("agent:   calls %s %s\n", ev.Name, ev.Input)
		case *sessions.CustomToolResultEvent: // sent by the tool runner
			fmt.Printf("runner:  answers %s\n", sessions.Text(ev.Content))
		case *sessions.AgentMessageEvent:
			fmt.Println("agent:  ", sessions.Text(ev.Content))
		case *sessions.SessionStatusIdleEvent:
			if _, ok := ev.StopReason.(sessions.StopRequiresAction); ok {
				continue // waiting for the tool's answer; the runner sends it
			}
			fmt.Println("(the turn is over; the session is idle)")
			return nil
		}
	}
	return nil
}
