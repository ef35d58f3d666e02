package toolrunner_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// ends collects what WithOnSessionEnd reports.
type ends struct {
	mu  sync.Mutex
	got map[string][]error
}

func (e *ends) option() toolrunner.Option {
	return toolrunner.WithOnSessionEnd(func(id string, err error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.got == nil {
			e.got = map[string][]error{}
		}
		e.got[id] = append(e.got[id], err)
	})
}

func (e *ends) of(id string) []error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]error(nil), e.got[id]...)
}

// TestHundredSessions: one runner, 100 sessions at once, each calling the
// tool three times; every call runs once and is answered once.
func TestHundredSessions(t *testing.T) {
	const n, callsEach = 100, 3
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	var e ends
	r := newRunner(t, f, []tool.Tool{lookup}, toolrunner.WithMaxConcurrency(8), e.option())
	ids := make([]string, n)
	for i := range ids {
		steps := make([]refserver.Step, 0, callsEach+1)
		for j := range callsEach {
			steps = append(steps, useOrder("lookup_order", fmt.Sprintf("%d-%d", i, j)))
		}
		ids[i] = f.session(t, a, append(steps, refserver.Say("Done.")))
		require.NoError(t, r.Add(ids[i]))
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 10)
	for _, id := range ids {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			f.say(t, id, "Look them up.")
		})
	}
	wg.Wait()
	for i, id := range ids {
		evs := f.waitTurns(t, id, 1)
		uses := eventsOf[*sessions.AgentCustomToolUseEvent](evs)
		require.Len(t, uses, callsEach)
		rs := results(evs)
		for j, u := range uses {
			require.Len(t, rs[u.ID], 1, "session %d call %d", i, j)
			require.Equal(t, fmt.Sprintf("lookup_order: order %d-%d shipped", i, j), text(rs[u.ID][0].Content))
		}
	}
	require.EqualValues(t, n*callsEach, c.total.Load())
	c2, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	require.NoError(t, r.Close(c2))
	for _, id := range ids {
		require.Equal(t, []error{toolrunner.ErrClosed}, e.of(id))
	}
}

// TestSlowToolDoesNotDelayOtherSessions: one session's tool runs until
// the end of the test; the other sessions' calls are answered meanwhile,
// and the slow session's own reader keeps going.
func TestSlowToolDoesNotDelayOtherSessions(t *testing.T) {
	const others = 5
	f := newFixture(t)
	b := newBlocker()
	var c counter
	slow, lookup := b.tool("slow"), c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{slow, lookup})
	r := newRunner(t, f, []tool.Tool{slow, lookup}, toolrunner.WithMaxConcurrency(2))

	stuck := f.session(t, a, []refserver.Step{useOrder("slow", "0"), refserver.Say("Finally.")})
	require.NoError(t, r.Add(stuck))
	f.say(t, stuck, "Take your time.")
	b.waitStarted(t)

	ids := make([]string, others)
	for i := range ids {
		ids[i] = f.session(t, a, []refserver.Step{
			useOrder("lookup_order", fmt.Sprint(i)), useOrder("lookup_order", fmt.Sprint(i)), refserver.Say("Done."),
		})
		require.NoError(t, r.Add(ids[i]))
		f.say(t, ids[i], "Quick.")
	}
	for _, id := range ids {
		f.waitTurns(t, id, 1)
	}
	require.EqualValues(t, 2*others, c.total.Load())
	select {
	case <-b.ended:
		t.Fatal("the slow tool ended early")
	default:
	}
	require.Empty(t, results(f.history(t, stuck)), "the slow call is still running")

	close(b.release)
	require.NoError(t, b.waitEnded(t))
	res := onlyResult(t, f.waitTurns(t, stuck, 1))
	require.Equal(t, "released", text(res.Content))
}

// TestAddAndRemoveWhileRunning: sessions come and go while the runner
// serves others; a removed session is no longer answered until it is added
// again, and then its pending call is answered once.
func TestAddAndRemoveWhileRunning(t *testing.T) {
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	var e ends
	var l logs
	r := newRunner(t, f, []tool.Tool{lookup}, e.option(), toolrunner.WithLogger(l.logger()))
	one := f.session(t, a,
		[]refserver.Step{useOrder("lookup_order", "one-1"), refserver.Say("Done.")},
		[]refserver.Step{useOrder("lookup_order", "one-2"), refserver.Say("Done.")})
	two := f.session(t, a, []refserver.Step{useOrder("lookup_order", "two-1"), refserver.Say("Done.")})

	require.NoError(t, r.Add(one))
	f.say(t, one, "First.")
	f.waitTurns(t, one, 1)

	rc, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	require.NoError(t, r.Remove(rc, one))
	require.Equal(t, []error{toolrunner.ErrRemoved}, e.of(one))
	require.NoError(t, r.Remove(rc, one), "removing twice does nothing")

	require.NoError(t, r.Add(two))
	f.say(t, two, "Go.")
	f.waitTurns(t, two, 1)

	// one's next call waits: nobody follows it.
	f.say(t, one, "Second.")
	evs := f.history(t, one)
	uses := eventsOf[*sessions.AgentCustomToolUseEvent](evs)
	require.Len(t, uses, 2)
	require.Empty(t, results(evs)[uses[1].ID])
	require.Equal(t, []string{"one-1", "two-1"}, c.orders())

	require.NoError(t, r.Add(one))
	evs = f.waitTurns(t, one, 2)
	require.Len(t, results(evs)[uses[1].ID], 1)
	require.Equal(t, []string{"one-1", "two-1", "one-2"}, c.orders())
}

// TestRemoveWaitsForRunningTools: Remove lets a running tool finish and
// answer; past its deadline it cancels the tool and sends nothing. The tool
// that finishes is released once Remove waits on its context
// (reftest.Awaited), so Remove is under way and must wait for it; the one
// that does not is never released.
func TestRemoveWaitsForRunningTools(t *testing.T) {
	for _, tt := range []struct {
		name     string
		deadline time.Duration
		answered bool
	}{{"finishes", waitTimeout, true}, {"cancelled", 50 * time.Millisecond, false}} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			b := newBlocker()
			slow := b.tool("slow")
			a := f.agent(t, []tool.Tool{slow})
			id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Done.")})
			r := newRunner(t, f, []tool.Tool{slow})
			require.NoError(t, r.Add(id))
			f.say(t, id, "Go.")
			b.waitStarted(t)
			rc, cancel := context.WithTimeout(ctx, tt.deadline)
			defer cancel()
			rc, waiting := reftest.Awaited(rc)
			if tt.answered {
				reftest.When(t, waiting, func() error { close(b.release); return nil })
			}
			err := r.Remove(rc, id)
			if tt.answered {
				require.NoError(t, err)
				require.NoError(t, b.waitEnded(t))
				require.Equal(t, "released", text(onlyResult(t, f.waitTurns(t, id, 1)).Content))
				return
			}
			require.ErrorIs(t, err, context.DeadlineExceeded)
			require.ErrorIs(t, b.waitEnded(t), toolrunner.ErrRemoved, "the tool sees why it was cancelled")
			require.Empty(t, results(f.history(t, id)))
		})
	}
}

// TestIdleTimeout: Run returns nil once the session has sat idle after its
// turn; a session that keeps working keeps it going. The idle timeout's
// countdown is the test's (toolrunner.ManualIdleTimers): it elapses when
// the test says, so a slow machine cannot make it elapse between two turns,
// and the test sees when it counts down: not before the first turn, not
// while a turn's tool runs, and after each turn.
func TestIdleTimeout(t *testing.T) {
	idle := toolrunner.ManualIdleTimers(t)
	f := newFixture(t)
	var mu sync.Mutex
	var orders []string
	var counting []bool // whether the countdown ran as each call ran
	lookup := tool.Must(tool.New("lookup_order", "Looks up an order.", func(_ context.Context, in orderInput) (tool.Result, error) {
		mu.Lock()
		defer mu.Unlock()
		orders = append(orders, in.OrderID)
		counting = append(counting, idle.Armed())
		return tool.Text("shipped"), nil
	}))
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a,
		[]refserver.Step{useOrder("lookup_order", "1"), refserver.Say("Done.")},
		[]refserver.Step{useOrder("lookup_order", "2"), refserver.Say("Done.")})
	var e ends
	reading, read := reftest.FirstRead("/events/stream")
	watched := *f
	watched.client = f.env.Client(t, reading)
	r := newRunner(t, &watched, []tool.Tool{lookup}, toolrunner.WithIdleTimeout(300*time.Millisecond), e.option())
	wait := running(t, r, ctx, id)

	// The runner reads the stream: no turn has ended, so no countdown.
	select {
	case <-read:
	case <-time.After(waitTimeout):
		t.Fatal("the runner did not read the stream")
	}
	require.False(t, idle.Armed(), "counting down before any turn ended")
	f.say(t, id, "One.")
	f.waitTurns(t, id, 1)
	eventually(t, idle.Armed, "the countdown after the first turn")
	f.say(t, id, "Two.")
	f.waitTurns(t, id, 2)
	eventually(t, idle.Armed, "the countdown after the second turn")
	require.True(t, idle.Fire())
	require.NoError(t, wait())
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, []string{"1", "2"}, orders)
	require.Equal(t, []bool{false, false}, counting, "no countdown while a turn runs its tools")
	require.Equal(t, []error{nil}, e.of(id))
}

// TestRunEndsWithTheSession: terminated, archived and deleted sessions end
// Run with nil.
func TestRunEndsWithTheSession(t *testing.T) {
	for _, tt := range []struct {
		name string
		end  func(f *fixture, id string)
	}{
		{"terminated", func(f *fixture, id string) { f.say(t, id, "Crash.") }},
		{"archived", func(f *fixture, id string) {
			_, err := f.client.Sessions.Archive(ctx, id)
			require.NoError(t, err)
		}},
		{"deleted", func(f *fixture, id string) {
			err := f.client.Sessions.Delete(ctx, id)
			require.NoError(t, err)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			var c counter
			lookup := c.tool("lookup_order")
			a := f.agent(t, []tool.Tool{lookup})
			id := f.session(t, a, []refserver.Step{refserver.Terminate("", "")})
			r := newRunner(t, f, []tool.Tool{lookup})
			wait := running(t, r, ctx, id)
			// Let the runner connect before the session ends.
			eventually(t, func() bool {
				return f.env.Count("GET", "/v1/sessions/"+id+"/events/stream") > 0
			}, "the runner to connect")
			tt.end(f, id)
			require.NoError(t, wait())
		})
	}
}

// TestCloseWaitsForRunningTools: Close lets a running tool finish and its
// result be sent. The tool is released once Close waits on its context
// (reftest.Awaited), so Close is under way and must wait for it.
func TestCloseWaitsForRunningTools(t *testing.T) {
	f := newFixture(t)
	b := newBlocker()
	slow := b.tool("slow")
	a := f.agent(t, []tool.Tool{slow})
	id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Done.")})
	r, err := toolrunner.New(f.client.Sessions, []tool.Tool{slow})
	require.NoError(t, err)
	wait := running(t, r, ctx, id)
	f.say(t, id, "Go.")
	b.waitStarted(t)
	c, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	c, waiting := reftest.Awaited(c)
	reftest.When(t, waiting, func() error { close(b.release); return nil })
	require.NoError(t, r.Close(c))
	require.ErrorIs(t, wait(), toolrunner.ErrClosed)
	require.NoError(t, b.waitEnded(t))
	res := onlyResult(t, f.waitTurns(t, id, 1))
	require.Equal(t, "released", text(res.Content))
	require.ErrorIs(t, r.Add(id), toolrunner.ErrClosed)
	require.ErrorIs(t, r.Run(ctx, id), toolrunner.ErrClosed)
	require.NoError(t, r.Close(c), "closing twice is harmless")
}

// TestCloseCancelsToolsAfterItsDeadline: past Close's deadline the tool is
// cancelled and nothing is sent; the call stays pending for the next
// runner.
func TestCloseCancelsToolsAfterItsDeadline(t *testing.T) {
	f := newFixture(t)
	b := newBlocker()
	slow := b.tool("slow")
	a := f.agent(t, []tool.Tool{slow})
	id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Done.")})
	r, err := toolrunner.New(f.client.Sessions, []tool.Tool{slow})
	require.NoError(t, err)
	require.NoError(t, r.Add(id))
	f.say(t, id, "Go.")
	b.waitStarted(t)
	c, cancel := context.WithTimeout(ctx, 50*time.Millisecond) // the tool never finishes: the deadline passes first
	defer cancel()
	require.ErrorIs(t, r.Close(c), context.DeadlineExceeded)
	require.ErrorIs(t, b.waitEnded(t), toolrunner.ErrClosed, "the tool sees why it was cancelled")
	evs := f.history(t, id)
	require.Empty(t, results(evs))
	idles := eventsOf[*sessions.SessionStatusIdleEvent](evs)
	require.IsType(t, sessions.StopRequiresAction{}, idles[len(idles)-1].StopReason, "the call is still pending")
}
