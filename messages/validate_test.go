package messages_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/tool"
)

// TestLocalRefusals: each broken rule is refused before anything is sent,
// naming the field by its path in docs/messages-wire.md (the server's,
// union tags included), by Create and Stream alike.
func TestLocalRefusals(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(p *messages.MessageParams)
	}{
		{"model", func(p *messages.MessageParams) { p.Model = "" }},
		{"max_tokens", func(p *messages.MessageParams) { p.MaxTokens = -1 }},
		{"messages", func(p *messages.MessageParams) { p.Messages = nil }},
		{"messages.0.role", func(p *messages.MessageParams) { p.Messages[0].Role = "tool" }},
		{"messages.0", func(p *messages.MessageParams) { p.Messages[0] = messages.SystemText("first") }},
		{"messages.0", func(p *messages.MessageParams) { p.Messages[0].Content = messages.Text("") }},
		{"messages.0.content", func(p *messages.MessageParams) { p.Messages[0].Content = nil }},
		{"messages.0", func(p *messages.MessageParams) { p.Messages[0].Content = messages.Blocks{} }},
		{"messages", func(p *messages.MessageParams) { // an empty text block; the server names no block
			p.Messages[0] = messages.UserBlocks(messages.TextBlock{Text: "a"}, messages.TextBlock{})
		}},
		{"messages.0.content.0", func(p *messages.MessageParams) { p.Messages[0] = messages.UserBlocks(nil) }},
		{"messages", func(p *messages.MessageParams) {
			p.Messages = append(p.Messages, messages.AssistantText("Prefill ends with a space "))
		}},
		{"messages.1", func(p *messages.MessageParams) {
			p.Messages = append(p.Messages, messages.AssistantText(""), messages.UserText("x"))
		}},
		{"messages.1.content.0.tool_use.id", func(p *messages.MessageParams) {
			p.Messages = append(p.Messages, messages.AssistantBlocks(messages.ToolUseBlock{ID: "bad id!", Name: "x"}))
		}},
		{"messages.1.content.0.tool_use.input", func(p *messages.MessageParams) {
			p.Messages = append(p.Messages, messages.AssistantBlocks(messages.ToolUseBlock{ID: "toolu_1", Name: "x", Input: json.RawMessage(`[1]`)}))
		}},
		{"system", func(p *messages.MessageParams) { p.System = messages.SystemBlocks{{Text: "a"}, {}} }},
		{"temperature", func(p *messages.MessageParams) { p.Temperature = new(1.5) }},
		{"temperature", func(p *messages.MessageParams) { p.Temperature = new(-0.1) }},
		{"top_p", func(p *messages.MessageParams) { p.TopP = new(2.0) }},
		{"top_k", func(p *messages.MessageParams) { p.TopK = new(-1) }},
		{"stop_sequences", func(p *messages.MessageParams) { p.StopSequences = strings.Split(strings.Repeat("x,", 16)+"x", ",") }},
		{"stop_sequences.1", func(p *messages.MessageParams) { p.StopSequences = []string{"END", " \n"} }},
		{"thinking.enabled.budget_tokens", func(p *messages.MessageParams) { p.Thinking = messages.ThinkingEnabled{BudgetTokens: 1023} }},
		{"thinking.enabled.budget_tokens", func(p *messages.MessageParams) { p.Thinking = messages.ThinkingEnabled{BudgetTokens: 1024} }}, // not < max_tokens 1024
		{"temperature", func(p *messages.MessageParams) {
			p.MaxTokens, p.Thinking, p.Temperature = 4096, messages.ThinkingEnabled{BudgetTokens: 2048}, new(0.5)
		}},
		{"top_p", func(p *messages.MessageParams) { p.Thinking, p.TopP = messages.ThinkingAdaptive{}, new(0.9) }},
		{"top_k", func(p *messages.MessageParams) { p.Thinking, p.TopK = messages.ThinkingAdaptive{}, new(5) }},
		{"tool_choice", func(p *messages.MessageParams) {
			p.Tools, p.ToolChoice, p.Thinking = []messages.Tool{weatherTool}, messages.ToolChoiceAny{}, messages.ThinkingAdaptive{}
		}},
		{"tool_choice", func(p *messages.MessageParams) { p.ToolChoice = messages.ToolChoiceAny{} }},
		{"tool_choice.tool.name", func(p *messages.MessageParams) {
			p.Tools, p.ToolChoice = []messages.Tool{weatherTool}, messages.ToolChoiceTool{Name: "get_time"}
		}},
		{"tools.1.custom.name", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{weatherTool, messages.CustomTool{Name: "has space", InputSchema: json.RawMessage(`{"type":"object"}`)}}
		}},
		{"tools.0.custom.name", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{messages.CustomTool{Name: strings.Repeat("a", 129), InputSchema: json.RawMessage(`{"type":"object"}`)}}
		}},
		{"tools.0.custom.input_schema", func(p *messages.MessageParams) { p.Tools = []messages.Tool{messages.CustomTool{Name: "a"}} }},
		{"tools.0.custom.input_schema", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{messages.CustomTool{Name: "a", InputSchema: json.RawMessage(`"object"`)}}
		}},
		{"tools", func(p *messages.MessageParams) { p.Tools = []messages.Tool{weatherTool, weatherTool} }},
		{"tools.0", func(p *messages.MessageParams) { p.Tools = []messages.Tool{nil} }},
		{"tools.0.web_search_20250305", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{messages.WebSearchTool{AllowedDomains: []string{"a.com"}, BlockedDomains: []string{"b.com"}}}
		}},
		{"tools.0.mcp_toolset.mcp_server_name", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{messages.MCPToolset{MCPServerName: "nope"}}
		}},
		{"mcp_servers.0.url", func(p *messages.MessageParams) {
			p.MCPServers = []messages.MCPServer{{Name: "s", URL: "http://plain.example.com"}}
		}},
		{"metadata.user_id", func(p *messages.MessageParams) { p.Metadata = &messages.Metadata{UserID: strings.Repeat("u", 513)} }},
		{"output_config.format.schema", func(p *messages.MessageParams) {
			p.OutputConfig = &messages.OutputConfig{Format: &messages.JSONSchemaFormat{Schema: json.RawMessage(`true`)}}
		}},
		{"fallbacks", func(p *messages.MessageParams) { p.Fallbacks = messages.FallbackList{} }},
		{"fallbacks.0.model", func(p *messages.MessageParams) { p.Fallbacks = messages.FallbackList{{Model: p.Model}} }},
	} {
		t.Run(tc.field, func(t *testing.T) {
			env, client := newEnv(t)
			p := prompt("Hello there")
			p.Messages = append([]messages.MessageParam(nil), p.Messages...)
			tc.edit(&p)
			_, err := client.Messages.Create(ctx, p)
			var v *apierror.ValidationError
			require.ErrorAs(t, err, &v)
			require.Equal(t, tc.field, v.Field, v.Error())
			require.ErrorIs(t, err, apierror.ErrInvalidRequest)
			_, err = client.Messages.Stream(ctx, p)
			require.ErrorAs(t, err, &v)
			require.Empty(t, env.Server.Requests(), "nothing was sent")
		})
	}
}

func TestLocalRefusalsOfOtherCalls(t *testing.T) {
	env, client := newEnv(t)
	var v *apierror.ValidationError

	_, err := client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: models.VendorSonnet55})
	require.ErrorAs(t, err, &v)
	require.Equal(t, "messages", v.Field)
	_, err = client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: models.VendorSonnet55,
		Messages: []messages.MessageParam{messages.UserText("x")}, Thinking: messages.ThinkingEnabled{BudgetTokens: 10}})
	require.ErrorAs(t, err, &v)
	require.Equal(t, "thinking.enabled.budget_tokens", v.Field)

	lookup := tool.Must(tool.New("lookup", "Look up.", func(context.Context, struct{}) (tool.Result, error) { return tool.Text("x"), nil }))
	_, err = client.Messages.RunTools(ctx, prompt("x"), []tool.Tool{lookup, lookup}, messages.ToolLoop{})
	require.ErrorAs(t, err, &v)
	require.Equal(t, "tools", v.Field)
	_, err = client.Messages.RunTools(ctx, messages.MessageParams{}, []tool.Tool{lookup}, messages.ToolLoop{})
	require.ErrorAs(t, err, &v)
	require.Equal(t, "model", v.Field)
	require.Empty(t, env.Server.Requests(), "nothing was sent")
}
