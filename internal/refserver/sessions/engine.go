package sessions

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/script"
)

// The session engine (docs/session-events-wire.md section 6): it turns
// accepted events into turns of the scripted agent and emits what that
// document specifies, in its order.
//
// It is synchronous and deterministic. Every entry point runs under the
// server's lock (Deps.Lock), inside the request (or test call) that causes
// it: a turn runs until it ends or must wait — for a client's answer to a
// tool call, a Hold, or a budget stop — and the request that supplies what
// it waits for continues it. Nothing runs in the background, so the same requests and
// script always produce the same events.
//
// Entry points: accept and finish (Send Events, Create Session, deployment
// runs), release (ReleaseSession), resumeBudget and updated (Update
// Session), archive and deleted (Archive, Delete Session). A terminated
// session (a Terminate step) is final: Send Events and Update Session
// refuse it before reaching the engine, and run stops at once.

type engine struct {
	s          *Service
	x          *session
	feed       *feed
	selfHosted bool // the environment is self_hosted: sandbox tools run on the client

	primary    *thread
	threads    []*thread // primary first, then children in creation order
	threadByID map[string]*thread

	script       [][]script.Op // queued turns of the primary thread
	turnsStarted int
	trigger      *turnTrigger // a primary turn waiting to start

	// open holds the calls not closed yet, in emission order; closed ones
	// are dropped lazily (liveCalls). callByID keeps every call, so that an
	// answer to a closed one is a 409 rather than a 400.
	open     []*toolCall
	callByID map[string]*toolCall

	outcome     *outcome // the active outcome, nil when none
	evaluations []outcomeEvaluationJSON

	announced bool   // session.status_running sent and no session.status_idle since
	lastIdle  string // idleKey of the last announced idle state
	acct      account
	now       time.Time // time of the current entry point
}

// turnTrigger is what will start the primary's next turn: user messages
// and an outcome accepted while it was idle, or a child's report.
type turnTrigger struct {
	text    string // the first user.message's text, T of the default script
	message bool
	outcome string      // description of the user.define_outcome that started it
	preset  []script.Op // a report turn's steps (the script is not consumed)
}

func (s *Service) newEngine(x *session, selfHosted bool) *engine {
	e := &engine{s: s, x: x, feed: newFeed(&x.events), selfHosted: selfHosted,
		threadByID: map[string]*thread{}, callByID: map[string]*toolCall{}}
	e.primary = &thread{id: s.cfg.ids("sthr_"), name: x.agent.Name, kind: threadKindAgent, feed: e.feed, createdAt: x.createdAt, updatedAt: x.createdAt}
	e.threads = []*thread{e.primary}
	e.threadByID[e.primary.id] = e.primary
	e.script = s.agentScriptLocked(x.agent.Agent.ID)
	e.lastIdle = e.idleKey()
	return e
}

func (e *engine) enter(now time.Time) { e.now = now }

// anyRunning reports whether some thread is running (a Hold counts).
func (e *engine) anyRunning() bool {
	return slices.ContainsFunc(e.threads, (*thread).running)
}

// budgetPaused reports whether some thread is paused at the budget: the
// session is then "at its budget" (docs/session-events-wire.md 3.3, 6.8).
func (e *engine) budgetPaused() bool {
	return slices.ContainsFunc(e.threads, func(th *thread) bool { return th.turn != nil && th.turn.wait == waitBudget })
}

// liveCalls returns the calls not closed yet, in emission order: a long
// session's checks cost what is open, not what ever was.
func (e *engine) liveCalls() []*toolCall {
	live := e.open[:0]
	for _, c := range e.open {
		if c.state != callClosed {
			live = append(live, c)
		}
	}
	clear(e.open[len(live):])
	e.open = live
	return live
}

// blockers lists the calls waiting on the client, in emission order.
func (e *engine) blockers() []string {
	var ids []string
	for _, c := range e.liveCalls() {
		if c.blocking() {
			ids = append(ids, c.id)
		}
	}
	return ids
}

func (e *engine) threadBlockers(th *thread) []string {
	var ids []string
	for _, c := range e.liveCalls() {
		if c.thread == th && c.blocking() {
			ids = append(ids, c.id)
		}
	}
	return ids
}

// startable reports whether the pending trigger can start a turn now: the
// primary is free and nothing waits on the client (a message sent while
// blocked is held until every blocker is resolved,
// docs/session-events-wire.md 3.3).
func (e *engine) startable() bool {
	return e.trigger != nil && e.primary.turn == nil && len(e.blockers()) == 0
}

// status is the session status the engine implies
// (docs/session-events-wire.md 6.1).
func (e *engine) status() string {
	if e.anyRunning() || e.startable() {
		return statusRunning
	}
	return statusIdle
}

// syncStatus writes the implied status to the session, unless it is
// terminated (final).
func (e *engine) syncStatus() {
	if e.x.status != statusTerminated {
		e.x.status = e.status()
	}
}

// idleReason is the session's stop reason (docs/session-events-wire.md
// 7.5): requires_action
// when a thread waits on the client, else budget_reached when paused at the
// budget, else the primary thread's own reason.
func (e *engine) idleReason() stopReason {
	if ids := e.blockers(); len(ids) > 0 {
		return stopReason{typ: "requires_action", eventIDs: ids}
	}
	if e.budgetPaused() {
		return stopReason{typ: "budget_reached"}
	}
	return e.primary.lastStop.orEndTurn()
}

// idleKey identifies the session's idle state: its stop reason, and what
// each blocker waits for (a self-hosted call confirmed with allow stays in
// event_ids but now waits for its result: the idle event is re-sent).
func (e *engine) idleKey() string {
	k := e.idleReason().key()
	for _, c := range e.liveCalls() {
		if c.blocking() {
			k += "|" + strconv.Itoa(int(c.state))
		}
	}
	return k
}

// markRunning announces that th (re)entered running: session.status_running
// if the session was not running, and session.thread_status_running for a
// child thread.
func (e *engine) markRunning(th *thread) {
	if !e.announced {
		e.announced = true
		e.acct.startActive(e.now)
		e.emit("session.status_running", nil)
	}
	th.updatedAt = e.now
	if th.child {
		e.emit("session.thread_status_running", threadStatusJSON{SessionThreadID: th.id, AgentName: th.name})
	}
}

// maybeIdle emits session.usage and session.status_idle when the session
// was running and no thread runs or is about to start.
func (e *engine) maybeIdle() {
	if e.announced && !e.anyRunning() && !e.startable() {
		e.announceIdle()
	}
}

func (e *engine) announceIdle() {
	e.acct.stopActive(e.now)
	e.announced = false
	reason := e.idleReason()
	e.lastIdle = e.idleKey()
	e.emitUsage()
	e.emit("session.status_idle", sessionIdleJSON{StopReason: reason.view(), StopDetails: reason.details()})
}

// refreshIdle re-announces an idle session whose idle state changed without
// running: some blockers resolved while others remain, or an interrupt
// closed them (docs/session-events-wire.md 6.4: no session.status_running
// in between).
func (e *engine) refreshIdle() {
	if !e.announced && !e.anyRunning() && e.idleKey() != e.lastIdle {
		e.announceIdle()
	}
}

// finish resumes the threads whose blockers were all resolved, starts a
// pending turn, and runs. At the budget cap a resolved thread moves
// straight to the budget pause: answers are recorded without a model
// request (docs/session-events-wire.md 6.8), and the results go back when
// the budget allows.
func (e *engine) finish() {
	for _, th := range e.threads {
		t := th.turn
		if t == nil || t.wait != waitClient || len(e.threadBlockers(th)) > 0 {
			continue
		}
		if e.budgetReached() {
			// From waiting to paused: it never ran, so no turn span.
			t.wait = waitBudget
			e.announceThreadIdle(th, stopReason{typ: "budget_reached"})
			continue
		}
		e.resume(th)
	}
	e.run()
}

// resume puts th's waiting or paused turn back in running: a new stay,
// whose span the current request parents (docs/session-events-wire.md
// 6.2).
func (e *engine) resume(th *thread) {
	th.turn.wait = waitNone
	e.startTurnSpan(th, nil)
	e.markRunning(th)
}

// run advances runnable threads, primary first, until none is runnable or
// a Terminate step ended the session (after which nothing is announced).
func (e *engine) run() {
	for !e.over() {
		if e.startable() {
			e.startTrigger()
		}
		th := e.runnable()
		if th == nil {
			break
		}
		e.advance(th)
	}
	if e.over() {
		return
	}
	e.refreshIdle()
	e.syncStatus()
	e.acct.touch(e.x, e.now)
	e.requestWork() // work.go
}

func (e *engine) runnable() *thread {
	for _, th := range e.threads {
		if th.turn != nil && th.turn.wait == waitNone {
			return th
		}
	}
	return nil
}

// startTrigger starts the primary's turn: a report's preset steps, else the
// next scripted turn, else the default behaviour (script.go).
func (e *engine) startTrigger() {
	tr := e.trigger
	e.trigger = nil
	steps := tr.preset
	if steps == nil {
		if len(e.script) > 0 {
			steps, e.script = e.script[0], e.script[1:]
		} else {
			steps = e.defaultSteps(tr)
		}
		e.turnsStarted++
	}
	task := tr.text
	if !tr.message {
		task = tr.outcome
	}
	e.primary.turn = &turn{steps: steps, task: task}
	e.startTurnSpan(e.primary, nil)
	e.markRunning(e.primary)
}

// defaultSteps is the unscripted agent (package script).
func (e *engine) defaultSteps(tr *turnTrigger) []script.Op {
	if !tr.message {
		return script.OutcomeTurn(tr.outcome)
	}
	if e.turnsStarted == 0 {
		if ct := firstCustomTool(e.x.agent); ct != nil {
			return script.CustomToolTurn(ct.Name, ct.InputSchema, tr.text)
		}
	}
	return script.ReplyTurn(tr.text, skillNames(e.x.agent)...)
}

// skillNames are the names of the agent's custom skills, which the default
// reply lists.
func skillNames(v *agents.Version) []string {
	var names []string
	for _, sk := range v.Skills {
		if n := sk.Name(); n != "" {
			names = append(names, n)
		}
	}
	return names
}

func firstCustomTool(v *agents.Version) *agents.CustomTool {
	for _, t := range v.Tools.Tools {
		if t.Custom != nil {
			return t.Custom
		}
	}
	return nil
}

// release continues every held turn; it reports whether one was held.
func (e *engine) release(now time.Time) bool {
	e.enter(now)
	held := false
	for _, th := range e.threads {
		if th.turn != nil && th.turn.wait == waitHold {
			th.turn.wait = waitNone
			held = true
		}
	}
	if held {
		e.run()
	}
	return held
}

// textOf joins the text blocks of a content array with "\n".
func textOf(blocks []textBlock) string {
	parts := make([]string, len(blocks))
	for i, b := range blocks {
		parts[i] = b.Text
	}
	return strings.Join(parts, "\n")
}
