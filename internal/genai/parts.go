package genai

import "strings"

// Options adjust the mapping.
type Options struct {
	// OmitReasoning leaves thinking blocks out: managed-agent spans do not
	// carry them.
	OmitReasoning bool
}

// OTel GenAI part types, and VendorPrefix, which names the part of any
// other block: "vendor_" plus the block type.
const (
	PartText             = "text"
	PartToolCall         = "tool_call"
	PartToolCallResponse = "tool_call_response"
	PartReasoning        = "reasoning"
	VendorPrefix         = "vendor_"
	// MCPServerName is the member a tool_call part of an MCP tool gains.
	MCPServerName = "vendor_mcp_server_name"
)

// SystemInstructions maps a request's system prompt, a string or an array
// of text blocks, to the parts of gen_ai.system_instructions. nil maps to
// nil.
func SystemInstructions(system any, o Options) []any {
	return Parts(system, o)
}

// InputMessages maps a request's messages, [{"role","content"}, …], to
// gen_ai.input.messages: [{"role","parts"}, …]. Anything else maps to an
// empty list.
func InputMessages(messages any, o Options) []any {
	list, _ := messages.([]any)
	out := make([]any, 0, len(list))
	for _, m := range list {
		msg, ok := m.(Object)
		if !ok {
			continue
		}
		out = append(out, Object{
			{Key: "role", Value: msg.String("role")},
			{Key: "parts", Value: Parts(msg.Get("content"), o)},
		})
	}
	return out
}

// OutputMessages maps a response message to gen_ai.output.messages: one
// message with its role, parts and finish reason (FinishReason).
func OutputMessages(role string, content any, finishReason string, o Options) []any {
	return []any{Object{
		{Key: "role", Value: role},
		{Key: "parts", Value: Parts(content, o)},
		{Key: "finish_reason", Value: finishReason},
	}}
}

// Parts maps content, a string (one text part) or an array of content
// blocks, to parts. nil maps to nil.
func Parts(content any, o Options) []any {
	switch c := content.(type) {
	case string:
		return []any{textPart(c)}
	case []any:
		out := make([]any, 0, len(c))
		for _, b := range c {
			if blk, ok := b.(Object); ok {
				if p, keep := BlockPart(blk, o); keep {
					out = append(out, p)
				}
			}
		}
		return out
	}
	return nil
}

func textPart(s string) Object {
	return Object{{Key: "type", Value: PartText}, {Key: "content", Value: s}}
}

// BlockPart maps one content block to its part, and reports false for a
// block that is left out (thinking with OmitReasoning).
func BlockPart(b Object, o Options) (Object, bool) {
	typ := b.String("type")
	switch typ {
	case "text":
		return textPart(b.String("text")), true
	case "thinking":
		if o.OmitReasoning {
			return nil, false
		}
		return Object{{Key: "type", Value: PartReasoning}, {Key: "content", Value: b.String("thinking")}}, true
	case "tool_use", "server_tool_use", "mcp_tool_use":
		p := Object{
			{Key: "type", Value: PartToolCall},
			{Key: "id", Value: b.String("id")},
			{Key: "name", Value: b.String("name")},
			{Key: "arguments", Value: argumentsOf(b.Get("input"))},
		}
		if typ == "mcp_tool_use" {
			p = append(p, Member{Key: MCPServerName, Value: b.String("server_name")})
		}
		return p, true
	}
	if IsToolResult(typ) {
		return Object{
			{Key: "type", Value: PartToolCallResponse},
			{Key: "id", Value: b.String("tool_use_id")},
			{Key: "response", Value: ToolResponse(b, o)},
		}, true
	}
	p := make(Object, 0, len(b))
	p = append(p, Member{Key: "type", Value: VendorPrefix + typ})
	for _, m := range b {
		if m.Key != "type" {
			p = append(p, m)
		}
	}
	return p, true
}

// argumentsOf is a tool call's input; a call without one has no
// arguments, {}.
func argumentsOf(in any) any {
	if in == nil {
		return Object{}
	}
	return in
}

// IsToolResult reports whether a block type is the result of a tool call:
// tool_result, mcp_tool_result, or a server tool's result
// (web_search_tool_result, code_execution_tool_result, …).
func IsToolResult(typ string) bool {
	return typ == "tool_result" || strings.HasSuffix(typ, "_tool_result")
}

// ToolResponse is the response of a tool result block: for tool_result and
// mcp_tool_result, whose content is text or blocks, the text or the
// blocks' parts; for a server tool's result, its content as it is.
func ToolResponse(b Object, o Options) any {
	content := b.Get("content")
	switch b.String("type") {
	case "tool_result", "mcp_tool_result":
		if blocks, ok := content.([]any); ok {
			return Parts(blocks, o)
		}
	}
	return content
}

// FinishReason maps a Messages stop reason to an OTel finish reason:
// end_turn and stop_sequence are stop, max_tokens and
// model_context_window_exceeded are length, tool_use is tool_call, refusal
// is content_filter; "" (a message that never finished) is error, and
// other reasons (pause_turn, newer ones) are kept as they are.
func FinishReason(stopReason string) string {
	switch stopReason {
	case "end_turn", "stop_sequence":
		return "stop"
	case "max_tokens", "model_context_window_exceeded":
		return "length"
	case "tool_use":
		return "tool_call"
	case "refusal":
		return "content_filter"
	case "":
		return "error"
	}
	return stopReason
}
