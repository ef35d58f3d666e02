package messages_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/tool"
)

// TestRequestUnionsEncode checks the wire form of every request-side union
// variant (docs/messages-wire.md 2.3, 2.4, 2.6, 2.7 and 8.3).
func TestRequestUnionsEncode(t *testing.T) {
	memory, err := messages.RawTool(json.RawMessage(`{"type":"memory_20250818","name":"memory"}`))
	require.NoError(t, err)
	_, err = messages.RawTool(json.RawMessage(`{"name":"no type"}`))
	require.Error(t, err)
	yes, no := true, false
	for _, tc := range []struct {
		v    any
		wire string
	}{
		{messages.ToolChoiceAuto{DisableParallelToolUse: true}, `{"type":"auto","disable_parallel_tool_use":true}`},
		{messages.ToolChoiceAny{}, `{"type":"any"}`},
		{messages.ToolChoiceTool{Name: "get_weather"}, `{"type":"tool","name":"get_weather"}`},
		{messages.ToolChoiceNone{}, `{"type":"none"}`},
		{messages.ThinkingEnabled{BudgetTokens: 2048, Display: messages.ThinkingSummarized}, `{"type":"enabled","budget_tokens":2048,"display":"summarized"}`},
		{messages.ThinkingAdaptive{}, `{"type":"adaptive"}`},
		{messages.ThinkingDisabled{}, `{"type":"disabled"}`},
		{messages.FallbacksDefault{}, `"default"`},
		{messages.FallbackList{{Model: "vendor-haiku-5-5", MaxTokens: 100, Thinking: messages.ThinkingDisabled{}, OutputConfig: &messages.OutputConfig{Effort: messages.EffortLow}}},
			`[{"model":"vendor-haiku-5-5","max_tokens":100,"thinking":{"type":"disabled"},"output_config":{"effort":"low"}}]`},
		{messages.OutputConfig{Effort: messages.EffortMax, Format: &messages.JSONSchemaFormat{Schema: json.RawMessage(`{"type":"object"}`)}},
			`{"effort":"max","format":{"type":"json_schema","schema":{"type":"object"}}}`},
		{messages.WebSearchTool{Type: messages.WebSearch20260209, MaxUses: 2, AllowedDomains: []string{"go.dev"},
			UserLocation: &messages.UserLocation{City: "Paris", Country: "FR"}, CacheControl: messages.Ephemeral("5m")},
			`{"type":"web_search_20260209","name":"web_search","max_uses":2,"allowed_domains":["go.dev"],
			"user_location":{"type":"approximate","city":"Paris","country":"FR"},"cache_control":{"type":"ephemeral","ttl":"5m"}}`},
		{messages.CodeExecutionTool{}, `{"type":"code_execution_20250825","name":"code_execution"}`},
		{messages.MCPToolset{MCPServerName: "docs", DefaultConfig: &messages.MCPToolConfig{Enabled: &no},
			Configs: map[string]messages.MCPToolConfig{"search": {Enabled: &yes, DeferLoading: &no}}},
			`{"type":"mcp_toolset","mcp_server_name":"docs","default_config":{"enabled":false},"configs":{"search":{"enabled":true,"defer_loading":false}}}`},
		{messages.CustomTool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), Strict: true, EagerInputStreaming: &yes,
			InputExamples: []json.RawMessage{json.RawMessage(`{"a":1}`)}, AllowedCallers: []string{"direct"}},
			`{"name":"t","input_schema":{"type":"object"},"strict":true,"eager_input_streaming":true,"input_examples":[{"a":1}],"allowed_callers":["direct"]}`},
		{memory, `{"type":"memory_20250818","name":"memory"}`},
		{messages.MCPServer{Name: "docs", URL: "https://mcp.example.com", AuthorizationToken: "tok"},
			`{"type":"url","name":"docs","url":"https://mcp.example.com","authorization_token":"tok"}`},
		{messages.SystemBlocks{{Text: "a"}}, `[{"type":"text","text":"a"}]`},
		{messages.Text("a"), `"a"`},
	} {
		got, err := json.Marshal(tc.v)
		require.NoError(t, err)
		require.JSONEq(t, tc.wire, string(got), "%T", tc.v)
	}

	// The server takes them: a raw client tool, and tools from tool.Tool.
	env, client := newEnv(t)
	p := prompt("Hello there memory")
	p.Tools = append(messages.FromTools(weather), memory)
	m, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, "memory", m.ToolUses()[0].Name)
	require.Equal(t, "{}", string(m.ToolUses()[0].Input))
	tools := lastBody(t, env)["tools"].([]any)
	require.Equal(t, "get_weather", tools[0].(map[string]any)["name"])
	require.Equal(t, weather.Description(), tools[0].(map[string]any)["description"])
}

// TestConversationRoundTrip: a conversation (the result of a tool loop,
// say) can be stored as JSON and read back.
func TestConversationRoundTrip(t *testing.T) {
	_, client := newEnv(t)
	res, err := client.Messages.RunTools(ctx, prompt(`Use get_weather {"location": "Paris"}`), []tool.Tool{weather}, messages.ToolLoop{})
	require.NoError(t, err)
	conv := append(res.Messages, messages.MessageParam{Role: messages.RoleUser, Content: messages.Blocks{messages.ImageBlock{Source: messages.URLSource{URL: "https://e.com/a.png"}}}})
	data, err := json.Marshal(conv)
	require.NoError(t, err)
	var back []messages.MessageParam
	require.NoError(t, json.Unmarshal(data, &back))
	if diff := cmp.Diff(conv, back, sameMessage); diff != "" {
		t.Fatalf("(-stored +read):\n%s", diff)
	}
}

func TestSecretsDoNotPrint(t *testing.T) {
	s := messages.MCPServer{Name: "docs", URL: "https://mcp.example.com", AuthorizationToken: "tok_live_123"}
	for _, format := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		require.NotContains(t, fmt.Sprintf(format, s), "tok_live_123", format)
		require.NotContains(t, fmt.Sprintf(format, s.AuthorizationToken), "tok_live_123", format)
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "token", s.AuthorizationToken)
	require.NotContains(t, buf.String(), "tok_live_123")
	require.Equal(t, "", param.Secret("").String())
}
