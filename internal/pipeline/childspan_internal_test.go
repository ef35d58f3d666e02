package pipeline

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/option"
)

func recordingSpan(t *testing.T, content bool) (Span, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	_, span := tp.Tracer("test").Start(context.Background(), "parent")
	return Span{span: span, st: &spanState{content: content}}, rec
}

func TestChildSpans(t *testing.T) {
	parent, rec := recordingSpan(t, true)
	start := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	child := parent.StartChild("vendor.tool_use web_search", start)
	require.True(t, child.Recording())
	require.True(t, child.ContentCapture(), "the parent's content mode")
	child.Finish("max_uses_exceeded", start.Add(time.Second))
	child.Finish("", time.Time{}) // ending twice is harmless
	parent.End(context.Background(), nil)

	spans := rec.Ended()
	require.Len(t, spans, 2)
	c := spans[0]
	require.Equal(t, trace.SpanKindInternal, c.SpanKind())
	require.Equal(t, attr.SDKScope, c.InstrumentationScope().Name)
	require.Equal(t, parent.span.SpanContext().SpanID(), c.Parent().SpanID())
	require.Equal(t, start, c.StartTime())
	require.Equal(t, start.Add(time.Second), c.EndTime())
	require.Equal(t, codes.Error, c.Status().Code)
	a := map[string]string{}
	for _, kv := range c.Attributes() {
		a[string(kv.Key)] = kv.Value.String()
	}
	require.Equal(t, map[string]string{"gen_ai.provider.name": "vendor", "error.type": "max_uses_exceeded"}, a)

	rec.Reset()
	ok := parent.StartChild("x", time.Time{})
	ok.Finish("", time.Time{})
	unset := parent.StartChild("y", time.Time{})
	unset.EndUnsetAt(time.Time{})
	require.Equal(t, codes.Ok, rec.Ended()[0].Status().Code)
	require.Equal(t, codes.Unset, rec.Ended()[1].Status().Code)

	var zero Span
	require.False(t, zero.StartChild("z", time.Time{}).Recording(), "nothing under a span that does not record")
	_, quiet := noop.NewTracerProvider().Tracer("t").Start(context.Background(), "q")
	require.Equal(t, Span{}, Span{span: quiet}.StartChild("z", time.Time{}))
}

func TestStartInternalFollowsOptions(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	p, err := New([]option.Option{func(c *Config) error { c.TracerProvider = noop.NewTracerProvider(); return nil }})
	require.NoError(t, err)
	_, s := p.StartInternal(context.Background(), "quiet", nil)
	require.False(t, s.Recording())
	s.Finish("", time.Time{})

	ctx, s := p.StartInternal(context.Background(), "vendor.custom_tool_use t", []option.Option{
		func(c *Config) error { c.TracerProvider = tp; return nil },
		func(c *Config) error { c.CaptureContent = true; return nil },
	})
	require.True(t, s.ContentCapture())
	require.Equal(t, s.span.SpanContext(), trace.SpanContextFromContext(ctx))
	s.Finish("tool_error", time.Time{})
	require.Len(t, rec.Ended(), 1)
	require.Equal(t, trace.SpanKindInternal, rec.Ended()[0].SpanKind())
}

func TestTracedBodyEnds(t *testing.T) {
	read := func(b *TracedBody) { _, _ = io.ReadAll(b) }
	for _, tc := range []struct {
		name string
		run  func(b *TracedBody)
		want codes.Code
	}{
		{"read to EOF", read, codes.Ok},
		{"closed unread", func(*TracedBody) {}, codes.Unset},
		{"finished, rest unread", func(b *TracedBody) { b.Finish() }, codes.Ok},
		{"buffered to EOF, but left early", func(b *TracedBody) { read(b); b.Abandon() }, codes.Unset},
		{"failed", func(b *TracedBody) { read(b); b.Fail(errors.New("boom")) }, codes.Error},
		{"failed after finishing", func(b *TracedBody) { b.Finish(); b.Fail(errors.New("boom")) }, codes.Error},
	} {
		t.Run(tc.name, func(t *testing.T) {
			span, rec := recordingSpan(t, false)
			b := NewTracedBody(context.Background(), io.NopCloser(strings.NewReader("data: x\n\n")), span)
			tc.run(b)
			require.NoError(t, b.Close())
			require.Len(t, rec.Ended(), 1)
			require.Equal(t, tc.want, rec.Ended()[0].Status().Code)
		})
	}
}

// A stream whose context is cancelled just before it is closed (what
// MessageStream.Close does) has its span ended when Close returns, even
// when the context watch got to the span first and is still ending it.
func TestTracedBodyEndedWhenCloseReturns(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var ended atomic.Bool
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(blockingEnd{entered: entered, release: release, ended: &ended}))
	_, otelSpan := tp.Tracer("test").Start(context.Background(), "stream")
	ctx, cancel := context.WithCancel(context.Background())
	b := NewTracedBody(ctx, io.NopCloser(strings.NewReader("data: x\n\n")), Span{span: otelSpan, st: &spanState{}})
	cancel()
	<-entered // the context watch is ending the span
	go func() {
		// Gives a Close that does not wait the time to return first; a
		// Close that waits passes whenever this runs.
		time.Sleep(10 * time.Millisecond)
		close(release)
	}()
	require.NoError(t, b.Close())
	require.True(t, ended.Load(), "Close returned before the span had ended")
	require.NoError(t, b.Close(), "a second Close does not wait again")

	live := NewTracedBody(context.Background(), io.NopCloser(strings.NewReader("")), Span{})
	require.NoError(t, live.Close())
	require.NoError(t, live.Close(), "closing twice a body whose context never ends returns")
}

// blockingEnd holds the end of a span until release is closed.
type blockingEnd struct {
	entered, release chan struct{}
	ended            *atomic.Bool
}

func (p blockingEnd) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (p blockingEnd) OnEnd(sdktrace.ReadOnlySpan) {
	close(p.entered)
	<-p.release
	p.ended.Store(true)
}
func (p blockingEnd) Shutdown(context.Context) error   { return nil }
func (p blockingEnd) ForceFlush(context.Context) error { return nil }
