package messages

import (
	"encoding/json"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/genai"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
)

// Span attributes of the Messages calls (docs/tracing.md;
// docs/messages-wire.md 2 and 4.3). Everything here runs only when the
// call's span records: the pipeline calls Annotate and Result only then,
// and the streams check Span.Recording first.

// Values of gen_ai.operation.name and gen_ai.tool.type.
const (
	opChat        = "chat"
	opExecuteTool = "execute_tool"
	toolExtension = "extension" // server and MCP tools, run by the platform
	toolFunction  = "function"  // client tools, run by the application
	toolErrorType = "tool_error"
)

// Tool span name prefixes: a tool span's name is its prefix and the tool's
// name.
const (
	spanToolUse       = "vendor.tool_use "
	spanMCPToolUse    = "vendor.mcp_tool_use "
	spanCustomToolUse = "vendor.custom_tool_use "
)

// The request bodies record the request attributes themselves
// (pipeline.SpanAnnotator): a hook closure would cost an allocation on every
// call, traced or not.

func (b body) AnnotateSpan(s pipeline.Span) { annotateCreate(s, b.p, b.stream) }

// CheckVersion checks the request by the rules of API version v before
// anything is sent: the pipeline calls it once the call's options are
// applied, so a per-call option.WithVersion counts.
func (b body) CheckVersion(v string) error { return b.p.validate(v) }

// countTokensBody is CountTokensParams as a request body: the same JSON.
type countTokensBody CountTokensParams

// CheckVersion checks the request by the rules of API version v, as
// body's does.
func (b *countTokensBody) CheckVersion(v string) error { return (*CountTokensParams)(b).validate(v) }

// AnnotateSpan records the request model of CountTokens.
func (b *countTokensBody) AnnotateSpan(s pipeline.Span) {
	s.SetAttributes(attr.GenAIRequestModel.String(b.Model))
}

// annotateCreate records the request attributes of Create and Stream.
func annotateCreate(s pipeline.Span, p *MessageParams, stream bool) {
	attrs := make([]attribute.KeyValue, 0, 14)
	attrs = append(attrs,
		attr.GenAIOperationName.String(opChat),
		attr.GenAIRequestModel.String(p.Model),
		attr.GenAIRequestMaxTokens.Int(p.MaxTokens),
		attr.GenAIRequestStream.Bool(stream),
	)
	if p.Temperature != nil {
		attrs = append(attrs, attr.GenAIRequestTemperature.Float64(*p.Temperature))
	}
	if p.TopP != nil {
		attrs = append(attrs, attr.GenAIRequestTopP.Float64(*p.TopP))
	}
	if p.TopK != nil {
		attrs = append(attrs, attr.GenAIRequestTopK.Int(*p.TopK))
	}
	if p.OutputConfig != nil && p.OutputConfig.Effort != "" {
		attrs = append(attrs, attr.GenAIRequestReasoningLevel.String(string(p.OutputConfig.Effort)))
	}
	if (p.OutputConfig != nil && p.OutputConfig.Format != nil) || p.OutputFormat != nil {
		attrs = append(attrs, attr.GenAIOutputType.String("json"))
	}
	if p.ServiceTier != "" {
		attrs = append(attrs, attr.RequestServiceTier.String(string(p.ServiceTier)))
	}
	switch t := p.Thinking.(type) {
	case ThinkingEnabled:
		attrs = append(attrs, attr.ThinkingType.String("enabled"), attr.ThinkingBudgetTokens.Int(t.BudgetTokens))
	case *ThinkingEnabled:
		if t != nil {
			attrs = append(attrs, attr.ThinkingType.String("enabled"), attr.ThinkingBudgetTokens.Int(t.BudgetTokens))
		}
	case ThinkingAdaptive, *ThinkingAdaptive:
		attrs = append(attrs, attr.ThinkingType.String("adaptive"))
	case ThinkingDisabled, *ThinkingDisabled:
		attrs = append(attrs, attr.ThinkingType.String("disabled"))
	}
	s.SetAttributes(attrs...)
	if s.ContentCapture() {
		var c content
		if p.System != nil {
			c.set(attr.GenAISystemInstructions, genai.SystemInstructions(wireTree(p.System), genai.Options{}))
		}
		c.set(attr.GenAIInputMessages, genai.InputMessages(wireTree(p.Messages), genai.Options{}))
		if len(p.StopSequences) > 0 {
			stops := make([]any, len(p.StopSequences))
			for i, v := range p.StopSequences {
				stops[i] = v
			}
			c.set(attr.GenAIRequestStopSequences, stops)
		}
		c.record(s)
	}
}

// createResult records the response attributes and the tool spans of a
// Create call.
func createResult(s pipeline.Span, v any) {
	if m, ok := v.(*Message); ok {
		annotateMessage(s, m)
		recordServerTools(s, m, nil, time.Now())
	}
}

// annotateMessage records what a message, complete or accumulated so far,
// says about the call.
func annotateMessage(s pipeline.Span, m *Message) {
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = append(attrs,
		attr.GenAIResponseID.String(m.ID),
		attr.GenAIResponseModel.String(m.Model),
	)
	if m.StopReason != "" {
		attrs = append(attrs, attr.MessageStopReason.String(string(m.StopReason)))
	}
	if m.Usage.ServiceTier != "" {
		attrs = append(attrs, attr.ResponseServiceTier.String(string(m.Usage.ServiceTier)))
	}
	s.SetAttributes(usageAttrs(attrs, &m.Usage)...)
	if s.ContentCapture() {
		role := string(m.Role)
		if role == "" {
			role = string(RoleAssistant)
		}
		var c content
		c.set(attr.GenAIOutputMessages, genai.OutputMessages(role, wireTree(m.Content), genai.FinishReason(string(m.StopReason)), genai.Options{}))
		c.record(s)
	}
}

// usageAttrs appends the token usage attributes (docs/tracing.md, "Token
// usage"): the input total counts cache reads and writes; compaction counts
// come from the usage iterations of type "compaction", when there are any.
func usageAttrs(attrs []attribute.KeyValue, u *Usage) []attribute.KeyValue {
	attrs = append(attrs,
		attr.UsageInputTokens.Int(u.TotalInputTokens()),
		attr.UsageOutputTokens.Int(u.OutputTokens),
		attr.UsageCacheWrite.Int(u.CacheCreationInputTokens),
		attr.UsageCacheRead.Int(u.CacheReadInputTokens),
		attr.UsageEphemeral5m.Int(u.CacheCreation.Ephemeral5mInputTokens),
		attr.UsageEphemeral1h.Int(u.CacheCreation.Ephemeral1hInputTokens),
	)
	if u.OutputTokensDetails != nil {
		attrs = append(attrs, attr.UsageReasoningOutput.Int(u.OutputTokensDetails.ThinkingTokens))
	}
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

// recordServerTools records one INTERNAL child span of s per server tool
// and MCP tool call of m (docs/tracing.md). at holds when each block
// arrived on a stream: a span runs from its call's block to its result's;
// without it, or for a call with no result yet, it runs until end. A call
// with no result ends unset: its outcome is unknown.
func recordServerTools(s pipeline.Span, m *Message, at []time.Time, end time.Time) {
	for i, b := range m.Content {
		var name, id, toolName string
		var input json.RawMessage
		switch b := b.(type) {
		case ServerToolUseBlock:
			name, id, toolName, input = spanToolUse+b.Name, b.ID, b.Name, b.Input
		case MCPToolUseBlock:
			name, id, toolName, input = spanMCPToolUse+b.Name, b.ID, b.Name, b.Input
		default:
			continue
		}
		child := s.StartChild(name, timeAt(at, i, end))
		child.SetAttributes(
			attr.GenAIOperationName.String(opExecuteTool),
			attr.GenAIToolName.String(toolName),
			attr.GenAIToolCallID.String(id),
			attr.GenAIToolType.String(toolExtension),
		)
		j, result := findResult(m.Content, i+1, id)
		if child.ContentCapture() {
			var c content
			c.set(attr.GenAIToolCallArguments, rawTree(input))
			if result != nil {
				if obj, ok := wireTree(result).(genai.Object); ok {
					c.set(attr.GenAIToolCallResult, genai.ToolResponse(obj, genai.Options{}))
				}
			}
			c.record(child)
		}
		if result == nil {
			child.EndUnsetAt(end)
			continue
		}
		child.Finish(resultError(result), timeAt(at, j, end))
	}
}

// timeAt is when block i arrived, or end when that is not known.
func timeAt(at []time.Time, i int, end time.Time) time.Time {
	if i < len(at) && !at[i].IsZero() {
		return at[i]
	}
	return end
}

// findResult returns the first block from index from on that answers the
// call id, and its index.
func findResult(blocks []ContentBlock, from int, id string) (int, ContentBlock) {
	for j := from; j < len(blocks); j++ {
		if resultOf(blocks[j]) == id && id != "" {
			return j, blocks[j]
		}
	}
	return -1, nil
}

// resultOf is the call a result block answers, or "".
func resultOf(b ContentBlock) string {
	switch b := b.(type) {
	case WebSearchToolResultBlock:
		return b.ToolUseID
	case CodeExecutionToolResultBlock:
		return b.ToolUseID
	case BashCodeExecutionToolResultBlock:
		return b.ToolUseID
	case MCPToolResultBlock:
		return b.ToolUseID
	case WebFetchToolResultBlock, ToolSearchToolResultBlock, TextEditorCodeExecutionToolResultBlock:
		id, _ := newerResult(b)
		return id
	case UnknownBlock:
		if genai.IsToolResult(b.Type) {
			var w struct {
				ToolUseID string `json:"tool_use_id"`
			}
			_ = json.Unmarshal(b.JSON, &w)
			return w.ToolUseID
		}
	}
	return ""
}

// resultError is the error.type of a failed tool call: the result's error
// code, or tool_error for an MCP result marked is_error; "" when it
// succeeded.
func resultError(b ContentBlock) string {
	code := ""
	switch b := b.(type) {
	case WebSearchToolResultBlock:
		if e, ok := b.Content.(WebSearchToolResultError); ok {
			code = orToolError(e.ErrorCode)
		}
	case CodeExecutionToolResultBlock:
		code = codeError(b.Content)
	case BashCodeExecutionToolResultBlock:
		code = codeError(b.Content)
	case MCPToolResultBlock:
		if b.IsError {
			code = toolErrorType
		}
	case WebFetchToolResultBlock, ToolSearchToolResultBlock, TextEditorCodeExecutionToolResultBlock:
		_, code = newerResult(b)
	case UnknownBlock:
		var w struct {
			IsError bool `json:"is_error"`
			Content struct {
				ErrorCode string `json:"error_code"`
			} `json:"content"`
		}
		_ = json.Unmarshal(b.JSON, &w) // content that is not an object has no error code
		switch {
		case w.Content.ErrorCode != "":
			code = w.Content.ErrorCode
		case w.IsError:
			code = toolErrorType
		}
	}
	return code
}

func codeError(c CodeExecutionContent) string {
	switch e := c.(type) {
	case CodeExecutionToolResultError:
		return orToolError(e.ErrorCode)
	case BashCodeExecutionToolResultError:
		return orToolError(e.ErrorCode)
	}
	return ""
}

func orToolError(code string) string {
	if code == "" {
		return toolErrorType
	}
	return code
}

// content gathers content attributes, shortened by genai.Encode, and
// whether any was shortened (vendor.content.truncated).
type content struct {
	attrs     []attribute.KeyValue
	truncated bool
}

func (c *content) set(key attribute.Key, v any) {
	s, cut := genai.Encode(v, 0)
	c.attrs = append(c.attrs, key.String(s))
	c.truncated = c.truncated || cut
}

func (c *content) record(s pipeline.Span) {
	if c.truncated {
		c.attrs = append(c.attrs, attr.ContentTruncated.Bool(true))
	}
	s.SetAttributes(c.attrs...)
}

// wireTree is v's wire JSON as a genai tree: the form genai maps, shared
// with the reference server. nil when v does not encode.
func wireTree(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return rawTree(raw)
}

// rawTree parses JSON; a tool call without input has the arguments {}.
func rawTree(raw json.RawMessage) any {
	if len(raw) == 0 {
		return genai.Object{}
	}
	t, err := genai.Parse(raw)
	if err != nil {
		return nil
	}
	return t
}

// countTokensResult records the count: not usage, so no gen_ai.usage.*.
func countTokensResult(s pipeline.Span, v any) {
	if n, ok := v.(*TokenCount); ok {
		s.SetAttributes(attr.CountTokensInputTokens.Int(n.InputTokens))
	}
}
