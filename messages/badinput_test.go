package messages_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apierr"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/tool"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

// bodyCase breaks one rule of a Messages request body. The SDK refuses
// each locally, and the server refuses the same body with the same field
// and rule (TestLocalRulesMatchServer).
type bodyCase struct {
	name        string
	edit        func(*messages.MessageParams)
	field, rule string
}

var bodyCases = []bodyCase{
	{"max_tokens negative", func(p *messages.MessageParams) { p.MaxTokens = -1 }, "max_tokens", "Input should be greater than or equal to 0"},
	{"messages empty", func(p *messages.MessageParams) { p.Messages = []messages.MessageParam{} }, "messages", "List should have at least 1 item after validation, not 0"},
	{"content empty", func(p *messages.MessageParams) { p.Messages[0].Content = messages.Text("") }, "messages.0", "all messages must have non-empty content"},
	{"text block empty", func(p *messages.MessageParams) {
		p.Messages[0] = messages.UserBlocks(messages.TextBlock{Text: "a"}, messages.TextBlock{})
	}, "messages", "text content blocks must be non-empty"},
	{"prefill trailing space", func(p *messages.MessageParams) {
		p.Messages = append(p.Messages, messages.AssistantText("Sure "))
	}, "messages", "final assistant content cannot end with trailing whitespace"},
	{"tool_use id pattern", func(p *messages.MessageParams) {
		p.Messages = append(p.Messages, messages.AssistantBlocks(messages.ToolUseBlock{ID: "bad id", Name: "x"}))
	}, "messages.1.content.0.tool_use.id", "String should match pattern"},
	{"tool_use id 257", func(p *messages.MessageParams) {
		p.Messages = append(p.Messages, messages.AssistantBlocks(messages.ToolUseBlock{ID: strings.Repeat("t", 257), Name: "x"}))
	}, "messages.1.content.0.tool_use.id", "String should have at most 256 characters"},
	{"tool_use input not an object", func(p *messages.MessageParams) {
		p.Messages = append(p.Messages, messages.AssistantBlocks(messages.ToolUseBlock{ID: "toolu_1", Name: "x", Input: json.RawMessage(`"x"`)}))
	}, "messages.1.content.0.tool_use.input", "Input should be a valid dictionary"},
	{"tool_result in an assistant message", func(p *messages.MessageParams) {
		p.Messages = append(p.Messages, messages.AssistantBlocks(messages.ToolResultBlock{ToolUseID: "toolu_1"}))
	}, "messages.1.content.0", "`tool_result` blocks are not allowed in `assistant` messages"},
	{"tool_use in a user message", func(p *messages.MessageParams) {
		p.Messages[0] = messages.UserBlocks(messages.ToolUseBlock{ID: "toolu_1", Name: "x"})
	}, "messages.0.content.0", "`tool_use` blocks are not allowed in `user` messages"},
	{"tool_use without result", func(p *messages.MessageParams) {
		p.Messages = append(p.Messages, messages.AssistantBlocks(messages.ToolUseBlock{ID: "toolu_1", Name: "get_weather"}), messages.UserText("and?"))
	}, "messages.1", "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1"},
	{"tool_result without use", func(p *messages.MessageParams) {
		p.Messages[0] = messages.UserBlocks(messages.ToolResultBlock{ToolUseID: "toolu_9", Content: messages.Text("42")})
	}, "messages.0.content.0", "unexpected `tool_use_id` found in `tool_result` blocks: toolu_9"},
	{"system block empty", func(p *messages.MessageParams) { p.System = messages.SystemBlocks{{Text: "a"}, {}} }, "system", "text content blocks must be non-empty"},
	{"temperature 1.5", func(p *messages.MessageParams) { p.Temperature = new(1.5) }, "temperature", "Input should be less than or equal to 1"},
	{"top_p -0.1", func(p *messages.MessageParams) { p.TopP = new(-0.1) }, "top_p", "Input should be greater than or equal to 0"},
	{"top_k -1", func(p *messages.MessageParams) { p.TopK = new(-1) }, "top_k", "Input should be greater than or equal to 0"},
	{"stop_sequences 17", func(p *messages.MessageParams) { p.StopSequences = strings.Split(strings.Repeat("x,", 16)+"x", ",") },
		"stop_sequences", "List should have at most 16 items after validation, not 17"},
	{"stop sequence blank", func(p *messages.MessageParams) { p.StopSequences = []string{"END", "\t"} }, "stop_sequences.1", "must contain a non-whitespace character"},
	{"budget_tokens 1023", func(p *messages.MessageParams) { p.Thinking = messages.ThinkingEnabled{BudgetTokens: 1023} },
		"thinking.enabled.budget_tokens", "Input should be greater than or equal to 1024"},
	{"top_p with thinking", func(p *messages.MessageParams) { p.Thinking, p.TopP = messages.ThinkingAdaptive{}, new(0.9) },
		"top_p", "must be at least 0.95 when thinking is enabled"},
	{"top_k with thinking", func(p *messages.MessageParams) { p.Thinking, p.TopK = messages.ThinkingAdaptive{}, new(5) }, "top_k", "cannot be set when thinking is enabled"},
	{"tool_choice without tools", func(p *messages.MessageParams) { p.ToolChoice = messages.ToolChoiceAny{} }, "tool_choice", "requires at least one tool in `tools`"},
	{"tool_choice names an unknown tool", func(p *messages.MessageParams) {
		p.Tools, p.ToolChoice = []messages.Tool{weatherTool}, messages.ToolChoiceTool{Name: "get_time"}
	}, "tool_choice.tool.name", "tool `get_time` is not in `tools`"},
	{"custom tool name pattern", func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.CustomTool{Name: "get weather", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	}, "tools.0.custom.name", "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"},
	{"custom tool name 129", func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.CustomTool{Name: strings.Repeat("a", 129), InputSchema: json.RawMessage(`{"type":"object"}`)}}
	}, "tools.0.custom.name", "String should have at most 128 characters"},
	{"input_schema not an object", func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.CustomTool{Name: "a", InputSchema: json.RawMessage(`[]`)}}
	}, "tools.0.custom.input_schema", "Input should be a valid dictionary"},
	{"input_schema type", func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.CustomTool{Name: "a", InputSchema: json.RawMessage(`{"type":"array"}`)}}
	}, "tools.0.custom.input_schema.type", "Input should be 'object'"},
	{"input_schema without type", func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.CustomTool{Name: "a", InputSchema: json.RawMessage(`{"properties":{}}`)}}
	}, "tools.0.custom.input_schema.type", "Field required"},
	{"input_schema property key", func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.CustomTool{Name: "a", InputSchema: json.RawMessage(`{"type":"object","properties":{"a b":{}}}`)}}
	}, "tools.0.custom.input_schema.properties", "Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'"},
	{"tool names repeated", func(p *messages.MessageParams) { p.Tools = []messages.Tool{weatherTool, weatherTool} }, "tools", "Tool names must be unique."},
	{"web search domains both", func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.WebSearchTool{AllowedDomains: []string{"a.com"}, BlockedDomains: []string{"b.com"}}}
	}, "tools.0.web_search_20250305", "allowed_domains and blocked_domains cannot both be set"},
	{"web search max_uses", func(p *messages.MessageParams) { p.Tools = []messages.Tool{messages.WebSearchTool{MaxUses: -2}} },
		"tools.0.web_search_20250305.max_uses", "Input should be greater than or equal to 1"},
	{"mcp toolset without server", func(p *messages.MessageParams) { p.Tools = []messages.Tool{messages.MCPToolset{MCPServerName: "nope"}} },
		"tools.0.mcp_toolset.mcp_server_name", "no MCP server named `nope`"},
	{"mcp server name 65", func(p *messages.MessageParams) {
		p.MCPServers = []messages.MCPServer{{Name: strings.Repeat("s", 65), URL: "https://mcp.example.com"}}
	}, "mcp_servers.0.name", "String should have at most 64 characters"},
	{"mcp server plain http", func(p *messages.MessageParams) {
		p.MCPServers = []messages.MCPServer{{Name: "s", URL: "http://mcp.example.com"}}
	},
		"mcp_servers.0.url", "must start with https://"},
	{"mcp server repeated", func(p *messages.MessageParams) {
		s := messages.MCPServer{Name: "s", URL: "https://mcp.example.com"}
		p.MCPServers, p.Tools = []messages.MCPServer{s, s}, []messages.Tool{messages.MCPToolset{MCPServerName: "s"}}
	}, "mcp_servers.1.name", "duplicate MCP server name `s`"},
	{"mcp server without toolset", func(p *messages.MessageParams) {
		p.MCPServers = []messages.MCPServer{{Name: "s", URL: "https://mcp.example.com"}}
	},
		"mcp_servers.0", "MCP server `s` must be referenced by exactly one mcp_toolset"},
	{"metadata user_id 513", func(p *messages.MessageParams) { p.Metadata = &messages.Metadata{UserID: strings.Repeat("u", 513)} },
		"metadata.user_id", "String should have at most 512 characters"},
	{"output schema not an object", func(p *messages.MessageParams) {
		p.OutputConfig = &messages.OutputConfig{Format: &messages.JSONSchemaFormat{Schema: json.RawMessage(`true`)}}
	}, "output_config.format.schema", "Input should be a valid dictionary"},
	{"output_format with output_config.format", func(p *messages.MessageParams) {
		f := &messages.JSONSchemaFormat{Schema: json.RawMessage(`{"type":"object"}`)}
		p.OutputFormat, p.OutputConfig = f, &messages.OutputConfig{Format: f}
	}, "output_format", "cannot be combined with output_config.format"},
	{"fallbacks empty", func(p *messages.MessageParams) { p.Fallbacks = messages.FallbackList{} }, "fallbacks", "List should have at least 1 item after validation, not 0"},
	{"fallbacks 4", func(p *messages.MessageParams) {
		p.Fallbacks = messages.FallbackList{{Model: models.VendorOpus55}, {Model: models.VendorHaiku55}, {Model: "a"}, {Model: "b"}}
	}, "fallbacks", "List should have at most 3 items after validation, not 4"},
	{"fallback repeats the model", func(p *messages.MessageParams) { p.Fallbacks = messages.FallbackList{{Model: p.Model}} },
		"fallbacks.0.model", "duplicate model `vendor-sonnet-5-5`"},
}

func TestBadInput(t *testing.T) {
	env, client := newEnv(t)
	create := func(edit func(*messages.MessageParams)) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := prompt("Hello there")
			p.Messages = append([]messages.MessageParam(nil), p.Messages...)
			edit(&p)
			_, err := c.Messages.Create(ctx, p)
			return err
		}
	}
	stream := func(edit func(*messages.MessageParams)) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := prompt("Hello there")
			edit(&p)
			st, err := c.Messages.Stream(ctx, p)
			if err == nil {
				_, err = st.Message()
				_ = st.Close()
			}
			return err
		}
	}
	count := func(edit func(*messages.CountTokensParams)) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := messages.CountTokensParams{Model: models.VendorSonnet55, Messages: []messages.MessageParam{messages.UserText("Hi")}}
			edit(&p)
			_, err := c.Messages.CountTokens(ctx, p)
			return err
		}
	}
	lookup, err := tool.New("lookup", "Look something up.", func(context.Context, struct{}) (tool.Result, error) { return tool.Text("x"), nil })
	require.NoError(t, err)
	runTools := func(edit func(*messages.MessageParams), tools ...tool.Tool) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := prompt("Hello there")
			edit(&p)
			_, err := c.Messages.RunTools(ctx, p, tools, messages.ToolLoop{})
			return err
		}
	}
	cases := []badInput{
		// Refused by the SDK; the server words these differently or not
		// at all (see TestLocalRulesMatchServer).
		{"create model empty", create(func(p *messages.MessageParams) { p.Model = "" }), "model", "Field required", true},
		{"create message content missing", create(func(p *messages.MessageParams) { p.Messages[0].Content = nil }), "messages.0.content", "Field required", true},
		{"create block nil", create(func(p *messages.MessageParams) { p.Messages[0] = messages.UserBlocks(nil) }), "messages.0.content.0", "Input should be a valid dictionary", true},
		{"create tool_use name empty", create(func(p *messages.MessageParams) {
			p.Messages = append(p.Messages, messages.AssistantBlocks(messages.ToolUseBlock{ID: "toolu_1"}))
		}), "messages.1.content.0.tool_use.name", "Field required", true},
		{"create image without source", create(func(p *messages.MessageParams) { p.Messages[0] = messages.UserBlocks(messages.ImageBlock{}) }),
			"messages.0.content.0.image.source", "Field required", true},
		{"create budget not below max_tokens", create(func(p *messages.MessageParams) { p.Thinking = messages.ThinkingEnabled{BudgetTokens: 1024} }),
			"thinking.enabled.budget_tokens", "`max_tokens` must be greater than `thinking.budget_tokens`", true},
		{"create temperature with thinking", create(func(p *messages.MessageParams) {
			p.MaxTokens, p.Thinking, p.Temperature = 4096, messages.ThinkingEnabled{BudgetTokens: 2048}, new(0.5)
		}), "temperature", "`temperature` may only be set to 1 when thinking is enabled", true},
		{"create forced tool use with thinking", create(func(p *messages.MessageParams) {
			p.Tools, p.ToolChoice, p.Thinking = []messages.Tool{weatherTool}, messages.ToolChoiceAny{}, messages.ThinkingAdaptive{}
		}), "tool_choice", "Thinking may not be enabled when tool_choice forces tool use", true},
		{"create tool nil", create(func(p *messages.MessageParams) { p.Tools = []messages.Tool{nil} }), "tools.0", "Input should be a valid dictionary", true},
		{"create fallback model empty", create(func(p *messages.MessageParams) { p.Fallbacks = messages.FallbackList{{}} }), "fallbacks.0.model", "Field required", true},

		// Judged by the server: the model catalogue and enum values.
		{"create max_tokens above the model's", create(func(p *messages.MessageParams) { p.MaxTokens = 1 << 20 }),
			"max_tokens", "which is the maximum allowed number of output tokens for vendor-sonnet-5-5", false},
		{"create service_tier unknown", create(func(p *messages.MessageParams) { p.ServiceTier = "fastest" }), "service_tier", "Input should be", false},
		{"create thinking budget above the model's", create(func(p *messages.MessageParams) {
			p.MaxTokens, p.Thinking = 1<<20, messages.ThinkingEnabled{BudgetTokens: 1 << 19}
		}), "max_tokens", "maximum allowed number of output tokens", false},

		{"stream temperature 2", stream(func(p *messages.MessageParams) { p.Temperature = new(2.0) }), "temperature", "Input should be less than or equal to 1", true},
		{"stream tool names repeated", stream(func(p *messages.MessageParams) { p.Tools = []messages.Tool{weatherTool, weatherTool} }), "tools", "Tool names must be unique.", true},
		{"stream max_tokens above the model's", stream(func(p *messages.MessageParams) { p.MaxTokens = 1 << 20 }), "max_tokens", "maximum allowed number of output tokens", false},

		{"count model empty", count(func(p *messages.CountTokensParams) { p.Model = "" }), "model", "Field required", true},
		{"count messages missing", count(func(p *messages.CountTokensParams) { p.Messages = nil }), "messages", "List should have at least 1 item", true},
		{"count role", count(func(p *messages.CountTokensParams) { p.Messages[0].Role = "tool" }), "messages.0.role", "Input should be 'user', 'assistant' or 'system'", true},
		{"count system block empty", count(func(p *messages.CountTokensParams) { p.System = messages.SystemBlocks{{}} }), "system", "text content blocks must be non-empty", true},
		{"count custom tool name", count(func(p *messages.CountTokensParams) {
			p.Tools = []messages.Tool{messages.CustomTool{Name: "", InputSchema: json.RawMessage(`{"type":"object"}`)}}
		}), "tools.0.custom.name", "String should have at least 1 character", true},
		{"count budget_tokens 1000", count(func(p *messages.CountTokensParams) { p.Thinking = messages.ThinkingEnabled{BudgetTokens: 1000} }),
			"thinking.enabled.budget_tokens", "Input should be greater than or equal to 1024", true},
		{"count mcp server without toolset", count(func(p *messages.CountTokensParams) {
			p.MCPServers = []messages.MCPServer{{Name: "s", URL: "https://mcp.example.com"}}
		}), "mcp_servers.0", "must be referenced by exactly one mcp_toolset", true},

		{"run tools repeated", runTools(func(*messages.MessageParams) {}, lookup, lookup), "tools", "tool names must be unique", true},
		{"run tools bad params", runTools(func(p *messages.MessageParams) { p.TopK = new(-3) }, lookup), "top_k", "Input should be greater than or equal to 0", true},
		{"run tools max_tokens above the model's", runTools(func(p *messages.MessageParams) { p.MaxTokens = 1 << 20 }, lookup),
			"max_tokens", "maximum allowed number of output tokens", false},
	}
	for _, bc := range bodyCases {
		cases = append(cases, badInput{"create " + bc.name, create(bc.edit), bc.field, bc.rule, true})
	}
	reftest.RunBadInput(t, env, client, cases)
}

// TestLocalRulesMatchServer sends each body the SDK refuses to the server
// as raw JSON: the server refuses it too, naming the same field and rule.
func TestLocalRulesMatchServer(t *testing.T) {
	env := reftest.New(t)
	for _, bc := range bodyCases {
		t.Run(bc.name, func(t *testing.T) {
			p := prompt("Hello there")
			p.Messages = append([]messages.MessageParam(nil), p.Messages...)
			bc.edit(&p)
			apiErr := sendRaw(t, env, p, "", "mcp-client-2025-11-20,server-side-fallback-2026-07-01")
			require.True(t, strings.HasPrefix(apiErr.Message, bc.field+": "), apiErr.Message)
			require.Contains(t, apiErr.Message, bc.rule)
		})
	}
}

// sendRaw posts p to the reference server as plain JSON, past the SDK's
// own checks, under version ("" sends no vendor-version) with the given
// vendor-beta value, and returns the 400 it must answer.
func sendRaw(t *testing.T, env *reftest.Env, p messages.MessageParams, version, beta string) *apierror.Error {
	t.Helper()
	body, err := json.Marshal(p)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a safety net, not an assertion
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, env.URL+"/v1/messages", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("x-api-key", env.Seed.APIKey)
	req.Header.Set("vendor-workspace-id", env.Seed.DefaultWorkspaceID)
	req.Header.Set("content-type", "application/json")
	if version != "" {
		req.Header.Set("vendor-version", version)
	}
	if beta != "" {
		req.Header.Set("vendor-beta", beta)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	apiErr := apierr.FromResponse(req.Method, req.URL.Path, resp.StatusCode, resp.Header, raw)
	require.Equal(t, http.StatusBadRequest, apiErr.StatusCode, string(raw))
	require.ErrorIs(t, apiErr, apierror.ErrInvalidRequest)
	return apiErr
}
