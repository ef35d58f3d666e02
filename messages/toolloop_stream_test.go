package messages_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.uber.org/goleak"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/leaktest"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tool"
)

// describe names a tool stream event in a line, for comparing orders.
func describe(ev messages.ToolStreamEvent) string {
	switch {
	case ev.ToolUse != nil:
		return fmt.Sprintf("%d tool_use %s", ev.Iteration, ev.ToolUse.Name)
	case ev.Message != nil:
		return fmt.Sprintf("%d message %s", ev.Iteration, ev.Message.StopReason)
	case ev.Result != nil:
		return fmt.Sprintf("%d result error=%v", ev.Iteration, ev.Result.IsError)
	}
	switch e := ev.Event.(type) {
	case messages.ContentBlockDeltaEvent:
		if d, ok := e.Delta.(messages.TextDelta); ok {
			return fmt.Sprintf("%d text %q", ev.Iteration, d.Text)
		}
		return fmt.Sprintf("%d delta", ev.Iteration)
	case messages.MessageStopEvent:
		return fmt.Sprintf("%d message_stop", ev.Iteration)
	}
	return fmt.Sprintf("%d %T", ev.Iteration, ev.Event)
}

// drain ranges over the stream and returns the events, described, and the
// range's error.
func drain(ts *messages.ToolStream) ([]string, error) {
	var seen []string
	for ev, err := range ts.Events() {
		if err != nil {
			return seen, err
		}
		seen = append(seen, describe(ev))
	}
	return seen, nil
}

// waitTool is a tool that reports when it starts and waits for its
// context to end; stopped is closed once it returned.
type waitTool struct {
	tool.Tool
	started, stopped chan struct{}
	sawCancel        atomic.Bool
}

// drainStarted is drain whose range waits, at each tool call, until w
// started: the stream goes on only then (the minute turns a tool that is
// never started into a failure rather than a hang).
func drainStarted(t *testing.T, ts *messages.ToolStream, w *waitTool) ([]string, error) {
	var seen []string
	for ev, err := range ts.Events() {
		if err != nil {
			return seen, err
		}
		seen = append(seen, describe(ev))
		if ev.ToolUse != nil {
			select {
			case <-w.started:
			case <-time.After(time.Minute):
				t.Fatal("the tool did not start when its block completed")
			}
		}
	}
	return seen, nil
}

func newWaitTool(name string) *waitTool {
	w := &waitTool{started: make(chan struct{}), stopped: make(chan struct{})}
	w.Tool = tool.Must(tool.New(name, "Waits for its context.", func(ctx context.Context, _ weatherInput) (tool.Result, error) {
		defer close(w.stopped)
		close(w.started)
		<-ctx.Done()
		w.sawCancel.Store(true)
		return tool.Result{}, ctx.Err()
	}))
	return w
}

// TestStreamToolsAnswers: the events of both turns in order, the tool's
// call as its block completes, and the same conversation as RunTools.
func TestStreamToolsAnswers(t *testing.T) {
	_, client := newEnv(t)
	p := prompt(`What is the weather in Paris? Use get_weather {"location": "Paris"}`)
	ts := client.Messages.StreamTools(ctx, p, []tool.Tool{weather}, messages.ToolLoop{})
	defer ts.Close()
	seen, err := drain(ts)
	require.NoError(t, err)
	require.Equal(t, []string{
		"1 messages.MessageStartEvent", "1 messages.ContentBlockStartEvent",
		`1 text "I'll"`, `1 text " use"`, `1 text " get_weather."`,
		"1 messages.ContentBlockStopEvent", "1 messages.ContentBlockStartEvent",
		"1 delta", "1 delta", "1 delta",
		"1 messages.ContentBlockStopEvent", "1 tool_use get_weather",
		"1 messages.MessageDeltaEvent", "1 message_stop", "1 message tool_use",
		"1 result error=false",
		"2 messages.MessageStartEvent", "2 messages.ContentBlockStartEvent",
		`2 text "Result"`, `2 text " of"`, `2 text " get_weather:"`, `2 text " 15"`, `2 text " degrees,"`,
		`2 text " sunny"`, `2 text " in"`, `2 text " Paris"`,
		"2 messages.ContentBlockStopEvent", "2 messages.MessageDeltaEvent", "2 message_stop", "2 message end_turn",
	}, seen)
	res, err := ts.Result()
	require.NoError(t, err)
	require.Equal(t, 2, res.Iterations)
	require.Equal(t, "Result of get_weather: 15 degrees, sunny in Paris", res.Message.Text())

	want, err := client.Messages.RunTools(ctx, p, []tool.Tool{weather}, messages.ToolLoop{})
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(want.Messages, res.Messages, sameMessage), "the conversation RunTools has")
	require.Len(t, p.Tools, 0, "the caller's params are not changed")

	_, err = drain(ts)
	require.ErrorContains(t, err, "already read")
}

// TestStreamToolsResultRunsTheLoop: Result without a range runs the loop.
func TestStreamToolsResultRunsTheLoop(t *testing.T) {
	_, client := newEnv(t)
	res, err := client.Messages.StreamTools(ctx, prompt(`Use get_weather {"location": "Oslo"}`), []tool.Tool{weather}, messages.ToolLoop{}).Result()
	require.NoError(t, err)
	require.Equal(t, "Result of get_weather: 15 degrees, sunny in Oslo", res.Message.Text())

	_, err = client.Messages.StreamTools(ctx, prompt("Hi"), []tool.Tool{weather, weather}, messages.ToolLoop{}).Result()
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.ErrorContains(t, err, `tool names must be unique: "get_weather" is repeated`)
}

// TestStreamToolsStartsAToolBeforeTheMessageEnds: the range's body waits,
// on the tool call's event, for the tool to start. The rest of the message
// is read only once the body returns, so a loop that started tools only
// after the message ended would never start it (the minute turns that
// into a failure rather than a hang).
func TestStreamToolsStartsAToolBeforeTheMessageEnds(t *testing.T) {
	_, client := newEnv(t)
	started := make(chan struct{})
	early := tool.Must(tool.New("get_weather", "Get the current weather.", func(_ context.Context, in weatherInput) (tool.Result, error) {
		close(started)
		return tool.Text("rain in " + in.Location), nil
	}))
	ts := client.Messages.StreamTools(ctx, prompt(`Use get_weather {"location": "Lima"}`), []tool.Tool{early}, messages.ToolLoop{})
	defer ts.Close()
	for ev, err := range ts.Events() {
		require.NoError(t, err)
		if ev.ToolUse != nil {
			select {
			case <-started:
			case <-time.After(time.Minute):
				t.Fatal("the tool did not start when its block completed")
			}
		}
	}
	res, err := ts.Result()
	require.NoError(t, err)
	require.Equal(t, "Result of get_weather: rain in Lima", res.Message.Text())
}

// TestStreamToolsRunsATurnsCallsInParallel: as for RunTools, two tools
// that can only finish together, and MaxParallel 1 runs them one at a
// time, in the order of the calls.
func TestStreamToolsRunsATurnsCallsInParallel(t *testing.T) {
	_, client := newEnv(t)
	meet := func(wait time.Duration) []tool.Tool {
		a, b := make(chan struct{}), make(chan struct{})
		mk := func(name string, mine, theirs chan struct{}) tool.Tool {
			return tool.Must(tool.New(name, "Meets the other one.", func(ctx context.Context, _ struct{}) (tool.Result, error) {
				close(mine)
				select {
				case <-theirs:
					return tool.Text("met"), nil
				case <-time.After(wait):
					return tool.Result{}, errors.New("alone")
				}
			}))
		}
		return []tool.Tool{mk("ping_a", a, b), mk("ping_b", b, a)}
	}
	res, err := client.Messages.StreamTools(ctx, prompt("Use ping_a and ping_b"), meet(time.Minute), messages.ToolLoop{}).Result()
	require.NoError(t, err)
	require.Equal(t, "Result of ping_a: met\nResult of ping_b: met", res.Message.Text())

	res, err = client.Messages.StreamTools(ctx, prompt("Use ping_a and ping_b"), meet(100*time.Millisecond), messages.ToolLoop{MaxParallel: 1}).Result()
	require.NoError(t, err)
	results := toolResults(res.Messages)
	require.Len(t, results, 2)
	require.True(t, results[0].IsError)
	require.Equal(t, "alone", resultText(results[0]))
	require.False(t, results[1].IsError, "the second ran after the first")
}

// TestStreamToolsTurnsFailuresIntoErrorResults: an error, a panic (its
// stack only in the log) and a tool not in the loop are error results,
// yielded in the order of the calls, each in its span.
func TestStreamToolsTurnsFailuresIntoErrorResults(t *testing.T) {
	_, client, rec := tracedEnv(t)
	fail := tool.Must(tool.New("fail", "Fails.", func(context.Context, struct{}) (tool.Result, error) {
		return tool.Result{}, errors.New("disk full")
	}))
	crash := tool.Must(tool.New("crash", "Panics.", func(context.Context, struct{}) (tool.Result, error) {
		panic("oh no")
	}))
	p := prompt(`Use fail, crash and ghost`)
	p.Tools = []messages.Tool{messages.CustomTool{Name: "ghost", Description: "Never implemented.", InputSchema: []byte(`{"type":"object"}`)}}
	var log lockedBuffer
	ts := client.Messages.StreamTools(ctx, p, []tool.Tool{fail, crash}, messages.ToolLoop{},
		option.WithLogger(newErrorLogger(&log)))
	var results []string
	for ev, err := range ts.Events() {
		require.NoError(t, err)
		if ev.Result != nil {
			require.True(t, ev.Result.IsError)
			results = append(results, resultText(*ev.Result))
		}
	}
	require.Len(t, results, 3)
	require.Equal(t, "disk full", results[0])
	require.Equal(t, "tool crash panicked: oh no", results[1])
	require.Contains(t, results[2], `tool "ghost" does not exist; the available tools are: crash, fail`)
	require.Contains(t, log.String(), "toolloop_stream_test.go", "the stack goes to the log")
	res, err := ts.Result()
	require.NoError(t, err)
	require.Contains(t, res.Message.Text(), "Error from fail: disk full")

	for _, name := range []string{"fail", "crash"} {
		span := spantest.One(t, rec, "vendor.custom_tool_use "+name)
		require.Equal(t, codes.Error, span.Status().Code)
		requireString(t, spantest.Attrs(span), "error.type", "tool_error")
	}
	require.Empty(t, spantest.Named(rec, "vendor.custom_tool_use ghost"), "no tool ran")
	require.Len(t, spantest.Named(rec, "vendor.messages.create"), 2, "a span per streamed call")
}

// TestStreamToolsStopsAtMaxIterations: the last turn's tools still run and
// their results are yielded; the range ends with ErrMaxIterations.
func TestStreamToolsStopsAtMaxIterations(t *testing.T) {
	_, client := newEnv(t)
	ts := client.Messages.StreamTools(ctx, prompt(`Use get_weather {"location": "Paris"}`), []tool.Tool{weather}, messages.ToolLoop{MaxIterations: 1})
	seen, err := drain(ts)
	require.ErrorIs(t, err, messages.ErrMaxIterations)
	require.Equal(t, "1 result error=false", seen[len(seen)-1])
	res, rerr := ts.Result()
	require.Equal(t, err, rerr)
	require.Equal(t, 1, res.Iterations)
	require.Len(t, res.Messages, 3)
	require.Len(t, toolResults(res.Messages), 1)
}

// TestStreamToolsCancelledMidTool: the range ends with the context's error
// promptly, the tool sees its context cancelled, and a tool that ignores
// it does not hold the loop up.
func TestStreamToolsCancelledMidTool(t *testing.T) {
	_, client := newEnv(t)
	wait := newWaitTool("wait")
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ts := client.Messages.StreamTools(cctx, prompt("Use wait"), []tool.Tool{wait.Tool}, messages.ToolLoop{})
	var err error
	for ev, e := range ts.Events() {
		if e != nil {
			err = e
			break
		}
		if ev.Message != nil { // the message has ended; its tool runs
			<-wait.started
			cancel()
		}
	}
	require.ErrorIs(t, err, context.Canceled)
	<-wait.stopped
	require.True(t, wait.sawCancel.Load())
	res, rerr := ts.Result()
	require.ErrorIs(t, rerr, context.Canceled)
	require.Equal(t, 1, res.Iterations, "the message had ended; its tool was running")

	release := make(chan struct{})
	running := make(chan struct{})
	stubborn := tool.Must(tool.New("stubborn", "Ignores cancellation.", func(context.Context, struct{}) (tool.Result, error) {
		close(running)
		<-release
		return tool.Text("late"), nil
	}))
	dctx, expire := reftest.Expiring(ctx)
	defer expire()
	reftest.When(t, running, func() error { expire(); return nil })
	returned := make(chan error, 1)
	go func() {
		_, err := drain(client.Messages.StreamTools(dctx, prompt("Use stubborn"), []tool.Tool{stubborn}, messages.ToolLoop{}))
		returned <- err
	}()
	select {
	case err = <-returned:
		require.ErrorIs(t, err, context.DeadlineExceeded)
		close(release)
	case <-time.After(time.Minute):
		close(release)
		t.Fatal("the loop waited for a tool that ignores its context")
	}
}

// TestStreamToolsEarlyBreakStopsEverything: leaving the range at any point
// (a text delta, a running tool's call, between turns) cancels the tools,
// releases the connection and leaves no goroutine behind; Result reports
// ErrIncomplete.
func TestStreamToolsEarlyBreakStopsEverything(t *testing.T) {
	base := goleak.IgnoreCurrent()
	t.Cleanup(func() { leaktest.VerifyNone(t, base) }) // after the server's own cleanup
	conns := new(reftest.OpenConns)
	env := reftest.New(t)
	client := env.Client(t, option.WithHTTPClient(conns.Client()))
	for _, at := range []struct {
		name string
		stop func(ev messages.ToolStreamEvent) bool
	}{
		{"text", func(ev messages.ToolStreamEvent) bool { _, ok := ev.Event.(messages.ContentBlockDeltaEvent); return ok }},
		{"tool running", func(ev messages.ToolStreamEvent) bool { return ev.ToolUse != nil }},
		{"message", func(ev messages.ToolStreamEvent) bool { return ev.Message != nil }},
	} {
		t.Run(at.name, func(t *testing.T) {
			wait := newWaitTool("wait")
			ts := client.Messages.StreamTools(ctx, prompt("Use wait"), []tool.Tool{wait.Tool}, messages.ToolLoop{})
			defer ts.Close()
			for ev, err := range ts.Events() {
				require.NoError(t, err)
				if at.stop(ev) {
					break
				}
			}
			select {
			case <-wait.started:
				<-wait.stopped
				require.True(t, wait.sawCancel.Load(), "the running tool was cancelled")
			default:
			}
			_, err := ts.Result()
			require.ErrorIs(t, err, messages.ErrIncomplete)
			require.Eventually(t, func() bool { return conns.Open() == 0 }, time.Minute, time.Millisecond, "the connection is released")
		})
	}
}

// TestStreamToolsClose: Close from another goroutine, while a tool runs,
// ends the range quietly and cancels the tool; Close before the range
// means nothing is sent.
func TestStreamToolsClose(t *testing.T) {
	env, client := newEnv(t)
	wait := newWaitTool("wait")
	ts := client.Messages.StreamTools(ctx, prompt("Use wait"), []tool.Tool{wait.Tool}, messages.ToolLoop{})
	reftest.When(t, wait.started, ts.Close)
	_, err := drain(ts)
	require.NoError(t, err)
	<-wait.stopped
	require.True(t, wait.sawCancel.Load())
	_, err = ts.Result()
	require.ErrorIs(t, err, messages.ErrIncomplete)
	require.NoError(t, ts.Close(), "twice is harmless")

	env.Server.ResetRequests()
	ts = client.Messages.StreamTools(ctx, prompt("Use wait"), []tool.Tool{wait.Tool}, messages.ToolLoop{})
	require.NoError(t, ts.Close())
	seen, err := drain(ts)
	require.NoError(t, err)
	require.Empty(t, seen)
	require.Empty(t, env.Server.Requests(), "nothing is sent")
}

// TestStreamToolsAPIErrorMidStream: an error event after the tool's block
// completed ends the range with the *apierror.Error and cancels the tool
// it started.
func TestStreamToolsAPIErrorMidStream(t *testing.T) {
	_, client := newEnv(t)
	wait := newWaitTool("wait")
	// 11 events: the text block, then the tool call's block to its stop.
	ts := client.Messages.StreamTools(ctx, prompt(`Use wait {"location": "Paris"} [[refserver:error api_error after=11]]`), []tool.Tool{wait.Tool}, messages.ToolLoop{})
	seen, err := drainStarted(t, ts, wait)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
	require.Contains(t, seen, "1 tool_use wait")
	<-wait.stopped
	require.True(t, wait.sawCancel.Load(), "the started tool is cancelled")
	res, rerr := ts.Result()
	require.Equal(t, err, rerr)
	require.Zero(t, res.Iterations)
	require.Len(t, res.Messages, 1, "no partial message in the conversation")
}

// TestStreamToolsMessageThatDoesNotStopForTools: a tool started on its
// block is cancelled when the message ends for another reason, and no
// result is sent.
func TestStreamToolsMessageThatDoesNotStopForTools(t *testing.T) {
	env, client := newEnv(t)
	wait := newWaitTool("wait")
	ts := client.Messages.StreamTools(ctx, prompt("Use wait [[refserver:stop_reason max_tokens]]"), []tool.Tool{wait.Tool}, messages.ToolLoop{})
	seen, err := drainStarted(t, ts, wait)
	require.NoError(t, err)
	require.Equal(t, "1 message max_tokens", seen[len(seen)-1], "no result")
	res, err := ts.Result()
	require.NoError(t, err)
	<-wait.stopped
	require.True(t, wait.sawCancel.Load())
	require.Equal(t, messages.StopMaxTokens, res.Message.StopReason)
	require.Equal(t, 1, res.Iterations)
	require.Empty(t, toolResults(res.Messages))
	require.Len(t, env.Server.Requests(), 1)
}

// newErrorLogger logs errors, as text, to buf.
func newErrorLogger(buf *lockedBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelError}))
}
