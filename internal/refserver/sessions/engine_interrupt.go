package sessions

import "time"

// Interrupts, archive, delete and termination (docs/session-events-wire.md
// 6.5, 6.6, 6.9, 2.3).

// interrupt stops the thread threadID, or every thread when it is empty
// (threads are never archived here). For each thread it stops: an
// in-flight request is cancelled (its span ends, is_error false, no
// buffered event), unfinished calls are closed, the turn ends with
// end_turn. Stopping the primary also drops the messages queued for a turn
// (the interrupt jumps the queue) and ends the active outcome.
func (e *engine) interrupt(threadID string) {
	targets := e.threads
	if threadID != "" {
		targets = []*thread{e.threadByID[threadID]}
	}
	for _, th := range targets {
		if th == e.primary {
			e.trigger = nil
			// No evaluation is ever in flight between two engine calls,
			// so there is no span.outcome_evaluation_end to send: the
			// outcome is simply over.
			e.outcome = nil
		}
		e.stopThread(th)
	}
	e.maybeIdle()
}

func (e *engine) stopThread(th *thread) {
	t := th.turn
	if t == nil {
		return
	}
	if r := t.req; r != nil {
		t.req = nil
		r.span.cancel()
		e.endSpan(th, r, false, r.usage(false))
	}
	if c := t.call; c != nil {
		t.call = nil
		e.closeCall(th, c)
	}
	e.endTurnSpan(th, endTurn.typ, true)
	th.turn = nil
	th.lastStop = endTurn
	if th.child {
		e.announceThreadIdle(th, endTurn)
	}
}

// archive interrupts a running session (docs/managed-agents-wire.md 6.2;
// docs/session-events-wire.md 6.9), then ends its
// streams: an archived session is read-only.
func (e *engine) archive(now time.Time) {
	e.enter(now)
	if e.x.running() {
		e.interrupt("")
		e.syncStatus()
		if e.x.running() { // a status set by a test hook, with no turn behind it
			e.x.status = statusIdle
		}
	}
	e.endTurnSpans() // turns left waiting on the client never continue
	e.acct.touch(e.x, now)
	e.closeFeeds(nil)
	e.s.sessionEnded(e.x, now) // work.go
}

// deleted sends session.deleted to the open streams, which end after it; it
// is not listed (the session is gone).
func (e *engine) deleted(now time.Time) {
	e.enter(now)
	e.endTurnSpans()
	e.closeFeeds(e.newEvent(e.newID(), "session.deleted", nil))
	e.s.sessionEnded(e.x, now) // work.go
}

// terminate follows a terminal session.error (docs/session-events-wire.md
// 6.6, 6.9): the
// session ends for good. Every turn stops without further events (a child
// thread's included), queued input and the active outcome are dropped,
// usage and stats are settled for the last time (docs/session-events-wire.md
// 8.1: duration up to the termination), session.status_terminated is
// recorded, and the streams end right after it (same document, 2.3 (b)).
func (e *engine) terminate() {
	for _, th := range e.threads {
		e.endTurnSpan(th, "", true)
		th.turn = nil
	}
	e.trigger = nil
	e.outcome = nil
	e.announced = false
	e.acct.stopActive(e.now)
	e.acct.touch(e.x, e.now)
	e.x.status = statusTerminated
	e.emit("session.status_terminated", nil)
	e.closeFeeds(nil)
	e.s.sessionEnded(e.x, e.now) // work.go
}

// over reports whether the session is terminated: final, nothing runs or
// is announced any more.
func (e *engine) over() bool { return e.x.status == statusTerminated }

// closeFeeds ends the session's streams and every thread's (after final,
// when set): no thread of an archived, terminated or deleted session can
// have a further event.
func (e *engine) closeFeeds(final *sessionEvent) {
	for _, th := range e.threads {
		th.feed.close(final)
	}
}
