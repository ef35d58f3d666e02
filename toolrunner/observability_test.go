package toolrunner_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// syncBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLogsHoldNoContentAboveDebug: tool inputs and results reach the log
// only at debug level, whatever happens to the call.
func TestLogsHoldNoContentAboveDebug(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		t.Run(level.String(), func(t *testing.T) {
			f := newFixture(t)
			b := newBlocker()
			b.result = func() tool.Result { return tool.Text("RESULT-card-4242") }
			secret := tool.Must(tool.New("secret", "Handles secrets.", func(_ context.Context, in orderInput) (tool.Result, error) {
				return tool.Errorf("RESULT-failed-for-%s", in.OrderID), nil
			}))
			slow := b.tool("slow")
			a := f.agent(t, []tool.Tool{secret, slow})
			id := f.session(t, a,
				[]refserver.Step{useOrder("secret", "INPUT-pin-1234"), refserver.Say("Done.")},
				[]refserver.Step{useOrder("slow", "INPUT-pin-5678"), refserver.Say("unreachable")})
			var buf syncBuffer
			logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level}))
			r := newRunner(t, f, []tool.Tool{secret, slow}, toolrunner.WithLogger(logger))
			rc, stop := context.WithCancel(ctx)
			defer stop()
			wait := running(t, r, rc, id)
			f.say(t, id, "One.")
			f.waitTurns(t, id, 1)
			// An interrupted call whose late result is refused (409).
			f.say(t, id, "Two.")
			b.waitStarted(t)
			f.send(t, id, sessions.Interrupt())
			close(b.release)
			b.waitEnded(t)
			eventually(t, func() bool { return strings.Contains(buf.String(), "no longer pending") }, "the 409 to be logged")
			stop()
			require.ErrorIs(t, wait(), context.Canceled)

			out := buf.String()
			hasContent := strings.Contains(out, "INPUT-") || strings.Contains(out, "RESULT-")
			require.Equal(t, level == slog.LevelDebug, hasContent, out)
		})
	}
}

// TestContentModeFromTheEnvironment: without WithContentCapture, the
// environment decides.
func TestContentModeFromTheEnvironment(t *testing.T) {
	t.Setenv(toolrunner.EnvCaptureContent, "true")
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a, []refserver.Step{useOrder("lookup_order", "1"), refserver.Say("Done.")})
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer func() { require.NoError(t, tp.Shutdown(ctx)) }()
	r := newRunner(t, f, []tool.Tool{lookup}, toolrunner.WithTracerProvider(tp))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	spans := toolSpans(rec)
	require.Len(t, spans, 1)
	require.JSONEq(t, `{"order_id":"1"}`, spantest.Attrs(spans[0])[attr.GenAIToolCallArguments].AsString())
}

// TestSpansGoToTheGlobalProviderByDefault.
func TestSpansGoToTheGlobalProviderByDefault(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	defer func() {
		otel.SetTracerProvider(prev)
		require.NoError(t, tp.Shutdown(ctx))
	}()
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a, []refserver.Step{useOrder("lookup_order", "1"), refserver.Say("Done.")})
	r := newRunner(t, f, []tool.Tool{lookup})
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	spans := toolSpans(rec)
	require.Len(t, spans, 1)
	require.Equal(t, "vendor.custom_tool_use lookup_order", spans[0].Name())
	require.Equal(t, attr.SDKScope, spans[0].InstrumentationScope().Name)
	_, content := spantest.Attrs(spans[0])[attr.GenAIToolCallArguments]
	require.False(t, content, "content mode is off by default")
}

// TestLongDenyMessagesAreCut: a deny message is cut to the API's limit
// rather than refused.
func TestLongDenyMessagesAreCut(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, nil, askingToolset)
	id := f.session(t, a, []refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls"}), refserver.Say("Done.")})
	r := newRunner(t, f, nil, toolrunner.WithConfirm(func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision {
		return toolrunner.Deny(strings.Repeat("é", 10001))
	}))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	confs := eventsOf[*sessions.ToolConfirmationEvent](evs)
	require.Len(t, confs, 1)
	require.Equal(t, strings.Repeat("é", 10000), confs[0].DenyMessage)
}
