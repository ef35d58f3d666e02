package toolrunner_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// TestInterruptCancelsTheRunningTool: the interrupt closes the call, the
// tool's context is cancelled, its late result gets one 409 that the
// runner takes as final, and the runner goes on answering later turns.
func TestInterruptCancelsTheRunningTool(t *testing.T) {
	f := newFixture(t)
	b := newBlocker()
	var c counter
	slow, lookup := b.tool("slow"), c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{slow, lookup})
	id := f.session(t, a,
		[]refserver.Step{useOrder("slow", "1"), refserver.Say("unreachable")},
		[]refserver.Step{useOrder("lookup_order", "2"), refserver.Say("Found it.")})
	var l logs
	r := newRunner(t, f, []tool.Tool{slow, lookup}, toolrunner.WithLogger(l.logger()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)

	f.say(t, id, "Go slowly.")
	callID := b.waitStarted(t)
	f.send(t, id, sessions.Interrupt())
	require.ErrorContains(t, b.waitEnded(t), "closed by an interrupt", "the tool sees why it was cancelled")
	eventually(t, func() bool { return l.has("no longer pending", callID) }, "the late answer to be refused")
	evs := f.waitTurns(t, id, 1)
	require.Empty(t, results(evs)[callID], "the interrupted call has no answer")

	// No error spiral: the one late answer and nothing else.
	path := "/v1/sessions/" + id + "/events"
	require.Equal(t, 3, f.env.Count(http.MethodPost, path), "message, interrupt, the late answer")
	for _, rec := range l.all() {
		require.NotContains(t, rec, "ERROR", rec)
		require.NotContains(t, rec, "retrying", rec)
	}

	// The runner still answers.
	f.say(t, id, "Now look up order 2.")
	evs = f.waitTurns(t, id, 2)
	require.Equal(t, []string{"2"}, c.orders())
	require.Len(t, results(evs), 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
}

// TestInterruptBeforeTheToolStarts: a call closed while it waits for a
// slot never runs.
func TestInterruptBeforeTheToolStarts(t *testing.T) {
	f := newFixture(t)
	b := newBlocker()
	var c counter
	slow, lookup := b.tool("slow"), c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{slow, lookup})
	busy := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Done.")})
	queued := f.session(t, a, []refserver.Step{useOrder("lookup_order", "2"), refserver.Say("unreachable")})
	var l logs
	r := newRunner(t, f, []tool.Tool{slow, lookup}, toolrunner.WithMaxConcurrency(1), toolrunner.WithLogger(l.logger()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	waitBusy := running(t, r, rc, busy)
	waitQueued := running(t, r, rc, queued)
	// The queued call must reach the runner live: reconciling after the
	// interrupt, the runner would rightly skip it.
	eventually(t, func() bool { return f.env.Count(http.MethodGet, "/v1/sessions/"+queued+"/events/stream") > 0 }, "the runner to follow")

	f.say(t, busy, "Hold the only slot.")
	b.waitStarted(t)
	f.say(t, queued, "Wait for a slot.")
	var use *sessions.AgentCustomToolUseEvent
	eventually(t, func() bool {
		uses := eventsOf[*sessions.AgentCustomToolUseEvent](f.history(t, queued))
		if len(uses) > 0 {
			use = uses[0]
		}
		return use != nil
	}, "the queued call")
	// The queued session's reader handles the interrupt although every
	// slot is taken.
	f.send(t, queued, sessions.Interrupt())
	eventually(t, func() bool { return l.has("closed before it started", use.ID) }, "the queued call to be dropped")
	close(b.release)
	require.NoError(t, b.waitEnded(t))
	f.waitTurns(t, busy, 1)
	require.Empty(t, c.orders(), "the closed call never ran")
	stop()
	require.ErrorIs(t, waitBusy(), context.Canceled)
	require.ErrorIs(t, waitQueued(), context.Canceled)
}

// TestStreamCutsLoseAndRepeatNothing: the server cuts the stream again and
// again while the agent calls tools; every call runs once and is answered
// once.
func TestStreamCutsLoseAndRepeatNothing(t *testing.T) {
	const calls = 12
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a, orderCalls("lookup_order", calls, "All done."))
	f.env.Server.InjectFault(refserver.Fault{Method: http.MethodGet, Path: "/v1/sessions/" + id + "/events/stream",
		StreamCutAfter: 4, Times: 8})
	r := newRunner(t, f, []tool.Tool{lookup})
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)

	f.say(t, id, "Look them all up.")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)

	require.Greater(t, f.env.Count(http.MethodGet, "/v1/sessions/"+id+"/events/stream"), 3, "the stream was cut and reopened")
	uses := eventsOf[*sessions.AgentCustomToolUseEvent](evs)
	require.Len(t, uses, calls)
	rs := results(evs)
	wantOrders := make([]string, calls)
	wantIDs := make([]string, calls)
	for i, u := range uses {
		require.Len(t, rs[u.ID], 1, "answers of call %d", i)
		require.Equal(t, fmt.Sprintf("lookup_order: order %d shipped", i), text(rs[u.ID][0].Content))
		wantOrders[i], wantIDs[i] = fmt.Sprint(i), u.ID
	}
	require.Equal(t, wantOrders, c.orders(), "each call ran once, in order")
	require.Equal(t, wantIDs, c.callIDs())
}

// TestRestartRunsThePendingCallOnce: a runner stopped while a call is
// pending leaves it unanswered; the next runner finds it in the history
// and runs it once; a third finds nothing to do.
func TestRestartRunsThePendingCallOnce(t *testing.T) {
	f := newFixture(t)
	b := newBlocker()
	var c counter
	a := f.agent(t, []tool.Tool{c.tool("lookup_order")})
	id := f.session(t, a, []refserver.Step{useOrder("lookup_order", "1"), useOrder("lookup_order", "2"), refserver.Say("Both found.")})

	// The first runner's tool hangs; it is stopped with the call pending.
	first := newRunner(t, f, []tool.Tool{b.tool("lookup_order")})
	rc, stop := context.WithCancel(ctx)
	wait := running(t, first, rc, id)
	f.say(t, id, "Look up 1 and 2.")
	pending := b.waitStarted(t)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.ErrorIs(t, b.waitEnded(t), context.Canceled)
	evs := f.history(t, id)
	require.Empty(t, results(evs), "nothing was answered")

	// The second runner answers it, then the next call, once each.
	second := newRunner(t, f, []tool.Tool{c.tool("lookup_order")})
	rc, stop = context.WithCancel(ctx)
	wait = running(t, second, rc, id)
	evs = f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Equal(t, []string{"1", "2"}, c.orders())
	require.Equal(t, pending, c.callIDs()[0], "the pending call, by its id")
	for _, rs := range results(evs) {
		require.Len(t, rs, 1)
	}
	require.Len(t, results(evs), 2)

	// A third runner has nothing to run.
	third := newRunner(t, f, []tool.Tool{c.tool("lookup_order")}, toolrunner.WithIdleTimeout(1))
	require.NoError(t, third.Run(ctx, id))
	require.Len(t, c.orders(), 2)
}

// TestRestartSkipsAnsweredAndClosedCalls: a restart answers only what is
// still pending: not a call another consumer answered while no runner ran,
// nor one an interrupt closed.
func TestRestartSkipsAnsweredAndClosedCalls(t *testing.T) {
	f := newFixture(t)
	var c counter
	a := f.agent(t, []tool.Tool{c.tool("lookup_order")})
	id := f.session(t, a,
		[]refserver.Step{useOrder("lookup_order", "closed"), refserver.Say("unreachable")},
		[]refserver.Step{useOrder("lookup_order", "answered"), useOrder("lookup_order", "pending"), refserver.Say("Done.")})
	f.say(t, id, "First.")
	f.send(t, id, sessions.Interrupt())
	f.say(t, id, "Second.")
	uses := eventsOf[*sessions.AgentCustomToolUseEvent](f.history(t, id))
	require.Len(t, uses, 2)
	f.send(t, id, sessions.CustomToolResult(uses[1].ID, "answered by hand"))

	r := newRunner(t, f, []tool.Tool{c.tool("lookup_order")})
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	evs := f.waitTurns(t, id, 2)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Equal(t, []string{"pending"}, c.orders())
	for use, rs := range results(evs) {
		require.Len(t, rs, 1, use)
	}
}

// TestRestartAnswersConfirmations: a pending confirmation is found in the
// history too.
func TestRestartAnswersConfirmations(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, nil, askingToolset)
	id := f.session(t, a, []refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls"}), refserver.Say("Done.")})
	f.say(t, id, "Go.")
	r := newRunner(t, f, nil, toolrunner.WithConfirm(func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision {
		return toolrunner.Allow()
	}))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Len(t, eventsOf[*sessions.ToolConfirmationEvent](evs), 1)
}

// TestRestartFindsACallRecordedAfterTheLastIdle: a child thread's call is
// cross-posted while the coordinator keeps running, so no idle lists it
// yet; a runner that starts then still finds it.
func TestRestartFindsACallRecordedAfterTheLastIdle(t *testing.T) {
	f := newFixture(t)
	var c counter
	check := c.tool("check")
	reviewer := f.agent(t, []tool.Tool{check})
	lead, err := f.client.Agents.Create(ctx, agents.CreateParams{Name: "lead", Model: reviewer.Model,
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(reviewer.ID)}}})
	require.NoError(t, err)
	id := f.session(t, lead,
		[]refserver.Step{refserver.Say("Earlier turn.")},
		[]refserver.Step{refserver.Spawn(reviewer.Name, useOrder("check", "1"), refserver.Say("checked")), refserver.Say("Waiting."), refserver.Hold()})
	f.say(t, id, "First.")
	f.waitTurns(t, id, 1)
	f.say(t, id, "Review it.")
	evs := f.history(t, id)
	uses := eventsOf[*sessions.AgentCustomToolUseEvent](evs)
	require.Len(t, uses, 1)
	require.NotEmpty(t, uses[0].ThreadID, "a child thread's call")
	lastIdle := eventsOf[*sessions.SessionStatusIdleEvent](evs)
	require.Len(t, lastIdle, 1, "only the first turn's idle: the coordinator is running")

	r := newRunner(t, f, []tool.Tool{check})
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	eventually(t, func() bool { return len(results(f.history(t, id))) == 1 }, "the child's call to be answered")
	require.NoError(t, f.env.Server.ReleaseSession(id))
	evs = f.waitTurns(t, id, 2)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.Equal(t, []string{"1"}, c.orders())
	rs := results(evs)[uses[0].ID]
	require.Len(t, rs, 1)
	require.Equal(t, uses[0].ThreadID, rs[0].ThreadID, "routed to the child")
}

// TestSendRetries: answers whose sending fails past the pipeline's own
// retries are sent again, under the same Idempotency-Key, and answer once.
func TestSendRetries(t *testing.T) {
	for _, tt := range []struct {
		name  string
		fault refserver.Fault
	}{
		{"server errors", refserver.Fault{Method: http.MethodPost, Status: http.StatusServiceUnavailable, Times: 4}},
		{"lost responses", refserver.Fault{Method: http.MethodPost, DropAfterHandling: true, Times: 4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			b := newBlocker()
			slow := b.tool("slow")
			a := f.agent(t, []tool.Tool{slow})
			id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Done.")})
			var l logs
			client := f.env.Client(t, reftest.FreshConnections())
			r, err := toolrunner.New(client.Sessions, []tool.Tool{slow}, toolrunner.WithLogger(l.logger()))
			require.NoError(t, err)
			defer func() { require.NoError(t, r.Close(ctx)) }()
			rc, stop := context.WithCancel(ctx)
			defer stop()
			wait := running(t, r, rc, id)
			f.say(t, id, "Go.")
			b.waitStarted(t)
			fault := tt.fault
			fault.Path = "/v1/sessions/" + id + "/events"
			f.env.Server.InjectFault(fault)
			close(b.release)
			evs := f.waitTurns(t, id, 1)
			eventually(t, func() bool { return l.has("answer accepted") }, "the answer to be accepted")
			stop()
			require.ErrorIs(t, wait(), context.Canceled)
			require.Equal(t, "released", text(onlyResult(t, evs).Content))
			require.True(t, l.has("sending the answer failed"), "the runner sent it again: %v", l.all())
			require.False(t, l.has("ERROR"), "%v", l.all())
			var keys []string
			for _, req := range f.env.Server.Requests() {
				if req.Method == http.MethodPost && req.Path == fault.Path && req.Header.Get("Idempotency-Key") != "" {
					keys = append(keys, req.Header.Get("Idempotency-Key"))
				}
			}
			require.Greater(t, len(keys), 4)
			for _, k := range keys[1:] { // the first is the test's message
				require.Equal(t, keys[1], k, "one key for every attempt of the answer")
			}
		})
	}
}

// TestRefusedResultIsAnsweredWithAnError: a result the API refuses (the
// reference server takes text blocks only) is replaced by an error result,
// so that the call does not stay pending forever.
func TestRefusedResultIsAnsweredWithAnError(t *testing.T) {
	f := newFixture(t)
	chart := tool.Must(tool.New("chart", "Draws a chart.", func(context.Context, orderInput) (tool.Result, error) {
		return tool.Result{Content: []tool.Block{tool.ImageBlock{MediaType: "image/png", Data: []byte("\x89PNG")}}}, nil
	}))
	a := f.agent(t, []tool.Tool{chart})
	id := f.session(t, a, []refserver.Step{useOrder("chart", "1"), refserver.Say("Done.")})
	r := newRunner(t, f, []tool.Tool{chart})
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Draw.")
	res := onlyResult(t, f.waitTurns(t, id, 1))
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.True(t, res.IsError)
	require.Contains(t, text(res.Content), "The result of tool chart was refused by the API")
}

// TestStreamErrorEventsAreResumed: a stream the server ends with an error
// event is reopened after the last event handled; nothing is lost or run
// twice.
func TestStreamErrorEventsAreResumed(t *testing.T) {
	const calls = 4
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a, orderCalls("lookup_order", calls, "All done."))
	f.env.Server.InjectFault(refserver.Fault{Method: http.MethodGet, Path: "/v1/sessions/" + id + "/events/stream",
		StreamCutAfter: 5, Status: 529, Times: 1})
	var l logs
	r := newRunner(t, f, []tool.Tool{lookup}, toolrunner.WithLogger(l.logger()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Look them all up.")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
	require.True(t, l.has("WARN", "stream failed; resuming", "overloaded_error"), "%v", l.all())
	require.Equal(t, []string{"0", "1", "2", "3"}, c.orders())
	for _, rs := range results(evs) {
		require.Len(t, rs, 1)
	}
}
