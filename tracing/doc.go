// Package tracing holds the names the SDK's OpenTelemetry spans use: every
// attribute key in one file, the instrumentation scope, and the values the
// API documents (docs/tracing.md).
//
// The client traces every call with a CLIENT span named "vendor." plus the
// operation (vendor.models.retrieve, vendor.sessions.events.send,
// vendor.messages.create, …; docs/tracing.md lists them all). One span
// covers a call and its retries; a stream's span ends when the stream ends.
// Tracing is configured with client options, not in this package:
//
//	client, err := agentplatform.NewClient(
//		option.WithTracerProvider(tp),      // default: the global provider
//		option.WithContentCapture(true),    // prompts and outputs on spans; off by default
//	)
//
// With no provider set the cost is one no-op span per call. Requests always
// carry traceparent when there is a trace to continue, even when the
// application set no propagator. No credential reaches an attribute.
//
// Content mode records prompts, outputs, stop sequences and tool arguments
// and results as JSON strings in the OpenTelemetry GenAI message format;
// an attribute over 64 KiB is shortened inside its JSON, which stays
// valid, and the span gets vendor.content.truncated. Messages responses
// add a vendor.tool_use or vendor.mcp_tool_use child span per server or MCP
// tool call, and the tool loop a vendor.custom_tool_use span per client
// tool it runs.
//
// To check spans in a test, give the client a provider that records to
// go.opentelemetry.io/otel/sdk/trace/tracetest; platformtest.WithSpanExporter
// collects the API's own spans, which share the client's traces.
package tracing
