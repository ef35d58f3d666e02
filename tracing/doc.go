// Package tracing holds the names the SDK's OpenTelemetry spans use (SPEC
// 6.3): every attribute key in one file, the instrumentation scope, and the
// values SPEC fixes.
//
// The client traces every call with a CLIENT span named "vendor." plus the
// operation (vendor.models.retrieve, vendor.sessions.events.send,
// vendor.messages.create, …; docs/tracing.md lists them all). One span
// covers a call and its retries; a stream's span ends when the stream ends.
//
//	client, err := agentplatform.NewClient(
//		option.WithTracerProvider(tp),      // default: the global provider
//		option.WithContentCapture(true),    // prompts and outputs on spans; off by default
//	)
//
// With no provider set the cost is one no-op span per call. Requests always
// carry traceparent when there is a trace to continue, even when the
// application set no propagator. No credential reaches an attribute.
package tracing
