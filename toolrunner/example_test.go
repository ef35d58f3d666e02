package toolrunner_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// When a session's agent calls a custom tool, the session waits; the
// Runner runs the tool in your process and sends its result, and the agent
// goes on. The example uses platformtest, the in-process reference server,
// whose agent is scripted; a program calls agentplatform.NewClient().
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

	type lookupInput struct {
		OrderID string `json:"order_id"`
	}
	lookup := tool.Must(tool.New("lookup_order", "Look up an order by its id.",
		func(ctx context.Context, in lookupInput) (tool.Result, error) {
			// toolrunner.CallID(ctx) is the same on every run of this call:
			// a key for making side effects idempotent.
			fmt.Println("looking up order", in.OrderID)
			return tool.Text("shipped yesterday"), nil
		}))

	// The agent declares the tool; the Runner runs it.
	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "support"})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "Support", Model: agents.ModelID(models.VendorHaiku55), Tools: agents.FromTools(lookup),
	})
	if err != nil {
		log.Fatal(err)
	}
	// The test server's agent: call the tool, then answer.
	err = srv.ScriptAgent(agent.ID, []platformtest.Step{
		platformtest.UseCustomTool("lookup_order", map[string]any{"order_id": "1234"}),
		platformtest.Say("Order 1234 shipped yesterday."),
	})
	if err != nil {
		log.Fatal(err)
	}
	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent: agents.AgentID(agent.ID), EnvironmentID: env.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Where is order 1234?")},
	})
	if err != nil {
		log.Fatal(err)
	}

	// Run follows the session, here until its turn has ended and it has sat
	// idle for a moment; a long-lived service would use Add instead.
	runner, err := toolrunner.New(client.Sessions, []tool.Tool{lookup}, toolrunner.WithIdleTimeout(50*time.Millisecond))
	if err != nil {
		log.Fatal(err)
	}
	defer runner.Close(ctx)
	if err := runner.Run(ctx, sess.ID); err != nil {
		log.Fatal(err)
	}

	events, err := client.Sessions.Events.List(ctx, sess.ID, sessions.EventListParams{Types: []sessions.EventType{sessions.EventAgentMessage}})
	if err != nil {
		log.Fatal(err)
	}
	for _, ev := range events.Data {
		if m, ok := ev.(*sessions.AgentMessageEvent); ok {
			fmt.Println("agent:", sessions.Text(m.Content))
		}
	}
	// Output:
	// looking up order 1234
	// agent: Order 1234 shipped yesterday.
}
