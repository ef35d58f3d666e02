package pipeline

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/tracing"
)

// Tracing (SPEC 6.3; docs/tracing.md). Every call gets one CLIENT span that
// covers all its attempts. When nobody records, the cost is one tracer
// Start and End: attributes are built only when the span is recording, and
// a traceparent is injected only when there is a valid span context.

// EnvCaptureContent turns content mode on (GenAI message content on spans).
const EnvCaptureContent = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"

func captureContentFromEnv() bool {
	v, _ := strconv.ParseBool(os.Getenv(EnvCaptureContent))
	return v
}

// tracerFor returns the SDK's tracer of tp, or of the global provider. The
// global provider's tracer follows a provider set later with
// otel.SetTracerProvider, so caching it is safe.
func tracerFor(tp trace.TracerProvider) trace.Tracer {
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	return tp.Tracer(tracing.SDKScope, trace.WithInstrumentationVersion(Version))
}

// propagatorFor is cfg's propagator, else the global one unless it is the
// empty default, else W3C trace context: SPEC 6.3 needs traceparent on our
// requests even when the application set no propagator.
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
	// attempts is the index of the last attempt, from go-retryablehttp's
	// hook. Atomic: a stream's span may be ended by Close on another
	// goroutine while a reconnection is still retrying.
	attempts atomic.Int64
	content  bool
	conv     string
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
		s.setResends()
		switch {
		case err == nil:
			s.span.SetStatus(codes.Ok, "")
		case ctx.Err() != nil:
			// the application cancelled (perhaps with a cause, which the
			// failure then carries instead of ctx.Err): status stays unset
		default:
			s.span.SetAttributes(tracing.ErrorType.String(errorType(err)))
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
		s.setResends()
	}
	s.span.End()
}

// setResends records http.request.resend_count when the call was retried.
func (s Span) setResends() {
	if n := s.st.attempts.Load(); n > 0 {
		s.span.SetAttributes(tracing.HTTPRequestResends.Int64(n))
	}
}

// errorType is the low-cardinality error.type of SPEC 6.3: the API's error
// type, or what kind of transport failure it was.
func errorType(err error) string {
	var apiErr *apierror.Error
	var netErr net.Error
	switch {
	case errors.As(err, &apiErr):
		return string(apiErr.Type)
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
	u, _ := url.Parse(cfg.baseURL + req.Path) // base and path were validated; a failure only loses attributes
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = append(attrs,
		tracing.GenAIProviderName.String(tracing.ProviderVendor),
		tracing.HTTPRequestMethod.String(req.Method),
		tracing.HTTPRoute.String(req.Route),
	)
	if u != nil {
		attrs = append(attrs,
			tracing.ServerAddress.String(u.Hostname()),
			tracing.ServerPort.Int(port(u)),
			tracing.URLScheme.String(u.Scheme),
			tracing.URLPath.String(u.EscapedPath()),
		)
		full := cfg.baseURL + req.Path
		if rawQuery != "" {
			attrs = append(attrs, tracing.URLQuery.String(rawQuery))
			full += "?" + rawQuery
		}
		attrs = append(attrs, tracing.URLFull.String(full))
	}
	if cfg.WorkspaceID != "" {
		attrs = append(attrs, tracing.WorkspaceID.String(cfg.WorkspaceID))
	}
	if req.SessionID != "" {
		attrs = append(attrs, tracing.SessionID.String(req.SessionID))
	}
	if conv := firstNonEmpty(cfg.ConversationID, req.ThreadID); conv != "" {
		attrs = append(attrs, tracing.GenAIConversationID.String(conv))
	}
	if betas := joinBetas(req.Beta, cfg.Betas); betas != "" {
		attrs = append(attrs, tracing.Beta.StringSlice(strings.Split(betas, ",")))
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

// response records what the final attempt's response says.
func (s Span) response(resp *http.Response) {
	if s.st == nil || resp == nil {
		return
	}
	attrs := []attribute.KeyValue{tracing.HTTPResponseStatus.Int(resp.StatusCode)}
	if v := resp.Header.Get("request-id"); v != "" {
		attrs = append(attrs, tracing.RequestID.String(v))
	}
	if v := resp.Header.Get("vendor-organization-id"); v != "" {
		attrs = append(attrs, tracing.OrganizationID.String(v))
	}
	if v := resp.Header.Get("vendor-workspace-id"); v != "" {
		attrs = append(attrs, tracing.WorkspaceID.String(v))
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
