// Command self-hosted runs an agent whose sandbox is this machine: it
// creates a self-hosted environment and an agent with the agent toolset,
// starts a worker (package selfhosted) in this process, and shows the
// agent listing and editing files in a temporary directory.
//
//	go run ./examples/self-hosted
//
// Without VENDOR_API_KEY it runs against the SDK's reference server,
// started in this process: no account, no network. With VENDOR_API_KEY set
// it calls the API at VENDOR_BASE_URL, in the self-hosted environment
// VENDOR_ENVIRONMENT_ID, whose key (from the console) is
// VENDOR_ENVIRONMENT_KEY.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/selfhosted"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("self-hosted: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var srv *platformtest.Server // nil against the real API
	client, envID, key, err := target(&srv)
	if err != nil {
		return err
	}
	defer client.Close()
	if srv != nil {
		defer srv.Close()
		env, err := client.Environments.Create(ctx, environments.CreateParams{
			Name: "self-hosted example", Config: environments.SelfHostedConfig{}})
		if err != nil {
			return err
		}
		envID = env.ID
		// The platform shows an environment's key in its console; the
		// embedded server hands one out directly.
		if key, err = srv.EnvironmentKey(envID); err != nil {
			return err
		}
	}

	// The agent gets the agent toolset: bash, read, write, edit, glob, grep.
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:   "Tidy-up helper",
		Model:  agents.ModelID(models.VendorSonnet55),
		System: "You keep the project's notes tidy.",
		Tools:  []agents.Tool{agents.AgentToolset{}},
	})
	if err != nil {
		return err
	}
	defer client.Agents.Archive(ctx, agent.ID)
	if err := scriptEmbeddedAgent(srv, agent.ID); err != nil {
		return err
	}

	// The worker: sessions get their own directory under dir, and their
	// file tools cannot leave it.
	dir, err := os.MkdirTemp("", "self-hosted-example-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	worker, err := selfhosted.New(client, envID, key, selfhosted.WithDir(dir))
	if err != nil {
		return err
	}
	workerDone := make(chan error, 1)
	go func() { workerDone <- worker.Run(ctx) }()
	defer func() {
		if err := worker.Close(context.Background()); err != nil {
			log.Print("closing the worker: ", err)
		}
		if err := <-workerDone; err != nil && !errors.Is(err, context.Canceled) {
			log.Print("worker: ", err)
		}
	}()

	session, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent: agents.AgentID(agent.ID), EnvironmentID: envID, Title: "Tidy the notes"})
	if err != nil {
		return err
	}
	defer client.Sessions.Archive(ctx, session.ID)
	fmt.Printf("Session %s; its files live in %s\n\n", session.ID, filepath.Join(dir, session.ID))

	stream, err := client.Sessions.Events.Stream(ctx, session.ID, sessions.StreamParams{})
	if err != nil {
		return err
	}
	defer stream.Close()
	ask := "Write a to-do list, list the notes, then mark the first item done."
	fmt.Println("user:  ", ask)
	if _, err := client.Sessions.Events.Send(ctx, session.ID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage(ask)}}); err != nil {
		return err
	}
	for ev, err := range stream.Events() {
		if err != nil {
			return err
		}
		switch ev := ev.(type) {
		case *sessions.AgentToolUseEvent:
			fmt.Printf("agent:   %s %s\n", ev.Name, ev.Input)
		case *sessions.ToolResultEvent: // sent by the worker, which ran the tool here
			fmt.Printf("worker:  %q\n", sessions.Text(ev.Content))
		case *sessions.AgentMessageEvent:
			fmt.Println("agent:  ", sessions.Text(ev.Content))
		case *sessions.SessionStatusIdleEvent:
			if _, ok := ev.StopReason.(sessions.StopRequiresAction); ok {
				continue // the worker is running a tool
			}
			todo, err := os.ReadFile(filepath.Join(dir, session.ID, "notes", "todo.md"))
			if err != nil {
				return err
			}
			fmt.Printf("\nnotes/todo.md on this machine now reads:\n%s", todo)
			return nil
		}
	}
	return nil
}

// target is the API when VENDOR_API_KEY is set, else the reference server
// started in this process (*srv is set then).
func target(srv **platformtest.Server) (client *agentplatform.Client, envID, key string, err error) {
	if os.Getenv("VENDOR_API_KEY") != "" {
		envID, key = os.Getenv("VENDOR_ENVIRONMENT_ID"), os.Getenv("VENDOR_ENVIRONMENT_KEY")
		if envID == "" || key == "" {
			return nil, "", "", errors.New("set VENDOR_ENVIRONMENT_ID and VENDOR_ENVIRONMENT_KEY to a self-hosted environment and its key")
		}
		client, err = agentplatform.NewClient()
		return client, envID, key, err
	}
	s, err := platformtest.NewServer()
	if err != nil {
		return nil, "", "", err
	}
	*srv = s
	fmt.Println("Target: the embedded reference server at", s.URL(), "(set VENDOR_API_KEY to use the real API)")
	client, err = s.Client()
	return client, "", "", err
}
