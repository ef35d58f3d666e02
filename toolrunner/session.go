package toolrunner

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/backoff"
	"github.com/agentplatform/agentplatform-go/internal/stream"
	"github.com/agentplatform/agentplatform-go/internal/toolpanic"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
)

// A follower reads one session's events on its own goroutine and starts a
// goroutine per call it dispatches; tools run in the Runner's pool, so a
// reader never waits for a tool or a slot.
//
// Three contexts govern it. readCtx stops the reading (Remove, Close,
// Run's context). hardCtx, its parent, cancels the calls too: at once for
// Run's context and when the session has ended, after the grace period for
// Remove and Close. retryCtx, also its child, ends the retries of answers
// when the stream has failed for good: nobody follows the session any more.
type follower struct {
	r   *Runner
	id  string
	log *slog.Logger

	parent      context.Context // Run's context (Background for Add)
	hardCtx     context.Context
	abortAll    context.CancelCauseFunc
	readCtx     context.Context
	stopRead    context.CancelCauseFunc
	retryCtx    context.Context
	stopRetries context.CancelCauseFunc

	done chan struct{}
	err  error // set before done is closed

	mu    sync.Mutex
	calls map[callRef]*call // dispatched and not finished
	wg    sync.WaitGroup    // the call goroutines
	left  leftCalls         // calls left waiting when the runner stopped following

	// Reader goroutine only.
	seen       map[callRef]struct{} // calls dispatched whose answer is not yet recorded
	dispatched uint64               // calls dispatched so far: the next call's seq
	idle       bool                 // the last turn ended and nothing ran since
	idleFired  atomic.Bool          // the idle timeout closed the stream
	// asking are the sandbox calls of the runner's tools that wait for a
	// confirmation: one that allows them starts them.
	asking map[string]*sessions.AgentToolUseEvent
	// allowed are the calls whose confirmation allowed them, found by
	// reconciliation; set only while its pending calls are handled.
	allowed map[string]bool
}

func newFollower(r *Runner, parent context.Context, sessionID string) *follower {
	log := r.log.With("session_id", sessionID)
	base := parent
	if r.logPanics {
		// A tool's panic stack goes to the log, never to the model.
		base = toolpanic.WithHandler(parent, func(ctx context.Context, name string, v any, stack []byte) {
			log.ErrorContext(ctx, "toolrunner: tool panicked", append([]any{"call_id", CallID(ctx)}, toolpanic.Attrs(name, v, stack)...)...)
		})
	}
	hardCtx, abort := context.WithCancelCause(base)
	readCtx, stopRead := context.WithCancelCause(hardCtx)
	retryCtx, stopRetries := context.WithCancelCause(hardCtx)
	return &follower{
		r: r, id: sessionID, log: log,
		parent: parent, hardCtx: hardCtx, abortAll: abort, readCtx: readCtx, stopRead: stopRead,
		retryCtx: retryCtx, stopRetries: stopRetries,
		done: make(chan struct{}), calls: map[callRef]*call{}, seen: map[callRef]struct{}{},
		asking: map[string]*sessions.AgentToolUseEvent{},
	}
}

// Causes of cancellation, seen by tools through context.Cause.
var (
	errInterrupted = errors.New("toolrunner: the call was closed by an interrupt or the end of the turn")
	errAnswered    = errors.New("toolrunner: the call was answered by another consumer")
	errEnded       = errors.New("toolrunner: the session has ended")
	errToolTimeout = errors.New("toolrunner: the tool timed out")
)

// stop stops the reading; running calls go on.
func (f *follower) stop(cause error) { f.stopRead(cause) }

// abort cancels the running calls as well; their results are not sent.
func (f *follower) abort(cause error) { f.abortAll(cause) }

// drain waits for f to end, cancelling its calls when ctx ends first.
func (f *follower) drain(ctx context.Context, cause error) error {
	select {
	case <-f.done:
		return nil
	case <-ctx.Done():
	}
	f.abort(cause)
	<-f.done
	return ctx.Err()
}

// run follows the session, then waits for its calls and reports the end.
func (f *follower) run() {
	defer f.r.running.Done()
	err, ended := f.follow()
	switch {
	case ended:
		f.abort(errEnded) // nothing can be answered any more
	case err != nil && f.readCtx.Err() == nil:
		// The stream failed for good: the answers still owed are reported
		// rather than retried with nobody following the session.
		f.stopRetries(err)
	}
	f.wg.Wait()
	f.abort(context.Canceled) // releases the contexts
	f.r.forget(f)
	if err != nil {
		err = f.left.wrap(f.id, err)
	}
	f.err = err
	var unsent *UnsentError
	switch {
	case err == nil:
		f.log.Debug("toolrunner: stopped following the session")
	case !errors.Is(err, ErrRemoved) && !errors.Is(err, ErrClosed) && !errors.Is(err, f.parent.Err()):
		f.log.Error("toolrunner: the session could not be followed", "error", err.Error())
	case errors.As(err, &unsent):
		f.log.Warn("toolrunner: stopped following the session with calls still waiting", "error", err.Error())
	default:
		f.log.Debug("toolrunner: stopped following the session", "reason", err.Error())
	}
	if fn := f.r.cfg.onSessionEnd; fn != nil {
		fn(f.id, err)
	}
	close(f.done)
}

// stopped returns why the reading was stopped: Run's context's error, or
// ErrRemoved / ErrClosed.
func (f *follower) stopped() error {
	if err := f.parent.Err(); err != nil {
		return err
	}
	return context.Cause(f.readCtx)
}

// Reopening the stream after it failed for good (the SDK's own
// reconnection gave up, or the server ended it with an error event).
const (
	minResume = time.Second
	maxResume = 30 * time.Second
)

// follow reconciles with the history, then reads the stream until the
// reading is stopped or the session ends. ended reports a session that is
// over (terminated, deleted, archived).
func (f *follower) follow() (err error, ended bool) {
	rec, err := f.reconcileRetrying()
	if err != nil {
		return err, false
	}
	now := time.Now()
	f.allowed = rec.allowed
	for _, ev := range rec.pending {
		f.handle(ev, now)
	}
	f.allowed = nil
	f.idle = rec.idle
	pos := rec.pos
	failures := 0
	for {
		st, err := f.r.events.Stream(f.readCtx, f.id, sessions.StreamParams{ResumeAfter: pos}, f.r.cfg.requestOpts...)
		var delivered bool
		if err == nil {
			delivered, err = f.consume(st, &pos)
			st.Close()
		}
		switch {
		case f.readCtx.Err() != nil:
			return f.stopped(), false
		case f.idleFired.Load():
			f.log.Debug("toolrunner: idle timeout")
			return nil, false
		case err == nil, errors.Is(err, apierror.ErrNotFound):
			// The stream ends without an error only when the session is
			// over; a 404 is a session deleted while the stream was away.
			return nil, true
		case permanent(err):
			return err, false
		}
		if delivered {
			failures = 0
		}
		wait := resumeWait(failures)
		failures++
		f.log.Warn("toolrunner: the event stream failed; resuming", "error", err.Error(), "wait", wait)
		if !sleep(f.readCtx, wait) {
			return f.stopped(), false
		}
	}
}

// reconcileRetrying reconciles with the history, retrying failures that
// may pass. A session that does not exist (404) or a refused credential
// fails at once.
func (f *follower) reconcileRetrying() (reconciled, error) {
	for failures := 0; ; failures++ {
		rec, err := f.reconcile()
		switch {
		case err == nil:
			return rec, nil
		case f.readCtx.Err() != nil:
			return reconciled{}, f.stopped()
		case permanent(err):
			return reconciled{}, err
		}
		wait := resumeWait(failures)
		f.log.Warn("toolrunner: reading the history failed; retrying", "error", err.Error(), "wait", wait)
		if !sleep(f.readCtx, wait) {
			return reconciled{}, f.stopped()
		}
	}
}

// idleTimer is the idle timeout's countdown: a *time.Timer, or in tests
// one that fires only when the test says (export_test.go).
type idleTimer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// newIdleTimer starts the idle timeout's countdown. A variable only so
// that a test can decide when the timeout elapses.
var newIdleTimer = func(d time.Duration, f func()) idleTimer { return time.AfterFunc(d, f) }

// consume reads one stream, handling each event; pos follows the last
// persisted event. It reports whether any event arrived, and the error that
// ended the stream: nil means the session is over, whether an event said so
// or the stream ended cleanly.
func (f *follower) consume(st *sessions.EventStream, pos *sessions.Position) (delivered bool, err error) {
	var timer idleTimer
	arm := func() {
		if d := f.r.cfg.idleTimeout; d > 0 && f.idle {
			if timer == nil {
				timer = newIdleTimer(d, func() {
					f.idleFired.Store(true)
					st.Close()
				})
			} else {
				timer.Reset(d)
			}
		}
	}
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	arm()
	for ev, err := range st.Events() {
		if err != nil {
			var de *stream.DecodeError
			if errors.As(err, &de) {
				f.log.Warn("toolrunner: an event could not be decoded; skipped", "error", err.Error())
				continue
			}
			return delivered, err
		}
		received := time.Now()
		delivered = true
		if pe, ok := ev.(sessions.PersistedEvent); ok {
			*pos = sessions.PositionOf(pe)
		}
		if fn := f.r.cfg.observeEvent; fn != nil {
			fn(f.id, ev)
		}
		wasIdle := f.idle
		if f.handle(ev, received) {
			return true, nil
		}
		switch {
		case f.idle && !wasIdle:
			arm()
		case !f.idle && wasIdle && timer != nil:
			timer.Stop()
		}
	}
	return delivered, nil
}

// handle acts on one event, in the order the session recorded them, and
// reports a session that is over.
func (f *follower) handle(ev sessions.Event, received time.Time) (final bool) {
	switch ev := ev.(type) {
	case *sessions.AgentCustomToolUseEvent:
		f.idle = false
		f.dispatchTool(ev, received)
	case *sessions.AgentToolUseEvent:
		f.idle = false
		if t, ok := f.r.sandbox[ev.Name]; ok {
			f.handleSandbox(ev, t, received)
			break
		}
		if len(f.r.sandbox) > 0 {
			f.log.Debug("toolrunner: tool not among the runner's sandbox tools; left to other consumers", "call_id", ev.ID, "tool", ev.Name)
		}
		f.maybeConfirm(ev, received)
	case *sessions.AgentMCPToolUseEvent:
		f.idle = false
		f.maybeConfirm(ev, received)
	case *sessions.CustomToolResultEvent:
		f.answered(callRef{id: ev.CustomToolUseID})
	case *sessions.ToolResultEvent:
		f.answered(callRef{id: ev.ToolUseID})
	case *sessions.AgentToolResultEvent:
		// The server closed the call (a denial, or it ran the tool itself).
		delete(f.asking, ev.ToolUseID)
		f.answered(callRef{id: ev.ToolUseID})
	case *sessions.ToolConfirmationEvent:
		f.answered(callRef{id: ev.ToolUseID, confirm: true})
		if use, ok := f.asking[ev.ToolUseID]; ok {
			delete(f.asking, ev.ToolUseID)
			if ev.Result == sessions.ConfirmationAllow {
				f.dispatchSandbox(use, f.r.sandbox[use.Name], received)
			}
		}
	case *sessions.InterruptEvent:
		f.cancel(func(c *call) bool { return ev.ThreadID == "" || c.threadID == ev.ThreadID }, errInterrupted)
		maps.DeleteFunc(f.asking, func(_ string, use *sessions.AgentToolUseEvent) bool {
			return ev.ThreadID == "" || use.ThreadID == ev.ThreadID
		})
	case *sessions.SessionStatusRunningEvent:
		f.idle = false
	case *sessions.SessionStatusIdleEvent:
		switch reason := ev.StopReason.(type) {
		case sessions.StopRequiresAction:
			// Calls not listed are no longer waiting: answered, or closed.
			listed := make(map[string]bool, len(reason.EventIDs))
			for _, id := range reason.EventIDs {
				listed[id] = true
			}
			f.cancel(func(c *call) bool { return !listed[c.id] }, errInterrupted)
			maps.DeleteFunc(f.asking, func(id string, _ *sessions.AgentToolUseEvent) bool { return !listed[id] })
			f.idle = false
		case sessions.StopEndTurn, sessions.StopRetriesExhausted, sessions.StopBudgetReached, sessions.StopRefusal:
			// Nothing waits on the client any more: requires_action
			// outranks every other reason (docs/session-events-wire.md
			// 7.5), so every call still running was closed.
			f.cancel(func(*call) bool { return true }, errInterrupted)
			clear(f.seen)
			clear(f.asking)
			f.idle = true
		}
		// A reason newer than this SDK says nothing about the calls.
	case *sessions.SessionStatusTerminatedEvent, *sessions.SessionDeletedEvent:
		return true
	}
	return false
}

// handleSandbox acts on a call of one of the runner's sandbox tools: it
// runs one its policy allowed, or a confirmation allowed (found by
// reconciliation); one that asks waits for its confirmation, which the
// runner decides with WithConfirm; a denied one is closed by the server.
func (f *follower) handleSandbox(ev *sessions.AgentToolUseEvent, t tool.Tool, received time.Time) {
	switch {
	case ev.EvaluatedPermission == sessions.PermissionAllow, f.allowed[ev.ID]:
		f.dispatchSandbox(ev, t, received)
	case ev.EvaluatedPermission == sessions.PermissionAsk:
		f.asking[ev.ID] = ev
		f.maybeConfirm(ev, received)
	}
}

// maybeConfirm decides the confirmation of a call that asks for one, with
// WithConfirm.
func (f *follower) maybeConfirm(ev sessions.Event, received time.Time) {
	if f.r.cfg.confirm == nil {
		return
	}
	if req, ok := confirmRequest(f.id, ev); ok {
		f.dispatchConfirm(req, received)
	}
}

// answered notes that a call was answered (its answer is recorded): a call
// of ours still running was answered by someone else; one whose answer is
// being sent need not be retried any more (that answer may be ours, whose
// response was lost).
func (f *follower) answered(ref callRef) {
	delete(f.seen, ref)
	f.mu.Lock()
	c := f.calls[ref]
	f.mu.Unlock()
	if c != nil {
		c.cancel(errAnswered)
	}
}

// cancel cancels the calls that match: their tools, and the retries of
// their answers.
func (f *follower) cancel(match func(*call) bool, cause error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if match(c) {
			c.cancel(cause)
		}
	}
}

// permanent reports a failure that retrying will not fix.
func permanent(err error) bool { return backoff.Permanent(err) }

// resumeWait doubles from minResume up to maxResume, less up to 25%
// jitter, so that runners cut off together do not come back together.
func resumeWait(failures int) time.Duration { return backoff.Jittered(minResume, maxResume, failures) }

// sleep waits d, or until ctx ends (false).
func sleep(ctx context.Context, d time.Duration) bool { return backoff.Sleep(ctx, d) }
