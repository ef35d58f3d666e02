package toolrunner_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// toolSpans returns the runner's spans, in the order they ended.
func toolSpans(rec *tracetest.SpanRecorder) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.InstrumentationScope().Name == attr.SDKScope && s.SpanKind() == trace.SpanKindInternal {
			out = append(out, s)
		}
	}
	return out
}

func TestSpans(t *testing.T) {
	for _, content := range []bool{false, true} {
		name := "content off"
		if content {
			name = "content on"
		}
		t.Run(name, func(t *testing.T) {
			// The slow call's timeout passes as it starts, and only then;
			// the others' never do, however slow the machine.
			timeouts := toolrunner.ManualToolTimeouts(t)
			f := newFixture(t)
			lookup := tool.Must(tool.New("lookup_order", "Looks up an order.", func(_ context.Context, in orderInput) (tool.Result, error) {
				if in.OrderID == "bad" {
					return tool.Result{}, errors.New("no such order")
				}
				return tool.Text("order " + in.OrderID + " shipped"), nil
			}))
			slow := tool.Must(tool.New("slow", "Never answers in time.", func(ctx context.Context, _ orderInput) (tool.Result, error) {
				if !timeouts.Expire(toolrunner.CallID(ctx)) {
					return tool.Errorf("no timeout"), nil
				}
				<-ctx.Done()
				return tool.Result{}, ctx.Err()
			}))
			a := f.agent(t, []tool.Tool{lookup, slow})
			id := f.session(t, a, []refserver.Step{
				useOrder("lookup_order", "1234"), useOrder("lookup_order", "bad"), useOrder("slow", "1"), refserver.Say("Done."),
			})
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			defer func() { require.NoError(t, tp.Shutdown(ctx)) }()
			// The client's spans go to the same provider: the answer's
			// request is a child of the tool's span.
			client := f.env.Client(t, option.WithTracerProvider(tp))
			r, err := toolrunner.New(client.Sessions, []tool.Tool{lookup, slow},
				toolrunner.WithTracerProvider(tp), toolrunner.WithContentCapture(content),
				toolrunner.WithToolTimeout(100*time.Millisecond))
			require.NoError(t, err)
			defer func() { require.NoError(t, r.Close(ctx)) }()
			rc, stop := context.WithCancel(ctx)
			defer stop()
			wait := running(t, r, rc, id)
			f.say(t, id, "Go.")
			evs := f.waitTurns(t, id, 1)
			// The turn can end before the last answer's response is back:
			// stopping the runner then would cut that request, and the
			// runner would confirm the answer with another. Stop once every
			// answer's request has ended.
			eventually(t, func() bool {
				sends := 0
				for _, s := range toolSpans(rec) {
					for _, c := range rec.Ended() {
						if c.Parent().SpanID() == s.SpanContext().SpanID() && c.Name() == "vendor.sessions.events.send" {
							sends++
						}
					}
				}
				return sends >= 3
			}, "the answers' requests to end")
			stop()
			require.ErrorIs(t, wait(), context.Canceled)

			uses := eventsOf[*sessions.AgentCustomToolUseEvent](evs)
			require.Len(t, uses, 3)
			spans := toolSpans(rec)
			require.Len(t, spans, 3)
			for i, s := range spans {
				require.Equal(t, "vendor.custom_tool_use "+uses[i].Name, s.Name())
				require.Equal(t, trace.SpanKindInternal, s.SpanKind())
				m := spantest.Attrs(s)
				require.Equal(t, "vendor", m[attr.GenAIProviderName].AsString())
				require.Equal(t, "execute_tool", m[attr.GenAIOperationName].AsString())
				require.Equal(t, uses[i].Name, m[attr.GenAIToolName].AsString())
				require.Equal(t, uses[i].ID, m[attr.GenAIToolCallID].AsString())
				require.Equal(t, "function", m[attr.GenAIToolType].AsString())
				require.Equal(t, id, m[attr.SessionID].AsString())
				_, hasArgs := m[attr.GenAIToolCallArguments]
				_, hasResult := m[attr.GenAIToolCallResult]
				require.Equal(t, content, hasArgs, "arguments only in content mode")
				require.Equal(t, content, hasResult, "result only in content mode")
			}
			require.Equal(t, codes.Ok, spans[0].Status().Code)
			require.NotContains(t, spantest.Attrs(spans[0]), attr.ErrorType)
			require.Equal(t, codes.Error, spans[1].Status().Code)
			require.Equal(t, "tool_error", spantest.Attrs(spans[1])[attr.ErrorType].AsString())
			require.Equal(t, codes.Error, spans[2].Status().Code)
			require.Equal(t, "timeout", spantest.Attrs(spans[2])[attr.ErrorType].AsString())
			if content {
				require.JSONEq(t, `{"order_id":"1234"}`, spantest.Attrs(spans[0])[attr.GenAIToolCallArguments].AsString())
				require.JSONEq(t, `[{"type":"text","content":"order 1234 shipped"}]`, spantest.Attrs(spans[0])[attr.GenAIToolCallResult].AsString())
				require.JSONEq(t, `[{"type":"text","content":"no such order"}]`, spantest.Attrs(spans[1])[attr.GenAIToolCallResult].AsString())
			}

			// Each answer's request is a child of its call's span.
			for _, s := range spans {
				var sends int
				for _, c := range rec.Ended() {
					if c.Parent().SpanID() == s.SpanContext().SpanID() && c.Name() == "vendor.sessions.events.send" {
						sends++
					}
				}
				require.Equal(t, 1, sends, "the answer of %s", s.Name())
			}
		})
	}
}

// TestInterruptedSpanIsUnset: a call closed by an interrupt ends its span
// without a status (the application cancelled it).
func TestInterruptedSpanIsUnset(t *testing.T) {
	f := newFixture(t)
	b := newBlocker()
	slow := b.tool("slow")
	a := f.agent(t, []tool.Tool{slow})
	id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("unreachable")})
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer func() { require.NoError(t, tp.Shutdown(ctx)) }()
	r := newRunner(t, f, []tool.Tool{slow}, toolrunner.WithTracerProvider(tp))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	b.waitStarted(t)
	f.send(t, id, sessions.Interrupt())
	b.waitEnded(t)
	eventually(t, func() bool { return len(toolSpans(rec)) == 1 }, "the span to end")
	require.Equal(t, codes.Unset, toolSpans(rec)[0].Status().Code)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
}
