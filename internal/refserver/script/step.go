package script

import (
	"fmt"
	"strings"
)

// Step is one thing the scripted agent does. Build steps with the
// constructors below; the zero Step is not a step (compiling it fails).
type Step struct {
	kind    Kind
	ctor    string // the constructor's name, for errors
	takes   bool   // whether the constructor takes options (With)
	text    string // Say, Think, Refuse; the error message of Fail, Reschedule, Terminate
	chunks  []string
	name    string // tool name, Spawn's agent name, Emit's type; the error type of Fail, Reschedule, Terminate
	server  string // UseMCPTool
	input   any    // tool input as given
	payload map[string]any
	steps   []Step // Spawn
	n       int    // Firehose
	cfg     config
	err     error // With on a step that takes no options
}

// config is what the options set.
type config struct {
	verdict string // auto policies: allow, deny, ask; "" unscripted
	output  *Output
	tokens  *Usage
	outcome *Evaluation
}

// StepOption adjusts a step (Say, Think, UseTool, UseMCPTool). The zero
// StepOption changes nothing.
type StepOption struct{ apply func(*config) }

// Verdict is the judgement of an "auto" permission policy for a tool step:
// "allow", "deny" or "ask". Unscripted, auto judges "ask" (reason_code
// indeterminate; docs/session-events-wire.md 4.4). It is ignored under
// other policies.
func Verdict(v string) StepOption {
	return StepOption{func(c *config) { c.verdict = v }}
}

// ToolOutput is what a built-in or MCP tool returns when the server runs it
// (default "ok", not an error). An empty text is an empty content array.
func ToolOutput(text string, isError bool) StepOption {
	return StepOption{func(c *config) { c.output = &Output{Text: text, IsError: isError} }}
}

// Tokens sets the usage the step adds to its model request's model_usage.
// A request whose steps set no Tokens uses the default (1000 input, 100
// output tokens).
func Tokens(input, output int) StepOption {
	return StepOption{func(c *config) { c.tokens = &Usage{Input: int64(input), Output: int64(output)} }}
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
	return StepOption{func(c *config) { c.outcome = &Evaluation{Result: result, Explanation: explanation} }}
}

// With returns the step with opts applied after the ones it has. Say,
// Think, UseTool and UseMCPTool take options; on another step, compiling
// the script fails with an error naming it.
func (st Step) With(opts ...StepOption) Step {
	if !st.takes {
		if len(opts) > 0 && st.err == nil && st.kind != 0 {
			st.err = fmt.Errorf("%s takes no step options", st.ctor)
		}
		return st
	}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&st.cfg)
		}
	}
	return st
}

func newStep(kind Kind, ctor string) Step { return Step{kind: kind, ctor: ctor} }

// withOptions is a step whose constructor takes opts.
func withOptions(st Step, opts []StepOption) Step {
	st.takes = true
	return st.With(opts...)
}

// Say is an agent.message of one text block; previews: one event_delta
// with the whole text.
func Say(text string, opts ...StepOption) Step {
	st := newStep(KindSay, "Say")
	st.text, st.chunks = text, []string{text}
	return withOptions(st, opts)
}

// SayChunks is an agent.message whose text is the concatenation of chunks;
// previews: one event_delta per non-empty chunk.
func SayChunks(chunks ...string) Step {
	st := newStep(KindSay, "SayChunks")
	st.chunks = append([]string(nil), chunks...)
	st.text = strings.Join(chunks, "")
	return st
}

// Think is an agent.thinking (a start-only preview; the text is not sent).
func Think(text string, opts ...StepOption) Step {
	st := newStep(KindThink, "Think")
	st.text = text
	return withOptions(st, opts)
}

// UseTool calls a built-in toolset tool (bash, edit, read, write, glob,
// grep, web_fetch, web_search). Its permission policy decides what follows.
func UseTool(name string, input any, opts ...StepOption) Step {
	st := newStep(KindUseTool, "UseTool")
	st.name, st.input = name, input
	return withOptions(st, opts)
}

// UseMCPTool calls tool name of the agent's MCP server.
func UseMCPTool(server, name string, input any, opts ...StepOption) Step {
	st := newStep(KindUseMCPTool, "UseMCPTool")
	st.server, st.name, st.input = server, name, input
	return withOptions(st, opts)
}

// UseCustomTool calls a custom tool; the turn waits for
// user.custom_tool_result.
func UseCustomTool(name string, input any) Step {
	st := newStep(KindUseCustomTool, "UseCustomTool")
	st.name, st.input = name, input
	return st
}

// Fail makes the model request fail: span.model_request_end with is_error,
// session.error (retry_status exhausted), and the turn ends with
// retries_exhausted. Empty values default to unknown_error and
// "The model request failed.".
func Fail(errorType, message string) Step {
	st := newStep(KindFail, "Fail")
	st.name, st.text = errorType, message
	return st
}

// Reschedule makes the model request hit a transient error that the server
// retries by itself (docs/session-events-wire.md 6.6):
// span.model_request_end with is_error, session.error
// (retry_status retrying), session.status_rescheduled (status
// "rescheduling"), then at once session.status_running (status "running")
// and the turn continues with the next step, whose model request is the
// retry (a new span.model_request_start). With no step after it, the turn
// ends there (end_turn). Empty values default as Fail's. Primary thread
// only.
func Reschedule(errorType, message string) Step {
	st := newStep(KindReschedule, "Reschedule")
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
	st := newStep(KindTerminate, "Terminate")
	st.name, st.text = errorType, message
	return st
}

// Refuse ends the model request and the turn with stop reason refusal and
// stop_details {type: refusal, category: null, explanation: text}.
func Refuse(text string) Step {
	st := newStep(KindRefuse, "Refuse")
	st.text = text
	return st
}

// Hold keeps the turn running until the server's ReleaseSession or a
// user.interrupt.
func Hold() Step { return newStep(KindHold, "Hold") }

// Spawn makes the coordinator start a new child thread of the roster agent
// agentName, running steps (it runs at once, until it ends or waits).
func Spawn(agentName string, steps ...Step) Step {
	st := newStep(KindSpawn, "Spawn")
	st.name, st.steps = agentName, append([]Step(nil), steps...)
	return st
}

// Emit records an arbitrary event as-is, for tests of unknown types: id,
// processed_at and type are added, payload's own keys of those names are
// dropped.
func Emit(eventType string, payload map[string]any) Step {
	st := newStep(KindEmit, "Emit")
	st.name, st.payload = eventType, payload
	return st
}

// Firehose is n agent.message events "message 1".."message n" in one model
// request, for load tests.
func Firehose(n int) Step {
	st := newStep(KindFirehose, "Firehose")
	st.n = n
	return st
}
