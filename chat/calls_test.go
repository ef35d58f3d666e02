package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/chat"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

// badInput is declared here so that the table's rows may be positional.
type badInput reftest.BadInput

// TestBadInput: each rule of a chat request the SDK can check is checked
// locally, and the others come back from the server as a 400.
func TestBadInput(t *testing.T) {
	env, s := newEnv(t)
	create := func(edit func(*chat.CompletionParams)) reftest.Call {
		return func(ctx context.Context, _ *agentplatform.Client) error {
			p := chatPrompt(chat.Message{Role: chat.RoleUser, Content: "Hi"})
			edit(&p)
			_, err := s.Create(ctx, p)
			return err
		}
	}
	stream := func(edit func(*chat.CompletionParams)) reftest.Call {
		return func(ctx context.Context, _ *agentplatform.Client) error {
			p := chatPrompt(chat.Message{Role: chat.RoleUser, Content: "Hi"})
			edit(&p)
			st, err := s.Stream(ctx, p)
			if err == nil {
				_, err = st.Completion()
				_ = st.Close()
			}
			return err
		}
	}
	cases := []badInput{
		{"chat model empty", create(func(p *chat.CompletionParams) { p.Model = "" }), "model", "Field required", true},
		{"chat messages empty", create(func(p *chat.CompletionParams) { p.Messages = nil }), "messages", "List should have at least 1 item", true},
		{"chat role function", create(func(p *chat.CompletionParams) { p.Messages[0].Role = "function" }), "messages.0.role", "unsupported role `function`", true},
		{"chat role unknown", create(func(p *chat.CompletionParams) { p.Messages[0].Role = "robot" }), "messages.0.role", "Input should be 'system'", true},
		{"chat tool message without id", create(func(p *chat.CompletionParams) {
			p.Messages = append(p.Messages, chat.Message{Role: chat.RoleTool, Content: "42"})
		}), "messages.1.tool_call_id", "Field required", true},
		{"chat arguments not an object", create(func(p *chat.CompletionParams) {
			p.Messages = append(p.Messages, chat.Message{Role: chat.RoleAssistant,
				ToolCalls: []chat.ToolCall{{ID: "c1", Function: chat.FunctionCall{Name: "f", Arguments: "[1]"}}}})
		}), "messages.1.tool_calls.0.function.arguments", "must be a JSON object", true},
		{"chat max_tokens negative", create(func(p *chat.CompletionParams) { p.MaxTokens = -1 }), "max_tokens", "Input should be greater than or equal to 0", true},
		{"chat max_completion_tokens negative", create(func(p *chat.CompletionParams) { p.MaxCompletionTokens = -5 }),
			"max_completion_tokens", "Input should be greater than or equal to 0", true},
		{"chat temperature 2.5", create(func(p *chat.CompletionParams) { p.Temperature = new(2.5) }), "temperature", "Input should be less than or equal to 2", true},
		{"chat top_p 1.1", create(func(p *chat.CompletionParams) { p.TopP = new(1.1) }), "top_p", "Input should be less than or equal to 1", true},
		{"chat function name", create(func(p *chat.CompletionParams) {
			p.Tools = []chat.Tool{{Function: chat.Function{Name: "get weather"}}}
		}), "tools.0.function.name", "String should match pattern", true},
		{"chat n 2", create(func(p *chat.CompletionParams) {
			p.Extra = map[string]json.RawMessage{"n": json.RawMessage(`2`)}
		}), "n", "must be 1", false},
		{"chat stream role", stream(func(p *chat.CompletionParams) { p.Messages[0].Role = "function" }), "messages.0.role", "unsupported role `function`", true},
		{"chat stream n 3", stream(func(p *chat.CompletionParams) {
			p.Extra = map[string]json.RawMessage{"n": json.RawMessage(`3`)}
		}), "n", "must be 1", false},
	}
	reftest.RunBadInput(t, env, nil, cases)
}

func TestLocalRefusals(t *testing.T) {
	env, client := newEnv(t)
	var v *apierror.ValidationError
	base := chat.CompletionParams{Model: models.VendorSonnet55, Messages: []chat.Message{chat.UserMessage("x")}}
	for field, edit := range map[string]func(p *chat.CompletionParams){
		"model":           func(p *chat.CompletionParams) { p.Model = "" },
		"messages":        func(p *chat.CompletionParams) { p.Messages = nil },
		"messages.0.role": func(p *chat.CompletionParams) { p.Messages = []chat.Message{{Role: "function"}} },
		"messages.0.tool_call_id": func(p *chat.CompletionParams) {
			p.Messages = []chat.Message{{Role: chat.RoleTool, Content: "x"}}
		},
		"temperature":           func(p *chat.CompletionParams) { p.Temperature = new(2.5) },
		"tools.0.function.name": func(p *chat.CompletionParams) { p.Tools = []chat.Tool{{}} },
		"messages.0.tool_calls.0.function.arguments": func(p *chat.CompletionParams) {
			p.Messages = []chat.Message{{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c", Function: chat.FunctionCall{Name: "f", Arguments: "[]"}}}}}
		},
	} {
		p := base
		edit(&p)
		_, err := client.Create(ctx, p)
		require.ErrorAs(t, err, &v, field)
		require.Equal(t, field, v.Field)
		_, err = client.Stream(ctx, p)
		require.ErrorAs(t, err, &v, field)
	}
	require.Empty(t, env.Server.Requests(), "nothing was sent")
}

func requireInt(t *testing.T, a map[attribute.Key]attribute.Value, k attribute.Key, want int) {
	t.Helper()
	require.Contains(t, a, k)
	require.Equal(t, attribute.INT64, a[k].Type(), "%s is an int", k)
	require.EqualValues(t, want, a[k].AsInt64(), k)
}

func requireString(t *testing.T, a map[attribute.Key]attribute.Value, k attribute.Key, want string) {
	t.Helper()
	require.Contains(t, a, k)
	require.Equal(t, attribute.STRING, a[k].Type(), "%s is a string", k)
	require.Equal(t, want, a[k].AsString(), k)
}

// TestSpans: the call's span and its request and response attributes,
// created or streamed.
func TestSpans(t *testing.T) {
	_, client, rec := tracedEnv(t)
	p := chatPrompt(chat.UserMessage("Hello there"))
	p.MaxCompletionTokens = 512
	p.Temperature = new(0.3)
	c, err := client.Create(ctx, p)
	require.NoError(t, err)
	span := spantest.One(t, rec, "vendor.chat.completions.create")
	require.Equal(t, trace.SpanKindClient, span.SpanKind())
	require.Equal(t, codes.Ok, span.Status().Code)
	a := spantest.Attrs(span)
	requireString(t, a, attr.GenAIProviderName, "vendor")
	requireString(t, a, attr.GenAIOperationName, "chat")
	requireString(t, a, attr.GenAIRequestModel, models.VendorSonnet55)
	requireInt(t, a, attr.GenAIRequestMaxTokens, 512)
	require.Equal(t, 0.3, a[attr.GenAIRequestTemperature].AsFloat64())
	requireString(t, a, attr.GenAIResponseID, c.ID)
	requireString(t, a, attr.GenAIResponseModel, c.Model)
	requireInt(t, a, attr.UsageInputTokens, c.Usage.PromptTokens)
	requireInt(t, a, attr.UsageOutputTokens, c.Usage.CompletionTokens)
	require.Empty(t, spantest.Named(rec, "vendor.messages.create"), "one span, not a messages span")

	rec.Reset()
	st, err := client.Stream(ctx, chatPrompt(chat.UserMessage("Hello there")))
	require.NoError(t, err)
	c, err = st.Completion()
	require.NoError(t, err)
	require.NoError(t, st.Close())
	span = spantest.One(t, rec, "vendor.chat.completions.create")
	require.Equal(t, codes.Ok, span.Status().Code, "read to [DONE]")
	a = spantest.Attrs(span)
	require.True(t, a[attr.GenAIRequestStream].AsBool())
	requireString(t, a, attr.GenAIResponseID, c.ID)
	requireInt(t, a, attr.UsageOutputTokens, c.Usage.CompletionTokens)

	rec.Reset()
	st, err = client.Stream(ctx, chatPrompt(chat.UserMessage("Hello there")))
	require.NoError(t, err)
	require.NoError(t, st.Close())
	require.Equal(t, codes.Unset, spantest.One(t, rec, "vendor.chat.completions.create").Status().Code)

	rec.Reset()
	_, err = client.Create(ctx, chatPrompt(chat.UserMessage("Hi [[refserver:error overloaded_error]]")))
	require.Error(t, err)
	span = spantest.One(t, rec, "vendor.chat.completions.create")
	require.Equal(t, codes.Error, span.Status().Code)
	requireString(t, spantest.Attrs(span), attr.ErrorType, "overloaded_error")
}

// TestUnreadStreamEndsWithItsContext: a stream that is never read nor
// closed ends its span, unset, when its context ends (with a cause or
// not), and lets its connection go. Reading it afterwards yields the
// context's error and changes nothing.
func TestUnreadStreamEndsWithItsContext(t *testing.T) {
	const name = "vendor.chat.completions.create"
	for _, cause := range []error{nil, errors.New("shutting down")} {
		conns := new(reftest.OpenConns)
		_, client, rec := tracedEnv(t, option.WithHTTPClient(conns.Client()))
		sctx, cancel := context.WithCancelCause(ctx)
		st, err := client.Stream(sctx, chatPrompt(chat.UserMessage("Hello there")))
		require.NoError(t, err)
		require.Empty(t, spantest.Named(rec, name), "open while its context lasts")

		cancel(cause)
		require.Eventually(t, func() bool { return len(spantest.Named(rec, name)) > 0 }, time.Minute, time.Millisecond)
		span := spantest.One(t, rec, name)
		require.Equal(t, codes.Unset, span.Status().Code)
		require.NotContains(t, spantest.Attrs(span), attr.ErrorType)
		require.Eventually(t, func() bool { return conns.Open() == 0 }, time.Minute, time.Millisecond, "the connection is released")

		_, err = st.Completion()
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, codes.Unset, spantest.One(t, rec, name).Status().Code, "ended once")
	}
}

func TestMessageJSON(t *testing.T) {
	var m chat.Message
	require.NoError(t, json.Unmarshal([]byte(`{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"https://e.com/a.png","detail":"high"}},{"type":"input_audio","input_audio":{}}]}`), &m))
	require.Equal(t, chat.TextPart{Text: "a"}, m.Parts[0])
	require.Equal(t, chat.ImagePart{URL: "https://e.com/a.png", Detail: "high"}, m.Parts[1])
	require.IsType(t, chat.UnknownPart{}, m.Parts[2])
	out, err := json.Marshal(m)
	require.NoError(t, err)
	require.JSONEq(t, `{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"https://e.com/a.png","detail":"high"}},{"type":"input_audio","input_audio":{}}]}`, string(out))

	out, err = json.Marshal(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Function: chat.FunctionCall{Name: "f", Arguments: "{}"}}}})
	require.NoError(t, err)
	require.JSONEq(t, `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}`, string(out))
}
