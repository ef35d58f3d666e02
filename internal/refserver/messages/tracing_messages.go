package messages

import (
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/genai"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// vendor.messages.create on the API side (docs/tracing.md): the request span of an
// authenticated POST /v1/messages carries the request and response
// attributes; its children are one vendor.model_request per model attempt
// (the requested model, then each fallback hop) and one tool span per
// server or MCP tool use in the response. Chat completions share the fake
// model but get no span: their msgRequest has no messageSpan.

// messageSpan is the span state of one Messages request.
type messageSpan struct {
	rs      *spans.Request
	tracer  trace.Tracer
	content bool
	// serving is the attempt whose answer is sent: it ends with the
	// response (a stream's error event fails it), after the others.
	serving *modelAttempt
}

// modelAttempt is one vendor.model_request of a Messages request.
type modelAttempt struct {
	ms    *messageSpan
	span  trace.Span
	model string
}

// traceMessages records a valid request's attributes on its span and
// enables the model-attempt and tool spans.
func (s *Service) traceMessages(c *kit.Call, r *msgRequest) {
	span := spans.Recording(c)
	if span == nil {
		return
	}
	rs := spans.Of(c.Ex)
	ms := &messageSpan{rs: rs, tracer: s.trace.tracer, content: s.trace.content}
	rs.Msg, r.span = ms, ms
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = append(attrs,
		attr.GenAIOperationName.String("chat"),
		attr.GenAIRequestModel.String(r.modelID),
		attr.GenAIRequestMaxTokens.Int(r.maxTokens),
		attr.GenAIRequestStream.Bool(r.stream),
	)
	if r.temperature != nil {
		attrs = append(attrs, attr.GenAIRequestTemperature.Float64(*r.temperature))
	}
	if r.topP != nil {
		attrs = append(attrs, attr.GenAIRequestTopP.Float64(*r.topP))
	}
	if r.topK != nil {
		attrs = append(attrs, attr.GenAIRequestTopK.Int(*r.topK))
	}
	if r.output.effort != "" {
		attrs = append(attrs, attr.GenAIRequestReasoningLevel.String(r.output.effort))
	}
	if r.format() != nil {
		attrs = append(attrs, attr.GenAIOutputType.String("json"))
	}
	if r.serviceTier != "" {
		attrs = append(attrs, attr.RequestServiceTier.String(r.serviceTier))
	}
	if r.thinking != nil {
		attrs = append(attrs, attr.ThinkingType.String(r.thinking.typ))
		if r.thinking.typ == "enabled" {
			attrs = append(attrs, attr.ThinkingBudgetTokens.Int(r.thinking.budget))
		}
	}
	if ms.content {
		var ca spans.Content
		if sys := r.root.get("system"); !sys.isNull() {
			ca.Add(attr.GenAISystemInstructions, genai.SystemInstructions(genaiTree(sys), genai.Options{}))
		}
		ca.Add(attr.GenAIInputMessages, genai.InputMessages(genaiTree(r.root.get("messages")), genai.Options{}))
		if len(r.stopSequences) > 0 { // a JSON string, as all content (docs/tracing.md)
			stops := make([]any, len(r.stopSequences))
			for i, s := range r.stopSequences {
				stops[i] = s
			}
			ca.Add(attr.GenAIRequestStopSequences, stops)
		}
		attrs = append(attrs, ca.KVs()...)
	}
	span.SetAttributes(attrs...)
}

// startAttempt starts the vendor.model_request of attempt a. The model is
// named as the response would name it: the requested string for the first
// attempt, the hop's model after.
func (ms *messageSpan) startAttempt(r *msgRequest, a attempt) *modelAttempt {
	if ms == nil {
		return nil
	}
	model := a.model.ID
	if a.first {
		model = r.modelID
	}
	_, span := ms.tracer.Start(ms.rs.Ctx, "vendor.model_request", trace.WithSpanKind(trace.SpanKindInternal))
	span.SetAttributes(attr.GenAIProviderName.String(attr.ProviderVendor), attr.GenAIRequestModel.String(model))
	return &modelAttempt{ms: ms, span: span, model: model}
}

// done records the attempt's result. An attempt that handed off to the
// next hop (a refusal) ends now; the serving one ends with the response.
func (at *modelAttempt) done(u msgUsageJSON, handedOff bool) {
	if at == nil {
		return
	}
	at.span.SetAttributes(append(msgUsageAttrs(u), attr.GenAIResponseModel.String(at.model))...)
	if handedOff {
		spans.End(at.span, spans.Outcome{})
		return
	}
	at.ms.serving = at
}

// failedAttempt records an attempt that failed before answering (an error
// directive answered with an HTTP error).
func (ms *messageSpan) failedAttempt(r *msgRequest, errType string) {
	if ms == nil {
		return
	}
	_, span := ms.tracer.Start(ms.rs.Ctx, "vendor.model_request", trace.WithSpanKind(trace.SpanKindInternal))
	span.SetAttributes(attr.GenAIProviderName.String(attr.ProviderVendor), attr.GenAIRequestModel.String(r.modelID))
	spans.End(span, spans.Outcome{ErrType: errType})
}

// Finish ends the serving attempt with the response: failed by an error
// event the stream sent, unset when the client went away.
func (ms *messageSpan) Finish(ex *kit.Exchange, o spans.Outcome) {
	if ms == nil || ms.serving == nil {
		return
	}
	ao := spans.Outcome{Unset: o.Unset}
	if !o.Unset {
		ao.ErrType = ex.ErrType
	}
	spans.End(ms.serving.span, ao)
	ms.serving = nil
}

// response records the message's attributes on the request span, and one
// tool span per server or MCP tool use.
func (ms *messageSpan) response(res *modelResult, id string) {
	if ms == nil {
		return
	}
	attrs := append(msgUsageAttrs(res.usage),
		attr.GenAIResponseID.String(id),
		attr.GenAIResponseModel.String(res.model),
		attr.MessageStopReason.String(res.stopReason),
		attr.ResponseServiceTier.String(res.usage.ServiceTier),
	)
	if ms.content {
		blocks := make([]any, len(res.content))
		for i, b := range res.content {
			blocks[i] = genaiTree(b.node(false))
		}
		var ca spans.Content
		ca.Add(attr.GenAIOutputMessages, genai.OutputMessages("assistant", blocks, genai.FinishReason(res.stopReason), genai.Options{}))
		attrs = append(attrs, ca.KVs()...)
	}
	ms.rs.Span.SetAttributes(attrs...)
	for _, b := range res.content {
		if b.typ == "server_tool_use" || b.typ == "mcp_tool_use" {
			ms.toolSpan(b, res.content)
		}
	}
}

// toolSpan records one server or MCP tool use of the response (it has no
// duration: the fake model answers at once): failed when its result block
// says so, unset when the message holds no result (pause_turn).
func (ms *messageSpan) toolSpan(use *outBlock, content []*outBlock) {
	name := "vendor.tool_use " + use.name
	if use.typ == "mcp_tool_use" {
		name = "vendor.mcp_tool_use " + use.name
	}
	_, span := ms.tracer.Start(ms.rs.Ctx, name, trace.WithSpanKind(trace.SpanKindInternal))
	span.SetAttributes(spans.ToolAttrs(use.name, use.id)...)
	var result *jnode
	for _, b := range content {
		if b.raw == nil {
			continue
		}
		if n, err := parseJSON(b.raw); err == nil && jstrOf(n.get("tool_use_id")) == use.id {
			result = n
			break
		}
	}
	if ms.content {
		var ca spans.Content
		ca.Add(attr.GenAIToolCallArguments, genaiTree(orEmpty(use.input)))
		if result, ok := genaiTree(result).(genai.Object); ok {
			ca.Add(attr.GenAIToolCallResult, genai.ToolResponse(result, genai.Options{}))
		}
		span.SetAttributes(ca.KVs()...)
	}
	o := spans.Outcome{Unset: result == nil}
	if result != nil {
		o.ErrType = toolResultError(result)
	}
	spans.End(span, o)
}

func orEmpty(input *jnode) *jnode {
	if input.isNull() {
		return jobj()
	}
	return input
}

// toolResultError is the error.type of a failed tool result block: the
// error_code of its content, else tool_error for is_error; "" when it
// succeeded (docs/tracing.md).
func toolResultError(n *jnode) string {
	if code := jstrOf(n.get("content").get("error_code")); code != "" {
		return code
	}
	if e := n.get("is_error"); e != nil && e.kind == jBool && e.b {
		return spans.ToolErrorType
	}
	return ""
}

// msgUsageAttrs is a Messages usage object as span attributes; input
// tokens include cache reads and writes.
func msgUsageAttrs(u msgUsageJSON) []attribute.KeyValue {
	attrs := []attribute.KeyValue{
		attr.UsageInputTokens.Int(u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens),
		attr.UsageOutputTokens.Int(u.OutputTokens),
		attr.UsageCacheWrite.Int(u.CacheCreationInputTokens),
		attr.UsageCacheRead.Int(u.CacheReadInputTokens),
		attr.UsageEphemeral5m.Int(u.CacheCreation.Ephemeral5m),
		attr.UsageEphemeral1h.Int(u.CacheCreation.Ephemeral1h),
	}
	if u.OutputTokensDetails != nil {
		attrs = append(attrs, attr.UsageReasoningOutput.Int(u.OutputTokensDetails.ThinkingTokens))
	}
	// Compaction iterations (docs/tracing.md; the fake model never
	// compacts, so this stays for parity with the SDK).
	compacted, in, out := false, 0, 0
	for _, it := range u.Iterations {
		if it.Type == "compaction" {
			compacted = true
			in += it.InputTokens + it.CacheCreationInputTokens + it.CacheReadInputTokens
			out += it.OutputTokens
		}
	}
	if compacted {
		attrs = append(attrs, attr.UsageCompactionIn.Int(in), attr.UsageCompactionOut.Int(out))
	}
	return attrs
}

// genaiTree is n as a genai tree, members in order; nil for no node.
func genaiTree(n *jnode) any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case jBool:
		return n.b
	case jNumber:
		return n.num
	case jString:
		return n.str
	case jArray:
		a := make([]any, len(n.arr))
		for i, x := range n.arr {
			a[i] = genaiTree(x)
		}
		return a
	case jObject:
		o := make(genai.Object, len(n.obj))
		for i, m := range n.obj {
			o[i] = genai.Member{Key: m.key, Value: genaiTree(m.val)}
		}
		return o
	}
	return nil
}
