package refserver

import (
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// The API's spans (docs/tracing.md): one SERVER span per request
// to a route with an operation, named vendor.<op>, whose parent is the
// request's traceparent, and content mode (package spans);
// vendor.messages.create's model attempts and tool uses (package
// messages); turns, their model requests and tool runs
// (tracing_engine.go). This file has the options and what sessions add to
// their request spans.
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
func newServerTracing(cfg config) *serverTracing {
	return spans.New(spans.Config{Exporter: cfg.spanExporter, Content: cfg.content, Cloud: cfg.cloud,
		AuthenticatedOps: []string{opMessagesCreate}})
}

// parentTurns makes the request's span the parent of the turns started
// until the returned function runs (events.send, update, and create with
// initial events parent the turns they start). Call it with
// Server.mu held and run the result before unlocking:
//
//	defer s.parentTurns(c)()
func (s *Server) parentTurns(c *call) func() { return s.trace.ParentTurns(c) }

// traceSessionCreated adds what vendor.sessions.create knows once the
// session exists, and parents the turn its initial events start.
func (s *Server) traceSessionCreated(c *call, x *session) func() {
	if span := recording(c); span != nil {
		span.SetAttributes(
			attr.SessionID.String(x.id),
			attr.GenAIAgentID.String(x.agent.Agent.ID),
			attr.GenAIAgentName.String(x.agent.Name),
			attr.GenAIRequestModel.String(x.agent.Model.ID),
			attr.SessionEnvironmentID.String(x.environmentID),
		)
	}
	return s.parentTurns(c)
}

// traceSessionEvents adds gen_ai.conversation.id when the events name a
// thread (docs/tracing.md: an interrupt of one thread, an answer to a
// child thread's call; the first one named), and parents the turns the
// events start.
func (s *Server) traceSessionEvents(c *call, x *session, params []eventParam) func() {
	if span := recording(c); span != nil {
		if id := namedThread(x.eng, params); id != "" {
			span.SetAttributes(attr.GenAIConversationID.String(id))
		}
	}
	return s.parentTurns(c)
}

func namedThread(e *engine, params []eventParam) string {
	for _, p := range params {
		f := fieldsOf(p)
		switch p.typ {
		case eventInterrupt:
			if f.SessionThreadID != nil && *f.SessionThreadID != "" {
				return *f.SessionThreadID
			}
		case eventConfirmation, eventToolResult, eventCustomResult:
			id := f.ToolUseID
			if p.typ == eventCustomResult {
				id = f.CustomToolUseID
			}
			if call := e.callByID[id]; call != nil && call.thread.child {
				return call.thread.id
			}
		}
	}
	return ""
}
