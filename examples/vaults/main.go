// Command vaults keeps an agent's credentials out of its definition: it
// creates a vault, stores a bearer token for an MCP server in it (the token
// is write-only: no response ever carries it), lists the vault's
// credentials, and runs a session of an agent that uses that server with
// the vault attached, so that its MCP tool calls are authenticated.
//
//	go run ./examples/vaults
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process, whose scripted agent makes one MCP tool call; with it,
// against the API at VENDOR_BASE_URL, where it creates the session without
// running a turn, and it deletes what it created.
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
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/vaults"
)

const mcpURL = "https://mcp.example.com/mcp"

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("vaults: ", err)
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

	vault, err := client.Vaults.Create(ctx, vaults.CreateParams{DisplayName: "Issue tracker bot"})
	if err != nil {
		return err
	}
	defer client.Vaults.Delete(ctx, vault.ID) // its credentials go with it
	// The token is a param.Secret: printing or logging the params shows
	// [redacted], and only the request body carries it.
	cred, err := client.Vaults.Credentials.Create(ctx, vault.ID, vaults.CredentialCreateParams{
		DisplayName: "tracker token",
		Auth:        vaults.StaticBearerParams{MCPServerURL: mcpURL, Token: param.Secret("example-not-a-real-token")},
	})
	if err != nil {
		return err
	}
	fmt.Printf("Vault %s %q holds credential %s\n", vault.ID, vault.DisplayName, cred.ID)
	for c, err := range client.Vaults.Credentials.All(ctx, vault.ID, vaults.ListParams{}) {
		if err != nil {
			return err
		}
		if auth, ok := c.Auth.(*vaults.StaticBearerAuth); ok {
			fmt.Printf("   %s: static bearer for %s (the token is never returned)\n", c.DisplayName, auth.MCPServerURL)
		}
	}

	// An agent that uses the MCP server at the credential's url, and a
	// session with the vault: the platform authenticates the agent's calls
	// to that server with the vault's credential.
	environment, err := client.Environments.Create(ctx, environments.CreateParams{Name: "vaults-example"})
	if err != nil {
		return err
	}
	defer client.Environments.Archive(ctx, environment.ID)
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "Triage", Model: agents.ModelID(models.VendorHaiku55),
		Tools: []agents.Tool{agents.MCPToolset{MCPServerName: "tracker",
			DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(agents.PolicyAlwaysAllow)}}},
		MCPServers: []agents.MCPServer{{Name: "tracker", URL: mcpURL}},
	})
	if err != nil {
		return err
	}
	defer client.Agents.Archive(ctx, agent.ID)
	session, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent: agents.AgentID(agent.ID), EnvironmentID: environment.ID, VaultIDs: []string{vault.ID},
	})
	if err != nil {
		return err
	}
	defer client.Sessions.Delete(ctx, session.ID)
	fmt.Printf("Session %s uses vaults %v\n", session.ID, session.VaultIDs)
	if srv == nil {
		return nil // a turn would run the real model
	}

	// The reference server's agent follows a script: one MCP tool call.
	if err := srv.ScriptSession(session.ID, []platformtest.Step{
		platformtest.UseMCPTool("tracker", "create_issue", map[string]any{"title": "Flaky test"}).
			With(platformtest.ToolOutput("Created issue #88", false)),
		platformtest.Say("Filed as #88."),
	}); err != nil {
		return err
	}
	if _, err := client.Sessions.Events.Send(ctx, session.ID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage("File the flaky test.")},
	}); err != nil {
		return err
	}
	for ev, err := range client.Sessions.Events.All(ctx, session.ID, sessions.EventListParams{}) {
		if err != nil {
			return err
		}
		switch e := ev.(type) {
		case *sessions.AgentMCPToolResultEvent:
			fmt.Printf("MCP tool result (error: %v): %s\n", e.IsError, sessions.Text(e.Content))
		case *sessions.SessionErrorEvent:
			fmt.Printf("Session error %s: %s\n", e.Error.Type, e.Error.Message)
		case *sessions.AgentMessageEvent:
			fmt.Println("Agent:", sessions.Text(e.Content))
		}
	}
	return nil
}
