package sessions

import (
	"encoding/json"
	"math"
	"time"
)

// Budget stop and resume (docs/session-events-wire.md 6.8). Before every
// model request the exact consumed cost is compared with the cap; at or
// above it the thread pauses instead. A request in flight always finishes,
// so the cost may pass the cap by one request per thread. Update Session
// raising the cap above the consumed cost, or removing the budget, resumes
// the paused threads.

// capNano is a budget cap (USD cents) in nano-dollars, saturating: an
// 18-digit cap does not fit int64 once scaled, and no session reaches it.
func capNano(cents int64) int64 {
	if cents > math.MaxInt64/nanoPerCent {
		return math.MaxInt64
	}
	return cents * nanoPerCent
}

func (e *engine) budgetReached() bool {
	b := e.x.budget
	return b != nil && e.acct.exactNano(e.x) >= capNano(b.maxListCost)
}

func (e *engine) pauseAtBudget(th *thread) {
	th.turn.wait = waitBudget
	e.stopped(th, stopReason{typ: "budget_reached"})
}

// resumeBudget resumes the threads paused at the budget, if the budget no
// longer stops them. Update Session calls it after recording
// session.updated.
func (e *engine) resumeBudget(now time.Time) {
	e.enter(now)
	if !e.budgetPaused() || e.budgetReached() {
		return
	}
	for _, th := range e.threads {
		if th.turn != nil && th.turn.wait == waitBudget {
			e.resume(th)
		}
	}
	e.run()
}

// sessionUpdate says which fields an Update Session changed.
type sessionUpdate struct{ agent, budget, metadata, title bool }

func (u sessionUpdate) any() bool { return u.agent || u.budget || u.metadata || u.title }

// sessionUpdatedJSON carries only the keys that changed
// (docs/session-events-wire.md 4.12): an
// absent key means "unchanged", null means removed or cleared.
type sessionUpdatedJSON struct {
	Agent    json.RawMessage `json:"agent,omitempty"`
	Budget   json.RawMessage `json:"budget,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Title    json.RawMessage `json:"title,omitempty"`
}

// updated records session.updated after Update Session changed u's fields.
// The new configuration applies from the next model request.
func (e *engine) updated(now time.Time, u sessionUpdate) {
	e.enter(now)
	var ev sessionUpdatedJSON
	if u.agent {
		ev.Agent = mustJSON(e.x.agent.SessionAgentJSON())
	}
	if u.budget {
		ev.Budget = mustJSON(e.x.budget.view())
	}
	if u.metadata {
		ev.Metadata = mustJSON(e.x.metadata)
	}
	if u.title {
		ev.Title = mustJSON(e.x.title)
	}
	e.emit("session.updated", ev)
}
