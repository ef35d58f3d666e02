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

// On a self-hosted environment the agent's sandbox tools (bash, read,
// write, edit, glob, grep) run in your worker: the Runner runs each call
// with the tool of that name and sends its user.tool_result. A worker
// would also pass its environment's key with WithRequestOptions.
func ExampleWithSandboxTools() {
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

	type bashInput struct {
		Command string `json:"command"`
	}
	bash := tool.Must(tool.New("bash", "Runs a command.",
		func(ctx context.Context, in bashInput) (tool.Result, error) {
			// A real worker runs the command in the session's sandbox,
			// which toolrunner.SessionID(ctx) names.
			fmt.Println("$", in.Command)
			return tool.Text("README.md\nmain.go"), nil
		}))

	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "worker", Config: environments.SelfHostedConfig{}})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "Ops", Model: agents.ModelID(models.VendorHaiku55),
		Tools: []agents.Tool{agents.AgentToolset{DefaultConfig: &agents.ToolDefaults{
			PermissionPolicy: agents.Policy(agents.PolicyAlwaysAllow)}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	// The test server's agent: run ls, then answer.
	err = srv.ScriptAgent(agent.ID, []platformtest.Step{
		platformtest.UseTool("bash", map[string]any{"command": "ls"}),
		platformtest.Say("Two files."),
	})
	if err != nil {
		log.Fatal(err)
	}
	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent: agents.AgentID(agent.ID), EnvironmentID: env.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("What is in the repository?")},
	})
	if err != nil {
		log.Fatal(err)
	}

	runner, err := toolrunner.New(client.Sessions, nil,
		toolrunner.WithSandboxTools(bash), toolrunner.WithIdleTimeout(50*time.Millisecond))
	if err != nil {
		log.Fatal(err)
	}
	defer runner.Close(ctx)
	if err := runner.Run(ctx, sess.ID); err != nil {
		log.Fatal(err)
	}

	events, err := client.Sessions.Events.List(ctx, sess.ID, sessions.EventListParams{
		Types: []sessions.EventType{sessions.EventToolResult, sessions.EventAgentMessage}})
	if err != nil {
		log.Fatal(err)
	}
	for _, ev := range events.Data {
		switch ev := ev.(type) {
		case *sessions.ToolResultEvent:
			fmt.Printf("result: %q\n", sessions.Text(ev.Content))
		case *sessions.AgentMessageEvent:
			fmt.Println("agent:", sessions.Text(ev.Content))
		}
	}
	// Output:
	// $ ls
	// result: "README.md\nmain.go"
	// agent: Two files.
}
