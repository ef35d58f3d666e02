package spans

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Config is what a server's tracing is built from.
type Config struct {
	// Exporter receives the spans, exported synchronously: each span is
	// exported when it ends. Nil: no tracing (New returns nil).
	Exporter sdktrace.SpanExporter
	// Content turns content mode on (ContentOn).
	Content bool
	// Cloud is the cloud-hosted edition: request spans carry no
	// server.address, server.port or url.full.
	Cloud bool
	// AuthenticatedOps are the operations whose request span covers
	// authenticated requests only (vendor.messages.create).
	AuthenticatedOps []string
}

// Tracing is a server's tracer and span settings. A nil *Tracing is
// tracing off: every method then returns after one nil check.
type Tracing struct {
	tracer   trace.Tracer
	content  bool
	cloud    bool
	authOnly []string
	// turnParent is the span of the request that parents the turns started
	// now (ParentTurns), nil outside one. Guarded by the lock of the
	// server's session state, which ParentTurns' callers hold.
	turnParent trace.Span
}

// New returns the tracing of cfg, nil without an exporter. The spans have
// resource service.name=vendor-platform and instrumentation scope
// com.vendor.platform. Nothing shuts the exporter down.
func New(cfg Config) *Tracing {
	if cfg.Exporter == nil {
		return nil
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSyncer(cfg.Exporter),
		sdktrace.WithResource(sdkresource.NewWithAttributes(semconv.SchemaURL,
			semconv.ServiceNameKey.String(attr.APIServiceName))),
	)
	return &Tracing{tracer: tp.Tracer(attr.APIScope), content: cfg.Content, cloud: cfg.Cloud,
		authOnly: slices.Clone(cfg.AuthenticatedOps)}
}

// Tracer starts the server's spans; nil when tracing is off.
func (t *Tracing) Tracer() trace.Tracer {
	if t == nil {
		return nil
	}
	return t.tracer
}

// ContentOn reports content mode (docs/tracing.md, "Content mode"):
// system instructions, input and output messages on the spans that carry
// them.
func (t *Tracing) ContentOn() bool { return t != nil && t.content }

// StartRequest starts the request's SERVER span, vendor.<op>, once:
// before authentication for every traced route (authenticated false),
// after it for the operations that cover authenticated requests only. Its
// parent is the request's traceparent. A route without an operation gets
// none.
func (t *Tracing) StartRequest(c *kit.Call, rt kit.Route, authenticated bool) {
	if t == nil || rt.Op == "" || c.Ex.Span != nil || !authenticated && slices.Contains(t.authOnly, rt.Op) {
		return
	}
	c.Ex.Span = t.startRequest(c.R, rt, c.Ex)
}

func (t *Tracing) startRequest(r *http.Request, rt kit.Route, ex *kit.Exchange) *Request {
	parent := propagation.TraceContext{}.Extract(context.Background(), propagation.HeaderCarrier(r.Header))
	ctx, span := t.tracer.Start(parent, "vendor."+rt.Op,
		trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(ex.Started))
	rs := &Request{Span: span, Ctx: ctx}
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

// EndRequest ends the request's span, if it has one, once its response is
// committed or dropped; organizationID is the server's organization. The
// status is the one sent with the headers (a stream's too); absent when
// nothing was sent. OK for a 2xx; ERROR with the error type answered (in
// the body or in a stream's error event), or api_error when the server
// ended the request without an error response (a dropped connection);
// unset when the client went away. The family's own spans (Request.Msg)
// end first, with the same outcome.
func (t *Tracing) EndRequest(r *http.Request, ex *kit.Exchange, organizationID string) {
	rs := Of(ex)
	if t == nil || rs == nil {
		return
	}
	var o Outcome
	status := ex.RB.StatusCode()
	switch {
	case ex.Dropped:
		o.ErrType = kit.ErrAPI
	case r.Context().Err() != nil:
		o.Unset = true
	case ex.ErrType != "":
		o.ErrType = ex.ErrType
	case status >= 400:
		o.ErrType = kit.ErrorTypeForStatus(status)
	}
	if rs.Msg != nil {
		rs.Msg.Finish(ex, o)
	}
	if rs.Span.IsRecording() {
		attrs := []attribute.KeyValue{attr.OrganizationID.String(organizationID)}
		if ws := ex.RB.Header().Get(kit.HeaderWorkspaceID); ws != "" {
			attrs = append(attrs, attr.WorkspaceID.String(ws))
		}
		if ex.RB.Committed {
			attrs = append(attrs, attr.HTTPResponseStatus.Int(status))
		}
		rs.Span.SetAttributes(attrs...)
	}
	End(rs.Span, o)
}

func noop() {}

// ParentTurns makes the request's span the parent of the turns started
// until the returned function runs (a request that starts turns parents
// them). Call it with the session state's lock held and run the result
// before unlocking:
//
//	defer t.ParentTurns(c)()
func (t *Tracing) ParentTurns(c *kit.Call) func() {
	rs := Of(c.Ex)
	if t == nil || rs == nil {
		return noop
	}
	prev := t.turnParent
	t.turnParent = rs.Span
	return func() { t.turnParent = prev }
}

// TurnParent is the span ParentTurns set, nil outside such a request.
// Read it under the same lock.
func (t *Tracing) TurnParent() trace.Span {
	if t == nil {
		return nil
	}
	return t.turnParent
}
