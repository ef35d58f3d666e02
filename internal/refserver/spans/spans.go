package spans

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Request is the SERVER span of one request, kept in kit.Exchange.Span.
type Request struct {
	Span trace.Span
	Ctx  context.Context // carries Span: the parent of its children
	// Msg, when set, finishes the family's own spans as the request ends
	// (vendor.messages.create's serving model attempt); nil on other
	// operations.
	Msg Finisher
}

// Finisher ends a family's spans with the request's outcome.
type Finisher interface {
	Finish(ex *kit.Exchange, o Outcome)
}

// Of is the request's SERVER span, nil when it has none.
func Of(ex *kit.Exchange) *Request {
	rs, _ := ex.Span.(*Request)
	return rs
}

// Recording returns the request's span when it records attributes.
func Recording(c *kit.Call) trace.Span {
	rs := Of(c.Ex)
	if rs == nil || !rs.Span.IsRecording() {
		return nil
	}
	return rs.Span
}

// Outcome is how a span ends: OK, ERROR with ErrType, or unset.
type Outcome struct {
	ErrType string
	Unset   bool
}

// End ends span with o.
func End(span trace.Span, o Outcome) {
	switch {
	case o.ErrType != "":
		span.SetAttributes(attr.ErrorType.String(o.ErrType))
		span.SetStatus(codes.Error, o.ErrType)
	case !o.Unset:
		span.SetStatus(codes.Ok, "")
	}
	span.End()
}

// ToolErrorType is the error.type of a tool call whose result is an error
// without a code.
const ToolErrorType = "tool_error"

// ToolAttrs are a tool span's attributes (docs/tracing.md: server and MCP
// tools are extension tools).
func ToolAttrs(name, callID string) []attribute.KeyValue {
	return []attribute.KeyValue{
		attr.GenAIProviderName.String(attr.ProviderVendor),
		attr.GenAIOperationName.String("execute_tool"),
		attr.GenAIToolName.String(name),
		attr.GenAIToolCallID.String(callID),
		attr.GenAIToolType.String("extension"),
	}
}
