package sessions_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// history lists every recorded event of a session.
func (f *fixture) history(t *testing.T, sessionID string) []sessions.Event {
	t.Helper()
	var out []sessions.Event
	for ev, err := range f.client.Sessions.Events.All(ctx, sessionID, sessions.EventListParams{Limit: 50}) {
		require.NoError(t, err)
		out = append(out, ev)
	}
	return out
}

func streamPath(sessionID string) string { return "/v1/sessions/" + sessionID + "/events/stream" }

// TestStreamSurvivesCuts: the server drops the stream every few events;
// the events received, compared with the history, show no gap and no
// duplicate.
func TestStreamSurvivesCuts(t *testing.T) {
	f := newFixture(t)
	s := f.sessionWith(t, allowedTools)
	f.env.Server.InjectFault(refserver.Fault{Path: streamPath(s.ID), StreamCutAfter: 7, Times: 1000})
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	var got []sessions.Event
	for turn := range 12 {
		// 18 events or more a turn: each turn's connection is cut at least
		// once, and the rest of the turn comes from the history.
		f.script(t, s.ID, []refserver.Step{refserver.Firehose(8 + turn), refserver.UseTool("bash", map[string]any{"command": "ls"}), refserver.Say("Done.")})
		f.send(t, s.ID, sessions.UserMessage("Go."))
		got = append(got, tl.untilIdle()...)
	}

	want := f.history(t, s.ID)
	require.Greater(t, len(want), 200)
	require.Equal(t, eventIDs(want), eventIDs(got), "every event once, in order")
	require.Empty(t, cmp.Diff(want, got))
	require.Greater(t, f.env.Count("GET", streamPath(s.ID)), 10, "the stream was cut and reopened")
}

// TestStreamResume: a consumer that restarts gets the history after the
// last event it had, then live events.
func TestStreamResume(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	f.script(t, s.ID, []refserver.Step{refserver.Say("One.")}, []refserver.Step{refserver.Say("Two.")})

	first := f.tail(t, s.ID, sessions.StreamParams{})
	f.send(t, s.ID, sessions.UserMessage("First."))
	seen := first.untilIdle()
	k := slices.IndexFunc(seen, isType(sessions.EventAgentMessage))
	last := seen[k].(sessions.PersistedEvent) // the consumer stopped here
	require.NoError(t, first.stream.Close())

	f.send(t, s.ID, sessions.UserMessage("Second.")) // while no one listens
	resumed := f.tail(t, s.ID, sessions.StreamParams{ResumeAfter: sessions.PositionOf(last)})
	got := resumed.untilIdle() // the rest of the first turn, from the history
	got = append(got, resumed.untilIdle()...)

	history := f.history(t, s.ID)
	require.Equal(t, eventIDs(history[k+1:]), eventIDs(got))
	messages := all[*sessions.AgentMessageEvent](got)
	require.Equal(t, "Two.", sessions.Text(messages[len(messages)-1].Content))

	// Later events arrive live.
	f.script(t, s.ID, []refserver.Step{refserver.Say("Three.")})
	f.send(t, s.ID, sessions.UserMessage("Third."))
	require.Equal(t, "Three.", sessions.Text(only[*sessions.AgentMessageEvent](t, resumed.untilIdle()).Content))
}

func TestStreamWithoutReconnection(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	f.env.Server.InjectFault(refserver.Fault{Path: streamPath(s.ID), StreamCutAfter: 3})
	f.env.Server.ResetRequests()
	st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{NoReconnect: true})
	require.NoError(t, err)
	defer st.Close()
	require.Equal(t, 1, f.sent(), "no baseline request")
	f.script(t, s.ID, []refserver.Step{refserver.Firehose(20)})
	f.send(t, s.ID, sessions.UserMessage("Go."))

	var got []sessions.Event
	var errs []error
	for ev, err := range st.Events() {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, ev)
	}
	require.Equal(t, []string{"user.message", "session.status_running", "span.model_request_start"}, typesOf(got))
	require.Len(t, errs, 1, "the cut surfaces and ends the stream")
	require.ErrorIs(t, errs[0], io.ErrUnexpectedEOF)
	require.Equal(t, 1, f.env.Count("GET", streamPath(s.ID)), "not reopened")
}

// TestStreamErrorFrame: an error event ends the stream with the typed
// error, reconnection or not.
func TestStreamErrorFrame(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	f.env.Server.InjectFault(refserver.Fault{Path: streamPath(s.ID), StreamCutAfter: 2, Status: 529, ErrorType: "overloaded_error", Message: "Overloaded"})
	st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	defer st.Close()
	f.send(t, s.ID, sessions.UserMessage("Go."))
	n := 0
	var last error
	for _, err := range st.Events() {
		if err != nil {
			last = err
			continue
		}
		n++
	}
	require.Equal(t, 2, n)
	var apiErr *apierror.Error
	require.ErrorAs(t, last, &apiErr)
	require.Equal(t, apierror.Type("overloaded_error"), apiErr.Type)
	require.Equal(t, "Overloaded", apiErr.Message)
	require.ErrorIs(t, last, apierror.ErrOverloaded)
}

// TestStreamCloseFromAnotherGoroutine: Close ends a range blocked waiting
// for an event, without an error. Close comes once the range reads the
// stream's body (reftest.FirstRead); the range ending proves Close ended
// it, and the minute of the context only turns a Close that did not into
// a failure rather than a hang.
func TestStreamCloseFromAnotherGoroutine(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	for _, noReconnect := range []bool{false, true} {
		reading, read := reftest.FirstRead("/events/stream")
		c, cancel := context.WithTimeout(ctx, time.Minute)
		st, err := f.client.Sessions.Events.Stream(c, s.ID, sessions.StreamParams{NoReconnect: noReconnect}, reading)
		require.NoError(t, err)
		closed := reftest.When(t, read, func() error { // the range waits for an event
			return errors.Join(st.Close(), st.Close()) // idempotent
		})
		for ev, err := range st.Events() {
			t.Fatalf("unexpected %v %v", ev, err)
		}
		require.NoError(t, <-closed)
		for ev, err := range st.Events() {
			t.Fatalf("a closed stream yields nothing: %v %v", ev, err)
		}
		cancel()
	}

	// Closed before ranging: nothing is yielded and the connection is released.
	st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	require.NoError(t, st.Close())
	for ev, err := range st.Events() {
		t.Fatalf("unexpected %v %v", ev, err)
	}
}

// TestStreamContextEnds: the context ends (cancelled, or its deadline
// passes) while the range waits for an event: the range yields the
// context's own error once and ends. The context ends once the range reads
// the stream's body (reftest.FirstRead), and the deadline is one the test
// expires itself (reftest.Expiring): a timeout could pass before Stream
// even returned on a slow machine.
func TestStreamContextEnds(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	for _, noReconnect := range []bool{false, true} {
		reading, read := reftest.FirstRead("/events/stream")
		c, cancel := context.WithCancel(ctx)
		st, err := f.client.Sessions.Events.Stream(c, s.ID, sessions.StreamParams{NoReconnect: noReconnect}, reading)
		require.NoError(t, err)
		reftest.When(t, read, func() error { cancel(); return nil })
		var errs []error
		for ev, err := range st.Events() {
			require.Nil(t, ev)
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		require.Equal(t, context.Canceled, errs[0], "the context's own error")
		require.NoError(t, st.Close())
	}

	reading, read := reftest.FirstRead("/events/stream")
	c, expire := reftest.Expiring(ctx)
	defer expire()
	st, err := f.client.Sessions.Events.Stream(c, s.ID, sessions.StreamParams{}, reading)
	require.NoError(t, err)
	defer st.Close()
	reftest.When(t, read, func() error { expire(); return nil })
	n := 0
	for _, err := range st.Events() {
		require.Equal(t, context.DeadlineExceeded, err)
		n++
	}
	require.Equal(t, 1, n)
}

// TestStreamBreakCloses: breaking out of the loop closes the stream.
func TestStreamBreakCloses(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	f.send(t, s.ID, sessions.UserMessage("Go."))
	for ev, err := range st.Events() {
		require.NoError(t, err)
		require.Equal(t, sessions.EventUserMessage, ev.Type())
		break
	}
	for _, err := range st.Events() {
		require.NoError(t, err, "closed: nothing more")
		t.Fatal("a stream left by a break yields nothing")
	}
}

// TestStreamEnds: the stream ends without an error when the session is
// archived or deleted.
func TestStreamEnds(t *testing.T) {
	f := newFixture(t)
	drain := func(t *testing.T, st *sessions.EventStream) []sessions.Event {
		t.Helper()
		var got []sessions.Event
		for ev, err := range st.Events() {
			require.NoError(t, err)
			got = append(got, ev)
		}
		return got
	}

	t.Run("archived", func(t *testing.T) {
		s := f.newSession(t, f.params())
		reading, read := reftest.FirstRead("/events/stream")
		st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{}, reading)
		require.NoError(t, err)
		defer st.Close()
		archived := reftest.When(t, read, func() error { _, err := f.client.Sessions.Archive(ctx, s.ID); return err })
		drain(t, st)
		require.NoError(t, <-archived)

		// A stream of an archived session ends at once.
		st, err = f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
		require.NoError(t, err)
		defer st.Close()
		require.Empty(t, drain(t, st))
	})
	t.Run("archived while running: the interrupt's events, then the end", func(t *testing.T) {
		s := f.running(t, f.params())
		reading, read := reftest.FirstRead("/events/stream")
		st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{}, reading)
		require.NoError(t, err)
		defer st.Close()
		archived := reftest.When(t, read, func() error { _, err := f.client.Sessions.Archive(ctx, s.ID); return err })
		got := drain(t, st)
		require.NoError(t, <-archived)
		require.NotEmpty(t, got)
		require.Equal(t, sessions.EventSessionStatusIdle, got[len(got)-1].Type())
	})
	t.Run("archived while the stream is away: what it missed, then the end", func(t *testing.T) {
		s := f.running(t, f.params())
		f.env.Server.InjectFault(refserver.Fault{Path: streamPath(s.ID), StreamCutAfter: 1})
		st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
		require.NoError(t, err)
		defer st.Close()
		f.send(t, s.ID, sessions.UserMessage("Also this.")) // the one event before the cut
		var got []sessions.Event
		for ev, err := range st.Events() {
			require.NoError(t, err)
			if got = append(got, ev); len(got) == 1 {
				_, err := f.client.Sessions.Archive(ctx, s.ID) // before the stream reconnects
				require.NoError(t, err)
			}
		}
		history := f.history(t, s.ID)
		first := slices.IndexFunc(history, func(ev sessions.Event) bool { return eventIDs([]sessions.Event{ev})[0] == eventIDs(got)[0] })
		require.Equal(t, eventIDs(history[first:]), eventIDs(got))
		require.Greater(t, len(got), 1)
		require.Equal(t, sessions.EventSessionStatusIdle, got[len(got)-1].Type())
	})
	t.Run("archived while away, the history read failing once: what it missed, then the end", func(t *testing.T) {
		s := f.running(t, f.params())
		client := f.env.Client(t, option.WithMaxRetries(0)) // the stream retries, not the call
		f.env.Server.InjectFault(refserver.Fault{Path: streamPath(s.ID), StreamCutAfter: 1})
		st, err := client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
		require.NoError(t, err)
		defer st.Close()
		f.send(t, s.ID, sessions.UserMessage("Also this."))
		var got []sessions.Event
		for ev, err := range st.Events() {
			require.NoError(t, err)
			if got = append(got, ev); len(got) == 1 {
				_, err := f.client.Sessions.Archive(ctx, s.ID)
				require.NoError(t, err)
				f.env.Server.InjectFault(refserver.Fault{Method: http.MethodGet, Path: "/v1/sessions/" + s.ID + "/events", Status: http.StatusInternalServerError})
			}
		}
		history := f.history(t, s.ID)
		first := slices.IndexFunc(history, func(ev sessions.Event) bool { return eventIDs([]sessions.Event{ev})[0] == eventIDs(got)[0] })
		require.Equal(t, eventIDs(history[first:]), eventIDs(got))
		require.Greater(t, len(got), 1)
		require.Equal(t, sessions.EventSessionStatusIdle, got[len(got)-1].Type())
	})
	t.Run("deleted", func(t *testing.T) {
		s := f.newSession(t, f.params())
		reading, read := reftest.FirstRead("/events/stream")
		st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{}, reading)
		require.NoError(t, err)
		defer st.Close()
		deleted := reftest.When(t, read, func() error { err := f.client.Sessions.Delete(ctx, s.ID); return err })
		got := drain(t, st)
		require.NoError(t, <-deleted)
		require.Len(t, got, 1)
		ev := got[0].(*sessions.SessionDeletedEvent)
		require.Regexp(t, sevtID, ev.ID)
	})
}

// TestStreamIgnoresPings: keep-alive pings never reach the caller. The
// turn is sent only once the client has read a few pings (reftest.OnRead),
// so the stream the caller ranges over surely carries them.
func TestStreamIgnoresPings(t *testing.T) {
	env := reftest.New(t, refserver.WithPingInterval(5*time.Millisecond))
	f := &fixture{env: env, client: env.Client(t)}
	f.agent = f.newAgent(t, agents.CreateParams{Name: "Researcher", Model: agents.ModelID(models.VendorHaiku55)})
	e, err := f.client.Environments.Create(ctx, environments.CreateParams{Name: "python"})
	require.NoError(t, err)
	f.envID = e.ID
	s := f.newSession(t, f.params())

	const wantPings = 3
	var pings atomic.Int32
	var once sync.Once
	pinged := make(chan struct{})
	watch := reftest.OnRead("/events/stream", func(p []byte) {
		if pings.Add(int32(bytes.Count(p, []byte("event: ping\n")))) >= wantPings {
			once.Do(func() { close(pinged) })
		}
	})
	st, err := f.client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{NoReconnect: true}, watch)
	require.NoError(t, err)
	defer st.Close()
	type result struct {
		got []sessions.Event
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() { done <- r }()
		for ev, err := range st.Events() {
			if err != nil {
				r.err = err
				return
			}
			if r.got = append(r.got, ev); ev.Type() == sessions.EventSessionStatusIdle {
				return
			}
		}
	}()
	select {
	case <-pinged:
	case r := <-done:
		t.Fatalf("the stream ended before %d pings: %v %v", wantPings, typesOf(r.got), r.err)
	case <-time.After(time.Minute): // only turns pings that never come into a failure
		t.Fatalf("no %d pings read", wantPings)
	}
	f.script(t, s.ID, []refserver.Step{refserver.Say("hi")})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	r := <-done
	require.NoError(t, r.err)
	got := r.got
	require.Equal(t, sessions.EventType("user.message"), got[0].Type(), "the first event is the echo")
	require.Equal(t, "hi", sessions.Text(only[*sessions.AgentMessageEvent](t, got).Content))
	require.Equal(t, sessions.EventSessionStatusIdle, got[len(got)-1].Type())
}

// TestStreamOpensBeforeSend: Stream returns once the server subscribed, so
// an event sent right after is delivered.
func TestStreamOpensBeforeSend(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	for range 20 {
		tl := f.tail(t, s.ID, sessions.StreamParams{NoReconnect: true})
		echo := f.send(t, s.ID, sessions.Interrupt())
		got := tl.until(isType(sessions.EventInterrupt))
		require.Equal(t, eventIDs(echo), eventIDs(got[len(got)-1:]))
		require.NoError(t, tl.stream.Close())
	}
}
