package pipeline

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/option"
)

// INTERNAL spans of the SDK (docs/tracing.md): the tool spans a Messages response
// implies, children of its vendor.messages.create span, and the spans of
// the client tools a tool loop runs. Like a call's span, they cost nothing
// when nobody records.

var internalKind = trace.WithSpanKind(trace.SpanKindInternal)

// StartChild starts an INTERNAL span named name as a child of s, at start
// (the zero time: now), in s's content mode. When s does not record it
// returns a zero Span, which does nothing.
func (s Span) StartChild(name string, start time.Time) Span {
	if s.st == nil {
		return Span{}
	}
	tracer := s.span.TracerProvider().Tracer(attr.SDKScope, trace.WithInstrumentationVersion(Version))
	_, span := tracer.Start(trace.ContextWithSpan(context.Background(), s.span), name, internalKind, trace.WithTimestamp(orNow(start)))
	return newInternal(span, s.st.content)
}

// StartInternal starts an INTERNAL span named name as a child of ctx's
// span, with the tracer provider and content mode of the client's options
// and opts. It returns ctx carrying the span.
func (p *Pipeline) StartInternal(ctx context.Context, name string, opts []option.Option) (context.Context, Span) {
	cfg := *p.cfg
	tracer := p.tracer
	if len(opts) > 0 {
		for _, o := range opts {
			if o != nil && o(&cfg) != nil {
				cfg = *p.cfg // the call those options came with failed the same way
				break
			}
		}
		if cfg.TracerProvider != p.cfg.TracerProvider {
			tracer = tracerFor(cfg.TracerProvider)
		}
	}
	ctx, span := tracer.Start(ctx, name, internalKind)
	return ctx, newInternal(span, cfg.CaptureContent)
}

// newInternal wraps an INTERNAL span; a recording one gets
// gen_ai.provider.name, which every span of the SDK and the API carries.
func newInternal(span trace.Span, content bool) Span {
	if !span.IsRecording() {
		return Span{span: span}
	}
	span.SetAttributes(attr.GenAIProviderName.String(attr.ProviderVendor))
	return Span{span: span, st: &spanState{content: content}}
}

// Finish ends an INTERNAL span at end (the zero time: now): OK when
// errType is "", else ERROR with error.type errType. Ending twice is
// harmless.
func (s Span) Finish(errType string, end time.Time) {
	if s.span == nil || (s.st != nil && !s.st.ended.CompareAndSwap(false, true)) {
		return
	}
	if s.st != nil {
		if errType == "" {
			s.span.SetStatus(codes.Ok, "")
		} else {
			s.span.SetAttributes(attr.ErrorType.String(errType))
			s.span.SetStatus(codes.Error, errType)
		}
	}
	s.span.End(trace.WithTimestamp(orNow(end)))
}

// EndUnsetAt ends the span with no status at end (the zero time: now): an
// outcome nobody reported.
func (s Span) EndUnsetAt(end time.Time) {
	if s.span == nil || (s.st != nil && !s.st.ended.CompareAndSwap(false, true)) {
		return
	}
	s.span.End(trace.WithTimestamp(orNow(end)))
}

func orNow(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}
