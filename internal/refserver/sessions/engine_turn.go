package sessions

import (
	"strconv"

	"github.com/agentplatform/agentplatform-go/internal/refserver/script"
)

// Turns and model requests (docs/session-events-wire.md 6.2, 6.3, 4.13;
// previews: section 5).
// advance walks a thread's steps: consecutive model steps form one model
// request, whose previews go out as each step is reached and whose buffered
// events go out, in step order, when it ends.

type waitKind uint8

const (
	waitNone   waitKind = iota
	waitHold            // a Hold step: still running
	waitClient          // a tool call waits on the client: idle, requires_action
	waitBudget          // paused before a model request: idle, budget_reached
)

type turn struct {
	steps      []script.Op
	pc         int // next step
	wait       waitKind
	req        *modelRequest      // the open model request
	call       *toolCall          // the last request's call, its result not delivered yet
	eval       *script.Evaluation // an evaluation due before the next request
	task       string             // what started the turn (a Spawn's task)
	lastCustom *toolCall          // the default reply reads its result
}

type modelRequest struct {
	startID   string
	buffered  []pendingEvent
	tokens    tokenCount
	tokensSet bool
	call      *toolCall
	eval      *script.Evaluation
	refused   bool       // Refuse: the turn ends with stop reason refusal
	refusal   *string    // its explanation, null when empty
	span      *modelSpan // its vendor.model_request span (tracing_engine.go); nil when not traced
}

// pendingEvent is a buffered event: its id is known (previews announce it)
// but it is recorded only when its request ends.
type pendingEvent struct {
	id, typ string
	tail    []byte    // members after "type", each preceded by a comma
	call    *toolCall // tool-use events: the call, known once emitted
	text    string    // agent.message: its text
}

// usage is the request's model_usage: the Tokens of its steps, else the
// documented default (script.go).
func (r *modelRequest) usage(failed bool) tokenCount {
	switch {
	case r.tokensSet:
		return r.tokens
	case failed:
		return tokenCount{input: defaultInputTokens}
	}
	return tokenCount{input: defaultInputTokens, output: defaultOutputTokens}
}

var endTurn = stopReason{typ: "end_turn"}

// advance runs th's turn until it ends or waits.
func (e *engine) advance(th *thread) {
	t := th.turn
	for th.turn == t && t.wait == waitNone {
		if t.call != nil {
			c := t.call
			t.call = nil
			e.deliver(th, c)
			continue
		}
		if t.eval != nil && t.req == nil {
			v := t.eval
			t.eval = nil
			if e.evaluateMidTurn(th, v) {
				e.endTurn(th, endTurn)
				return
			}
			continue
		}
		if t.pc >= len(t.steps) {
			if t.req != nil {
				e.closeRequest(th)
				continue
			}
			e.evaluateAtEnd(th)
			e.endTurn(th, endTurn)
			return
		}
		st := t.steps[t.pc]
		switch {
		case st.Kind == script.KindHold:
			// In a request or between two: an interrupt now cuts the
			// open request short.
			t.pc++
			t.wait = waitHold
			return
		case !st.ModelStep():
			if t.req != nil {
				e.closeRequest(th)
				continue
			}
			t.pc++
			e.nonModelStep(th, st)
		default:
			if t.req == nil {
				// Before every model request of every thread (6.8).
				if e.budgetReached() {
					e.pauseAtBudget(th)
					return
				}
				t.req = &modelRequest{startID: e.emitOn(th, "span.model_request_start", nil).id}
				t.req.span = e.startModelSpan(th)
			}
			t.pc++
			e.modelStep(th, st)
		}
	}
}

func (e *engine) nonModelStep(th *thread, st script.Op) {
	switch st.Kind {
	case script.KindSpawn:
		e.spawn(th, st)
	case script.KindEmit:
		ev := e.newEvent(e.newID(), st.Name, tailOf(st.Raw))
		e.record(th, ev)
	}
}

// modelStep adds one step to th's open request.
func (e *engine) modelStep(th *thread, st script.Op) {
	r := th.turn.req
	if t := st.Tokens; t != nil {
		r.tokens.add(tokenCount{input: t.Input, output: t.Output})
		r.tokensSet = true
	}
	if st.Outcome != nil {
		r.eval = st.Outcome
	}
	switch st.Kind {
	case script.KindSay:
		e.say(th, st.Chunks, st.Text)
	case script.KindSayToolResult:
		result := ""
		if c := th.turn.lastCustom; c != nil {
			result = c.resultText
		}
		text := "The " + st.Name + " tool returned: " + result
		e.say(th, []string{text}, text)
	case script.KindThink:
		id := e.newID()
		if !th.child && e.feed.wants(previewThinking) {
			e.feed.publish(previewThinking, []preview{{typ: "event_start", data: previewStart("agent.thinking", id)}})
		}
		r.buffered = append(r.buffered, pendingEvent{id: id, typ: "agent.thinking"})
	case script.KindFirehose:
		e.firehose(th, st.N)
	case script.KindUseTool, script.KindUseMCPTool, script.KindUseCustomTool:
		e.callTool(th, st)
		e.closeRequest(th)
	case script.KindRefuse:
		r.refused = true
		if st.Text != "" {
			explanation := st.Text
			r.refusal = &explanation
		}
		e.closeRequest(th)
	case script.KindFail:
		e.failRequest(th, st, "exhausted")
		e.endTurn(th, stopReason{typ: "retries_exhausted"})
	case script.KindReschedule:
		e.failRequest(th, st, "retrying")
		e.reschedule()
	case script.KindTerminate:
		e.failRequest(th, st, "terminal")
		e.terminate()
	}
	// The agent considers the deliverable ready: its request ends, and the
	// evaluation follows it.
	if st.Outcome != nil && th.turn != nil && th.turn.req == r {
		e.closeRequest(th)
	}
}

// say buffers an agent.message and previews it: one event_start, then one
// event_delta per non-empty chunk, all at index 0.
func (e *engine) say(th *thread, chunks []string, text string) {
	id := e.newID()
	if !th.child && e.feed.wants(previewMessage) {
		frames := make([]preview, 0, len(chunks)+1)
		frames = append(frames, preview{typ: "event_start", data: previewStart("agent.message", id)})
		for _, ch := range chunks {
			if ch != "" {
				frames = append(frames, preview{typ: "event_delta", data: previewDelta(id, ch)})
			}
		}
		e.feed.publish(previewMessage, frames)
	}
	r := th.turn.req
	r.buffered = append(r.buffered, pendingEvent{id: id, typ: "agent.message", tail: contentTail(text), text: text})
}

// firehose buffers n messages, rendered straight into bytes (no JSON
// encoder per event).
func (e *engine) firehose(th *thread, n int) {
	r := th.turn.req
	wants := !th.child && e.feed.wants(previewMessage)
	r.buffered = append(make([]pendingEvent, 0, len(r.buffered)+n), r.buffered...)
	for i := 1; i <= n; i++ {
		id := e.newID()
		text := "message " + strconv.Itoa(i)
		if wants {
			e.feed.publish(previewMessage, []preview{
				{typ: "event_start", data: previewStart("agent.message", id)},
				{typ: "event_delta", data: previewDelta(id, text)},
			})
		}
		r.buffered = append(r.buffered, pendingEvent{id: id, typ: "agent.message", tail: contentTail(text), text: text})
	}
}

// closeRequest ends th's open request normally: its buffered events, then
// span.model_request_end; then the request's call decides what follows.
func (e *engine) closeRequest(th *thread) {
	t := th.turn
	r := t.req
	t.req = nil
	for _, p := range r.buffered {
		e.flushPending(th, p)
	}
	e.endSpan(th, r, false, r.usage(false))
	if r.eval != nil {
		t.eval = r.eval
	}
	if r.refused {
		e.endTurn(th, stopReason{typ: "refusal", explanation: r.refusal})
		return
	}
	if c := r.call; c != nil {
		if c.kind == toolCustom {
			t.lastCustom = c
		}
		t.call = c
		if c.blocking() {
			t.wait = waitClient
			e.stopped(th, stopReason{typ: "requires_action", eventIDs: e.threadBlockers(th)})
		}
	}
}

// endSpan records span.model_request_end and accounts the request's usage.
func (e *engine) endSpan(th *thread, r *modelRequest, isError bool, usage tokenCount) {
	model := e.modelOf(th)
	e.emitOn(th, "span.model_request_end", spanEndJSON{ModelRequestStartID: r.startID, IsError: isError,
		ModelUsage: usage.view(model.Speed)})
	e.charge(model, usage)
	r.span.end(usage)
}

// flushPending records one buffered event of th's request.
func (e *engine) flushPending(th *thread, p pendingEvent) {
	ev := e.newEvent(p.id, p.typ, p.tail)
	if p.typ == "agent.message" {
		th.lastText = p.text
	}
	c := p.call
	if c == nil {
		e.record(th, ev)
		return
	}
	e.open = append(e.open, c)
	e.callByID[c.id] = c
	if th.child {
		th.feed.append(ev)
		// A child's call is cross-posted when it waits on the client,
		// keeping its id (docs/session-events-wire.md 7.3).
		if c.kind == toolCustom || c.blocking() {
			e.feed.append(ev)
		}
		return
	}
	e.feed.append(ev)
}

// failRequest ends th's open request with an error: no buffered event,
// span.model_request_end with is_error, then session.error with retry
// (exhausted, retrying or terminal; docs/session-events-wire.md 4.11, 6.6).
// The caller does
// what the retry status says follows.
func (e *engine) failRequest(th *thread, st script.Op, retry string) {
	t := th.turn
	r := t.req
	t.req = nil
	typ, msg := st.Name, st.Text
	if typ == "" {
		typ = "unknown_error"
	}
	r.span.fail(typ)
	th.span.sessionError(typ, retry)
	e.endSpan(th, r, true, r.usage(true))
	if msg == "" {
		msg = "The model request failed."
	}
	e.emit("session.error", sessionErrorJSON{Error: sessionErrorDetail{Type: typ, Message: msg,
		RetryStatus: typeOnly{Type: retry}}})
}

// reschedule follows a retrying session.error (docs/session-events-wire.md
// 6.6, 6.9): the
// session goes rescheduling, then the retry starts at once (nothing runs in
// the background) and it is running again; the turn goes on with its next
// step. The rescheduling instant is not active time (same document, 8.1).
func (e *engine) reschedule() {
	e.acct.stopActive(e.now)
	e.x.status = statusRescheduling
	e.emit("session.status_rescheduled", nil)
	e.acct.startActive(e.now)
	e.x.status = statusRunning
	e.emit("session.status_running", nil)
}

// endTurn ends th's turn: a child announces its idle state and reports to
// the coordinator; the session goes idle when nothing runs any more.
func (e *engine) endTurn(th *thread, reason stopReason) {
	e.endTurnSpan(th, reason.typ, false)
	th.turn = nil
	th.lastStop = reason
	if th.child {
		e.announceThreadIdle(th, reason)
		if reason.typ == "end_turn" {
			e.childFinished(th)
		}
	}
	e.maybeIdle()
}

// stopped announces that th left running without ending its turn (blocked
// or paused): that stay's span ends, and the next one starts when it runs
// again (resume).
func (e *engine) stopped(th *thread, reason stopReason) {
	e.endTurnSpan(th, reason.typ, false)
	if th.child || reason.typ == "budget_reached" {
		e.announceThreadIdle(th, reason)
	}
	e.maybeIdle()
}

func (e *engine) announceThreadIdle(th *thread, reason stopReason) {
	th.updatedAt = e.now
	e.emit("session.thread_status_idle", threadIdleJSON{SessionThreadID: th.id, AgentName: th.name,
		StopReason: reason.view(), StopDetails: reason.details()})
}

type spanEndJSON struct {
	ModelRequestStartID string         `json:"model_request_start_id"`
	IsError             bool           `json:"is_error"`
	ModelUsage          modelUsageJSON `json:"model_usage"`
}

type typeOnly struct {
	Type string `json:"type"`
}

type sessionErrorDetail struct {
	Type          string   `json:"type"`
	Message       string   `json:"message"`
	MCPServerName string   `json:"mcp_server_name,omitempty"` // the mcp_ error types' variant key
	RetryStatus   typeOnly `json:"retry_status"`
}

type sessionErrorJSON struct {
	Error sessionErrorDetail `json:"error"`
}
