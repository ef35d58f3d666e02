package toolrunner_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// failSends makes the next times answers (or any POST of events) of the
// session fail with 503, asking the client to come back after wait.
func failSends(f *fixture, sessionID string, times int, wait string) {
	f.env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: "/v1/sessions/" + sessionID + "/events",
		Status: http.StatusServiceUnavailable, Header: http.Header{"Retry-After-Ms": {wait}}, Times: times})
}

// answerKeys returns the Idempotency-Key of each POST of events the
// server received for the session after the first skip ones.
func answerKeys(f *fixture, sessionID string, skip int) []string {
	var keys []string
	for _, req := range f.env.Server.Requests() {
		if req.Method == http.MethodPost && req.Path == "/v1/sessions/"+sessionID+"/events" {
			keys = append(keys, req.Header.Get("Idempotency-Key"))
		}
	}
	return keys[skip:]
}

// TestAnswerOutlastsLongFailures: an answer whose sending fails for much
// longer than the pipeline's retries (20 failed attempts) is sent until it
// is recorded, once, under one Idempotency-Key; the turn goes on and the
// session ends normally.
func TestAnswerOutlastsLongFailures(t *testing.T) {
	const failures = 20
	f := newFixture(t)
	b := newBlocker()
	slow := b.tool("slow")
	a := f.agent(t, []tool.Tool{slow})
	id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Done.")})
	var e ends
	var l logs
	r := newRunner(t, f, []tool.Tool{slow}, e.option(), toolrunner.WithLogger(l.logger()))
	wait := running(t, r, ctx, id)
	f.say(t, id, "Go.")
	b.waitStarted(t)
	failSends(f, id, failures, "1")
	close(b.release)

	evs := f.waitTurns(t, id, 1)
	require.Equal(t, "released", text(onlyResult(t, evs).Content))
	_, err := f.client.Sessions.Archive(ctx, id)
	require.NoError(t, err)
	require.NoError(t, wait())
	require.Equal(t, []error{nil}, e.of(id))

	keys := answerKeys(f, id, 1) // the first is the test's message
	require.Len(t, keys, failures+1, "every failed attempt, then the one that was recorded")
	for _, k := range keys {
		require.Equal(t, keys[0], k, "one key for every attempt of the answer")
	}
	// The pipeline tries 3 times per send: 6 sends failed, the 7th got through.
	require.True(t, l.has("WARN", "retrying", "attempt=6"), "the runner sent it again and again: %v", l.all())
	require.False(t, l.has("ERROR"), "%v", l.all())
}

// TestUnsentAnswersAreReported: when the runner stops following a session
// (Close's context ends) while an answer still fails to go through, the
// session's end error lists it, with the result itself, so that the
// application can send it; a call whose tool was cancelled is listed
// without an answer.
func TestUnsentAnswersAreReported(t *testing.T) {
	f := newFixture(t)
	done, stuck := newBlocker(), newBlocker()
	a := f.agent(t, []tool.Tool{done.tool("lookup_order"), stuck.tool("slow")})
	answered := f.session(t, a, []refserver.Step{useOrder("lookup_order", "1"), refserver.Say("Done.")})
	busy := f.session(t, a, []refserver.Step{useOrder("slow", "2"), refserver.Say("Done.")})
	var e ends
	var l logs
	r := newRunner(t, f, []tool.Tool{done.tool("lookup_order"), stuck.tool("slow")}, e.option(), toolrunner.WithLogger(l.logger()))
	require.NoError(t, r.Add(answered))
	require.NoError(t, r.Add(busy))
	f.say(t, answered, "Look it up.")
	f.say(t, busy, "Take your time.")
	answeredCall := done.waitStarted(t)
	runningCall := stuck.waitStarted(t)

	// The answer cannot be sent, and the runner would wait long before
	// trying again.
	failSends(f, answered, 1<<20, "60000")
	close(done.release)
	eventually(t, func() bool { return l.has("WARN", "sending the answer failed; retrying", answeredCall) }, "the answer to fail")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	require.ErrorIs(t, r.Close(cancelled), context.Canceled)
	require.ErrorIs(t, stuck.waitEnded(t), toolrunner.ErrClosed)

	errs := e.of(answered)
	require.Len(t, errs, 1)
	require.ErrorIs(t, errs[0], toolrunner.ErrClosed)
	var unsent *toolrunner.UnsentError
	require.ErrorAs(t, errs[0], &unsent)
	require.Equal(t, answered, unsent.SessionID)
	require.Equal(t, []toolrunner.UnsentAnswer{{CallID: answeredCall, Tool: "lookup_order", Result: tool.Text("released")}}, unsent.Answers)
	require.Empty(t, unsent.Unanswered)
	require.Contains(t, unsent.Error(), answeredCall)

	errs = e.of(busy)
	require.Len(t, errs, 1)
	require.ErrorIs(t, errs[0], toolrunner.ErrClosed)
	require.ErrorAs(t, errs[0], &unsent)
	require.Empty(t, unsent.Answers, "a cancelled tool has no answer")
	require.Equal(t, []toolrunner.UnansweredCall{{CallID: runningCall, Tool: "slow"}}, unsent.Unanswered)

	// The application sends the answer itself; the turn goes on.
	f.env.Server.ClearFaults()
	require.ErrorAs(t, e.of(answered)[0], &unsent)
	f.send(t, answered, unsent.Answers[0].Param())
	require.Equal(t, "released", text(onlyResult(t, f.waitTurns(t, answered, 1)).Content))
}

// TestUnsentDecisionIsReported: the same for a confirmation: Run's error
// holds the decision.
func TestUnsentDecisionIsReported(t *testing.T) {
	f := newFixture(t)
	a := f.agent(t, nil, askingToolset)
	id := f.session(t, a, []refserver.Step{refserver.UseTool("bash", map[string]any{"command": "ls"}), refserver.Say("Done.")})
	asked := make(chan string, 1)
	release := make(chan struct{})
	var l logs
	r := newRunner(t, f, nil, toolrunner.WithLogger(l.logger()),
		toolrunner.WithConfirm(func(_ context.Context, req toolrunner.ConfirmRequest) toolrunner.Decision {
			asked <- req.ToolUseID
			<-release
			return toolrunner.Deny("Not today.")
		}))
	rc, stop := context.WithCancel(ctx)
	defer stop()
	wait := running(t, r, rc, id)
	f.say(t, id, "Go.")
	var callID string
	select {
	case callID = <-asked:
	case <-time.After(waitTimeout):
		t.Fatal("no confirmation asked")
	}
	failSends(f, id, 1<<20, "60000")
	close(release)
	eventually(t, func() bool { return l.has("WARN", "sending the answer failed; retrying", callID) }, "the decision to fail")
	stop()

	err := wait()
	require.ErrorIs(t, err, context.Canceled)
	var unsent *toolrunner.UnsentError
	require.ErrorAs(t, err, &unsent)
	deny := toolrunner.Deny("Not today.")
	require.Equal(t, []toolrunner.UnsentAnswer{{CallID: callID, Tool: "bash", Decision: &deny}}, unsent.Answers)

	f.env.Server.ClearFaults()
	f.send(t, id, unsent.Answers[0].Param())
	confs := eventsOf[*sessions.ToolConfirmationEvent](f.waitTurns(t, id, 1))
	require.Len(t, confs, 1)
	require.Equal(t, "Not today.", confs[0].DenyMessage)
}

// TestRetriesEndWhenTheCallIsClosed: an answer still failing stops being
// sent when the stream shows the call closed (an interrupt) or answered
// elsewhere; nothing is owed then, and the runner goes on.
func TestRetriesEndWhenTheCallIsClosed(t *testing.T) {
	for _, tt := range []struct {
		name  string
		close func(f *fixture, sessionID, callID string)
		log   string
	}{
		{"interrupt", func(f *fixture, id, _ string) { f.send(t, id, sessions.Interrupt()) }, "answer not sent: the call was closed"},
		{"answered elsewhere", func(f *fixture, id, callID string) {
			f.send(t, id, sessions.CustomToolResult(callID, "answered by hand"))
		}, "the call is no longer pending"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			b := newBlocker()
			slow := b.tool("slow")
			a := f.agent(t, []tool.Tool{slow})
			id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Done.")})
			var l logs
			r := newRunner(t, f, []tool.Tool{slow}, toolrunner.WithLogger(l.logger()))
			rc, stop := context.WithCancel(ctx)
			defer stop()
			wait := running(t, r, rc, id)
			f.say(t, id, "Go.")
			callID := b.waitStarted(t)
			// One failed send (the pipeline's 3 attempts); then the runner
			// waits long before the next.
			failSends(f, id, 3, "60000")
			close(b.release)
			eventually(t, func() bool { return l.has("WARN", "sending the answer failed; retrying", callID) }, "the answer to fail")

			tt.close(f, id, callID)
			eventually(t, func() bool { return l.has(tt.log, callID) }, "the runner to stop sending")
			stop()
			err := wait()
			require.ErrorIs(t, err, context.Canceled)
			var unsent *toolrunner.UnsentError
			require.False(t, errors.As(err, &unsent), "nothing is owed: %v", err)
			for _, rs := range results(f.history(t, id)) {
				require.Len(t, rs, 1)
			}
		})
	}
}

// TestUnsentAnswersAreReportedWhenTheStreamFails: a stream that fails for
// good (a permission refused) stops the runner following the session; an
// answer that then fails to go through is reported, not retried with
// nobody following.
func TestUnsentAnswersAreReportedWhenTheStreamFails(t *testing.T) {
	f := newFixture(t)
	b := newBlocker()
	slow := b.tool("slow")
	a := f.agent(t, []tool.Tool{slow})
	id := f.session(t, a, []refserver.Step{useOrder("slow", "1"), refserver.Say("Done.")})
	f.say(t, id, "Go.") // the call waits before the runner starts
	f.env.Server.InjectFault(refserver.Fault{Method: http.MethodGet, Path: streamPath(id), Status: http.StatusForbidden, Times: 1 << 20})
	var e ends
	r := newRunner(t, f, []tool.Tool{slow}, e.option())
	wait := running(t, r, ctx, id)
	callID := b.waitStarted(t) // found by reconciling with the history
	failSends(f, id, 1<<20, "60000")
	close(b.release)

	err := wait()
	require.ErrorIs(t, err, apierror.ErrPermission)
	var unsent *toolrunner.UnsentError
	require.ErrorAs(t, err, &unsent)
	require.Equal(t, []toolrunner.UnsentAnswer{{CallID: callID, Tool: "slow", Result: tool.Text("released")}}, unsent.Answers)
	require.Equal(t, []error{err}, e.of(id))
}
