package messages_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/tool"
)

// The spans of the Messages calls (docs/tracing.md), span by
// span, recorded with tracetest against the reference server.

func recorder(t *testing.T) (*sdktrace.TracerProvider, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp, rec
}

// tracedEnv is a reference server and a client whose spans rec records.
func tracedEnv(t *testing.T, opts ...option.Option) (*reftest.Env, *agentplatform.Client, *tracetest.SpanRecorder) {
	t.Helper()
	tp, rec := recorder(t)
	env := reftest.New(t)
	return env, env.Client(t, append([]option.Option{option.WithTracerProvider(tp), option.WithMaxRetries(0)}, opts...)...), rec
}

// contentKeys are the attributes that exist only in content mode.
var contentKeys = []attribute.Key{
	attr.GenAISystemInstructions, attr.GenAIInputMessages, attr.GenAIOutputMessages,
	attr.GenAIRequestStopSequences, attr.GenAIToolCallArguments, attr.GenAIToolCallResult,
	attr.ContentTruncated,
}

func requireNoContent(t *testing.T, rec *tracetest.SpanRecorder) {
	t.Helper()
	require.NotEmpty(t, rec.Ended())
	for _, s := range rec.Ended() {
		a := spantest.Attrs(s)
		for _, k := range contentKeys {
			require.NotContains(t, a, k, "span %s: content mode is off", s.Name())
		}
	}
}

// jsonAttr decodes a content attribute, which must be valid JSON.
func jsonAttr(t *testing.T, v attribute.Value) any {
	t.Helper()
	require.Equal(t, attribute.STRING, v.Type())
	var out any
	require.NoError(t, json.Unmarshal([]byte(v.AsString()), &out), v.AsString())
	return out
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

// TestCreateSpan: every request, response and usage attribute of
// vendor.messages.create, with its type, for the request of
// docs/messages-wire.md 2.8 (thinking, effort, service tier, a 1-hour cache
// write).
func TestCreateSpan(t *testing.T) {
	env, client, rec := tracedEnv(t)
	msg, err := client.Messages.Create(ctx, example28())
	require.NoError(t, err)

	span := spantest.One(t, rec, "vendor.messages.create")
	require.Equal(t, trace.SpanKindClient, span.SpanKind())
	require.Equal(t, codes.Ok, span.Status().Code)
	a := spantest.Attrs(span)
	requireString(t, a, attr.GenAIProviderName, "vendor")
	requireString(t, a, attr.HTTPRoute, "/v1/messages")
	requireString(t, a, attr.GenAIOperationName, "chat")
	requireString(t, a, attr.GenAIRequestModel, models.VendorSonnet55)
	requireInt(t, a, attr.GenAIRequestMaxTokens, 4096)
	require.Equal(t, attribute.BOOL, a[attr.GenAIRequestStream].Type())
	require.False(t, a[attr.GenAIRequestStream].AsBool())
	requireString(t, a, attr.GenAIRequestReasoningLevel, "medium")
	requireString(t, a, attr.RequestServiceTier, "auto")
	requireString(t, a, attr.ThinkingType, "enabled")
	requireInt(t, a, attr.ThinkingBudgetTokens, 2048)
	for _, k := range []attribute.Key{attr.GenAIRequestTemperature, attr.GenAIRequestTopP, attr.GenAIRequestTopK,
		attr.GenAIOutputType, attr.Beta, attr.UsageCompactionIn, attr.UsageCompactionOut, attr.GenAITimeToFirstChunk,
		attr.ErrorType, attr.SessionID} {
		require.NotContains(t, a, k)
	}

	requireString(t, a, attr.GenAIResponseID, msg.ID)
	requireString(t, a, attr.GenAIResponseModel, models.VendorSonnet55)
	requireString(t, a, attr.MessageStopReason, "tool_use")
	requireString(t, a, attr.ResponseServiceTier, "standard")
	requireInt(t, a, attr.UsageInputTokens, 72) // 21 + 51 written + 0 read
	requireInt(t, a, attr.UsageOutputTokens, 35)
	requireInt(t, a, attr.UsageCacheWrite, 51)
	requireInt(t, a, attr.UsageCacheRead, 0)
	requireInt(t, a, attr.UsageEphemeral1h, 51)
	requireInt(t, a, attr.UsageEphemeral5m, 0)
	requireInt(t, a, attr.UsageReasoningOutput, 21)
	requireInt(t, a, attr.HTTPResponseStatus, 200)
	requireNoContent(t, rec)

	rec.Reset()
	again, err := client.Messages.Create(ctx, example28())
	require.NoError(t, err)
	a = spantest.Attrs(spantest.One(t, rec, "vendor.messages.create"))
	requireInt(t, a, attr.UsageInputTokens, again.Usage.TotalInputTokens())
	requireInt(t, a, attr.UsageCacheRead, 51)
	requireInt(t, a, attr.UsageCacheWrite, 0)

	// Sampling, JSON output and the SDK's own beta values.
	rec.Reset()
	p := with(prompt("Hello there"), func(p *messages.MessageParams) {
		p.Temperature, p.TopP, p.TopK = new(0.5), new(0.9), new(40)
		p.OutputConfig = &messages.OutputConfig{Format: &messages.JSONSchemaFormat{Schema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`)}}
		p.ServiceTier = messages.ServiceTierStandardOnly
		p.Thinking = messages.ThinkingDisabled{}
		p.Fallbacks = messages.FallbacksDefault{}
	})
	_, err = client.Messages.Create(ctx, p)
	require.NoError(t, err)
	a = spantest.Attrs(spantest.One(t, rec, "vendor.messages.create"))
	require.Equal(t, attribute.FLOAT64, a[attr.GenAIRequestTemperature].Type())
	require.Equal(t, 0.5, a[attr.GenAIRequestTemperature].AsFloat64())
	require.Equal(t, 0.9, a[attr.GenAIRequestTopP].AsFloat64())
	requireInt(t, a, attr.GenAIRequestTopK, 40)
	requireString(t, a, attr.GenAIOutputType, "json")
	requireString(t, a, attr.RequestServiceTier, "standard_only")
	requireString(t, a, attr.ThinkingType, "disabled")
	require.NotContains(t, a, attr.ThinkingBudgetTokens)
	require.NotContains(t, a, attr.GenAIRequestReasoningLevel)
	require.Equal(t, []string{"server-side-fallback-2026-07-01"}, a[attr.Beta].AsStringSlice())
	require.NotEmpty(t, env.Server.Requests())
}

func TestCreateSpanOnFailureAndCancellation(t *testing.T) {
	env, client, rec := tracedEnv(t)
	_, err := client.Messages.Create(ctx, prompt("Hello there [[refserver:error rate_limit_error]]"))
	require.Error(t, err)
	span := spantest.One(t, rec, "vendor.messages.create")
	require.Equal(t, codes.Error, span.Status().Code)
	a := spantest.Attrs(span)
	requireString(t, a, attr.ErrorType, "rate_limit_error")
	requireInt(t, a, attr.HTTPResponseStatus, 429)
	requireString(t, a, attr.GenAIRequestModel, models.VendorSonnet55)
	require.NotContains(t, a, attr.GenAIResponseID, "no response")
	require.NotContains(t, a, attr.UsageInputTokens)

	rec.Reset()
	env.Server.InjectFault(refserver.Fault{Path: "/v1/messages", Delay: time.Hour})
	cctx, cancel := context.WithCancel(ctx)
	reftest.When(t, env.FaultsTaken(t), func() error { cancel(); return nil }) // the request is at the server
	_, err = client.Messages.Create(cctx, prompt("Hello there"))
	require.ErrorIs(t, err, context.Canceled)
	span = spantest.One(t, rec, "vendor.messages.create")
	require.Equal(t, codes.Unset, span.Status().Code, "the application cancelled")
	require.NotContains(t, spantest.Attrs(span), attr.ErrorType)
}

// TestStreamSpan: a stream read to its end is OK, with the response
// attributes of the accumulated message and the time to the first chunk.
func TestStreamSpan(t *testing.T) {
	_, client, rec := tracedEnv(t)
	st, err := client.Messages.Stream(ctx, example28())
	require.NoError(t, err)
	require.Empty(t, rec.Ended(), "the span lasts as long as the stream")
	msg, err := st.Message()
	require.NoError(t, err)
	require.NoError(t, st.Close())

	span := spantest.One(t, rec, "vendor.messages.create")
	require.Equal(t, trace.SpanKindClient, span.SpanKind())
	require.Equal(t, codes.Ok, span.Status().Code)
	a := spantest.Attrs(span)
	require.True(t, a[attr.GenAIRequestStream].AsBool())
	requireString(t, a, attr.GenAIResponseID, msg.ID)
	requireString(t, a, attr.GenAIResponseModel, models.VendorSonnet55)
	requireString(t, a, attr.MessageStopReason, "tool_use")
	requireString(t, a, attr.ResponseServiceTier, "standard")
	requireInt(t, a, attr.UsageInputTokens, 72)
	requireInt(t, a, attr.UsageOutputTokens, 35)
	requireInt(t, a, attr.UsageReasoningOutput, 21)
	requireInt(t, a, attr.HTTPResponseStatus, 200)
	ttfc := a[attr.GenAITimeToFirstChunk]
	require.Equal(t, attribute.FLOAT64, ttfc.Type(), "seconds")
	require.InDelta(t, st.TimeToFirstChunk().Seconds(), ttfc.AsFloat64(), 1e-9)
	require.Greater(t, ttfc.AsFloat64(), 0.0)
	first := st.FirstChunkAt() // within the span: after its request went out, before it ended
	require.False(t, first.Before(span.StartTime()) || first.After(span.EndTime()), "first chunk at %v, span %v to %v",
		first, span.StartTime(), span.EndTime())

	// Ranging over the events to the end is the same.
	rec.Reset()
	st, err = client.Messages.Stream(ctx, prompt("Hello there"))
	require.NoError(t, err)
	for _, err := range st.Events() {
		require.NoError(t, err)
	}
	require.Equal(t, codes.Ok, spantest.One(t, rec, "vendor.messages.create").Status().Code)
	require.NoError(t, st.Close())
}

// TestStreamSpanEndsEarly: closed before its end (unread, or partly read)
// the span is unset; an error event or an HTTP error is ERROR.
func TestStreamSpanEndsEarly(t *testing.T) {
	_, client, rec := tracedEnv(t)

	st, err := client.Messages.Stream(ctx, prompt("Hello there"))
	require.NoError(t, err)
	require.NoError(t, st.Close())
	span := spantest.One(t, rec, "vendor.messages.create")
	require.Equal(t, codes.Unset, span.Status().Code, "closed without reading")
	require.NotContains(t, spantest.Attrs(span), attr.ErrorType)

	rec.Reset()
	st, err = client.Messages.Stream(ctx, prompt("Hello there"))
	require.NoError(t, err)
	for range st.Events() {
		break // message_start only
	}
	require.NoError(t, st.Close())
	span = spantest.One(t, rec, "vendor.messages.create")
	require.Equal(t, codes.Unset, span.Status().Code, "left before the end")
	a := spantest.Attrs(span)
	require.NotContains(t, a, attr.ErrorType)
	require.NotContains(t, a, attr.MessageStopReason, "the message never finished")
	require.Contains(t, a, attr.GenAIResponseID, "what message_start said is kept")

	rec.Reset()
	st, err = client.Messages.Stream(ctx, prompt("Hello there [[refserver:error overloaded_error after=3]]"))
	require.NoError(t, err)
	_, err = st.Message()
	require.Error(t, err)
	require.NoError(t, st.Close())
	span = spantest.One(t, rec, "vendor.messages.create")
	require.Equal(t, codes.Error, span.Status().Code, "an error event")
	requireString(t, spantest.Attrs(span), attr.ErrorType, "overloaded_error")
	requireInt(t, spantest.Attrs(span), attr.HTTPResponseStatus, 200)

	rec.Reset()
	_, err = client.Messages.Stream(ctx, prompt("Hello there [[refserver:error rate_limit_error]]"))
	require.Error(t, err)
	span = spantest.One(t, rec, "vendor.messages.create")
	require.Equal(t, codes.Error, span.Status().Code)
	requireString(t, spantest.Attrs(span), attr.ErrorType, "rate_limit_error")
	requireInt(t, spantest.Attrs(span), attr.HTTPResponseStatus, 429)
}

// TestContentMode: system instructions, input and output messages and
// stop sequences, as JSON in the OTel GenAI message format.
func TestContentMode(t *testing.T) {
	_, client, rec := tracedEnv(t, option.WithContentCapture(true))
	p := example28()
	p.StopSequences = []string{"\n\nDone", "END"}
	msg, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	use := msg.ToolUses()[0]

	a := spantest.Attrs(spantest.One(t, rec, "vendor.messages.create"))
	require.Equal(t, []any{map[string]any{"type": "text", "content": "You are a weather assistant."}},
		jsonAttr(t, a[attr.GenAISystemInstructions]))
	require.Equal(t, []any{map[string]any{"role": "user", "parts": []any{
		map[string]any{"type": "text", "content": `What is the weather in Paris? Use get_weather {"location": "Paris"}`}}}},
		jsonAttr(t, a[attr.GenAIInputMessages]))
	require.Equal(t, []any{map[string]any{"role": "assistant", "finish_reason": "tool_call", "parts": []any{
		map[string]any{"type": "reasoning", "content": msg.Content[0].(messages.ThinkingBlock).Thinking},
		map[string]any{"type": "text", "content": "I'll use get_weather."},
		map[string]any{"type": "tool_call", "id": use.ID, "name": "get_weather", "arguments": map[string]any{"location": "Paris"}},
	}}}, jsonAttr(t, a[attr.GenAIOutputMessages]))
	require.NotContains(t, a[attr.GenAIOutputMessages].AsString(), msg.Content[0].(messages.ThinkingBlock).Signature,
		"reasoning without its signature")
	require.Equal(t, []any{"\n\nDone", "END"}, jsonAttr(t, a[attr.GenAIRequestStopSequences]))
	require.NotContains(t, a, attr.ContentTruncated)

	// The next turn: the assistant's blocks and the tool result go back.
	rec.Reset()
	p.Messages = append(p.Messages, msg.Param(), messages.UserBlocks(messages.ToolResultBlock{ToolUseID: use.ID, Content: messages.Text("15 degrees")}))
	_, err = client.Messages.Create(ctx, p)
	require.NoError(t, err)
	in := jsonAttr(t, spantest.Attrs(spantest.One(t, rec, "vendor.messages.create"))[attr.GenAIInputMessages]).([]any)
	require.Len(t, in, 3)
	require.Equal(t, map[string]any{"role": "user", "parts": []any{
		map[string]any{"type": "tool_call_response", "id": use.ID, "response": "15 degrees"}}}, in[2])

	// Other blocks keep their fields under a vendor_ type.
	rec.Reset()
	_, err = client.Messages.Create(ctx, messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 1024,
		System: messages.Text("Be brief."), Messages: []messages.MessageParam{messages.UserBlocks(
			messages.ImageBlock{Source: messages.URLSource{URL: "https://example.com/a.png"}},
			messages.TextBlock{Text: "Describe"})}})
	require.NoError(t, err)
	a = spantest.Attrs(spantest.One(t, rec, "vendor.messages.create"))
	require.Equal(t, []any{map[string]any{"type": "text", "content": "Be brief."}}, jsonAttr(t, a[attr.GenAISystemInstructions]))
	require.Equal(t, []any{map[string]any{"role": "user", "parts": []any{
		map[string]any{"type": "vendor_image", "source": map[string]any{"type": "url", "url": "https://example.com/a.png"}},
		map[string]any{"type": "text", "content": "Describe"}}}}, jsonAttr(t, a[attr.GenAIInputMessages]))
	require.NotContains(t, a, attr.GenAIRequestStopSequences)

	// A stream carries the same content.
	rec.Reset()
	st, err := client.Messages.Stream(ctx, prompt("Hello there"))
	require.NoError(t, err)
	_, err = st.Message()
	require.NoError(t, err)
	require.NoError(t, st.Close())
	a = spantest.Attrs(spantest.One(t, rec, "vendor.messages.create"))
	require.Equal(t, []any{map[string]any{"role": "assistant", "finish_reason": "stop", "parts": []any{
		map[string]any{"type": "text", "content": "You said: Hello there"}}}}, jsonAttr(t, a[attr.GenAIOutputMessages]))
}

func TestContentModeOff(t *testing.T) {
	_, client, rec := tracedEnv(t)
	p := example28()
	p.StopSequences = []string{"END"}
	_, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	st, err := client.Messages.Stream(ctx, webSearch())
	require.NoError(t, err)
	_, err = st.Message()
	require.NoError(t, err)
	require.NoError(t, st.Close())
	_, err = client.Messages.RunTools(ctx, prompt(`Use get_weather {"location": "Paris"}`), []tool.Tool{weather}, messages.ToolLoop{})
	require.NoError(t, err)
	require.Len(t, spantest.Named(rec, "vendor.tool_use web_search"), 1)
	require.Len(t, spantest.Named(rec, "vendor.custom_tool_use get_weather"), 1)
	requireNoContent(t, rec)
}

// TestContentTruncation: oversized content is shortened inside the JSON,
// which stays valid, and the span says so.
func TestContentTruncation(t *testing.T) {
	_, client, rec := tracedEnv(t, option.WithContentCapture(true))
	long := strings.Repeat("Paris is lovely in the spring. ", 8000) // 248 KB
	msg, err := client.Messages.Create(ctx, with(prompt(long), func(p *messages.MessageParams) {
		p.System = messages.Text("Be brief.")
		p.MaxTokens = 100000
		p.Model = models.VendorOpus55
	}))
	require.NoError(t, err)
	require.Greater(t, len(msg.Text()), 200000)

	a := spantest.Attrs(spantest.One(t, rec, "vendor.messages.create"))
	require.True(t, a[attr.ContentTruncated].AsBool())
	for _, k := range []attribute.Key{attr.GenAIInputMessages, attr.GenAIOutputMessages} {
		v := a[k].AsString()
		require.LessOrEqual(t, len(v), 64<<10, k)
		require.Greater(t, len(v), 60<<10, "%s: as much as fits", k)
		msgs := jsonAttr(t, a[k]).([]any)
		text := msgs[0].(map[string]any)["parts"].([]any)[0].(map[string]any)["content"].(string)
		require.True(t, strings.HasSuffix(text, "…"), k)
	}
	require.Equal(t, []any{map[string]any{"type": "text", "content": "Be brief."}}, jsonAttr(t, a[attr.GenAISystemInstructions]),
		"what fits is whole")
}

func webSearch() messages.MessageParams {
	return with(prompt("web_search go 1.26 release notes"), func(p *messages.MessageParams) {
		p.Tools = []messages.Tool{messages.WebSearchTool{MaxUses: 3}}
	})
}

// TestServerToolSpans: one INTERNAL span per server tool and MCP tool
// call, child of the messages span; arguments and results in content
// mode only.
func TestServerToolSpans(t *testing.T) {
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "create", true: "stream"}[streamed], func(t *testing.T) {
			_, client, rec := tracedEnv(t, option.WithContentCapture(true))
			p := webSearch()
			p.Messages = []messages.MessageParam{messages.UserText(`web_search go 1.26 then mcp:crm/lookup {"id": 7}`)}
			p.MCPServers = []messages.MCPServer{{Name: "crm", URL: "https://mcp.example.com/sse", AuthorizationToken: "tok"}}
			p.Tools = append(p.Tools, messages.MCPToolset{MCPServerName: "crm"})
			var msg *messages.Message
			var err error
			if streamed {
				msg = streamedMsg(t, client, p)
			} else {
				msg, err = client.Messages.Create(ctx, p)
				require.NoError(t, err)
			}
			parent := spantest.One(t, rec, "vendor.messages.create")
			search := spantest.One(t, rec, "vendor.tool_use web_search")
			mcp := spantest.One(t, rec, "vendor.mcp_tool_use lookup")
			var searchUse messages.ServerToolUseBlock
			var mcpUse messages.MCPToolUseBlock
			for _, b := range msg.Content {
				switch b := b.(type) {
				case messages.ServerToolUseBlock:
					searchUse = b
				case messages.MCPToolUseBlock:
					mcpUse = b
				}
			}
			for _, tc := range []struct {
				span     sdktrace.ReadOnlySpan
				name, id string
			}{{search, "web_search", searchUse.ID}, {mcp, "lookup", mcpUse.ID}} {
				require.Equal(t, trace.SpanKindInternal, tc.span.SpanKind())
				require.Equal(t, parent.SpanContext().SpanID(), tc.span.Parent().SpanID(), "a child of vendor.messages.create")
				require.Equal(t, parent.SpanContext().TraceID(), tc.span.SpanContext().TraceID())
				require.Equal(t, codes.Ok, tc.span.Status().Code)
				require.Equal(t, attr.SDKScope, tc.span.InstrumentationScope().Name)
				a := spantest.Attrs(tc.span)
				requireString(t, a, attr.GenAIProviderName, "vendor")
				requireString(t, a, attr.GenAIOperationName, "execute_tool")
				requireString(t, a, attr.GenAIToolName, tc.name)
				requireString(t, a, attr.GenAIToolCallID, tc.id)
				requireString(t, a, attr.GenAIToolType, "extension")
				require.False(t, tc.span.StartTime().Before(parent.StartTime()))
				require.False(t, tc.span.EndTime().After(parent.EndTime()))
				require.False(t, tc.span.EndTime().Before(tc.span.StartTime()))
			}
			require.Equal(t, map[string]any{"query": "go 1.26 then mcp:crm/lookup {\"id\": 7}"}, jsonAttr(t, spantest.Attrs(search)[attr.GenAIToolCallArguments]))
			results := jsonAttr(t, spantest.Attrs(search)[attr.GenAIToolCallResult]).([]any)
			require.Len(t, results, 2)
			require.Equal(t, "web_search_result", results[0].(map[string]any)["type"])
			require.Equal(t, map[string]any{"id": 7.0}, jsonAttr(t, spantest.Attrs(mcp)[attr.GenAIToolCallArguments]))
			require.Equal(t, []any{map[string]any{"type": "text", "content": "lookup ok"}}, jsonAttr(t, spantest.Attrs(mcp)[attr.GenAIToolCallResult]))

			out := jsonAttr(t, spantest.Attrs(parent)[attr.GenAIOutputMessages]).([]any)[0].(map[string]any)["parts"].([]any)
			var types []string
			for _, p := range out {
				types = append(types, p.(map[string]any)["type"].(string))
			}
			require.Equal(t, []string{"text", "tool_call", "tool_call_response", "tool_call", "tool_call_response", "text"}, types)
			require.Equal(t, "crm", out[3].(map[string]any)["vendor_mcp_server_name"])
		})
	}
}

func streamedMsg(t *testing.T, client *agentplatform.Client, p messages.MessageParams) *messages.Message {
	t.Helper()
	st, err := client.Messages.Stream(ctx, p)
	require.NoError(t, err)
	defer st.Close()
	msg, err := st.Message()
	require.NoError(t, err)
	return msg
}

// TestServerToolSpanOfAFailedCall: a result that reports an error makes
// its tool span ERROR with the error code. The reference server fails a
// search only past max_uses, so this answer is canned.
func TestServerToolSpanOfAFailedCall(t *testing.T) {
	canned := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"msg_1","type":"message","role":"assistant","model":"vendor-sonnet-5-5","content":[
			{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"q"}},
			{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}},
			{"type":"mcp_tool_use","id":"mcptoolu_1","name":"lookup","server_name":"crm","input":{}},
			{"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":true,"content":"boom"},
			{"type":"server_tool_use","id":"srvtoolu_2","name":"web_fetch","input":{"url":"https://e.com"}},
			{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"web_fetch_tool_error","error_code":"url_not_accessible"}},
			{"type":"server_tool_use","id":"srvtoolu_3","name":"web_search","input":{"query":"r"}}],
			"stop_reason":"pause_turn","stop_sequence":null,"stop_details":null,"container":null,
			"usage":{"input_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":9,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard","inference_geo":"global"}}`))
	}))
	t.Cleanup(canned.Close)
	_, client, rec := tracedEnv(t)
	_, err := client.Messages.Create(ctx, webSearch(), option.WithBaseURL(canned.URL))
	require.NoError(t, err)
	spans := spantest.Named(rec, "vendor.tool_use web_search")
	require.Len(t, spans, 2)
	require.Equal(t, codes.Error, spans[0].Status().Code)
	requireString(t, spantest.Attrs(spans[0]), attr.ErrorType, "max_uses_exceeded")
	require.Equal(t, codes.Unset, spans[1].Status().Code, "no result yet (pause_turn): the outcome is unknown")
	mcp := spantest.One(t, rec, "vendor.mcp_tool_use lookup")
	require.Equal(t, codes.Error, mcp.Status().Code)
	requireString(t, spantest.Attrs(mcp), attr.ErrorType, "tool_error")
	fetch := spantest.One(t, rec, "vendor.tool_use web_fetch")
	requireString(t, spantest.Attrs(fetch), attr.ErrorType, "url_not_accessible")
}

// TestToolLoopSpans: RunTools records a vendor.custom_tool_use span per
// client tool it runs, under the caller's span, parent of the tool's own.
func TestToolLoopSpans(t *testing.T) {
	tp, rec := recorder(t)
	env := reftest.New(t)
	client := env.Client(t, option.WithTracerProvider(tp))
	var inner trace.SpanContext
	traced := tool.Must(tool.New("get_weather", "Get the current weather.",
		func(ctx context.Context, in weatherInput) (tool.Result, error) {
			_, s := tp.Tracer("app").Start(ctx, "lookup")
			inner = s.SpanContext()
			s.End()
			if in.Location == "Atlantis" {
				return tool.Result{}, context.DeadlineExceeded
			}
			return tool.Text("15 degrees, sunny in " + in.Location), nil
		}))
	root, rootSpan := tp.Tracer("app").Start(ctx, "agent")
	_, err := client.Messages.RunTools(root, prompt(`What is the weather in Paris? Use get_weather {"location": "Paris"}`),
		[]tool.Tool{traced}, messages.ToolLoop{}, option.WithContentCapture(true))
	require.NoError(t, err)
	rootSpan.End()

	span := spantest.One(t, rec, "vendor.custom_tool_use get_weather")
	require.Equal(t, trace.SpanKindInternal, span.SpanKind())
	require.Equal(t, codes.Ok, span.Status().Code)
	require.Equal(t, rootSpan.SpanContext().SpanID(), span.Parent().SpanID(), "under the caller's span")
	require.Equal(t, span.SpanContext().SpanID(), spantest.One(t, rec, "lookup").Parent().SpanID(), "the tool's spans are its children")
	require.Equal(t, inner.SpanID(), spantest.One(t, rec, "lookup").SpanContext().SpanID())
	a := spantest.Attrs(span)
	requireString(t, a, attr.GenAIProviderName, "vendor")
	requireString(t, a, attr.GenAIOperationName, "execute_tool")
	requireString(t, a, attr.GenAIToolName, "get_weather")
	requireString(t, a, attr.GenAIToolType, "function")
	require.Contains(t, a, attr.GenAIToolCallID)
	require.Equal(t, map[string]any{"location": "Paris"}, jsonAttr(t, a[attr.GenAIToolCallArguments]), "content mode from the call's options")
	require.Equal(t, []any{map[string]any{"type": "text", "content": "15 degrees, sunny in Paris"}}, jsonAttr(t, a[attr.GenAIToolCallResult]))
	require.Len(t, spantest.Named(rec, "vendor.messages.create"), 2)

	rec.Reset()
	_, err = client.Messages.RunTools(ctx, prompt(`Use get_weather {"location": "Atlantis"}`), []tool.Tool{traced}, messages.ToolLoop{MaxIterations: 1})
	require.ErrorIs(t, err, messages.ErrMaxIterations)
	span = spantest.One(t, rec, "vendor.custom_tool_use get_weather")
	require.Equal(t, codes.Error, span.Status().Code, "an error result")
	requireString(t, spantest.Attrs(span), attr.ErrorType, "tool_error")
	require.NotContains(t, spantest.Attrs(span), attr.GenAIToolCallArguments, "content mode is off for this call")
}

func TestCountTokensSpan(t *testing.T) {
	_, client, rec := tracedEnv(t)
	p := example28()
	n, err := client.Messages.CountTokens(ctx, p.CountTokensParams())
	require.NoError(t, err)
	span := spantest.One(t, rec, "vendor.messages.count_tokens")
	require.Equal(t, trace.SpanKindClient, span.SpanKind())
	require.Equal(t, codes.Ok, span.Status().Code)
	a := spantest.Attrs(span)
	requireString(t, a, attr.GenAIRequestModel, models.VendorSonnet55)
	requireInt(t, a, attr.CountTokensInputTokens, n.InputTokens)
	for k := range a {
		require.False(t, strings.HasPrefix(string(k), "gen_ai.usage."), "%s: a count is not usage", k)
	}
}

// TestNoCredentialReachesASpan: the API key and an MCP server's token
// (param.Secret) are in no attribute, content mode on or off.
func TestNoCredentialReachesASpan(t *testing.T) {
	const mcpToken = param.Secret("mcp-CANARY-token-4d1f")
	for _, content := range []bool{false, true} {
		env, client, rec := tracedEnv(t, option.WithContentCapture(content))
		p := with(prompt(`web_search x then mcp:crm/lookup {"id": 7}`), func(p *messages.MessageParams) {
			p.MCPServers = []messages.MCPServer{{Name: "crm", URL: "https://mcp.example.com/sse", AuthorizationToken: mcpToken}}
			p.Tools = []messages.Tool{messages.WebSearchTool{}, messages.MCPToolset{MCPServerName: "crm"}}
		})
		_, err := client.Messages.Create(ctx, p)
		require.NoError(t, err)
		streamedMsg(t, client, p)
		_, err = client.Messages.CountTokens(ctx, p.CountTokensParams())
		require.NoError(t, err)
		require.Contains(t, string(env.Server.Requests()[0].Body), "authorization_token", "the token was sent")
		require.Len(t, spantest.Named(rec, "vendor.mcp_tool_use lookup"), 2)
		for _, s := range rec.Ended() {
			for _, kv := range s.Attributes() {
				require.NotContains(t, kv.Value.String(), string(mcpToken), "%s %s", s.Name(), kv.Key)
				require.NotContains(t, kv.Value.String(), env.Seed.APIKey, "%s %s", s.Name(), kv.Key)
			}
		}
	}
}

// TestStreamSpanClosedOrCancelledWhileRead: Close from another goroutine,
// or the caller's context ending, while events are awaited: unset.
func TestStreamSpanClosedOrCancelledWhileRead(t *testing.T) {
	_, client, rec := tracedEnv(t)
	for _, cancelCtx := range []bool{false, true} {
		rec.Reset()
		cctx, cancel := context.WithCancel(ctx)
		// An hour before each event: only Close or the cancellation ends
		// the stream, and they come while the loop reads its body.
		reading, read := reftest.FirstRead("/v1/messages")
		st, err := client.Messages.Stream(cctx, prompt("Hello there [[refserver:delay 3600000]]"), reading)
		require.NoError(t, err)
		done := make(chan error, 1)
		go func() {
			var last error
			for _, err := range st.Events() {
				last = err
			}
			done <- last
		}()
		<-read // the loop waits for an event
		if cancelCtx {
			cancel()
			require.ErrorIs(t, <-done, context.Canceled)
		} else {
			require.NoError(t, st.Close())
			require.NoError(t, <-done, "a closed stream ends quietly")
		}
		cancel()
		require.NoError(t, st.Close())
		span := spantest.One(t, rec, "vendor.messages.create")
		require.Equal(t, codes.Unset, span.Status().Code, "cancelled %v", cancelCtx)
		require.NotContains(t, spantest.Attrs(span), attr.ErrorType)
	}
}
