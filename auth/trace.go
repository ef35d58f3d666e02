package auth

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/version"
)

// The exchanges are traced like every other API request (docs/tracing.md):
// a CLIENT span per request, named after the route, with the same
// attributes and statuses, and a traceparent on the wire. The client's
// pipeline traces the others; the exchanges do not go through it (it
// imports this package), so the exchanger records its own spans.

// Span names of the two endpoints. They follow the rule the pipeline
// applies to every route: the path without /v1/, ids dropped, slashes made
// dots, then the verb, which for a POST to a collection is create. The
// pipeline's derivation cannot be imported from here, so the names are
// spelled out; a test checks them against it.
const (
	tokenSpanName     = "vendor.oauth.token.create"
	challengeSpanName = "vendor.oauth.device_attestation.challenge.create"
)

// errTypeRedirect is the error.type of a refused redirect (redirect.go).
const errTypeRedirect = "redirect_refused"

var (
	scopeVersion = trace.WithInstrumentationVersion(version.SDK)
	clientKind   = trace.WithSpanKind(trace.SpanKindClient)
	// noSpan is what trace.SpanFromContext returns for a context that
	// carries no span. Comparing a span with it is safe: interfaces
	// holding different types are unequal, and its own type is comparable.
	noSpan = trace.SpanFromContext(context.Background())
)

func spanName(path string) string {
	if path == challengePath {
		return challengeSpanName
	}
	return tokenSpanName
}

// tracerProviderFor picks the provider of an exchange's spans: the
// configured one, else that of the span the triggering request runs in
// (the client's provider when the client traces), else the global one. A
// span context extracted from incoming headers is a remote parent with no
// provider of its own, so it falls back to the global provider too.
func tracerProviderFor(ctx context.Context, configured trace.TracerProvider) trace.TracerProvider {
	if configured != nil {
		return configured
	}
	if s := trace.SpanFromContext(ctx); s != noSpan && !s.SpanContext().IsRemote() {
		return s.TracerProvider()
	}
	return otel.GetTracerProvider()
}

// propagator is the global propagator unless it is the empty default, else
// W3C trace context: the pipeline's rule, so that the exchange carries a
// traceparent even when the application set no propagator.
func propagator() propagation.TextMapPropagator {
	if g := otel.GetTextMapPropagator(); len(g.Fields()) > 0 {
		return g
	}
	return propagation.TraceContext{}
}

// exchangeTrace is the tracing of one exchange. The exchange runs on the
// cache's goroutine under the cache's context, so the span context of the
// request that started it is carried over here, to parent its spans.
//
// Each endpoint the exchange posts to gets one span that covers every
// request sent there, the first and its resends (a retry, a new challenge
// after a refused proof), as the pipeline's span covers a call and its
// retries. Only the exchange's goroutine uses it.
type exchangeTrace struct {
	tracer trace.Tracer
	parent trace.SpanContext
	reqs   [2]tracedRequest // one per endpoint, in order of first use
	n      int
}

// tracedRequest is the span of the requests to one endpoint and what the
// last of them ended with.
type tracedRequest struct {
	path   string
	span   trace.Span
	sends  int
	status int         // of the last response; 0 when the last request got none
	header http.Header // of the last response, nil when none
	err    error       // of the last request
	ended  time.Time   // when the last request ended
}

// newExchangeTrace starts the tracing of an exchange triggered by a
// request running in ctx.
func newExchangeTrace(ctx context.Context, configured trace.TracerProvider) *exchangeTrace {
	tp := tracerProviderFor(ctx, configured)
	return &exchangeTrace{
		tracer: tp.Tracer(attr.SDKScope, scopeVersion),
		parent: trace.SpanContextFromContext(ctx),
	}
}

type exchangeTraceKey struct{}

// context returns the exchange's context: ctx with the triggering request's
// span context, which parents the spans, and the trace itself, for post.
func (t *exchangeTrace) context(ctx context.Context) context.Context {
	if t.parent.IsValid() {
		ctx = trace.ContextWithSpanContext(ctx, t.parent)
	}
	return context.WithValue(ctx, exchangeTraceKey{}, t)
}

func exchangeTraceFrom(ctx context.Context) *exchangeTrace {
	t, _ := ctx.Value(exchangeTraceKey{}).(*exchangeTrace)
	return t
}

// request returns the span for a request to path, starting it on the
// first. It is nil when ctx carries no exchange trace.
func (t *exchangeTrace) request(ctx context.Context, x *exchanger, path string) *tracedRequest {
	if t == nil {
		return nil
	}
	for i := range t.n {
		if r := &t.reqs[i]; r.path == path {
			r.sends++
			return r
		}
	}
	if t.n == len(t.reqs) {
		return nil // a third endpoint: none exists
	}
	_, span := t.tracer.Start(ctx, spanName(path), clientKind)
	if span.IsRecording() {
		span.SetAttributes(x.requestAttrs(path)...)
	}
	r := &t.reqs[t.n]
	t.n++
	*r = tracedRequest{path: path, span: span, sends: 1}
	return r
}

// context returns ctx with the request's span, for the HTTP request (an
// instrumented transport nests under it) and its traceparent.
func (r *tracedRequest) context(ctx context.Context) context.Context {
	if r == nil {
		return ctx
	}
	return trace.ContextWithSpan(ctx, r.span)
}

// inject writes the span's trace context into h when there is one.
func (r *tracedRequest) inject(ctx context.Context, h http.Header) {
	if r != nil && r.span.SpanContext().IsValid() {
		propagator().Inject(ctx, propagation.HeaderCarrier(h))
	}
}

// done records how a request ended: its response's status and header, if
// it got one, and its error.
func (r *tracedRequest) done(status int, h http.Header, err error) {
	if r == nil || !r.span.IsRecording() {
		return
	}
	r.status, r.header, r.err, r.ended = status, h, err, time.Now()
}

// end ends the exchange's spans, each with what its last request ended with.
func (t *exchangeTrace) end() {
	for i := range t.n {
		t.reqs[i].end()
	}
}

// end sets the response attributes and the status, as the pipeline does:
// OK on success; unset when Close cancelled the exchange, the counterpart
// of a call the application cancelled; else ERROR with error.type.
func (r *tracedRequest) end() {
	if !r.span.IsRecording() {
		r.span.End()
		return
	}
	attrs := make([]attribute.KeyValue, 0, 7)
	if r.sends > 1 {
		attrs = append(attrs, attr.HTTPRequestResends.Int(r.sends-1))
	}
	if r.status != 0 {
		attrs = append(attrs, attr.HTTPResponseStatus.Int(r.status))
	}
	for _, h := range [...]struct {
		name string
		key  attribute.Key
	}{
		{"request-id", attr.RequestID},
		{"vendor-organization-id", attr.OrganizationID},
		{"vendor-workspace-id", attr.WorkspaceID},
	} {
		if v := r.header.Get(h.name); v != "" {
			attrs = append(attrs, h.key.String(v))
		}
	}
	switch {
	case r.err == nil:
		r.span.SetStatus(codes.Ok, "")
	case errors.Is(r.err, context.Canceled):
		// Close cancelled the exchange: no status, as for a call the
		// application cancelled.
	default:
		et := errorType(r.err)
		attrs = append(attrs, attr.ErrorType.String(et))
		r.span.SetStatus(codes.Error, et)
	}
	r.span.SetAttributes(attrs...)
	r.span.End(trace.WithTimestamp(r.ended))
}

// errorType is the low-cardinality error.type of a failed request: the
// error type the server answered, a refused redirect, timeout for a
// request that ran out of time, else connection_error. A status without an
// error type (a proxy's page with an unusual status) is named by its
// number, as the HTTP conventions do.
func errorType(err error) string {
	var xe *ExchangeError
	var netErr net.Error
	switch {
	case errors.As(err, &xe) && xe.redirected:
		return errTypeRedirect
	case xe != nil && xe.Type != "":
		return string(xe.Type)
	case xe != nil && xe.StatusCode != 0:
		return strconv.Itoa(xe.StatusCode)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	}
	return "connection_error"
}

// requestAttrs are the request attributes of a span for path. The base URL
// has no user info, query or fragment (endpointBase), so url.full holds no
// credential.
func (x *exchanger) requestAttrs(path string) []attribute.KeyValue {
	return []attribute.KeyValue{
		attr.GenAIProviderName.String(attr.ProviderVendor),
		attr.HTTPRequestMethod.String(http.MethodPost),
		attr.HTTPRoute.String(path),
		attr.ServerAddress.String(x.host),
		attr.ServerPort.Int(x.port),
		attr.URLScheme.String(x.scheme),
		attr.URLPath.String(x.basePath + path),
		attr.URLFull.String(x.base + path),
	}
}
