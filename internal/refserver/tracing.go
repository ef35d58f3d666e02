package refserver

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
)

// The API's spans (docs/tracing.md): one SERVER span per request
// to a route with an operation, named vendor.<op>, whose parent is the
// request's traceparent; vendor.messages.create's model attempts and tool
// uses (tracing_messages.go); turns, their model requests and tool runs
// (tracing_engine.go); content mode (tracing_content.go).
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

// serverTracing is the server's tracer and span settings.
type serverTracing struct {
	tracer  trace.Tracer
	content bool
	cloud   bool // the cloud-hosted edition: no server.address, server.port, url.full
	// turnParent is the span of the request that parents the turns started
	// now (parentTurns), nil outside one. Guarded by Server.mu.
	turnParent trace.Span
}

func newServerTracing(cfg config) *serverTracing {
	if cfg.spanExporter == nil {
		return nil
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSyncer(cfg.spanExporter),
		sdktrace.WithResource(sdkresource.NewWithAttributes(semconv.SchemaURL,
			semconv.ServiceNameKey.String(attr.APIServiceName))),
	)
	return &serverTracing{tracer: tp.Tracer(attr.APIScope), content: cfg.content, cloud: cfg.cloud}
}

// startSpan starts the request's span, once: before authentication for
// every traced route (authenticated false), after it for
// vendor.messages.create, which covers authenticated requests only.
func (s *Server) startSpan(c *call, rt route, authenticated bool) {
	t := s.trace
	if t == nil || rt.Op == "" || c.Ex.Span != nil || rt.Op == opMessagesCreate && !authenticated {
		return
	}
	c.Ex.Span = t.startRequest(c.R, rt, c.Ex)
}

func (t *serverTracing) startRequest(r *http.Request, rt route, ex *exchange) *requestSpan {
	parent := propagation.TraceContext{}.Extract(context.Background(), propagation.HeaderCarrier(r.Header))
	ctx, span := t.tracer.Start(parent, "vendor."+rt.Op,
		trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(ex.Started))
	rs := &requestSpan{Span: span, Ctx: ctx}
	if !span.IsRecording() {
		return rs
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = append(attrs,
		attr.GenAIProviderName.String(attr.ProviderVendor),
		attr.RequestID.String(ex.RequestID),
		attr.HTTPRequestMethod.String(r.Method),
		attr.HTTPRoute.String(rt.Path),
		attr.URLScheme.String(scheme),
		attr.URLPath.String(r.URL.EscapedPath()),
	)
	if r.URL.RawQuery != "" {
		attrs = append(attrs, attr.URLQuery.String(r.URL.RawQuery))
	}
	if !t.cloud {
		host, port := hostPort(r.Host, scheme)
		full := scheme + "://" + r.Host + r.URL.EscapedPath()
		if r.URL.RawQuery != "" {
			full += "?" + r.URL.RawQuery
		}
		attrs = append(attrs, attr.ServerAddress.String(host), attr.ServerPort.Int(port), attr.URLFull.String(full))
	}
	if id := r.PathValue("session_id"); id != "" {
		attrs = append(attrs, attr.SessionID.String(id))
	}
	span.SetAttributes(attrs...)
	return rs
}

// hostPort splits a Host header; the port defaults to the scheme's.
func hostPort(hostHeader, scheme string) (string, int) {
	host, p, err := net.SplitHostPort(hostHeader)
	if err != nil {
		host = strings.Trim(hostHeader, "[]")
	} else if port, err := strconv.Atoi(p); err == nil {
		return host, port
	}
	if scheme == "https" {
		return host, 443
	}
	return host, 80
}

// endRequestSpan ends the request's span once its response is committed
// or dropped. The status is the one sent with the headers (a stream's
// too); absent when nothing was sent. OK for a 2xx; ERROR with the error
// type answered (in the body or in a stream's error event), or api_error
// when the server ended the request without an error response (a dropped
// connection); unset when the client went away.
func (s *Server) endRequestSpan(r *http.Request, ex *exchange) {
	rs := reqSpan(ex)
	if rs == nil {
		return
	}
	var o spanOutcome
	status := ex.RB.StatusCode()
	switch {
	case ex.Dropped:
		o.ErrType = errAPI
	case r.Context().Err() != nil:
		o.Unset = true
	case ex.ErrType != "":
		o.ErrType = ex.ErrType
	case status >= 400:
		o.ErrType = errorTypeForStatus(status)
	}
	if rs.Msg != nil {
		rs.Msg.Finish(ex, o)
	}
	if rs.Span.IsRecording() {
		attrs := []attribute.KeyValue{attr.OrganizationID.String(s.seed.OrganizationID)}
		if ws := ex.RB.Header().Get(headerWorkspaceID); ws != "" {
			attrs = append(attrs, attr.WorkspaceID.String(ws))
		}
		if ex.RB.Committed {
			attrs = append(attrs, attr.HTTPResponseStatus.Int(status))
		}
		rs.Span.SetAttributes(attrs...)
	}
	endWith(rs.Span, o)
}

func noop() {}

// parentTurns makes the request's span the parent of the turns started
// until the returned function runs (events.send, update, and create with
// initial events parent the turns they start). Call it with
// Server.mu held and run the result before unlocking:
//
//	defer s.parentTurns(c)()
func (s *Server) parentTurns(c *call) func() {
	t := s.trace
	rs := reqSpan(c.Ex)
	if t == nil || rs == nil {
		return noop
	}
	prev := t.turnParent
	t.turnParent = rs.Span
	return func() { t.turnParent = prev }
}

// traceSessionCreated adds what vendor.sessions.create knows once the
// session exists, and parents the turn its initial events start.
func (s *Server) traceSessionCreated(c *call, x *session) func() {
	if span := recording(c); span != nil {
		span.SetAttributes(
			attr.SessionID.String(x.id),
			attr.GenAIAgentID.String(x.agent.agent.id),
			attr.GenAIAgentName.String(x.agent.name),
			attr.GenAIRequestModel.String(x.agent.model.id),
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
