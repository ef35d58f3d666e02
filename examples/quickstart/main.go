// Command quickstart tours the API: the model catalogue, the organization's
// workspaces, then an environment, an agent with a custom tool, a session of
// that agent, and one conversation turn streamed as it happens: the agent
// calls the custom tool, the program answers it, and the reply streams in.
// Last, one Messages call, streamed.
//
//	go run ./examples/quickstart
//
// With VENDOR_API_KEY set it talks to the API at VENDOR_BASE_URL (default
// https://api.vendor.com). Without it, it starts the SDK's reference server
// in this process, so it runs with no account and no network.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/workspaces"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	traces := newSpans()
	opts, stop, err := connect(traces)
	if err != nil {
		return err
	}
	defer stop()
	defer traces.summary(ctx)

	client, err := agentplatform.NewClient(append(opts, option.WithTracerProvider(traces.tp))...)
	if err != nil {
		return err
	}
	defer client.Close()

	fmt.Println("\nModels, newest first:")
	for m, err := range client.Models.All(ctx, models.ListParams{}) {
		if err != nil {
			return err
		}
		fmt.Printf("  %-18s %-18s context %7d tokens, output up to %6d, effort: %s\n",
			m.ID, m.DisplayName, m.MaxInputTokens, m.MaxTokens, effortLevels(m.Capabilities.Effort))
	}

	fmt.Println("\nWorkspaces:")
	for ws, err := range client.Workspaces.All(ctx, workspaces.ListParams{IncludeDefault: true}) {
		if errors.Is(err, apierror.ErrPermission) {
			fmt.Println("  (listing workspaces needs a key that is not scoped to one workspace)")
			break
		}
		if err != nil {
			return err
		}
		fmt.Printf("  %-32s %-20s data stored in %s, inference default %s\n",
			ws.ID, ws.Name, ws.DataResidency.WorkspaceGeo, ws.DataResidency.DefaultInferenceGeo)
	}
	if err := startSession(ctx, client); err != nil {
		return err
	}
	return streamMessage(ctx, client)
}

// streamMessage makes one Messages call and prints the reply as it streams.
func streamMessage(ctx context.Context, client *agentplatform.Client) error {
	stream, err := client.Messages.Stream(ctx, messages.MessageParams{
		Model:     models.VendorHaiku55,
		MaxTokens: 256,
		Messages:  []messages.MessageParam{messages.UserText("Say hello in five words.")},
	})
	if err != nil {
		return err
	}
	defer stream.Close()
	fmt.Print("\nMessages API, streamed: ")
	for ev, err := range stream.Events() {
		if err != nil {
			return err
		}
		if d, ok := ev.(messages.ContentBlockDeltaEvent); ok {
			if t, ok := d.Delta.(messages.TextDelta); ok {
				fmt.Print(t.Text)
			}
		}
	}
	msg, err := stream.Message()
	if err != nil {
		return err
	}
	fmt.Printf("\n(%s, %d input and %d output tokens, first chunk after %s)\n",
		msg.StopReason, msg.Usage.InputTokens, msg.Usage.OutputTokens, stream.TimeToFirstChunk().Round(time.Microsecond))
	return nil
}

// startSession creates what a session needs (an environment and an agent)
// and starts one, with a budget.
func startSession(ctx context.Context, client *agentplatform.Client) error {
	env, err := client.Environments.Create(ctx, environments.CreateParams{
		Name:   "quickstart",
		Config: environments.CloudConfig{Networking: environments.UnrestrictedNetworking{}},
	})
	if err != nil {
		return err
	}
	kind := "cloud"
	if _, ok := env.Config.(environments.SelfHostedConfig); ok {
		kind = "self-hosted"
	}
	fmt.Printf("\nEnvironment %s %q, %s\n", env.ID, env.Name, kind)

	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:   "Order helper",
		Model:  agents.Model(models.VendorSonnet55),
		System: "You answer questions about orders. Look orders up with lookup_order.",
		Tools: []agents.Tool{
			agents.AgentToolset{},
			agents.CustomTool{
				Name:        "lookup_order",
				Description: "Look up an order by its id.",
				InputSchema: agents.InputSchema{
					Properties: map[string]any{"order_id": map[string]any{"type": "string"}},
					Required:   []string{"order_id"},
				},
			},
		},
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
	fmt.Printf("Session %s %q: %s, agent %s v%d, budget %s\n",
		session.ID, session.Title, session.Status, session.Agent.ID, session.Agent.Version,
		session.Budget.MaxListCost)
	return converse(ctx, client, session.ID, "Where is order 1234?")
}

// converse sends one message and prints the turn as it streams: previews of
// the reply as they arrive, and the answer to the agent's custom tool call.
func converse(ctx context.Context, client *agentplatform.Client, sessionID, text string) error {
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
		case *sessions.EventDelta: // a fragment of the reply, as it is written
			if t, ok := ev.Delta.Content.(sessions.TextBlock); ok {
				fmt.Print(t.Text)
			}
		case *sessions.AgentMessageEvent: // the complete reply
			fmt.Println()
		case *sessions.AgentCustomToolUseEvent: // our tool: answer it
			fmt.Printf("Agent calls %s(%s)\n", ev.Name, ev.Input)
			result := `{"order_id":"1234","status":"shipped","carrier":"DHL"}`
			if _, err := client.Sessions.Events.Send(ctx, sessionID, sessions.SendParams{
				Events: []sessions.EventParam{sessions.CustomToolResult(ev.ID(), result)},
			}); err != nil {
				return err
			}
			fmt.Print("Agent: ")
		case *sessions.SessionStatusIdleEvent:
			if _, waiting := ev.StopReason.(sessions.StopRequiresAction); waiting {
				continue // the tool answer above resumes the turn
			}
			fmt.Println("(the turn ended; the session is idle)")
			return nil
		}
	}
	return nil
}

// connect returns the client options: the environment's credentials when
// VENDOR_API_KEY is set, else those of a reference server started here.
func connect(traces *spans) ([]option.Option, func(), error) {
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Using the API at", envOr("VENDOR_BASE_URL", "https://api.vendor.com"))
		return nil, func() {}, nil
	}
	traces.api = tracetest.NewInMemoryExporter()
	srv := refserver.New(refserver.WithSpanExporter(traces.api))
	url, stop, err := srv.Start("127.0.0.1:0")
	if err != nil {
		return nil, nil, fmt.Errorf("starting the reference server: %w", err)
	}
	seed := srv.Seed()
	fmt.Println("VENDOR_API_KEY is not set: using the embedded reference server at", url)
	opts := []option.Option{
		option.WithBaseURL(url),
		option.WithAPIKey(seed.APIKey),
		option.WithWorkspaceID(seed.DefaultWorkspaceID),
	}
	return opts, func() { _ = stop() }, nil
}

// effortLevels names the effort levels a model accepts.
func effortLevels(e models.EffortCapability) string {
	if !e.Supported {
		return "not supported"
	}
	var levels []string
	for _, l := range []struct {
		name string
		c    models.Capability
	}{{"low", e.Low}, {"medium", e.Medium}, {"high", e.High}, {"max", e.Max}, {"xhigh", e.XHigh}} {
		if l.c.Supported {
			levels = append(levels, l.name)
		}
	}
	return strings.Join(levels, " ")
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}
