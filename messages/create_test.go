package messages_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
)

// TestRequestOfExample28 checks the body the SDK sends for the request of
// docs/messages-wire.md 2.8, key for key.
func TestRequestOfExample28(t *testing.T) {
	env, client := newEnv(t)
	_, err := client.Messages.Create(ctx, example28())
	require.NoError(t, err)
	reqs := env.Server.Requests()
	require.JSONEq(t, `{
		"model": "vendor-sonnet-5-5",
		"max_tokens": 4096,
		"system": [{"type": "text", "text": "You are a weather assistant.", "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
		"messages": [{"role": "user", "content": "What is the weather in Paris? Use get_weather {\"location\": \"Paris\"}"}],
		"tools": [{"name": "get_weather", "description": "Get the current weather",
			"input_schema": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"]}}],
		"tool_choice": {"type": "auto"},
		"thinking": {"type": "enabled", "budget_tokens": 2048},
		"output_config": {"effort": "medium"},
		"service_tier": "auto",
		"metadata": {"user_id": "13803d75-b4b5-4c3e-b2a2-6f21399b021b"}
	}`, string(reqs[0].Body))
	require.Empty(t, reqs[0].Header.Get("Vendor-Beta"), "no feature here needs a beta")

	st, err := client.Messages.Stream(ctx, example28())
	require.NoError(t, err)
	require.NoError(t, st.Close())
	require.Equal(t, true, lastBody(t, env)["stream"])
}

// TestCacheAndToolResultTurn follows docs/messages-wire.md 4.4: the second
// identical request reads the 1-hour prefix; the tool result turn ends the
// turn.
func TestCacheAndToolResultTurn(t *testing.T) {
	_, client := newEnv(t)
	first, err := client.Messages.Create(ctx, example28())
	require.NoError(t, err)
	again, err := client.Messages.Create(ctx, example28())
	require.NoError(t, err)
	require.Equal(t, 21, again.Usage.InputTokens)
	require.Equal(t, 0, again.Usage.CacheCreationInputTokens)
	require.Equal(t, 51, again.Usage.CacheReadInputTokens)
	require.Equal(t, messages.CacheCreation{}, again.Usage.CacheCreation)
	require.Equal(t, 72, again.Usage.TotalInputTokens())

	next := example28()
	next.Messages = append(next.Messages, first.Param(), messages.UserBlocks(messages.ToolResultBlock{
		ToolUseID: first.ToolUses()[0].ID, Content: messages.Text("15 degrees, sunny")}))
	answer, err := client.Messages.Create(ctx, next)
	require.NoError(t, err)
	require.Equal(t, messages.StopEndTurn, answer.StopReason)
	require.Equal(t, "Result of get_weather: 15 degrees, sunny", answer.Text())
	require.IsType(t, messages.ThinkingBlock{}, answer.Content[0])
}

// TestCountTokens checks docs/messages-wire.md 6: the total input Create
// reports.
func TestCountTokens(t *testing.T) {
	env, client := newEnv(t)
	p := example28()
	n, err := client.Messages.CountTokens(ctx, p.CountTokensParams())
	require.NoError(t, err)
	require.Equal(t, 72, n.InputTokens)
	body := lastBody(t, env)
	for _, k := range []string{"max_tokens", "metadata", "service_tier", "stream"} {
		require.NotContains(t, body, k, "create-only fields are not sent")
	}
	m, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	require.Equal(t, n.InputTokens, m.Usage.TotalInputTokens())

	n, err = client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: models.VendorSonnet55,
		Messages: []messages.MessageParam{messages.UserText("Hello there")}}, option.WithBeta("token-counting-2024-11-01"))
	require.NoError(t, err)
	require.Equal(t, 10, n.InputTokens)

	_, err = client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: "vendor-unknown-1",
		Messages: []messages.MessageParam{messages.UserText("Hello there")}})
	require.ErrorIs(t, err, apierror.ErrNotFound)
}

// TestFeatureBetasAreSent: the SDK adds the beta a feature needs, merged
// with the caller's.
func TestFeatureBetasAreSent(t *testing.T) {
	env, client := newEnv(t)
	mcp := with(prompt("Hello there"), func(p *messages.MessageParams) {
		p.MCPServers = []messages.MCPServer{{Name: "docs", URL: "https://mcp.example.com/sse", AuthorizationToken: "tok_secret"}}
		p.Tools = []messages.Tool{messages.MCPToolset{MCPServerName: "docs"}}
	})
	_, err := client.Messages.Create(ctx, mcp, option.WithBeta("interleaved-thinking-2025-05-14"))
	require.NoError(t, err)
	reqs := env.Server.Requests()
	require.Equal(t, "mcp-client-2025-11-20,interleaved-thinking-2025-05-14", reqs[len(reqs)-1].Header.Get("Vendor-Beta"))
	require.Equal(t, "[redacted]", param.Secret("tok_secret").String())

	_, err = client.Messages.Create(ctx, with(prompt("Hello there"), func(p *messages.MessageParams) {
		p.Fallbacks = messages.FallbackList{{Model: models.VendorHaiku55}}
	}))
	require.NoError(t, err)
	reqs = env.Server.Requests()
	require.Equal(t, "server-side-fallback-2026-07-01", reqs[len(reqs)-1].Header.Get("Vendor-Beta"))
	require.JSONEq(t, `[{"model":"vendor-haiku-5-5"}]`, string(mustJSON(t, lastBody(t, env)["fallbacks"])))

	_, err = client.Messages.CountTokens(ctx, messages.CountTokensParams{Model: models.VendorSonnet55, Messages: []messages.MessageParam{
		messages.UserBlocks(messages.ImageBlock{Source: messages.FileSource{FileID: "file_011CNha8iCJcU1wXNR6q4V8w"}}, messages.TextBlock{Text: "x"})}})
	reqs = env.Server.Requests()
	require.Equal(t, "files-api-2025-04-14", reqs[len(reqs)-1].Header.Get("Vendor-Beta"))
	_ = err // the file may not exist; the header is what counts
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// TestOptionalFields: tri-state and pointer fields, and Extra.
func TestOptionalFields(t *testing.T) {
	env, client := newEnv(t)
	p := prompt("Hello there")
	p.Temperature, p.TopK, p.TopP = new(0.0), new(0), new(1.0)
	p.InferenceGeo = param.Null[string]()
	p.Container = param.Null[messages.ContainerParams]()
	p.StopSequences = []string{"END"}
	p.CacheControl = messages.Ephemeral("")
	p.Extra = map[string]json.RawMessage{"speed": json.RawMessage(`"standard"`)}
	m, err := client.Messages.Create(ctx, p, option.WithBeta("fast-mode-2026-02-01"))
	require.NoError(t, err)
	require.Equal(t, "global", m.Usage.InferenceGeo)
	body := lastBody(t, env)
	require.Equal(t, 0.0, body["temperature"])
	require.Equal(t, 0.0, body["top_k"])
	require.Contains(t, body, "inference_geo")
	require.Nil(t, body["inference_geo"])
	require.Contains(t, body, "container")
	require.Equal(t, "standard", body["speed"])

	p.InferenceGeo = param.Value("us")
	p.Extra = nil
	_, err = client.Messages.Create(ctx, p)
	if err == nil {
		require.Equal(t, "us", lastBody(t, env)["inference_geo"])
	} else {
		require.ErrorIs(t, err, apierror.ErrInvalidRequest, "the workspace may not allow it")
	}

	st, err := client.Messages.Stream(ctx, with(prompt("Hello there"), func(q *messages.MessageParams) {
		q.Extra = map[string]json.RawMessage{"speed": json.RawMessage(`"standard"`)}
	}), option.WithBeta("fast-mode-2026-02-01"))
	require.NoError(t, err)
	defer st.Close()
	_, err = st.Message()
	require.NoError(t, err)
	require.Equal(t, true, lastBody(t, env)["stream"], "stream is sent with Extra too")
}

// TestAPIErrors: the server's refusals are typed, with the message.
func TestAPIErrors(t *testing.T) {
	env, client := newEnv(t)
	_, err := client.Messages.Create(ctx, with(prompt("Hello there"), func(p *messages.MessageParams) { p.Model = "vendor-unknown-1" }))
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 404, apiErr.StatusCode)
	require.Equal(t, "model: vendor-unknown-1", apiErr.Message)

	_, err = client.Messages.Create(ctx, with(prompt("Hello there"), func(p *messages.MessageParams) { p.MaxTokens = 1 << 20 }))
	require.ErrorAs(t, err, &apiErr)
	require.True(t, strings.HasPrefix(apiErr.Message, "max_tokens: "), apiErr.Message)

	_, err = client.Messages.Create(ctx, prompt("Hello there [[refserver:error overloaded_error]]"), option.WithMaxRetries(0))
	require.ErrorIs(t, err, apierror.ErrOverloaded)
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 529, apiErr.StatusCode)
	require.NotEmpty(t, apiErr.RequestID)

	n := env.Count("POST", "/v1/messages")
	_, err = client.Messages.Create(ctx, prompt("Hello there [[refserver:error api_error]]"), option.WithMaxRetries(2))
	require.ErrorIs(t, err, apierror.ErrServer)
	require.Equal(t, n+3, env.Count("POST", "/v1/messages"), "Create is retried")
}
