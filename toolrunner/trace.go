package toolrunner

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/genai"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/tool"
)

// The span of one tool call (docs/tracing.md): INTERNAL,
// "vendor.custom_tool_use <tool>" for a custom tool, "vendor.tool_use
// <tool>" for a sandbox tool, the parent of the spans the tool starts and
// of the request that sends its result. Both run on the client, so both
// are gen_ai.tool.type function.

const (
	spanPrefix        = "vendor.custom_tool_use "
	sandboxSpanPrefix = "vendor.tool_use "
	opExecuteTool     = "execute_tool"
	toolFunction      = "function"

	// error.type of a failed call: an error result, or a timeout.
	errTypeTool    = "tool_error"
	errTypeTimeout = "timeout"
)

// tracer is the runner's tracer and content mode.
type tracer struct {
	t       trace.Tracer
	content bool
}

func newTracer(tp trace.TracerProvider, content bool) tracer {
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	return tracer{t: tp.Tracer(attr.SDKScope, trace.WithInstrumentationVersion(pipeline.Version)), content: content}
}

// start starts the span of a call of a registered tool. Attributes are
// built only when the span records.
func (tr tracer) start(ctx context.Context, c *call) (context.Context, trace.Span) {
	prefix := spanPrefix
	if c.sandbox {
		prefix = sandboxSpanPrefix
	}
	ctx, span := tr.t.Start(ctx, prefix+c.name, trace.WithSpanKind(trace.SpanKindInternal))
	if !span.IsRecording() {
		return ctx, span
	}
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs,
		attr.GenAIProviderName.String(attr.ProviderVendor),
		attr.GenAIOperationName.String(opExecuteTool),
		attr.GenAIToolName.String(c.name),
		attr.GenAIToolCallID.String(c.id),
		attr.GenAIToolType.String(toolFunction),
		attr.SessionID.String(c.sessionID),
	)
	if c.threadID != "" {
		attrs = append(attrs, attr.GenAIConversationID.String(c.threadID))
	}
	span.SetAttributes(attrs...)
	if tr.content {
		var args any = genai.Object{}
		if len(c.input) > 0 {
			if t, err := genai.Parse(c.input); err == nil {
				args = t
			}
		}
		v, cut := genai.Encode(args, genai.Limit())
		span.SetAttributes(attr.GenAIToolCallArguments.String(v))
		if cut {
			span.SetAttributes(attr.ContentTruncated.Bool(true))
		}
	}
	return ctx, span
}

// end ends a call's span: OK, ERROR with error.type for an error result or
// a timeout, unset when the call was cancelled (an interrupt, the runner
// stopping) before the tool returned.
func (tr tracer) end(span trace.Span, c *call, res tool.Result, o outcome) {
	if !span.IsRecording() {
		span.End()
		return
	}
	if tr.content && o != outcomeAbandoned {
		v, cut := genai.Encode(resultTree(c.id, res), genai.Limit())
		span.SetAttributes(attr.GenAIToolCallResult.String(v))
		if cut {
			span.SetAttributes(attr.ContentTruncated.Bool(true))
		}
	}
	switch {
	case o == outcomeTimeout:
		span.SetAttributes(attr.ErrorType.String(errTypeTimeout))
		span.SetStatus(codes.Error, errTypeTimeout)
	case o == outcomeCancelled, o == outcomeAbandoned:
		// the application or the session cancelled: status unset
	case res.IsError:
		span.SetAttributes(attr.ErrorType.String(errTypeTool))
		span.SetStatus(codes.Error, errTypeTool)
	default:
		span.SetStatus(codes.Ok, "")
	}
	span.End()
}

// resultTree is the GenAI form of a result (a tool_call_response's
// response: the parts of its blocks), mapped as the Messages tool loop maps
// its results.
func resultTree(id string, res tool.Result) any {
	blocks := make([]any, 0, len(res.Content))
	for _, b := range res.Content {
		switch b := b.(type) {
		case tool.TextBlock:
			blocks = append(blocks, map[string]any{"type": "text", "text": b.Text})
		case tool.ImageBlock:
			blocks = append(blocks, map[string]any{"type": "image", "source": map[string]any{
				"type": "base64", "media_type": b.MediaType, "data": base64.StdEncoding.EncodeToString(b.Data)}})
		}
	}
	raw, err := json.Marshal(map[string]any{"type": "tool_result", "tool_use_id": id, "content": blocks, "is_error": res.IsError})
	if err != nil {
		return []any{}
	}
	t, err := genai.Parse(raw)
	if err != nil {
		return []any{}
	}
	obj, ok := t.(genai.Object)
	if !ok {
		return []any{}
	}
	return genai.ToolResponse(obj, genai.Options{})
}
