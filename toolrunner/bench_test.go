package toolrunner_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// The benchmarks run the scripted agent of the reference server, over
// HTTP, through a turn of custom tool calls, answered either by a Runner
// or by the baseline: a loop written by hand over the SDK's Stream and
// Send, doing the same work (decode, run the tool, send its result), one
// call after the other. Each reports:
//
//   - raw-p50-µs, raw-p99-µs: dispatch latency, from the call's event
//     received off the stream to its answer accepted (Send returned);
//   - p50-µs, p99-µs: the same, aligned: measured from the later of the
//     event's arrival and the acceptance of the session's previous answer;
//   - calls/s: tool calls answered per second, over the whole run.
//
// Why two latencies: the scripted agent runs the next model request inside
// the request that answers the previous call, so call N+1 is on the stream
// before the Send of call N has returned. The hand loop cannot read it
// before then, so its clock starts later; the Runner, which keeps reading
// while it answers (it must, to see interrupts), starts its clock at once
// and its Send N+1 then waits for the server to finish request N. The
// aligned figures start both clocks at the moment a sequential loop could
// have seen the event: for the hand loop they equal the raw ones. Compare
// runner and hand loop on the aligned latency and on calls/s.
//
//	go test -run '^$' -bench . -benchtime 3000x ./toolrunner

// latencies collects dispatch latencies.
type latencies struct {
	mu           sync.Mutex
	raw, aligned []time.Duration
	prev         map[string]time.Time // per session: when its last answer was accepted
	want         int
	done         chan struct{} // closed when want answers are in
}

func newLatencies(want int) *latencies {
	return &latencies{want: want, prev: map[string]time.Time{}, done: make(chan struct{}),
		raw: make([]time.Duration, 0, want), aligned: make([]time.Duration, 0, want)}
}

func (l *latencies) add(sessionID string, received, accepted time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	from := received
	if p := l.prev[sessionID]; p.After(from) {
		from = p
	}
	l.prev[sessionID] = accepted
	l.raw = append(l.raw, accepted.Sub(received))
	l.aligned = append(l.aligned, accepted.Sub(from))
	if len(l.raw) == l.want {
		close(l.done)
	}
}

func (l *latencies) report(b *testing.B, calls int, elapsed time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	require.Len(b, l.raw, calls, "every call answered once")
	q := func(d []time.Duration, p float64) float64 {
		slices.Sort(d)
		return float64(d[int(p*float64(len(d)-1))].Nanoseconds()) / 1e3
	}
	b.ReportMetric(q(l.aligned, 0.50), "p50-µs")
	b.ReportMetric(q(l.aligned, 0.99), "p99-µs")
	b.ReportMetric(q(l.raw, 0.50), "raw-p50-µs")
	b.ReportMetric(q(l.raw, 0.99), "raw-p99-µs")
	b.ReportMetric(float64(calls)/elapsed.Seconds(), "calls/s")
}

var benchTool = tool.Must(tool.New("lookup_order", "Looks up an order.", func(_ context.Context, in orderInput) (tool.Result, error) {
	return tool.Text("order " + in.OrderID + " shipped"), nil
}))

// benchSessions creates n sessions whose one turn makes calls calls.
func benchSessions(b *testing.B, f *fixture, n, calls int) []string {
	a := f.agent(b, []tool.Tool{benchTool})
	steps := orderCalls("lookup_order", calls, "Done.")
	ids := make([]string, n)
	for i := range ids {
		ids[i] = f.session(b, a, steps)
	}
	return ids
}

// runTurns starts every session's turn and waits for every call to be
// answered; it returns how long that took.
func runTurns(b *testing.B, f *fixture, ids []string, lat *latencies) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() { f.say(b, id, "Look them up.") })
	}
	wg.Wait()
	select {
	case <-lat.done:
	case <-time.After(waitTimeout):
		b.Fatal("calls left unanswered")
	}
	elapsed := time.Since(start)
	b.StopTimer()
	for _, id := range ids {
		f.waitTurns(b, id, 1)
	}
	return elapsed
}

func BenchmarkDispatch(b *testing.B) {
	for _, sessionsN := range []int{1, 100} {
		b.Run(fmt.Sprintf("runner/sessions=%d", sessionsN), func(b *testing.B) {
			benchRunner(b, sessionsN)
		})
		b.Run(fmt.Sprintf("handloop/sessions=%d", sessionsN), func(b *testing.B) {
			benchHandLoop(b, sessionsN)
		})
	}
}

func benchRunner(b *testing.B, n int) {
	f := newFixture(b)
	per := max(1, b.N/n)
	ids := benchSessions(b, f, n, per)
	lat := newLatencies(n * per)
	r, err := toolrunner.New(f.client.Sessions, []tool.Tool{benchTool},
		toolrunner.WithObserver(func(sessionID, _ string, received, accepted time.Time) { lat.add(sessionID, received, accepted) }))
	require.NoError(b, err)
	for _, id := range ids {
		require.NoError(b, r.Add(id))
	}
	// Let every session connect before the clock starts.
	eventually(b, func() bool { return f.env.Count("GET", "/v1/sessions/"+ids[n-1]+"/events/stream") > 0 }, "the runner to connect")
	b.ReportAllocs()
	b.ResetTimer()
	elapsed := runTurns(b, f, ids, lat)
	require.NoError(b, r.Close(ctx))
	lat.report(b, n*per, elapsed)
}

func benchHandLoop(b *testing.B, n int) {
	f := newFixture(b)
	per := max(1, b.N/n)
	ids := benchSessions(b, f, n, per)
	lat := newLatencies(n * per)
	c, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, id := range ids {
		st, err := f.client.Sessions.Events.Stream(c, id, sessions.StreamParams{})
		require.NoError(b, err)
		wg.Go(func() { handLoop(c, f, st, id, lat) })
	}
	b.ReportAllocs()
	b.ResetTimer()
	elapsed := runTurns(b, f, ids, lat)
	cancel()
	wg.Wait()
	lat.report(b, n*per, elapsed)
}

// handLoop is the baseline: what an application writes without a Runner.
func handLoop(c context.Context, f *fixture, st *sessions.EventStream, sessionID string, lat *latencies) {
	defer st.Close()
	tools := map[string]tool.Tool{benchTool.Name(): benchTool}
	for ev, err := range st.Events() {
		if err != nil {
			return
		}
		use, ok := ev.(*sessions.AgentCustomToolUseEvent)
		if !ok {
			continue
		}
		received := time.Now()
		t, ok := tools[use.Name]
		if !ok {
			continue
		}
		res := t.Run(c, use.Input)
		answer := sessions.CustomToolResult(use.ID, res.TextContent())
		answer.IsError = res.IsError
		if _, err := f.client.Sessions.Events.Send(c, sessionID, sessions.SendParams{Events: []sessions.EventParam{answer}}); err != nil {
			return
		}
		lat.add(sessionID, received, time.Now())
	}
}
