package main

import (
	"context"
	"fmt"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// lookupInput is the custom tool's input; its JSON Schema is generated from
// this type.
type lookupInput struct {
	OrderID string `json:"order_id" jsonschema:"the order's id, e.g. 1234"`
}

// lookupOrder is the custom tool the agent calls and this program runs.
var lookupOrder = tool.Must(tool.New("lookup_order", "Look up an order by its id.",
	func(ctx context.Context, in lookupInput) (tool.Result, error) {
		fmt.Printf("  (the tool runner runs lookup_order for call %s)\n", toolrunner.CallID(ctx))
		return tool.JSON(map[string]string{"order_id": "1234", "status": "shipped", "carrier": "DHL"})
	}))

// startSession creates what a session needs (an environment and an agent
// with the custom tool), starts a budgeted session, and has one turn.
func startSession(ctx context.Context, client *agentplatform.Client) error {
	env, err := client.Environments.Create(ctx, environments.CreateParams{
		Name:   "quickstart",
		Config: environments.CloudConfig{Networking: environments.UnrestrictedNetworking{}},
	})
	if err != nil {
		return err
	}
	fmt.Printf("\nEnvironment %s %q\n", env.ID, env.Name)

	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:   "Order helper",
		Model:  agents.Model(models.VendorSonnet55),
		System: "You answer questions about orders. Look orders up with lookup_order.",
		Tools:  append([]agents.Tool{agents.AgentToolset{}}, agents.FromTools(lookupOrder)...),
	})
	if err != nil {
		return err
	}
	fmt.Printf("Agent %s %q version %d, model %s, %d tools\n",
		agent.ID, agent.Name, agent.Version, agent.Model.ID, len(agent.Tools))

	session, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent:         agents.AgentID(agent.ID),
		EnvironmentID: env.ID,
		Title:         "Where is order 1234?",
		Budget:        new(sessions.Limit(money.USD(500))),
	})
	if err != nil {
		return err
	}
	fmt.Printf("Session %s %q: %s, budget %s\n", session.ID, session.Title, session.Status, session.Budget.MaxListCost)
	return converse(ctx, client, session.ID, "Where is order 1234?")
}

// converse has the tool runner answer the agent's custom tool calls, sends
// one message, and prints the turn as it streams: previews of the reply as
// they arrive.
func converse(ctx context.Context, client *agentplatform.Client, sessionID, text string) error {
	runner, err := toolrunner.New(client.Sessions, []tool.Tool{lookupOrder})
	if err != nil {
		return err
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = runner.Close(closeCtx)
	}()
	if err := runner.Add(sessionID); err != nil {
		return err
	}

	// Open the stream first: it delivers what happens after it opens.
	stream, err := client.Sessions.Events.Stream(ctx, sessionID, sessions.StreamParams{
		EventDeltas: []string{sessions.EventAgentMessage},
	})
	if err != nil {
		return err
	}
	defer stream.Close()

	fmt.Printf("\nYou: %s\n", text)
	if _, err := client.Sessions.Events.Send(ctx, sessionID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage(text)},
	}); err != nil {
		return err
	}
	for ev, err := range stream.Events() {
		if err != nil {
			return err
		}
		switch ev := ev.(type) {
		case *sessions.AgentCustomToolUseEvent:
			fmt.Printf("Agent calls %s(%s)\n", ev.Name, ev.Input)
		case *sessions.EventStart:
			fmt.Print("Agent: ")
		case *sessions.EventDelta: // a fragment of the reply, as it is written
			if t, ok := ev.Delta.Content.(sessions.TextBlock); ok {
				fmt.Print(t.Text)
			}
		case *sessions.AgentMessageEvent: // the complete reply
			fmt.Println()
		case *sessions.SessionStatusIdleEvent:
			if _, waiting := ev.StopReason.(sessions.StopRequiresAction); waiting {
				continue // the runner's answer resumes the turn
			}
			fmt.Println("(the turn ended; the session is idle)")
			return nil
		}
	}
	return nil
}
