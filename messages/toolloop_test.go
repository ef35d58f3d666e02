package messages_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tool"
)

type weatherInput struct {
	Location string `json:"location"`
}

var weather = tool.Must(tool.New("get_weather", "Get the current weather.",
	func(_ context.Context, in weatherInput) (tool.Result, error) {
		return tool.Text("15 degrees, sunny in " + in.Location), nil
	}))

// toolResults returns the tool_result blocks of the conversation.
func toolResults(conv []messages.MessageParam) []messages.ToolResultBlock {
	var out []messages.ToolResultBlock
	for _, m := range conv {
		if blocks, ok := m.Content.(messages.Blocks); ok && m.Role == messages.RoleUser {
			for _, b := range blocks {
				if r, ok := b.(messages.ToolResultBlock); ok {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

func resultText(r messages.ToolResultBlock) string {
	var b strings.Builder
	for _, c := range r.Content.(messages.Blocks) {
		b.WriteString(c.(messages.TextBlock).Text)
	}
	return b.String()
}

func TestRunToolsAnswers(t *testing.T) {
	env, client := newEnv(t)
	res, err := client.Messages.RunTools(ctx, prompt(`What is the weather in Paris? Use get_weather {"location": "Paris"}`),
		[]tool.Tool{weather}, messages.ToolLoop{})
	require.NoError(t, err)
	require.Equal(t, 2, res.Iterations)
	require.Equal(t, "Result of get_weather: 15 degrees, sunny in Paris", res.Message.Text())
	require.Equal(t, messages.StopEndTurn, res.Message.StopReason)
	require.Len(t, res.Messages, 4, "user, the call, its result, the answer")
	require.Equal(t, res.Message.Param(), res.Messages[3])
	results := toolResults(res.Messages)
	require.Len(t, results, 1)
	require.False(t, results[0].IsError)
	require.Equal(t, res.Messages[1].Content.(messages.Blocks)[1].(messages.ToolUseBlock).ID, results[0].ToolUseID)
	var first map[string]any
	require.NoError(t, json.Unmarshal(env.Server.Requests()[0].Body, &first))
	require.Equal(t, "get_weather", first["tools"].([]any)[0].(map[string]any)["name"], "the tool's definition is sent")
}

// TestRunToolsRunsATurnsCallsInParallel: two tools that can only finish
// when both run at once, each waiting for the other. In parallel they wait
// for each other as long as it takes (the minute only turns a loop that
// does not run them together into a failure rather than a hang); one at a
// time, the first can never meet the second and gives up.
func TestRunToolsRunsATurnsCallsInParallel(t *testing.T) {
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
	res, err := client.Messages.RunTools(ctx, prompt("Use ping_a and ping_b"), meet(time.Minute), messages.ToolLoop{})
	require.NoError(t, err)
	results := toolResults(res.Messages)
	require.Len(t, results, 2)
	for _, r := range results {
		require.False(t, r.IsError)
		require.Equal(t, "met", resultText(r))
	}
	require.Equal(t, "Result of ping_a: met\nResult of ping_b: met", res.Message.Text())

	// MaxParallel bounds it: one at a time, the first waits alone.
	res, err = client.Messages.RunTools(ctx, prompt("Use ping_a and ping_b"), meet(100*time.Millisecond), messages.ToolLoop{MaxParallel: 1})
	require.NoError(t, err)
	results = toolResults(res.Messages)
	require.True(t, results[0].IsError)
	require.Equal(t, "alone", resultText(results[0]))
}

func TestRunToolsTurnsFailuresIntoErrorResults(t *testing.T) {
	_, client := newEnv(t)
	fail := tool.Must(tool.New("fail", "Fails.", func(context.Context, struct{}) (tool.Result, error) {
		return tool.Result{}, errors.New("disk full")
	}))
	crash := tool.Must(tool.New("crash", "Panics.", func(context.Context, struct{}) (tool.Result, error) {
		panic("oh no")
	}))
	p := prompt(`Use fail, crash, get_weather {"location": 7} and ghost`)
	p.Tools = []messages.Tool{messages.CustomTool{Name: "ghost", Description: "Declared, never implemented.", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	res, err := client.Messages.RunTools(ctx, p, []tool.Tool{fail, crash, weather}, messages.ToolLoop{})
	require.NoError(t, err)
	results := toolResults(res.Messages)
	require.Len(t, results, 4)
	for _, r := range results {
		require.True(t, r.IsError, resultText(r))
	}
	require.Equal(t, "disk full", resultText(results[0]))
	require.Contains(t, resultText(results[1]), "tool crash panicked: oh no")
	require.Contains(t, resultText(results[2]), "input does not match the schema")
	require.Contains(t, resultText(results[3]), `tool "ghost" does not exist; the available tools are: crash, fail, get_weather`)
	require.Contains(t, res.Message.Text(), "Error from fail: disk full")
	require.Contains(t, res.Message.Text(), `Error from ghost: tool "ghost" does not exist`)
}

// lockedBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunToolsPanicStackGoesToTheLog: the model reads which tool panicked
// and the panic's value; the stack, with source paths, goes only to the
// client's logger, and a call's own logger option wins.
func TestRunToolsPanicStackGoesToTheLog(t *testing.T) {
	crash := tool.Must(tool.New("crash", "Panics.", func(context.Context, struct{}) (tool.Result, error) {
		panic("oh no")
	}))
	newLogger := func(buf *lockedBuffer) *slog.Logger {
		return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelError}))
	}
	var clientLog, callLog lockedBuffer
	env, _ := newEnv(t)
	client := env.Client(t, option.WithLogger(newLogger(&clientLog)))

	check := func(buf *lockedBuffer, opts ...option.Option) {
		t.Helper()
		res, err := client.Messages.RunTools(ctx, prompt("Use crash"), []tool.Tool{crash}, messages.ToolLoop{}, opts...)
		require.NoError(t, err)
		results := toolResults(res.Messages)
		require.Len(t, results, 1)
		require.True(t, results[0].IsError)
		require.Equal(t, "tool crash panicked: oh no", resultText(results[0]), "no stack for the model")
		var body map[string]any
		require.NoError(t, json.Unmarshal(env.Server.Requests()[len(env.Server.Requests())-1].Body, &body))
		sent, err := json.Marshal(body["messages"])
		require.NoError(t, err)
		require.NotContains(t, string(sent), "goroutine ", "no stack sent to the API")
		require.NotContains(t, string(sent), ".go:")

		out := buf.String()
		require.Contains(t, out, "level=ERROR")
		require.Contains(t, out, "tool=crash")
		require.Contains(t, out, "panic=\"oh no\"")
		require.Contains(t, out, "goroutine ")
		require.Contains(t, out, "toolloop_test.go", "the stack points at the panic")
	}
	check(&clientLog)
	check(&callLog, option.WithLogger(newLogger(&callLog)))
	require.Equal(t, 1, strings.Count(clientLog.String(), "tool panicked"), "the call's logger got the second panic")
}

// TestRunToolsStopsAtMaxIterations: the last turn's tools still run, so
// that the conversation can go on from where it stopped.
func TestRunToolsStopsAtMaxIterations(t *testing.T) {
	_, client := newEnv(t)
	p := prompt(`Use get_weather {"location": "Paris"}`)
	res, err := client.Messages.RunTools(ctx, p, []tool.Tool{weather}, messages.ToolLoop{MaxIterations: 1})
	require.ErrorIs(t, err, messages.ErrMaxIterations)
	require.Equal(t, 1, res.Iterations)
	require.Equal(t, messages.StopToolUse, res.Message.StopReason)
	require.Len(t, res.Messages, 3)
	require.Len(t, toolResults(res.Messages), 1)

	p.Messages = res.Messages
	res, err = client.Messages.RunTools(ctx, p, []tool.Tool{weather}, messages.ToolLoop{MaxIterations: 1})
	require.NoError(t, err)
	require.Equal(t, "Result of get_weather: 15 degrees, sunny in Paris", res.Message.Text())
}

// TestRunToolsCancelledMidTool: RunTools returns the context's error
// promptly, and the running tool sees its context cancelled.
func TestRunToolsCancelledMidTool(t *testing.T) {
	_, client := newEnv(t)
	started := make(chan struct{})
	var sawCancel atomic.Bool
	stopped := make(chan struct{})
	wait := tool.Must(tool.New("wait", "Waits.", func(ctx context.Context, _ struct{}) (tool.Result, error) {
		defer close(stopped)
		close(started)
		<-ctx.Done()
		sawCancel.Store(true)
		return tool.Result{}, ctx.Err()
	}))
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		<-started
		cancel()
	}()
	res, err := client.Messages.RunTools(cctx, prompt("Use wait"), []tool.Tool{wait}, messages.ToolLoop{})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, 1, res.Iterations)
	<-stopped
	require.True(t, sawCancel.Load())

	// Cancelled before: the first call fails at once.
	_, err = client.Messages.RunTools(cctx, prompt("Use wait"), []tool.Tool{wait}, messages.ToolLoop{})
	require.ErrorIs(t, err, context.Canceled)

	// A tool that ignores its context does not hold RunTools up: the
	// deadline passes (reftest.Expiring) once the tool runs, and RunTools
	// returns while the tool is still blocked. The minute only turns a
	// RunTools that waits for the tool into a failure rather than a hang.
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
		_, err := client.Messages.RunTools(dctx, prompt("Use stubborn"), []tool.Tool{stubborn}, messages.ToolLoop{})
		returned <- err
	}()
	select {
	case err = <-returned:
		require.ErrorIs(t, err, context.DeadlineExceeded)
		close(release)
	case <-time.After(time.Minute):
		close(release)
		t.Fatal("RunTools waited for a tool that ignores its context")
	}
}

func TestRunToolsKeepsACallersDefinition(t *testing.T) {
	env, client := newEnv(t)
	p := prompt(`Use get_weather {"location": "Oslo"}`)
	p.Tools = []messages.Tool{messages.CustomTool{Name: "get_weather", Description: "My own words.", InputSchema: weather.InputSchema()}}
	res, err := client.Messages.RunTools(ctx, p, []tool.Tool{weather}, messages.ToolLoop{})
	require.NoError(t, err)
	require.Equal(t, "Result of get_weather: 15 degrees, sunny in Oslo", res.Message.Text())
	tools := lastBody(t, env)["tools"].([]any)
	require.Len(t, tools, 1)
	require.Equal(t, "My own words.", tools[0].(map[string]any)["description"])
	require.Len(t, p.Tools, 1, "the caller's params are not changed")
}

// TestToolResultForAHandWrittenLoop: the block RunTools sends, built from a
// tool.Result by hand: text and images kept, empty text left out, no
// content an empty result, and the error flag carried.
func TestToolResultForAHandWrittenLoop(t *testing.T) {
	img := tool.ImageBlock{MediaType: "image/png", Data: []byte{1, 2, 3}}
	b := messages.ToolResult("toolu_1", tool.Result{Content: []tool.Block{tool.TextBlock{Text: "a"}, tool.TextBlock{}, img}})
	require.Equal(t, messages.ToolResultBlock{ToolUseID: "toolu_1", Content: messages.Blocks{
		messages.TextBlock{Text: "a"},
		messages.ImageBlock{Source: messages.Base64Source{MediaType: "image/png", Data: "AQID"}},
	}}, b)
	require.Equal(t, messages.ToolResultBlock{ToolUseID: "toolu_2", IsError: true},
		messages.ToolResult("toolu_2", tool.Result{IsError: true}))
}
