package mcptool_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/mcptool"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// TestMessagesRunTools: the model calls an MCP server's tool through the
// Messages tool loop, and reads its result.
func TestMessagesRunTools(t *testing.T) {
	mcpSrv := newServer(nil)
	greet(mcpSrv)
	tools, err := mcptool.Tools(ctx, connect(t, mcpSrv), mcptool.WithPrefix("hello"))
	require.NoError(t, err)

	srv, client := platformtest.New(t)
	res, err := client.Messages.RunTools(ctx, messages.MessageParams{
		Model: models.VendorSonnet55, MaxTokens: 1024,
		Messages: []messages.MessageParam{messages.UserText(`Say hello. Use hello__greet {"name": "Ada"}`)},
	}, tools, messages.ToolLoop{})
	require.NoError(t, err)
	require.Equal(t, "Result of hello__greet: Hello, Ada", res.Message.Text())

	// The definition sent is the MCP tool's, under its mapped name.
	var first struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(srv.Requests()[0].Body, &first))
	require.Len(t, first.Tools, 1)
	require.Equal(t, "hello__greet", first.Tools[0].Name)
	require.Equal(t, "Greets someone by name.", first.Tools[0].Description)
	require.JSONEq(t, string(tools[0].InputSchema()), string(first.Tools[0].InputSchema))
}

// TestToolRunner: a session's agent calls an MCP server's tool, declared
// as a custom tool, and a toolrunner.Runner answers it.
func TestToolRunner(t *testing.T) {
	mcpSrv := newServer(nil)
	greet(mcpSrv)
	tools, err := mcptool.Tools(ctx, connect(t, mcpSrv))
	require.NoError(t, err)

	srv, client := platformtest.New(t)
	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "mcp"})
	require.NoError(t, err)
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "Greeter", Model: agents.ModelID(models.VendorHaiku55), Tools: agents.FromTools(tools...),
	})
	require.NoError(t, err)
	require.NoError(t, srv.ScriptAgent(agent.ID, []platformtest.Step{
		platformtest.UseCustomTool("greet", map[string]any{"name": "Ada"}),
		platformtest.Say("Done."),
	}))
	sess, err := client.Sessions.Create(ctx, sessions.CreateParams{
		Agent: agents.AgentID(agent.ID), EnvironmentID: env.ID,
		InitialEvents: []sessions.EventParam{sessions.UserMessage("Greet Ada")},
	})
	require.NoError(t, err)

	// The idle timeout only counts once the turn has ended, so it cannot
	// cut the call short however slow the machine.
	runner, err := toolrunner.New(client.Sessions, tools, toolrunner.WithIdleTimeout(10*time.Millisecond))
	require.NoError(t, err)
	defer func() { require.NoError(t, runner.Close(ctx)) }()
	require.NoError(t, runner.Run(ctx, sess.ID))

	page, err := client.Sessions.Events.List(ctx, sess.ID, sessions.EventListParams{Types: []sessions.EventType{sessions.EventCustomToolResult}})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	result := page.Data[0].(*sessions.CustomToolResultEvent)
	require.False(t, result.IsError)
	require.Equal(t, "Hello, Ada", sessions.Text(result.Content))
}
