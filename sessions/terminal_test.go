package sessions_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Errors and retries through the SDK (docs/session-events-wire.md 6.6,
// 6.9): a request the server retries by itself, and a session terminated
// for good.

// TestRescheduledRequest: session.error (retrying), rescheduled, running
// again, and the turn goes on with a new model request.
func TestRescheduledRequest(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	tl := f.tail(t, s.ID, sessions.StreamParams{})
	f.script(t, s.ID, []refserver.Step{
		refserver.Reschedule("model_overloaded_error", "The model is overloaded."),
		refserver.Hold(),
		refserver.Say("Retried."),
	})
	f.send(t, s.ID, sessions.UserMessage("Go."))

	running := 0
	got := tl.until(func(ev sessions.Event) bool {
		if _, ok := ev.(*sessions.SessionStatusRunningEvent); ok {
			running++
		}
		return running == 2
	})
	require.Equal(t, []string{
		"user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.status_rescheduled", "session.status_running",
	}, typesOf(got))
	require.True(t, got[3].(*sessions.SpanModelRequestEndEvent).IsError)
	failure := got[4].(*sessions.SessionErrorEvent)
	require.Equal(t, sessions.SessionError{Type: "model_overloaded_error", Message: "The model is overloaded.",
		RetryStatus: sessions.RetryRetrying{}}, failure.Error)
	require.IsType(t, &sessions.SessionStatusRescheduledEvent{}, got[5])
	require.IsType(t, &sessions.SessionStatusRunningEvent{}, got[6])

	// Held after the retry started: running.
	held, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	require.Equal(t, sessions.StatusRunning, held.Status)

	require.NoError(t, f.env.Server.ReleaseSession(s.ID))
	rest := tl.untilIdle()
	require.Equal(t, []string{
		"span.model_request_start", "agent.message", "span.model_request_end", "session.usage", "session.status_idle",
	}, typesOf(rest))
	require.Equal(t, "Retried.", sessions.Text(only[*sessions.AgentMessageEvent](t, rest).Content))
	require.Equal(t, sessions.StopEndTurn{}, idleReason(t, rest))

	// Usage counts the failed request and the retry.
	usage := only[*sessions.SessionUsageEvent](t, rest).Usage
	require.Equal(t, int64(2000), usage.InputTokens)
	require.Equal(t, int64(100), usage.OutputTokens)
	idle, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	require.Equal(t, sessions.StatusIdle, idle.Status)
	require.Equal(t, usage, idle.Usage)
}

// TestTerminatedSession: session.error (terminal), then
// session.status_terminated, the last event of the stream; afterwards the
// session refuses every write with a 409 and can still be read, archived
// and deleted.
func TestTerminatedSession(t *testing.T) {
	f := newFixture(t)
	p := f.params()
	p.Resources = []sessions.ResourceParam{sessions.FileResourceParam{FileID: fileID}}
	s := f.newSession(t, p)
	rsc := s.Resources[0].(sessions.FileResource)
	tl := f.tail(t, s.ID, sessions.StreamParams{EventDeltas: []sessions.EventType{sessions.EventAgentMessage}})
	f.script(t, s.ID, []refserver.Step{
		refserver.Hold(),
		refserver.Terminate("billing_error", "The organization is out of credit."),
		refserver.Say("Never sent."),
	})
	f.send(t, s.ID, sessions.UserMessage("Go."))
	f.clock.Advance(2 * time.Second)
	require.NoError(t, f.env.Server.ReleaseSession(s.ID))

	got := tl.until(isType(sessions.EventSessionStatusTerminated))
	require.Equal(t, []string{
		"user.message", "session.status_running", "span.model_request_start", "span.model_request_end",
		"session.error", "session.status_terminated",
	}, typesOf(got))
	require.True(t, got[3].(*sessions.SpanModelRequestEndEvent).IsError)
	require.Equal(t, sessions.SessionError{Type: "billing_error", Message: "The organization is out of credit.",
		RetryStatus: sessions.RetryTerminal{}}, got[4].(*sessions.SessionErrorEvent).Error)
	// A final event: Events ends after it, without an error.
	ev, err, more := tl.next()
	require.False(t, more, "after the termination: %v, %v", ev, err)

	// Get: terminated, with the usage of the failed request and the
	// running time up to the termination, which no longer moves.
	f.clock.Advance(time.Minute)
	done, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err)
	require.Equal(t, sessions.StatusTerminated, done.Status)
	require.Equal(t, int64(1000), done.Usage.InputTokens)
	require.Zero(t, done.Usage.OutputTokens)
	require.Equal(t, sessions.Stats{ActiveSeconds: 2, DurationSeconds: 2}, done.Stats)

	// Every write is a 409 the SDK reports as an invalid request.
	conflict := "session_id: session `" + s.ID + "` is terminated"
	_, err = f.client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("Hello?")}})
	reftest.RequireConflict(t, err, conflict)
	require.True(t, errors.Is(err, apierror.ErrConflict), "%v", err)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 409, apiErr.StatusCode)
	_, err = f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Title: param.Value("Too late")})
	reftest.RequireConflict(t, err, conflict)
	require.ErrorIs(t, err, apierror.ErrConflict)
	_, err = f.client.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: "file_011CNha8iCJcU1wXNR6q4V8x"})
	reftest.RequireConflict(t, err, conflict)
	err = f.client.Sessions.Resources.Delete(ctx, s.ID, rsc.ID)
	reftest.RequireConflict(t, err, conflict)

	// Reads work: the history ends with the termination; a new stream
	// ends at once, without an error.
	page, err := f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{})
	require.NoError(t, err)
	require.Equal(t, eventIDs(withoutPreviews(got)), eventIDs(page.Data))
	again := f.tail(t, s.ID, sessions.StreamParams{})
	ev, err, more = again.next()
	require.False(t, more, "a new stream of a terminated session: %v, %v", ev, err)

	// Archive keeps the status; delete works.
	archived, err := f.client.Sessions.Archive(ctx, s.ID)
	require.NoError(t, err)
	require.Equal(t, sessions.StatusTerminated, archived.Status)
	require.True(t, archived.Archived())
	require.Equal(t, done.Stats, archived.Stats)
	err = f.client.Sessions.Delete(ctx, s.ID)
	require.NoError(t, err)
}
