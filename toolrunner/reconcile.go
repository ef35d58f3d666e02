package toolrunner

import (
	"slices"

	"github.com/agentplatform/agentplatform-go/sessions"
)

// Reconciliation: what a runner that starts (or restarts) on a session must
// do before following its live events (docs/session-events-wire.md 6.4,
// 6.5, 7.5).
//
// The calls waiting on the client are those of the latest
// session.status_idle's requires_action.event_ids that have no answer, and
// any call recorded after that idle (the session is running again, or the
// idle has not been recorded yet) that has no answer and no interrupt
// after it. A confirmation that allows a sandbox call of the runner's does
// not answer it (its user.tool_result does; the id stays listed until
// then); one that denies it does, as a confirmation answers any other
// call. Answers are always recorded after their call, so walking the
// history newest first until that idle and the events of its pending ids
// have been seen finds every answer to them, and the walk stays short:
// usually one page. Its newest event is where the stream resumes, so no
// event recorded meanwhile is lost or handled twice.

// reconcilePage is the page size of the walk: enough for one turn's tail.
const reconcilePage = 100

// historyStart is used for a session with no history yet, so that nothing
// recorded between the walk and the stream is missed.
var historyStart = sessions.HistoryStart

type reconciled struct {
	pos     sessions.Position // the newest event seen: the stream resumes after it
	pending []sessions.Event  // call events waiting on the client, oldest first
	allowed map[string]bool   // calls a confirmation allowed
	idle    bool              // the latest turn ended and nothing ran since
}

func (f *follower) reconcile() (reconciled, error) {
	rec := reconciled{pos: historyStart, allowed: map[string]bool{}}
	answered := map[string]bool{}
	closedAll, closedThreads := false, map[string]bool{}
	var needed map[string]bool // the latest idle's unanswered ids; nil until it is found
	running, first := false, true
	params := sessions.EventListParams{Order: sessions.OrderDesc, Limit: reconcilePage}
	for ev, err := range f.r.events.All(f.readCtx, f.id, params, f.r.cfg.requestOpts...) {
		if err != nil {
			return reconciled{}, err
		}
		pe, ok := ev.(sessions.PersistedEvent)
		if !ok {
			continue
		}
		if first {
			rec.pos, first = sessions.PositionOf(pe), false
		}
		switch ev := ev.(type) {
		case *sessions.CustomToolResultEvent:
			answered[ev.CustomToolUseID] = true
		case *sessions.ToolConfirmationEvent:
			if ev.Result == sessions.ConfirmationAllow {
				rec.allowed[ev.ToolUseID] = true
			} else {
				answered[ev.ToolUseID] = true
			}
		case *sessions.ToolResultEvent:
			answered[ev.ToolUseID] = true
		case *sessions.AgentToolResultEvent:
			answered[ev.ToolUseID] = true // closed by the server
		case *sessions.InterruptEvent:
			if needed == nil { // an interrupt closes the calls pending when it was sent
				if ev.ThreadID == "" {
					closedAll = true
				} else {
					closedThreads[ev.ThreadID] = true
				}
			}
		case *sessions.SessionStatusRunningEvent:
			if needed == nil {
				running = true
			}
		case *sessions.SessionStatusIdleEvent:
			if needed != nil {
				break
			}
			needed = map[string]bool{}
			switch reason := ev.StopReason.(type) {
			case sessions.StopRequiresAction:
				for _, id := range reason.EventIDs {
					if !answered[id] {
						needed[id] = true
					}
				}
			case sessions.StopEndTurn, sessions.StopRetriesExhausted, sessions.StopBudgetReached, sessions.StopRefusal:
				rec.idle = !running
			}
		case *sessions.AgentCustomToolUseEvent, *sessions.AgentToolUseEvent, *sessions.AgentMCPToolUseEvent:
			id := pe.Meta().ID
			// An allowed call is answered unless the runner runs it.
			done := answered[id] || rec.allowed[id] && !f.runsSandbox(ev)
			switch {
			case needed == nil: // recorded after the latest idle
				if !done && !closedAll && !closedThreads[pe.Meta().ThreadID] {
					rec.pending = append(rec.pending, ev)
				}
			case needed[id]:
				delete(needed, id)
				if !done {
					rec.pending = append(rec.pending, ev)
				}
			}
		}
		if needed != nil && len(needed) == 0 {
			break
		}
	}
	slices.Reverse(rec.pending)
	if len(rec.pending) > 0 {
		f.log.Debug("toolrunner: calls pending in the history", "count", len(rec.pending))
	}
	return rec, nil
}

// runsSandbox reports a call of one of the runner's sandbox tools.
func (f *follower) runsSandbox(ev sessions.Event) bool {
	use, ok := ev.(*sessions.AgentToolUseEvent)
	if !ok {
		return false
	}
	_, ok = f.r.sandbox[use.Name]
	return ok
}
