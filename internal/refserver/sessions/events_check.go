package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The state rules of Send Events (docs/session-events-wire.md 3.3). They are
// checked after the shape rules, in body order, against the state the
// session would have after the earlier events of the same request: a
// simulation over the engine's state, which nothing here changes. The
// first broken rule is reported and nothing is recorded (2.1, atomic).

const budgetOnlySettle = "session is at its budget; only `user.tool_confirmation`, `user.tool_result`, " +
	"`user.custom_tool_result`, `user.interrupt` are accepted"

// paramFields are the members of a validated event param the engine reads.
type paramFields struct {
	SessionThreadID *string     `json:"session_thread_id"`
	Result          string      `json:"result"`
	ToolUseID       string      `json:"tool_use_id"`
	CustomToolUseID string      `json:"custom_tool_use_id"`
	DenyMessage     *string     `json:"deny_message"`
	Content         []textBlock `json:"content"`
	Description     string      `json:"description"`
	MaxIterations   *int        `json:"max_iterations"`
}

// fieldsOf decodes what the engine needs from a param whose shape was
// checked already (so it cannot fail in a way that matters).
func fieldsOf(p eventParam) paramFields {
	var f paramFields
	_ = json.Unmarshal(p.payload, &f)
	return f
}

type simulation struct {
	e       *engine
	state   map[*toolCall]callState
	stopped map[*thread]bool // interrupted by an earlier event
	outcome bool             // an outcome is active
	paused  bool             // at the budget: nothing in a request changes it
	seen    map[string]bool  // "<type> <id>" answered earlier in the request
}

func (sim *simulation) stateOf(c *toolCall) callState {
	if st, ok := sim.state[c]; ok {
		return st
	}
	return c.state
}

func (sim *simulation) blocked() bool {
	for _, c := range sim.e.liveCalls() {
		if st := sim.stateOf(c); st == callAwaitingConfirmation || st == callAwaitingResult {
			return true
		}
	}
	return false
}

func (sim *simulation) running() bool {
	for _, th := range sim.e.threads {
		if th.running() && !sim.stopped[th] {
			return true
		}
	}
	return false
}

func (sim *simulation) interrupt(threadID string) {
	if sim.paused {
		return // accepted and ignored (2.1)
	}
	for _, th := range sim.e.threads {
		if threadID != "" && th.id != threadID {
			continue
		}
		sim.stopped[th] = true
		if th == sim.e.primary {
			sim.outcome = false
		}
		for _, c := range sim.e.liveCalls() {
			if c.thread == th {
				sim.state[c] = callClosed
			}
		}
	}
}

// check applies the state rules to params, in order.
func (e *engine) check(params []eventParam) error {
	sim := &simulation{e: e, state: map[*toolCall]callState{}, stopped: map[*thread]bool{},
		outcome: e.outcome != nil, paused: e.budgetPaused(), seen: map[string]bool{}}
	for i, p := range params {
		if err := sim.checkOne(kit.IndexPath(eventsField, i), p, i, params); err != nil {
			return err
		}
	}
	return nil
}

func (sim *simulation) checkOne(path string, p eventParam, i int, params []eventParam) error {
	e := sim.e
	f := fieldsOf(p)
	switch p.typ {
	case eventUserMessage, eventDefineOutcome, eventSystemMessage:
		if sim.paused { // the one state-dependent 400 (real)
			return kit.InvalidField(kit.JoinPath(path, "type"), budgetOnlySettle)
		}
	}
	switch p.typ {
	case eventDefineOutcome:
		if sim.outcome {
			return kit.StateConflict("%s: an outcome is already active; interrupt it first", path)
		}
		sim.outcome = true
	case eventSystemMessage:
		if params[i-1].typ == eventUserMessage && sim.blocked() && !sim.running() {
			return kit.StateConflict(
				"%s: session is waiting on tool confirmations or results; system.message must accompany a tool result", path)
		}
	case eventInterrupt:
		id := ""
		if f.SessionThreadID != nil {
			id = *f.SessionThreadID
			if e.threadByID[id] == nil {
				return kit.InvalidField(kit.JoinPath(path, "session_thread_id"), "thread `%s` not found in this session", id)
			}
		}
		sim.interrupt(id)
	case eventConfirmation:
		return sim.answer(path, toolUseIDField, f.ToolUseID, p.typ, func(c *toolCall) error {
			if c == nil || c.kind == toolCustom {
				return kit.InvalidField(kit.JoinPath(path, toolUseIDField), "no tool use `%s` in this session", f.ToolUseID)
			}
			if sim.stateOf(c) != callAwaitingConfirmation {
				return kit.StateConflict("%s: tool use `%s` is not awaiting confirmation",
					kit.JoinPath(path, toolUseIDField), f.ToolUseID)
			}
			sim.state[c] = callReady
			if f.Result == "allow" && c.sandbox {
				sim.state[c] = callAwaitingResult
			}
			return nil
		})
	case eventCustomResult:
		return sim.answer(path, customToolUseIDField, f.CustomToolUseID, p.typ, func(c *toolCall) error {
			if c == nil || c.kind != toolCustom {
				return kit.InvalidField(kit.JoinPath(path, customToolUseIDField), "no custom tool use `%s` in this session", f.CustomToolUseID)
			}
			if sim.stateOf(c) != callAwaitingResult {
				return kit.StateConflict("%s: custom tool use `%s` is not awaiting a result",
					kit.JoinPath(path, customToolUseIDField), f.CustomToolUseID)
			}
			sim.state[c] = callClosed
			return nil
		})
	case eventToolResult:
		if !e.selfHosted {
			return kit.InvalidField(kit.JoinPath(path, "type"), "`user.tool_result` is only valid on self_hosted environments")
		}
		return sim.answer(path, toolUseIDField, f.ToolUseID, p.typ, func(c *toolCall) error {
			if c == nil || !c.sandbox {
				return kit.InvalidField(kit.JoinPath(path, toolUseIDField), "no sandbox tool use `%s` in this session", f.ToolUseID)
			}
			if sim.stateOf(c) != callAwaitingResult {
				return kit.StateConflict("%s: tool use `%s` is not awaiting a result",
					kit.JoinPath(path, toolUseIDField), f.ToolUseID)
			}
			sim.state[c] = callClosed
			return nil
		})
	}
	return nil
}

// answer checks an event answering a tool call: the same call answered
// twice by one type in one request is 400, then rule checks the call.
func (sim *simulation) answer(path, field, id, typ string, rule func(*toolCall) error) error {
	key := typ + " " + id
	if sim.seen[key] {
		return kit.InvalidField(kit.JoinPath(path, field), "duplicate tool use `%s`", id)
	}
	sim.seen[key] = true
	return rule(sim.e.callByID[id])
}
