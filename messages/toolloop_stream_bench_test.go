package messages_test

import (
	"context"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/tool"
)

// benchPrompt is the conversation of both benchmarks: one tool call, then
// the answer.
const benchPrompt = `What is the weather in Paris? Use get_weather {"location": "Paris"}`

// BenchmarkStreamTools compares StreamTools with the loop an application
// would write by hand over Stream (range the events, accumulate, run the
// tool, send the result), on the same server and conversation. Both read
// every event, as a UI showing the text would.
func BenchmarkStreamTools(b *testing.B) {
	env := reftest.New(b)
	client := env.Client(b)
	b.Run("StreamTools", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ts := client.Messages.StreamTools(ctx, prompt(benchPrompt), []tool.Tool{weather}, messages.ToolLoop{})
			deltas := 0
			for ev, err := range ts.Events() {
				if err != nil {
					b.Fatal(err)
				}
				if _, ok := ev.Event.(messages.ContentBlockDeltaEvent); ok {
					deltas++
				}
			}
			if res, err := ts.Result(); err != nil || res.Iterations != 2 || deltas == 0 {
				b.Fatal(res, err)
			}
		}
	})
	b.Run("HandWritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if n, err := handToolLoop(ctx, client, prompt(benchPrompt)); err != nil || n != 2 {
				b.Fatal(n, err)
			}
		}
	})
}

// handToolLoop is the baseline: the tool loop written over Stream. It
// returns the number of model calls.
func handToolLoop(ctx context.Context, client *agentplatform.Client, p messages.MessageParams) (int, error) {
	p.Tools = []messages.Tool{messages.FromTool(weather)}
	for n := 1; ; n++ {
		st, err := client.Messages.Stream(ctx, p)
		if err != nil {
			return n, err
		}
		deltas := 0
		for ev, err := range st.Events() {
			if err != nil {
				st.Close()
				return n, err
			}
			if _, ok := ev.(messages.ContentBlockDeltaEvent); ok {
				deltas++
			}
		}
		msg, err := st.Message()
		st.Close()
		if err != nil {
			return n, err
		}
		p.Messages = append(p.Messages, msg.Param())
		calls := msg.ToolUses()
		if msg.StopReason != messages.StopToolUse || len(calls) == 0 {
			return n, nil
		}
		results := make([]messages.ContentBlock, 0, len(calls))
		for _, c := range calls {
			results = append(results, messages.ToolResult(c.ID, weather.Run(ctx, c.Input)))
		}
		p.Messages = append(p.Messages, messages.UserBlocks(results...))
	}
}
