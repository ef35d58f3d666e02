package refserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The scripted agent. The reference server has no model: what an agent
// does in a turn is a list of Steps, queued by a test with ScriptSession (one
// session) or ScriptAgent (every new session of an agent). Each
// turn-starting event (user.message, user.define_outcome) takes the next
// queued turn; with nothing queued the agent follows the default behaviour
// below, which the quickstart relies on.
//
// Model requests. Consecutive agent steps (Say, SayChunks, Think, the three
// tool steps, Refuse, Fail, Reschedule, Terminate, Firehose) up to and
// including a tool call (or a step with the Outcome option) form one model
// request: span.model_request_start, the previews of its steps, its
// buffered events in step order, span.model_request_end. Spawn and Emit
// close the open request first and are not part of one. Hold pauses where it
// stands, inside a request or between two: an interrupt during a Hold cuts
// the open request short (no buffered events, only its span end). A turn's
// steps continue after a tool result, a confirmation or a release.
//
// Errors (docs/session-events-wire.md 6.6, 4.11). Fail, Reschedule and Terminate make the open
// model request fail where they stand: the steps of that request before
// them are dropped (their previews were sent; the span end closes them),
// and span.model_request_end has is_error true and the usage of a failed
// request. What follows is the session.error's retry_status: exhausted
// (Fail) ends the turn, retrying (Reschedule) retries at once and goes on
// with the next step, terminal (Terminate) ends the session for good. The
// latter two run on the primary thread only (a Spawn's steps cannot use
// them).
//
// Default behaviour with no script, for a user.message with text T (the
// text blocks joined with "\n"):
//
//   - the session's first turn, when the agent has a custom tool: one model
//     request calls the first custom tool with an input built from its
//     input_schema (each string property gets T, other properties the zero
//     value of their type: 0, false, [], {}, or null when untyped); after
//     the user.custom_tool_result, a second request says
//     "The <tool> tool returned: <result text>" and the turn ends;
//   - otherwise: Think("Reading the message."), Say("You said: " + T).
//
// A user.define_outcome that starts a turn on its own defaults to
// Say("Working on the outcome: <description>"), then the evaluation. A child
// thread's report that reaches an idle coordinator starts a turn that says
// "<agent name> reported: <report>" (not taken from the script).
//
// Usage of a model request (docs/session-events-wire.md section 8): the sum of the
// Tokens options of its steps, or by default 1000 input and 100 output
// tokens (1000 and 0 for a failed request), no cache tokens. A grader cycle
// of an outcome uses 500 input and 50 output tokens.

// Step is one thing the scripted agent does.
type Step struct {
	kind    stepKind
	text    string   // Say, Think, Refuse; the error message of Fail, Reschedule, Terminate
	chunks  []string // SayChunks; Say is one chunk
	name    string   // tool name, Spawn's agent name, Emit's type; the error type of Fail, Reschedule, Terminate
	server  string   // UseMCPTool
	input   any      // tool input as given
	payload map[string]any
	steps   []Step // Spawn
	n       int    // Firehose
	cfg     stepConfig

	raw json.RawMessage // compiled tool input or Emit payload (ScriptSession)
}

type stepKind uint8

const (
	stepSay stepKind = iota + 1
	stepThink
	stepUseTool
	stepUseMCPTool
	stepUseCustomTool
	stepFail
	stepRefuse
	stepHold
	stepSpawn
	stepEmit
	stepFirehose
	stepReschedule
	stepTerminate
	stepSayToolResult // internal: the default turn's reply after a custom tool
)

// modelStep reports whether the step is part of a model request.
func (st Step) modelStep() bool {
	switch st.kind {
	case stepHold, stepSpawn, stepEmit:
		return false
	}
	return true
}

type stepConfig struct {
	verdict string // auto policies: allow, deny, ask; "" unscripted
	output  *toolOutput
	tokens  *tokenCount
	outcome *outcomeVerdict
}

type toolOutput struct {
	text    string
	isError bool
}

type outcomeVerdict struct {
	result, explanation string
}

// StepOption adjusts a step.
type StepOption func(*stepConfig)

// Verdict is the judgement of an "auto" permission policy for a tool step:
// "allow", "deny" or "ask". Unscripted, auto judges "ask" (reason_code
// indeterminate; docs/session-events-wire.md 4.4). It is ignored under
// other policies.
func Verdict(v string) StepOption { return func(c *stepConfig) { c.verdict = v } }

// ToolOutput is what a built-in or MCP tool returns when the server runs it
// (default "ok", not an error). An empty text is an empty content array.
func ToolOutput(text string, isError bool) StepOption {
	return func(c *stepConfig) { c.output = &toolOutput{text: text, isError: isError} }
}

// Tokens sets the usage the step adds to its model request's model_usage.
// A request whose steps set no Tokens uses the default (1000 input, 100
// output tokens).
func Tokens(input, output int) StepOption {
	return func(c *stepConfig) {
		c.tokens = &tokenCount{input: int64(input), output: int64(output)}
	}
}

// Outcome marks the step as the agent considering the deliverable ready:
// its model request ends with the step, and an evaluation of the active
// outcome follows (after the request's tool result, if any) with result
// (default "satisfied"; "needs_revision" continues the turn, any other
// value is terminal and ends it, except max_iterations_reached, which the
// server substitutes once max_iterations evaluations were made) and
// explanation (default: a fixed sentence). Without an active outcome the
// evaluation is skipped. The turn's steps running out also triggers an
// evaluation (satisfied) while an outcome is active.
func Outcome(result, explanation string) StepOption {
	return func(c *stepConfig) { c.outcome = &outcomeVerdict{result: result, explanation: explanation} }
}

func newStep(kind stepKind, opts []StepOption) Step {
	st := Step{kind: kind}
	for _, o := range opts {
		if o != nil {
			o(&st.cfg)
		}
	}
	return st
}

// Say is an agent.message of one text block; previews: one event_delta
// with the whole text.
func Say(text string, opts ...StepOption) Step {
	st := newStep(stepSay, opts)
	st.text, st.chunks = text, []string{text}
	return st
}

// SayChunks is an agent.message whose text is the concatenation of chunks;
// previews: one event_delta per non-empty chunk.
func SayChunks(chunks ...string) Step {
	st := newStep(stepSay, nil)
	st.chunks = append([]string(nil), chunks...)
	st.text = strings.Join(chunks, "")
	return st
}

// Think is an agent.thinking (a start-only preview; the text is not sent).
func Think(text string, opts ...StepOption) Step {
	st := newStep(stepThink, opts)
	st.text = text
	return st
}

// UseTool calls a built-in toolset tool (bash, edit, read, write, glob,
// grep, web_fetch, web_search). Its permission policy decides what follows.
func UseTool(name string, input any, opts ...StepOption) Step {
	st := newStep(stepUseTool, opts)
	st.name, st.input = name, input
	return st
}

// UseMCPTool calls tool name of the agent's MCP server.
func UseMCPTool(server, name string, input any, opts ...StepOption) Step {
	st := newStep(stepUseMCPTool, opts)
	st.server, st.name, st.input = server, name, input
	return st
}

// UseCustomTool calls a custom tool; the turn waits for
// user.custom_tool_result.
func UseCustomTool(name string, input any) Step {
	st := newStep(stepUseCustomTool, nil)
	st.name, st.input = name, input
	return st
}

// Fail makes the model request fail: span.model_request_end with is_error,
// session.error (retry_status exhausted), and the turn ends with
// retries_exhausted. Empty values default to unknown_error and
// "The model request failed.".
func Fail(errorType, message string) Step {
	st := newStep(stepFail, nil)
	st.name, st.text = errorType, message
	return st
}

// Reschedule makes the model request hit a transient error that the server
// retries by itself (docs/session-events-wire.md 6.6):
// span.model_request_end with is_error,
// session.error (retry_status retrying), session.status_rescheduled (status
// "rescheduling"), then at once session.status_running (status "running")
// and the turn continues with the next step, whose model request is the
// retry (a new span.model_request_start). With no step after it, the turn
// ends there (end_turn). Empty values default as Fail's. Primary thread
// only.
func Reschedule(errorType, message string) Step {
	st := newStep(stepReschedule, nil)
	st.name, st.text = errorType, message
	return st
}

// Terminate makes the model request hit an unrecoverable error
// (docs/session-events-wire.md 6.6): span.model_request_end with is_error, session.error (retry_status
// terminal), then session.status_terminated, the last event of the
// session. The session is terminated for good: its turns (child threads'
// included) stop without further events, the steps after Terminate and the
// queued turns never run, the open streams end, and every later write is
// 409 (Send Events, Update Session, resources; archive and delete still
// work). Usage and stats stop there. Empty values default as Fail's.
// Primary thread only.
func Terminate(errorType, message string) Step {
	st := newStep(stepTerminate, nil)
	st.name, st.text = errorType, message
	return st
}

// Refuse ends the model request and the turn with stop reason refusal and
// stop_details {type: refusal, category: null, explanation: text}.
func Refuse(text string) Step {
	st := newStep(stepRefuse, nil)
	st.text = text
	return st
}

// Hold keeps the turn running until ReleaseSession or user.interrupt.
func Hold() Step { return newStep(stepHold, nil) }

// Spawn makes the coordinator start a new child thread of the roster agent
// agentName, running steps (it runs at once, until it ends or waits).
func Spawn(agentName string, steps ...Step) Step {
	st := newStep(stepSpawn, nil)
	st.name, st.steps = agentName, append([]Step(nil), steps...)
	return st
}

// Emit records an arbitrary event as-is, for tests of unknown types: id,
// processed_at and type are added, payload's own keys of those names are
// dropped.
func Emit(eventType string, payload map[string]any) Step {
	st := newStep(stepEmit, nil)
	st.name, st.payload = eventType, payload
	return st
}

// Firehose is n agent.message events "message 1".."message n" in one model
// request, for load tests.
func Firehose(n int) Step {
	st := newStep(stepFirehose, nil)
	st.n = n
	return st
}

// maxChildThreads is the real platform's limit on child threads
// (docs/session-events-wire.md 7.1); threads are never archived here, so it bounds all Spawn steps.
const maxChildThreads = 25

// errScript prefixes every scripting error.
var errScript = errors.New("refserver: script")

// ScriptSession queues turns for a session: each turn-starting event
// (user.message, user.define_outcome) takes the next one.
func (s *Server) ScriptSession(sessionID string, turns ...[]Step) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, ok := s.sessions.byID[sessionID]
	if !ok {
		return fmt.Errorf("%w: session %q not found", errScript, sessionID)
	}
	spawns := len(x.eng.threads) - 1
	for _, turn := range x.eng.script {
		spawns += countSpawns(turn)
	}
	compiled, err := compileTurns(turns, x.agent, spawns)
	if err != nil {
		return err
	}
	x.eng.script = append(x.eng.script, compiled...)
	return nil
}

// ScriptAgent queues turns for every session of the agent created from now
// on (by Create Session or a deployment), in addition to the turns already
// queued for it.
func (s *Server) ScriptAgent(agentID string, turns ...[]Step) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	latest, ok := s.agents.LatestLocked(agentID)
	if !ok {
		return fmt.Errorf("%w: agent %q not found", errScript, agentID)
	}
	spawns := 0
	for _, turn := range s.scripts.byAgent[agentID] {
		spawns += countSpawns(turn)
	}
	compiled, err := compileTurns(turns, latest, spawns)
	if err != nil {
		return err
	}
	if s.scripts.byAgent == nil {
		s.scripts.byAgent = map[string][][]Step{}
	}
	s.scripts.byAgent[agentID] = append(s.scripts.byAgent[agentID], compiled...)
	return nil
}

// ReleaseSession continues every held turn of the session.
func (s *Server) ReleaseSession(sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, ok := s.sessions.byID[sessionID]
	if !ok {
		return fmt.Errorf("refserver: session %q not found", sessionID)
	}
	if !x.eng.release(s.now()) {
		return fmt.Errorf("refserver: session %q has no held turn", sessionID)
	}
	return nil
}

// scriptState is the turns ScriptAgent queued, copied into each new session
// of the agent. Guarded by Server.mu.
type scriptState struct {
	byAgent map[string][][]Step
}

func (s *Server) agentScriptLocked(agentID string) [][]Step {
	turns := s.scripts.byAgent[agentID]
	return append([][]Step(nil), turns...)
}

func countSpawns(steps []Step) int {
	n := 0
	for _, st := range steps {
		if st.kind == stepSpawn {
			n++
		}
	}
	return n
}
