package toolrunner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// answerOnce runs a runner made from client's sessions service and opts
// on a session whose agent calls lookup_order once, with order id
// INPUT-1, until the turn ends.
func answerOnce(t *testing.T, f *fixture, client *agentplatform.Client, opts ...toolrunner.Option) {
	t.Helper()
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a, []refserver.Step{useOrder("lookup_order", "INPUT-1"), refserver.Say("Done.")})
	// The turn can end before the answer's response is back: the runner
	// is stopped only once the answer was accepted, so that its request is
	// not cut (and confirmed by another).
	accepted := make(chan struct{}, 1)
	observe := toolrunner.WithObserver(func(string, string, time.Time, time.Time) { accepted <- struct{}{} })
	r, err := toolrunner.New(client.Sessions, []tool.Tool{lookup}, append(opts, observe)...)
	require.NoError(t, err)
	defer func() { require.NoError(t, r.Close(ctx)) }()
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	f.waitTurns(t, id, 1)
	select {
	case <-accepted:
	case <-time.After(waitTimeout):
		t.Fatal("the answer was not accepted")
	}
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Equal(t, []string{"INPUT-1"}, c.orders())
}

func newRecorder(t *testing.T) (*tracetest.SpanRecorder, *sdktrace.TracerProvider) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { require.NoError(t, tp.Shutdown(ctx)) })
	return rec, tp
}

// sendsUnder counts the requests that sent an answer as children of span.
func sendsUnder(rec *tracetest.SpanRecorder, span sdktrace.ReadOnlySpan) int {
	n := 0
	for _, s := range rec.Ended() {
		if s.Name() == "vendor.sessions.events.send" && s.Parent().SpanID() == span.SpanContext().SpanID() {
			n++
		}
	}
	return n
}

// TestClientTracingSettingsApply: without options of its own, the runner
// traces with the client's tracer provider and content mode; its own
// options win.
func TestClientTracingSettingsApply(t *testing.T) {
	t.Setenv(toolrunner.EnvCaptureContent, "")

	t.Run("client's provider", func(t *testing.T) {
		f := newFixture(t)
		rec, tp := newRecorder(t)
		answerOnce(t, f, f.env.Client(t, option.WithTracerProvider(tp)))
		spans := toolSpans(rec)
		require.Len(t, spans, 1)
		require.Equal(t, "vendor.custom_tool_use lookup_order", spans[0].Name())
		require.Equal(t, 1, sendsUnder(rec, spans[0]), "the answer's request is the span's child")
		require.NotContains(t, spantest.Attrs(spans[0]), attr.GenAIToolCallArguments, "content mode is off")
	})
	t.Run("client's content mode", func(t *testing.T) {
		f := newFixture(t)
		rec, tp := newRecorder(t)
		answerOnce(t, f, f.env.Client(t, option.WithTracerProvider(tp), option.WithContentCapture(true)))
		spans := toolSpans(rec)
		require.Len(t, spans, 1)
		require.JSONEq(t, `{"order_id":"INPUT-1"}`, spantest.Attrs(spans[0])[attr.GenAIToolCallArguments].AsString())
	})
	t.Run("runner's options win", func(t *testing.T) {
		f := newFixture(t)
		clientRec, clientTP := newRecorder(t)
		runnerRec, runnerTP := newRecorder(t)
		answerOnce(t, f, f.env.Client(t, option.WithTracerProvider(clientTP), option.WithContentCapture(true)),
			toolrunner.WithTracerProvider(runnerTP), toolrunner.WithContentCapture(false))
		require.Empty(t, toolSpans(clientRec))
		spans := toolSpans(runnerRec)
		require.Len(t, spans, 1)
		require.NotContains(t, spantest.Attrs(spans[0]), attr.GenAIToolCallArguments, "the runner's content mode")
		require.Equal(t, 1, sendsUnder(clientRec, spans[0]), "the client's request span is still its child")
	})
}

// TestClientLoggerApplies: without a logger of its own, the runner logs
// through the client's, and then, as the client does, keeps tool inputs
// and results out of it outside content mode; its own logger wins.
func TestClientLoggerApplies(t *testing.T) {
	t.Setenv(toolrunner.EnvCaptureContent, "")
	hasContent := func(l *logs) bool {
		for _, r := range l.all() {
			if strings.Contains(r, "INPUT-1") {
				return true
			}
		}
		return false
	}

	t.Run("client's logger", func(t *testing.T) {
		f := newFixture(t)
		var l logs
		answerOnce(t, f, f.env.Client(t, option.WithLogger(l.logger())))
		require.True(t, l.has("DEBUG", "toolrunner: answer accepted"), "%v", l.all())
		require.False(t, hasContent(&l), "no tool input or result outside content mode: %v", l.all())
	})
	t.Run("client's logger in content mode", func(t *testing.T) {
		f := newFixture(t)
		var l logs
		answerOnce(t, f, f.env.Client(t, option.WithLogger(l.logger()), option.WithContentCapture(true)))
		require.True(t, l.has("DEBUG", "toolrunner: running tool", `input={"order_id":"INPUT-1"}`), "%v", l.all())
	})
	t.Run("runner's logger wins", func(t *testing.T) {
		f := newFixture(t)
		var clientLog, runnerLog logs
		answerOnce(t, f, f.env.Client(t, option.WithLogger(clientLog.logger())), toolrunner.WithLogger(runnerLog.logger()))
		require.True(t, runnerLog.has("DEBUG", "toolrunner: answer accepted"))
		require.True(t, runnerLog.has("DEBUG", "toolrunner: running tool", "INPUT-1"), "its own logger gets inputs at debug, as before")
		require.NotEmpty(t, clientLog.all(), "the client still logs its requests")
		require.False(t, clientLog.has("toolrunner:"), "%v", clientLog.all())
	})
}
