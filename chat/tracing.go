package chat

import (
	"go.opentelemetry.io/otel/attribute"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
)

// Span attributes of the chat completion calls (docs/tracing.md). They run
// only when the call's span records.

// opChat is the gen_ai.operation.name of a completion.
const opChat = "chat"

// AnnotateSpan records the request attributes (pipeline.SpanAnnotator): a
// hook closure would cost an allocation on every call, traced or not.
func (b chatBody) AnnotateSpan(s pipeline.Span) { annotateChat(s, b.p, b.stream) }

// annotateChat records the request attributes of a chat completion.
func annotateChat(s pipeline.Span, p *CompletionParams, stream bool) {
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs,
		attr.GenAIOperationName.String(opChat),
		attr.GenAIRequestModel.String(p.Model),
		attr.GenAIRequestStream.Bool(stream),
	)
	if p.MaxCompletionTokens > 0 { // it wins over MaxTokens
		attrs = append(attrs, attr.GenAIRequestMaxTokens.Int(p.MaxCompletionTokens))
	} else if p.MaxTokens > 0 {
		attrs = append(attrs, attr.GenAIRequestMaxTokens.Int(p.MaxTokens))
	}
	if p.Temperature != nil {
		attrs = append(attrs, attr.GenAIRequestTemperature.Float64(*p.Temperature))
	}
	if p.TopP != nil {
		attrs = append(attrs, attr.GenAIRequestTopP.Float64(*p.TopP))
	}
	s.SetAttributes(attrs...)
}

// chatResult records the response of a chat completion: prompt tokens are
// the input (the whole of it), completion tokens the output.
func chatResult(s pipeline.Span, v any) {
	c, ok := v.(*Completion)
	if !ok {
		return
	}
	attrs := []attribute.KeyValue{
		attr.GenAIResponseID.String(c.ID),
		attr.GenAIResponseModel.String(c.Model),
	}
	if c.Usage != nil {
		attrs = append(attrs,
			attr.UsageInputTokens.Int(c.Usage.PromptTokens),
			attr.UsageOutputTokens.Int(c.Usage.CompletionTokens),
		)
	}
	s.SetAttributes(attrs...)
}
