package refserver_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// vendor.messages.create on the API side (docs/tracing.md): request and response
// attributes, one vendor.model_request per attempt, tool spans, content.

func TestTraceMessagesCreate(t *testing.T) {
	e := newTraced(t, refserver.WithThinkingKey(testThinkingKey))
	body := strings.Replace(weatherRequest, `"service_tier":"auto"`,
		`"service_tier":"auto","temperature":1,"top_p":0.97,"stop_sequences":["STOP"]`, 1)
	r := e.do(t, "POST", "/v1/messages", body, withTraceparent)
	m := wantOK(t, r)
	spans := e.exp.GetSpans()
	s := onlySpan(t, spans, "vendor.messages.create")
	wantSpan(t, s, trace.SpanKindServer, codes.Ok)
	if s.Parent.SpanID().String() != inSpanID {
		t.Fatalf("parent %v", s.Parent)
	}
	u := usageOf(m)
	in := int(num(u["input_tokens"]) + num(u["cache_creation_input_tokens"]) + num(u["cache_read_input_tokens"]))
	common := map[attribute.Key]any{
		attr.UsageInputTokens:     in,
		attr.UsageOutputTokens:    int(num(u["output_tokens"])),
		attr.UsageCacheWrite:      int(num(u["cache_creation_input_tokens"])),
		attr.UsageCacheRead:       0,
		attr.UsageEphemeral5m:     0,
		attr.UsageEphemeral1h:     int(num(u["cache_creation_input_tokens"])),
		attr.UsageReasoningOutput: 21,
	}
	want := map[attribute.Key]any{
		attr.GenAIProviderName:          "vendor",
		attr.GenAIOperationName:         "chat",
		attr.GenAIRequestModel:          sonnet,
		attr.GenAIRequestMaxTokens:      4096,
		attr.GenAIRequestTemperature:    1.0,
		attr.GenAIRequestTopP:           0.97,
		attr.GenAIRequestStream:         false,
		attr.GenAIRequestReasoningLevel: "medium",
		attr.RequestServiceTier:         "auto",
		attr.ThinkingType:               "enabled",
		attr.ThinkingBudgetTokens:       2048,
		attr.GenAIResponseID:            m["id"].(string),
		attr.GenAIResponseModel:         sonnet,
		attr.MessageStopReason:          "tool_use",
		attr.ResponseServiceTier:        "standard",
		attr.HTTPRoute:                  "/v1/messages",
		attr.HTTPResponseStatus:         200,
		attr.RequestID:                  r.header.Get("request-id"),
	}
	for k, v := range common {
		want[k] = v
	}
	wantAttrs(t, s, want)
	if in == 0 || int(num(u["cache_creation_input_tokens"])) == 0 {
		t.Fatalf("the request should write the cache: %v", u)
	}
	// SDK-only and content attributes are absent; so are unset options.
	wantNoAttrs(t, s, append(contentKeys, attr.Beta, attr.GenAITimeToFirstChunk, attr.GenAIRequestTopK,
		attr.GenAIOutputType, attr.ErrorType, attr.SessionID)...)

	mr := onlySpan(t, spans, "vendor.model_request")
	wantSpan(t, mr, trace.SpanKindInternal, codes.Ok)
	wantParent(t, mr, s)
	common[attr.GenAIProviderName] = "vendor"
	common[attr.GenAIRequestModel] = sonnet
	common[attr.GenAIResponseModel] = sonnet
	wantExactAttrs(t, mr, common)
	if len(spans) != 2 {
		t.Fatalf("spans %v", spanNames(spans))
	}
}

func TestTraceMessagesStreamed(t *testing.T) {
	e := newTraced(t)
	frames, _ := e.stream(t, msgReq(haiku, "Hello there", `"stream":true,"top_k":5,"output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}}`))
	if len(frames) == 0 {
		t.Fatal("no frames")
	}
	spans := e.exp.GetSpans()
	s := onlySpan(t, spans, "vendor.messages.create")
	wantSpan(t, s, trace.SpanKindServer, codes.Ok)
	wantAttrs(t, s, map[attribute.Key]any{attr.GenAIRequestStream: true, attr.GenAIRequestTopK: 5, attr.GenAIOutputType: "json",
		attr.HTTPResponseStatus: 200, attr.MessageStopReason: "end_turn", attr.GenAIResponseModel: haiku})
	wantNoAttrs(t, s, attr.UsageReasoningOutput, attr.ThinkingType, attr.RequestServiceTier)
	wantParent(t, onlySpan(t, spans, "vendor.model_request"), s)
}

// A fallback model serves the request: one messages span, one
// model_request per attempt, in order.
func TestTraceMessagesFallback(t *testing.T) {
	e := newTraced(t)
	m := e.message(t, msgReq(opus, "Hello there [[refserver:refuse cyber]]", `"fallbacks":"default"`), fallbackBeta)
	spans := e.exp.GetSpans()
	s := onlySpan(t, spans, "vendor.messages.create")
	wantSpan(t, s, trace.SpanKindServer, codes.Ok)
	served := m["model"].(string)
	if served == opus {
		t.Fatalf("not served by a fallback: %v", m)
	}
	wantAttrs(t, s, map[attribute.Key]any{attr.GenAIRequestModel: opus, attr.GenAIResponseModel: served})
	attempts := spansNamed(spans, "vendor.model_request")
	if len(attempts) != 2 || len(childrenOf(spans, s)) != 2 {
		t.Fatalf("spans %v", spanNames(spans))
	}
	iters := u2(usageOf(m)["iterations"])
	for i, want := range []string{opus, served} {
		a := attempts[i]
		wantSpan(t, a, trace.SpanKindInternal, codes.Ok)
		wantParent(t, a, s)
		it := iters[i]
		wantAttrs(t, a, map[attribute.Key]any{attr.GenAIRequestModel: want, attr.GenAIResponseModel: want,
			attr.UsageOutputTokens: int(num(it["output_tokens"])),
			attr.UsageInputTokens:  int(num(it["input_tokens"]) + num(it["cache_creation_input_tokens"]) + num(it["cache_read_input_tokens"]))})
		wantNoAttrs(t, a, attr.ErrorType, attr.GenAIOperationName)
	}
}

func u2(v any) []map[string]any {
	var out []map[string]any
	for _, x := range v.([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

func TestTraceMessagesErrors(t *testing.T) {
	e := newTraced(t)
	// An error answered with an HTTP status: the attempt failed.
	wantError(t, e.do(t, "POST", "/v1/messages", msgReq(sonnet, "hi [[refserver:error overloaded_error]]", "")), 529, "overloaded_error", "")
	spans := e.exp.GetSpans()
	s := onlySpan(t, spans, "vendor.messages.create")
	wantSpan(t, s, trace.SpanKindServer, codes.Error)
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "overloaded_error", attr.HTTPResponseStatus: 529, attr.GenAIRequestModel: sonnet})
	wantNoAttrs(t, s, attr.GenAIResponseID)
	mr := onlySpan(t, spans, "vendor.model_request")
	wantSpan(t, mr, trace.SpanKindInternal, codes.Error)
	wantParent(t, mr, s)
	wantExactAttrs(t, mr, map[attribute.Key]any{attr.GenAIProviderName: "vendor", attr.GenAIRequestModel: sonnet,
		attr.ErrorType: "overloaded_error"})

	// An error event in a stream: the status sent with the headers, the
	// error type of the event, on the span and on the serving attempt.
	e.exp.Reset()
	e.stream(t, msgReq(sonnet, "hi [[refserver:error rate_limit_error after=2]]", `"stream":true`))
	spans = e.exp.GetSpans()
	s = onlySpan(t, spans, "vendor.messages.create")
	wantSpan(t, s, trace.SpanKindServer, codes.Error)
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "rate_limit_error", attr.HTTPResponseStatus: 200})
	mr = onlySpan(t, spans, "vendor.model_request")
	wantSpan(t, mr, trace.SpanKindInternal, codes.Error)
	wantAttrs(t, mr, map[attribute.Key]any{attr.ErrorType: "rate_limit_error", attr.GenAIResponseModel: sonnet})

	// A validation error: no attempt.
	e.exp.Reset()
	wantInvalid(t, e.do(t, "POST", "/v1/messages", `{"model":"`+sonnet+`"}`), "")
	spans = e.exp.GetSpans()
	s = onlySpan(t, spans, "vendor.messages.create")
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "invalid_request_error", attr.HTTPResponseStatus: 400})
	if len(spans) != 1 {
		t.Fatalf("spans %v", spanNames(spans))
	}

	// A connection the server drops mid-stream: api_error, the status
	// sent; the attempt itself completed.
	e.exp.Reset()
	e.srv.InjectFault(refserver.Fault{Path: "/v1/messages", StreamCutAfter: 2})
	cutRequest(t, e.env, "POST", "/v1/messages", msgReq(sonnet, "hi", `"stream":true`))
	spans = waitSpans(t, e.exp, "vendor.messages.create")
	s = onlySpan(t, spans, "vendor.messages.create")
	wantSpan(t, s, trace.SpanKindServer, codes.Error)
	wantAttrs(t, s, map[attribute.Key]any{attr.ErrorType: "api_error", attr.HTTPResponseStatus: 200})
	wantSpan(t, onlySpan(t, spans, "vendor.model_request"), trace.SpanKindInternal, codes.Ok)
}

func TestTraceMessagesToolSpans(t *testing.T) {
	e := newTraced(t)
	mcp := `"mcp_servers":[{"type":"url","url":"https://m.example","name":"docs"}],` +
		`"tools":[{"type":"mcp_toolset","mcp_server_name":"docs"},{"type":"web_search_20250305","name":"web_search","max_uses":1}]`
	m := e.message(t, msgReq(sonnet, `web_search cats and mcp:docs/echo {"a": 1}`, mcp), mcpBeta)
	c := contentOf(m)
	var search, echo string
	for _, b := range c {
		switch b["type"] {
		case "server_tool_use":
			search = b["id"].(string)
		case "mcp_tool_use":
			echo = b["id"].(string)
		}
	}
	if search == "" || echo == "" {
		t.Fatalf("content %s", mustMarshal(c))
	}
	spans := e.exp.GetSpans()
	s := onlySpan(t, spans, "vendor.messages.create")
	ws := onlySpan(t, spans, "vendor.tool_use web_search")
	wantSpan(t, ws, trace.SpanKindInternal, codes.Ok)
	wantParent(t, ws, s)
	wantExactAttrs(t, ws, map[attribute.Key]any{attr.GenAIProviderName: "vendor", attr.GenAIOperationName: "execute_tool",
		attr.GenAIToolName: "web_search", attr.GenAIToolCallID: search, attr.GenAIToolType: "extension"})
	ms := onlySpan(t, spans, "vendor.mcp_tool_use echo")
	wantSpan(t, ms, trace.SpanKindInternal, codes.Ok)
	wantParent(t, ms, s)
	wantAttrs(t, ms, map[attribute.Key]any{attr.GenAIToolName: "echo", attr.GenAIToolCallID: echo})
	// Server-tool usage counts are not on the span; each server tool use
	// gets its own tool span.
	for _, kv := range s.Attributes {
		if strings.Contains(string(kv.Key), "web_search") {
			t.Fatalf("server tool usage on the span: %s", kv.Key)
		}
	}

	// A search over max_uses fails its tool span with the error code.
	e.exp.Reset()
	e.message(t, withMessages(`{"role":"user","content":"web_search cats"},{"role":"assistant","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"cats"}},`+
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}]}`, `"tools":[{"type":"web_search_20250305","name":"web_search","max_uses":1}]`))
	ws = onlySpan(t, e.exp.GetSpans(), "vendor.tool_use web_search")
	wantSpan(t, ws, trace.SpanKindInternal, codes.Error)
	wantAttrs(t, ws, map[attribute.Key]any{attr.ErrorType: "max_uses_exceeded"})
}

func TestTraceMessagesContent(t *testing.T) {
	// Off by default.
	e := newTraced(t, refserver.WithThinkingKey(testThinkingKey))
	e.message(t, weatherRequest)
	wantNoAttrs(t, onlySpan(t, e.exp.GetSpans(), "vendor.messages.create"), contentKeys...)

	e = newTraced(t, refserver.WithThinkingKey(testThinkingKey), refserver.WithContentCapture(true))
	body := strings.Replace(weatherRequest, `"service_tier":"auto"`, `"service_tier":"auto","stop_sequences":["STOP"]`, 1)
	m := e.message(t, body)
	c := contentOf(m)
	s := onlySpan(t, e.exp.GetSpans(), "vendor.messages.create")
	wantContent(t, s, attr.GenAISystemInstructions, `[{"type":"text","content":"You are a weather assistant."}]`)
	wantContent(t, s, attr.GenAIInputMessages,
		`[{"role":"user","parts":[{"type":"text","content":"What is the weather in Paris? Use get_weather {\"location\": \"Paris\"}"}]}]`)
	wantContent(t, s, attr.GenAIOutputMessages, `[{"role":"assistant","finish_reason":"tool_call","parts":[`+
		`{"type":"reasoning","content":`+jsonString(c[0]["thinking"].(string))+`},`+
		`{"type":"text","content":`+jsonString(c[1]["text"].(string))+`},`+
		`{"type":"tool_call","id":"`+c[2]["id"].(string)+`","name":"get_weather","arguments":{"location":"Paris"}}]}]`)
	wantContent(t, s, attr.GenAIRequestStopSequences, `["STOP"]`)
	wantNoAttrs(t, s, attr.ContentTruncated)
	if strings.Contains(attrMap(s)[attr.GenAIOutputMessages].AsString(), "signature") {
		t.Fatal("a thinking signature in the output messages")
	}

	// Every block kind of a conversation: results, MCP, other blocks.
	e.exp.Reset()
	conv := `{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","source":{"type":"url","url":"https://x.example/a.png"}}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"location":"Rome"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}`
	e.message(t, withMessages(conv, `"tools":[{"name":"get_weather","description":"d","input_schema":{"type":"object"}}]`))
	s = onlySpan(t, e.exp.GetSpans(), "vendor.messages.create")
	wantContent(t, s, attr.GenAIInputMessages, `[`+
		`{"role":"user","parts":[{"type":"text","content":"look"},{"type":"vendor_image","source":{"type":"url","url":"https://x.example/a.png"}}]},`+
		`{"role":"assistant","parts":[{"type":"tool_call","id":"toolu_1","name":"get_weather","arguments":{"location":"Rome"}}]},`+
		`{"role":"user","parts":[{"type":"tool_call_response","id":"toolu_1","response":"sunny"}]}]`)
	wantNoAttrs(t, s, attr.GenAISystemInstructions)

	e.exp.Reset()
	mcp := `"mcp_servers":[{"type":"url","url":"https://m.example","name":"docs"}],"tools":[{"type":"mcp_toolset","mcp_server_name":"docs"}]`
	m = e.message(t, msgReq(sonnet, `mcp:docs/echo {"a": 1}`, mcp), mcpBeta)
	c = contentOf(m)
	s = onlySpan(t, e.exp.GetSpans(), "vendor.messages.create")
	wantContent(t, s, attr.GenAIOutputMessages, `[{"role":"assistant","finish_reason":"stop","parts":[`+
		`{"type":"text","content":"I'll use echo."},`+
		`{"type":"tool_call","id":"`+c[1]["id"].(string)+`","name":"echo","arguments":{"a":1},"vendor_mcp_server_name":"docs"},`+
		`{"type":"tool_call_response","id":"`+c[1]["id"].(string)+`","response":[{"type":"text","content":"echo ok"}]},`+
		`{"type":"text","content":"echo returned: echo ok"}]}]`)
	echo := onlySpan(t, e.exp.GetSpans(), "vendor.mcp_tool_use echo")
	wantContent(t, echo, attr.GenAIToolCallArguments, `{"a":1}`)
	wantContent(t, echo, attr.GenAIToolCallResult, `[{"type":"text","content":"echo ok"}]`)

	// A server tool's result is its content as it is.
	e.exp.Reset()
	m = e.message(t, msgReq(sonnet, "web_search cats", `"tools":[{"type":"web_search_20250305","name":"web_search"}]`))
	search := onlySpan(t, e.exp.GetSpans(), "vendor.tool_use web_search")
	wantContent(t, search, attr.GenAIToolCallArguments, `{"query":"cats"}`)
	for _, b := range contentOf(m) {
		if b["type"] == "web_search_tool_result" {
			wantContent(t, search, attr.GenAIToolCallResult, mustMarshal(b["content"]))
		}
	}
	// Off: no tool content.
	e = newTraced(t)
	e.message(t, msgReq(sonnet, "web_search cats", `"tools":[{"type":"web_search_20250305","name":"web_search"}]`))
	wantNoAttrs(t, onlySpan(t, e.exp.GetSpans(), "vendor.tool_use web_search"), attr.GenAIToolCallArguments, attr.GenAIToolCallResult)
}

func TestTraceMessagesContentTruncated(t *testing.T) {
	e := newTraced(t, refserver.WithContentCapture(true))
	long := strings.Repeat("é", 40000) // 80000 bytes
	e.message(t, msgReq(sonnet, long, `"system":"`+strings.Repeat("s", 100)+`"`))
	s := onlySpan(t, e.exp.GetSpans(), "vendor.messages.create")
	wantAttrs(t, s, map[attribute.Key]any{attr.ContentTruncated: true})
	in := attrMap(s)[attr.GenAIInputMessages].AsString()
	if len(in) > 64<<10 || len(in) < 60<<10 {
		t.Fatalf("input messages: %d bytes", len(in))
	}
	msgs := contentJSON(t, s, attr.GenAIInputMessages).([]any)
	part := msgs[0].(map[string]any)["parts"].([]any)[0].(map[string]any)
	text, cut := strings.CutSuffix(part["content"].(string), "…")
	if part["type"] != "text" || !cut || !strings.HasPrefix(long, text) || !utf8.ValidString(text) {
		t.Fatalf("cut text: %d bytes", len(text))
	}
	// The output repeats the input and is cut the same way; the system
	// prompt fits and is whole.
	contentJSON(t, s, attr.GenAIOutputMessages)
	wantContent(t, s, attr.GenAISystemInstructions, `[{"type":"text","content":"`+strings.Repeat("s", 100)+`"}]`)
}
