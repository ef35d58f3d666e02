package refserver

import (
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// The API's spans (docs/tracing.md): one SERVER span per request
// to a route with an operation, named vendor.<op>, whose parent is the
// request's traceparent, and content mode (package spans);
// vendor.messages.create's model attempts and tool uses (package
// messages); turns, their model requests and tool runs
// (package sessions). This file has the options.
//
// Without WithSpanExporter nothing here runs: Server.trace is nil, and
// every hook returns after one nil check.

// WithSpanExporter makes the server emit its API spans to exp, exported
// synchronously (each span is exported when it ends, before the response
// that ends it is sent), with resource service.name=vendor-platform and
// instrumentation scope com.vendor.platform. The server never shuts exp
// down. Without this option the server builds no span.
func WithSpanExporter(exp sdktrace.SpanExporter) Option {
	return func(cfg *config) { cfg.spanExporter = exp }
}

// WithContentCapture turns content mode on or off for the API spans (off by
// default): system instructions, input and output messages on
// vendor.messages.create and vendor.session.turn, in the OpenTelemetry GenAI
// message format, shortened to a bounded size with vendor.content.truncated
// set when they do not fit.
func WithContentCapture(on bool) Option {
	return func(cfg *config) { cfg.content = on }
}

// SpanExporter returns the exporter given with WithSpanExporter, or nil.
func (s *Server) SpanExporter() sdktrace.SpanExporter { return s.cfg.spanExporter }

// newServerTracing is the server's tracing (package spans), nil without
// WithSpanExporter.
func newServerTracing(cfg config) *spans.Tracing {
	return spans.New(spans.Config{Exporter: cfg.spanExporter, Content: cfg.content, Cloud: cfg.cloud,
		AuthenticatedOps: []string{messages.OpCreate}})
}
