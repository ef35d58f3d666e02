package toolrunner_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

func TestNewRefusesDuplicateAndZeroTools(t *testing.T) {
	f := newFixture(t)
	var c counter
	_, err := toolrunner.New(f.client.Sessions, []tool.Tool{c.tool("lookup"), c.tool("other"), c.tool("lookup")})
	var verr *apierror.ValidationError
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "tools[2].name", verr.Field)
	require.Contains(t, verr.Rule, `tool names must be unique within a runner: "lookup" is also the name of tools[0]`)

	_, err = toolrunner.New(f.client.Sessions, []tool.Tool{{}})
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "tools[0]", verr.Field)
	require.Contains(t, verr.Rule, "tool.New")

	_, err = toolrunner.New(nil, nil)
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}

func TestOneTool(t *testing.T) {
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a, []refserver.Step{useOrder("lookup_order", "1234"), refserver.Say("It shipped.")})
	r := newRunner(t, f, []tool.Tool{lookup})
	rc, stop := context.WithCancel(ctx)
	wait := running(t, r, rc, id)

	f.say(t, id, "Where is order 1234?")
	evs := f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)

	res := onlyResult(t, evs)
	require.False(t, res.IsError)
	require.Equal(t, "lookup_order: order 1234 shipped", text(res.Content))
	require.Equal(t, []string{"1234"}, c.orders())
	use := eventsOf[*sessions.AgentCustomToolUseEvent](evs)[0]
	require.Equal(t, []string{use.ID}, c.callIDs(), "the tool sees its call's id")
	msgs := eventsOf[*sessions.AgentMessageEvent](evs)
	require.Equal(t, "It shipped.", text(msgs[len(msgs)-1].Content))
}

func TestSeveralToolsInSequence(t *testing.T) {
	f := newFixture(t)
	var orders, refunds counter
	tools := []tool.Tool{orders.tool("lookup_order"), refunds.tool("refund_order")}
	a := f.agent(t, tools)
	id := f.session(t, a, []refserver.Step{
		useOrder("lookup_order", "1"), useOrder("refund_order", "1"), useOrder("lookup_order", "2"),
		refserver.Say("Done."),
	}, []refserver.Step{useOrder("refund_order", "3"), refserver.Say("Done again.")})
	r := newRunner(t, f, tools)
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)

	f.say(t, id, "Refund order 1, then look up 2.")
	f.waitTurns(t, id, 1)
	f.say(t, id, "Refund order 3.")
	evs := f.waitTurns(t, id, 2)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)

	require.Equal(t, []string{"1", "2"}, orders.orders())
	require.Equal(t, []string{"1", "3"}, refunds.orders())
	uses := eventsOf[*sessions.AgentCustomToolUseEvent](evs)
	require.Len(t, uses, 4)
	rs := results(evs)
	want := []string{"lookup_order: order 1 shipped", "refund_order: order 1 shipped", "lookup_order: order 2 shipped", "refund_order: order 3 shipped"}
	for i, u := range uses {
		require.Len(t, rs[u.ID], 1, "call %d", i)
		require.Equal(t, want[i], text(rs[u.ID][0].Content))
	}
}

func TestToolFailures(t *testing.T) {
	for _, tt := range []struct {
		name string
		fn   func(ctx context.Context, in orderInput) (tool.Result, error)
		opts []toolrunner.Option
		want string
	}{
		{name: "error", fn: func(context.Context, orderInput) (tool.Result, error) {
			return tool.Result{}, errors.New("the order database is down")
		}, want: "the order database is down"},
		{name: "error result", fn: func(context.Context, orderInput) (tool.Result, error) {
			return tool.Errorf("no order %s", "9"), nil
		}, want: "no order 9"},
		{name: "panic", fn: func(context.Context, orderInput) (tool.Result, error) {
			panic("index out of range")
		}, opts: []toolrunner.Option{toolrunner.WithLogger(slog.New(slog.DiscardHandler))}, // the stack goes there
			want: "tool lookup_order panicked: index out of range"},
		{name: "timeout", fn: func(ctx context.Context, _ orderInput) (tool.Result, error) {
			<-ctx.Done()
			return tool.Result{}, ctx.Err()
		}, opts: []toolrunner.Option{toolrunner.WithToolTimeout(50 * time.Millisecond)},
			want: "tool lookup_order timed out after 50ms"},
		{name: "bad input", fn: func(context.Context, orderInput) (tool.Result, error) {
			return tool.Text("unreachable"), nil
		}, want: "input does not match the schema"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			lookup := tool.Must(tool.New("lookup_order", "Looks up an order.", tt.fn))
			a := f.agent(t, []tool.Tool{lookup})
			step := useOrder("lookup_order", "9")
			if tt.name == "bad input" {
				step = refserver.UseCustomTool("lookup_order", map[string]any{"order_id": 9})
			}
			id := f.session(t, a, []refserver.Step{step, refserver.Say("Sorry.")})
			r := newRunner(t, f, []tool.Tool{lookup}, tt.opts...)
			rc, stop := context.WithCancel(ctx)
			defer stop()
			wait := running(t, r, rc, id)
			f.say(t, id, "Where is order 9?")
			res := onlyResult(t, f.waitTurns(t, id, 1))
			require.True(t, res.IsError)
			require.Contains(t, text(res.Content), tt.want)
			stop()
			require.ErrorIs(t, wait(), context.Canceled)
		})
	}
}

// TestTimeoutDoesNotWaitForAToolThatIgnoresCancellation: the call is
// answered at the deadline although the tool is still running.
func TestTimeoutDoesNotWaitForAToolThatIgnoresCancellation(t *testing.T) {
	f := newFixture(t)
	b := newBlocker()
	b.ignore = true
	defer func() { close(b.release); b.waitEnded(t) }()
	slow := b.tool("slow")
	a := f.agent(t, []tool.Tool{slow})
	id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Gave up.")})
	r := newRunner(t, f, []tool.Tool{slow}, toolrunner.WithToolTimeout(50*time.Millisecond))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	b.waitStarted(t)
	res := onlyResult(t, f.waitTurns(t, id, 1))
	require.True(t, res.IsError)
	require.Equal(t, "tool slow timed out after 50ms", text(res.Content))
	stop()
	require.ErrorIs(t, wait(), context.Canceled)
}

// TestUnknownToolIsLeftToOtherConsumers: the runner does not answer a call
// of a tool it does not have; the application answers it.
func TestUnknownToolIsLeftToOtherConsumers(t *testing.T) {
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	other := tool.Must(tool.New("escalate", "Hands the case to a person.", func(context.Context, orderInput) (tool.Result, error) {
		return tool.Text("unreachable"), nil
	}))
	a := f.agent(t, []tool.Tool{lookup, other})
	id := f.session(t, a, []refserver.Step{useOrder("escalate", "7"), useOrder("lookup_order", "7"), refserver.Say("Escalated.")})
	var l logs
	r := newRunner(t, f, []tool.Tool{lookup}, toolrunner.WithLogger(l.logger()))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)

	f.say(t, id, "Escalate order 7.")
	var use *sessions.AgentCustomToolUseEvent
	eventually(t, func() bool {
		uses := eventsOf[*sessions.AgentCustomToolUseEvent](f.history(t, id))
		if len(uses) == 0 {
			return false
		}
		use = uses[0]
		return true
	}, "the escalate call")
	require.Equal(t, "escalate", use.Name)
	// The runner has seen the call and decided to leave it alone.
	eventually(t, func() bool { return l.has("not registered", use.ID) }, "the runner to pass on the call")
	evs := f.history(t, id)
	require.Empty(t, results(evs)[use.ID], "the runner sent no answer")

	// Another consumer answers; the turn goes on to the runner's tool.
	f.send(t, id, sessions.CustomToolResult(use.ID, "escalated to Ana"))
	evs = f.waitTurns(t, id, 1)
	stop()
	require.ErrorIs(t, wait(), context.Canceled)

	rs := results(evs)
	require.Len(t, rs[use.ID], 1)
	require.Equal(t, "escalated to Ana", text(rs[use.ID][0].Content))
	require.Equal(t, []string{"7"}, c.orders())
	require.Len(t, rs, 2)
	for _, rec := range l.all() {
		require.NotContains(t, rec, "escalated to Ana", "no answer of another consumer in the logs")
	}
}

func TestRunAndAddRefuseASessionFollowedTwice(t *testing.T) {
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a)
	r := newRunner(t, f, []tool.Tool{lookup})
	require.NoError(t, r.Add(id))
	require.ErrorIs(t, r.Add(id), toolrunner.ErrAlreadyRunning)
	require.ErrorIs(t, r.Run(ctx, id), toolrunner.ErrAlreadyRunning)
	require.ErrorIs(t, r.Add(""), apierror.ErrInvalidRequest)
}

func TestRunOfAnUnknownSessionFails(t *testing.T) {
	f := newFixture(t)
	var c counter
	r := newRunner(t, f, []tool.Tool{c.tool("lookup_order")})
	err := r.Run(ctx, "sesn_011CZkZDLs7fYzm1hXNPeRjv")
	require.ErrorIs(t, err, apierror.ErrNotFound)
}
