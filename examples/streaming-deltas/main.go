// Command streaming-deltas shows an agent's reply while it is being written:
// a session event stream that asks for previews of agent.message events
// (StreamParams.EventDeltas) prints each fragment as it arrives, then the
// complete message, which replaces the preview.
//
//	go run ./examples/streaming-deltas
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process; with it, against the API at VENDOR_BASE_URL.
package main

import (
	"cmp"
	"context"
	"fmt"
	"log"
	"os"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("streaming-deltas: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
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
		if srv, err = platformtest.NewServer(); err != nil {
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

	environment, err := client.Environments.Create(ctx, environments.CreateParams{Name: "streaming-deltas"})
	if err != nil {
		return err
	}
	defer client.Environments.Archive(ctx, environment.ID) // best effort, for the real API
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:   "Storyteller",
		Model:  agents.ModelID(models.VendorHaiku55),
		System: "You tell very short stories.",
	})
	if err != nil {
		return err
	}
	defer client.Agents.Archive(ctx, agent.ID)
	if err := scriptEmbeddedAgent(srv, agent.ID); err != nil {
		return err
	}
	session, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent: agents.AgentID(agent.ID), EnvironmentID: environment.ID,
	})
	if err != nil {
		return err
	}
	defer client.Sessions.Archive(ctx, session.ID)

	// Previews of agent.message (and the start of agent.thinking) arrive as
	// event_start and event_delta events, before the message itself.
	stream, err := client.Sessions.Events.Stream(ctx, session.ID, sessions.StreamParams{
		EventDeltas: []sessions.EventType{sessions.EventAgentMessage, sessions.EventAgentThinking},
	})
	if err != nil {
		return err
	}
	defer stream.Close()

	prompt := "Tell me a two-sentence story about a lighthouse."
	fmt.Println("user:", prompt)
	sent := time.Now()
	if _, err := client.Sessions.Events.Send(ctx, session.ID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage(prompt)},
	}); err != nil {
		return err
	}

	// A UI that redraws the text so far would fold the fragments with
	// sessions.Previews; this prints each fragment as it comes.
	for ev, err := range stream.Events() {
		if err != nil {
			return err
		}
		switch ev := ev.(type) {
		case *sessions.EventStart:
			if ev.Event.Type == sessions.EventAgentThinking {
				fmt.Println("(the agent is thinking)")
			} else {
				fmt.Printf("the agent starts writing %s:\n", ev.Event.ID)
			}
		case *sessions.EventDelta:
			if t, ok := ev.Delta.Content.(sessions.TextBlock); ok {
				fmt.Printf("  %6s  %q\n", since(sent), t.Text)
			}
		case *sessions.AgentMessageEvent: // the complete message replaces its preview
			fmt.Printf("  %6s  complete: %s\n", since(sent), sessions.Text(ev.Content))
		case *sessions.SessionStatusIdleEvent:
			return nil // the turn is over
		}
	}
	return nil
}

// since is the time elapsed since t, to the millisecond.
func since(t time.Time) time.Duration { return time.Since(t).Round(time.Millisecond) }
