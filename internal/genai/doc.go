// Package genai turns Messages content into the OpenTelemetry GenAI message
// format for content-mode span attributes, and encodes it within a size
// limit without ever breaking the JSON.
//
// It works on the wire JSON of content blocks, not on the SDK's Go types,
// so that the SDK and the reference server's API spans map content the
// same way:
//
//	tree, _ := genai.Parse(messagesJSON)             // [{"role":…,"content":…}, …]
//	v, truncated := genai.Encode(genai.InputMessages(tree, genai.Options{}), genai.Limit())
//	span.SetAttributes(attr.GenAIInputMessages.String(v))
//	if truncated { span.SetAttributes(attr.ContentTruncated.Bool(true)) }
//
// # Mapping
//
//   - text: {"type":"text","content":…}
//   - tool_use, server_tool_use: {"type":"tool_call","id","name","arguments"}
//   - mcp_tool_use: the same, plus "vendor_mcp_server_name"
//   - tool_result, mcp_tool_result and every server tool result
//     (web_search_tool_result, code_execution_tool_result, …):
//     {"type":"tool_call_response","id":tool_use_id,"response":content}
//   - thinking: {"type":"reasoning","content":…}, never the signature
//     (left out entirely with Options.OmitReasoning, for managed-agent spans)
//   - any other block: the block's own members, with "type" set to
//     "vendor_" plus the block type (vendor_image, vendor_fallback, …)
//
// # Truncation
//
// Encode keeps one attribute within a limit in bytes (DefaultLimit, 64
// KiB, lowered by OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT or
// OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT). Content is shortened inside the
// structure, so the result is always valid JSON:
//
//  1. String values longer than a common length are cut to it (at a UTF-8
//     boundary) and end with "…"; the length is the largest that fits.
//     Strings of up to 64 bytes (ids, names, roles, types) are never cut;
//     keys, numbers, booleans and nulls never change.
//  2. If that is not enough, the oldest elements of the top-level array
//     (the first messages) are dropped, keeping at least one.
//  3. If that is still not enough, every nested array keeps only its first
//     n elements, n the largest that fits (then step 1 runs again).
//  4. Failing all that, the attribute is the empty array (or object).
//
// Encode reports whether anything was shortened; the caller then sets
// vendor.content.truncated.
package genai
