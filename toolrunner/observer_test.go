package toolrunner_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// observed collects what WithEventObserver hands over, per session, and
// signals each session's end of turn.
type observed struct {
	mu      sync.Mutex
	events  map[string][]sessions.Event
	turnEnd chan string // a session id, on each end_turn idle
}

func newObserved() *observed {
	return &observed{events: map[string][]sessions.Event{}, turnEnd: make(chan string, 100)}
}

func (o *observed) option() toolrunner.Option {
	return toolrunner.WithEventObserver(func(sessionID string, ev sessions.Event) {
		o.mu.Lock()
		o.events[sessionID] = append(o.events[sessionID], ev)
		o.mu.Unlock()
		if idle, ok := ev.(*sessions.SessionStatusIdleEvent); ok {
			if _, ok := idle.StopReason.(sessions.StopEndTurn); ok {
				o.turnEnd <- sessionID
			}
		}
	})
}

// waitTurnEnd waits until the observer has seen n ends of turn.
func (o *observed) waitTurnEnds(tb testing.TB, n int) {
	tb.Helper()
	for range n {
		select {
		case <-o.turnEnd:
		case <-time.After(waitTimeout):
			tb.Fatal("the observer saw no end of turn")
		}
	}
}

func (o *observed) ids(sessionID string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return eventIDs(o.events[sessionID])
}

func eventIDs(evs []sessions.Event) []string {
	ids := make([]string, 0, len(evs))
	for _, ev := range evs {
		ids = append(ids, ev.(sessions.PersistedEvent).Meta().ID)
	}
	return ids
}

func streamPath(sessionID string) string { return "/v1/sessions/" + sessionID + "/events/stream" }

// TestEventObserverSharesTheRunnersStream: an application that watches
// its sessions through the runner gets every event recorded after the
// runner started, once each and in order, while the runner answers the
// calls; each session has one open stream.
func TestEventObserverSharesTheRunnersStream(t *testing.T) {
	const n = 2
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	o := newObserved()
	r := newRunner(t, f, []tool.Tool{lookup}, o.option())
	ids := make([]string, n)
	before := map[string]int{}
	for i := range ids {
		ids[i] = f.session(t, a,
			[]refserver.Step{useOrder("lookup_order", fmt.Sprint(i)), refserver.Say("Earlier.")},
			[]refserver.Step{useOrder("lookup_order", fmt.Sprint(i)), useOrder("lookup_order", "again"), refserver.Say("Done.")})
		// A turn answered before the runner starts: its events stay in
		// the history, not handed to the observer.
		f.say(t, ids[i], "Earlier.")
		use := eventsOf[*sessions.AgentCustomToolUseEvent](f.history(t, ids[i]))[0]
		f.send(t, ids[i], sessions.CustomToolResult(use.ID, "by hand"))
		before[ids[i]] = len(f.waitTurns(t, ids[i], 1))
		require.NoError(t, r.Add(ids[i]))
	}
	for _, id := range ids {
		eventually(t, func() bool { return f.env.Count(http.MethodGet, streamPath(id)) == 1 }, "the runner to follow %s", id)
		f.say(t, id, "Look them up.")
	}
	o.waitTurnEnds(t, n)
	require.EqualValues(t, 2*n, c.total.Load())

	for _, id := range ids {
		evs := f.history(t, id)
		require.Equal(t, 2, turnsEnded(evs))
		require.Equal(t, eventIDs(evs[before[id]:]), o.ids(id), "every event after the runner started, once, in order")
		require.Len(t, eventsOf[*sessions.AgentCustomToolUseEvent](evs[before[id]:]), 2)
		require.Equal(t, 1, f.env.Count(http.MethodGet, streamPath(id)), "one stream for the runner and the observer")
	}
}

// TestEventObserverAcrossStreamCuts: the stream is cut again and again;
// the observer still sees each event once, in order, with no gap.
func TestEventObserverAcrossStreamCuts(t *testing.T) {
	const calls = 6
	f := newFixture(t)
	var c counter
	lookup := c.tool("lookup_order")
	a := f.agent(t, []tool.Tool{lookup})
	id := f.session(t, a, orderCalls("lookup_order", calls, "All done."))
	before := len(f.history(t, id))
	f.env.Server.InjectFault(refserver.Fault{Method: http.MethodGet, Path: streamPath(id), StreamCutAfter: 3, Times: 6})
	o := newObserved()
	r := newRunner(t, f, []tool.Tool{lookup}, o.option())
	require.NoError(t, r.Add(id))
	eventually(t, func() bool { return f.env.Count(http.MethodGet, streamPath(id)) > 0 }, "the runner to follow")
	f.say(t, id, "Look them all up.")
	o.waitTurnEnds(t, 1)
	evs := f.history(t, id)
	require.Equal(t, eventIDs(evs[before:]), o.ids(id))
	require.Len(t, eventsOf[*sessions.AgentCustomToolUseEvent](evs), calls)
	require.Greater(t, f.env.Count(http.MethodGet, streamPath(id)), 3, "the stream was cut and reopened")
}
