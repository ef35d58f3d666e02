package pipeline

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/attr"
)

// Tracing (docs/tracing.md). Every call gets one CLIENT span that
// covers all its attempts. When nobody records, the cost is one tracer
// Start and End: attributes are built only when the span is recording, and
// a traceparent is injected only when there is a valid span context.

// tracerFor returns the SDK's tracer of tp, or of the global provider. The
// global provider's tracer follows a provider set later with
// otel.SetTracerProvider, so caching it is safe.
func tracerFor(tp trace.TracerProvider) trace.Tracer {
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	return tp.Tracer(attr.SDKScope, trace.WithInstrumentationVersion(Version))
}

// propagatorFor is cfg's propagator, else the global one unless it is the
// empty default, else W3C trace context: every request that has a trace to
// continue carries traceparent, even when the application set no
// propagator, so that the API's spans join the caller's trace.
func propagatorFor(cfg *Config) propagation.TextMapPropagator {
	if cfg.Propagator != nil {
		return cfg.Propagator
	}
	if g := otel.GetTextMapPropagator(); len(g.Fields()) > 0 {
		return g
	}
	return propagation.TraceContext{}
}

// Span is the span of one call. Resource packages add their attributes
// through it; every method is a no-op when the span is not recording, so
// callers need not check. A zero Span does nothing.
type Span struct {
	span trace.Span
	st   *spanState // nil unless recording
}

type spanState struct {
	ended atomic.Bool
	// sends counts the attempts sent, over every round of the call (the
	// resend after a 401 included), from go-retryablehttp's hook; resp is
	// the latest attempt's response, nil when it had none, written to
	// the span once the attempts are over so that only the last attempt's
	// answer is recorded. Atomic: a stream's span may be ended by Close on
	// another goroutine while a reconnection is still retrying.
	sends   atomic.Int64
	resp    atomic.Pointer[http.Response]
	content bool
	conv    string
}

// Recording reports whether attributes set on the span are kept.
func (s Span) Recording() bool { return s.st != nil }

// ContentCapture reports whether content attributes (prompts, outputs,
// tool arguments) may be recorded: content mode is on and the span records.
func (s Span) ContentCapture() bool { return s.st != nil && s.st.content }

// SetAttributes records attributes on a recording span.
func (s Span) SetAttributes(kv ...attribute.KeyValue) {
	if s.st != nil {
		s.span.SetAttributes(kv...)
	}
}

// Context returns ctx carrying the span, to parent child spans.
func (s Span) Context(ctx context.Context) context.Context {
	if s.span == nil {
		return ctx
	}
	return trace.ContextWithSpan(ctx, s.span)
}

// ConversationID is the conversation id the call's options set, or "".
func (s Span) ConversationID() string {
	if s.st == nil {
		return ""
	}
	return s.st.conv
}

// End ends the span: OK when err is nil; unset when the application ended
// the call (ctx cancelled or past its deadline); else ERROR with error.type.
// Ending twice is harmless.
func (s Span) End(ctx context.Context, err error) {
	if s.span == nil || (s.st != nil && !s.st.ended.CompareAndSwap(false, true)) {
		return
	}
	if s.st != nil {
		s.setFinal()
		switch {
		case err == nil:
			s.span.SetStatus(codes.Ok, "")
		case ctx.Err() != nil:
			// the application cancelled (perhaps with a cause, which the
			// failure then carries instead of ctx.Err): status stays unset
		default:
			s.span.SetAttributes(attr.ErrorType.String(errorType(err)))
			s.span.SetStatus(codes.Error, errorType(err))
		}
	}
	s.span.End()
}

// EndUnset ends the span with no status: a stream the application closed
// before it ended. The retries made so far are still recorded.
func (s Span) EndUnset() {
	if s.span == nil || (s.st != nil && !s.st.ended.CompareAndSwap(false, true)) {
		return
	}
	if s.st != nil {
		s.setFinal()
	}
	s.span.End()
}

// setFinal records what is known only once the call is over:
// http.request.resend_count when the call was sent more than once.
func (s Span) setFinal() {
	if n := s.st.sends.Load() - 1; n > 0 {
		s.span.SetAttributes(attr.HTTPRequestResends.Int64(n))
	}
}

// attemptsOver records the response attributes of the last attempt, once
// there will be no other: none when it got no response.
func (s Span) attemptsOver() {
	if s.st == nil {
		return
	}
	if resp := s.st.resp.Swap(nil); resp != nil {
		s.responseAttributes(resp)
	}
}

// attemptStarts counts an attempt about to be sent, which has no response yet.
func (s Span) attemptStarts() {
	if s.st != nil {
		s.st.sends.Add(1)
		s.st.resp.Store(nil)
	}
}

// setResponse keeps resp (nil: none) as the latest attempt's response.
func (s Span) setResponse(resp *http.Response) {
	if s.st != nil {
		s.st.resp.Store(resp)
	}
}

// errorType is the span's low-cardinality error.type (docs/tracing.md):
// the API's error type; for credentials that could not authorize the call,
// the error type of the token endpoint's answer, else credentials_error;
// for a response the SDK could not use or a redirect it refused, what
// happened; else what kind of transport failure it was.
func errorType(err error) string {
	var apiErr *apierror.Error
	var credErr *credentialsError
	var respErr *apierror.ResponseError
	var redirErr *apierror.RedirectError
	var netErr net.Error
	switch {
	case errors.As(err, &apiErr):
		return string(apiErr.Type)
	case errors.As(err, &credErr):
		var xe *auth.ExchangeError
		if errors.As(credErr.err, &xe) && xe.StatusCode != 0 && xe.Type != "" {
			return string(xe.Type)
		}
		return "credentials_error"
	case errors.As(err, &respErr):
		if respErr.Limit > 0 {
			return "response_too_large"
		}
		return "malformed_response"
	case errors.As(err, &redirErr):
		return "redirect_refused"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	}
	return "connection_error"
}

// clientKind is allocated once: span options are interfaces.
var clientKind = trace.WithSpanKind(trace.SpanKindClient)

// startSpan starts the CLIENT span of a call with its request attributes.
func (p *Pipeline) startSpan(ctx context.Context, cfg *Config, req *Request, rawQuery string) (context.Context, Span) {
	tracer := p.tracer
	if cfg.TracerProvider != p.cfg.TracerProvider {
		tracer = tracerFor(cfg.TracerProvider)
	}
	ctx, span := tracer.Start(ctx, spanName(req.Method, req.Route, req.Op), clientKind)
	if !span.IsRecording() {
		return ctx, Span{span: span}
	}
	s := Span{span: span, st: &spanState{content: cfg.CaptureContent, conv: cfg.ConversationID}}
	u, _ := url.Parse(cfg.BaseURL() + req.Path) // base and path were validated; a failure only loses attributes
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = append(attrs,
		attr.GenAIProviderName.String(attr.ProviderVendor),
		attr.HTTPRequestMethod.String(req.Method),
	)
	if req.Route != "" { // a raw call has no route template
		attrs = append(attrs, attr.HTTPRoute.String(req.Route))
	}
	if u != nil {
		attrs = append(attrs,
			attr.ServerAddress.String(u.Hostname()),
			attr.ServerPort.Int(port(u)),
			attr.URLScheme.String(u.Scheme),
			attr.URLPath.String(u.EscapedPath()),
		)
		full := cfg.BaseURL() + req.Path
		if rawQuery != "" {
			attrs = append(attrs, attr.URLQuery.String(rawQuery))
			full += "?" + rawQuery
		}
		attrs = append(attrs, attr.URLFull.String(full))
	}
	if cfg.WorkspaceID != "" {
		attrs = append(attrs, attr.WorkspaceID.String(cfg.WorkspaceID))
	}
	if req.SessionID != "" {
		attrs = append(attrs, attr.SessionID.String(req.SessionID))
	}
	if conv := firstNonEmpty(cfg.ConversationID, req.ThreadID); conv != "" {
		attrs = append(attrs, attr.GenAIConversationID.String(conv))
	}
	if betas := joinBetas(req.Beta, cfg.Betas); betas != "" {
		attrs = append(attrs, attr.Beta.StringSlice(strings.Split(betas, ",")))
	}
	span.SetAttributes(attrs...)
	if req.Annotate != nil {
		req.Annotate(s)
	}
	if a, ok := req.Body.(SpanAnnotator); ok {
		a.AnnotateSpan(s)
	}
	return ctx, s
}

// responseAttributes records what the last attempt's response says.
func (s Span) responseAttributes(resp *http.Response) {
	attrs := make([]attribute.KeyValue, 0, 4)
	attrs = append(attrs, attr.HTTPResponseStatus.Int(resp.StatusCode))
	if v := resp.Header.Get("request-id"); v != "" {
		attrs = append(attrs, attr.RequestID.String(v))
	}
	if v := resp.Header.Get("vendor-organization-id"); v != "" {
		attrs = append(attrs, attr.OrganizationID.String(v))
	}
	if v := resp.Header.Get("vendor-workspace-id"); v != "" {
		attrs = append(attrs, attr.WorkspaceID.String(v))
	}
	s.span.SetAttributes(attrs...)
}

// inject writes the span's trace context into the request headers when
// there is one to propagate.
func inject(ctx context.Context, cfg *Config, h http.Header) {
	if trace.SpanContextFromContext(ctx).IsValid() {
		propagatorFor(cfg).Inject(ctx, propagation.HeaderCarrier(h))
	}
}

func port(u *url.URL) int {
	if p, err := strconv.Atoi(u.Port()); err == nil {
		return p
	}
	if u.Scheme == "http" {
		return 80
	}
	return 443
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
