package platformtest

import (
	"errors"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/script"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// The scripted agent. The server has no model: what a session's agent does
// in a turn is a list of Steps that a test queues. Each event that starts a
// turn (user.message, or user.define_outcome on its own) takes the next
// queued turn. A turn runs inside the request that starts it, until it
// ends or waits (for a custom tool's result, a tool confirmation, or a
// Hold); the request that supplies what it waits for runs the rest. So
// when Send returns, the turn's events so far are in the history, and a
// test sees the same events on every run.
//
// Consecutive steps up to and including a tool call form one model request
// (span.model_request_start, the steps' events, span.model_request_end),
// with a usage of 1000 input and 100 output tokens unless Tokens says
// otherwise.
//
// With nothing queued the agent still answers: on a session's first turn,
// if the agent has a custom tool, it calls the first one (each string
// property of the input gets the message's text) and then says "The <tool>
// tool returned: <result>"; otherwise it thinks and says "You said: <the
// message's text>".

// Step is one thing the scripted agent does in a turn. Build steps with
// the functions below; a Step's zero value is not a step.
//
// Step has one method:
//
//	func (st Step) With(opts ...StepOption) Step
//
// With returns the step with opts applied. Say, Think, UseTool and
// UseMCPTool take options; with another step, ScriptSession and
// ScriptAgent return an error naming it.
type Step = script.Step

// Say sends an agent.message with text. A stream asking for previews of
// agent.message (StreamParams.EventDeltas) first gets the whole text as one
// delta.
func Say(text string) Step { return script.Say(text) }

// SayChunks sends an agent.message whose text is the chunks joined, with
// one preview delta per non-empty chunk: for code that renders a reply as
// it is written.
func SayChunks(chunks ...string) Step { return script.SayChunks(chunks...) }

// Think sends an agent.thinking event. The platform does not send thinking
// text, so text only documents the script.
func Think(text string) Step { return script.Think(text) }

// UseTool calls the built-in tool name (bash, edit, read, write, glob,
// grep, web_fetch, web_search) of the agent's toolset with input (any value
// that marshals to a JSON object). The tool's permission policy decides
// what follows: under always_allow (the default for built-in tools) the
// server runs it and records its result ("ok" unless ToolOutput says
// otherwise); under always_ask the turn waits for a user.tool_confirmation
// (sessions.Allow or sessions.Deny); under auto, Verdict decides.
func UseTool(name string, input any) Step { return script.UseTool(name, input) }

// UseMCPTool calls the tool name of the agent's MCP server server, like
// UseTool; MCP tools default to always_ask.
func UseMCPTool(server, name string, input any) Step { return script.UseMCPTool(server, name, input) }

// UseCustomTool calls the agent's custom tool name with input (any value
// that marshals to a JSON object): the session emits agent.custom_tool_use
// and goes idle with stop reason requires_action until the application
// sends the result (sessions.CustomToolResult, or a toolrunner.Runner);
// the turn then goes on with the next step.
func UseCustomTool(name string, input any) Step { return script.UseCustomTool(name, input) }

// Refuse ends the turn with stop reason refusal, explanation in its stop
// details.
func Refuse(explanation string) Step { return script.Refuse(explanation) }

// Fail makes the model request fail for good: a session.error of
// errorType (for example "model_overloaded_error") with retry status
// exhausted, and the turn ends with stop reason retries_exhausted. The
// session stays usable. Empty values default to "unknown_error" and a
// fixed message.
func Fail(errorType, message string) Step { return script.Fail(errorType, message) }

// Reschedule makes the model request hit a transient error that the
// platform retries by itself: a session.error with retry status retrying,
// session.status_rescheduled, then session.status_running, and the turn
// goes on with the next step. Empty values default as Fail's. Not inside
// Spawn.
func Reschedule(errorType, message string) Step { return script.Reschedule(errorType, message) }

// Terminate makes the model request hit an unrecoverable error: a
// session.error with retry status terminal, then session.status_terminated.
// The session is over: its streams end, and every later write to it is a
// 409 (reading, archiving and deleting still work). Empty values default as
// Fail's. Not inside Spawn.
func Terminate(errorType, message string) Step { return script.Terminate(errorType, message) }

// Hold keeps the turn running at this point, with the session's status
// running, until Server.ReleaseSession or a user.interrupt: for code that
// interrupts a session or waits for it.
func Hold() Step { return script.Hold() }

// Spawn makes a coordinator agent (agents.Coordinator) start a child
// thread of agentName, an agent of its roster, that runs steps at once. The
// session's history shows the coordinator's view: session.thread_created,
// the thread's status events, and the child's last message as
// agent.thread_message_received. A child cannot Spawn, Reschedule or
// Terminate.
func Spawn(agentName string, steps ...Step) Step { return script.Spawn(agentName, steps...) }

// Emit records an event of any type with payload as its fields (id,
// type and processed_at are the server's): for code that must cope with
// event types newer than it knows (sessions.UnknownEvent).
func Emit(eventType string, payload map[string]any) Step { return script.Emit(eventType, payload) }

// StepOption adjusts a step; see Step's With. The zero StepOption changes
// nothing.
type StepOption = script.StepOption

// Tokens sets the usage the step adds to its model request, which the
// session's usage and cost add up: for code that tracks usage or budgets.
func Tokens(input, output int) StepOption { return script.Tokens(input, output) }

// ToolOutput is the result a built-in or MCP tool returns when the server
// runs it (by default "ok", not an error).
func ToolOutput(text string, isError bool) StepOption { return script.ToolOutput(text, isError) }

// Verdict is what a tool whose permission policy is "auto" decides for
// this call: sessions.PermissionAllow, PermissionDeny or PermissionAsk (the
// default). Other policies ignore it.
func Verdict(p sessions.Permission) StepOption { return script.Verdict(string(p)) }

// Outcome marks the step as the agent's deliverable being ready: its model
// request ends there, and the session's active outcome (user.define_outcome)
// is evaluated with result (default sessions.OutcomeSatisfied;
// needs_revision continues the turn) and explanation.
func Outcome(result sessions.OutcomeResult, explanation string) StepOption {
	return script.Outcome(string(result), explanation)
}

// ScriptSession queues turns for the session: each event that starts a
// turn takes the next one. It checks the whole script first and queues
// nothing if a step is wrong: an empty Say, a tool input that is not a JSON
// object, a Spawn of an agent outside the roster, an option on a step that
// takes none. The agent's tools are not checked here: a built-in or MCP
// tool the agent does not have is denied when the turn runs, as the
// platform would.
func (s *Server) ScriptSession(sessionID string, turns ...[]Step) error {
	return scriptError(s.rs.ScriptSession(sessionID, turns...))
}

// ScriptAgent queues turns for every session of the agent created from now
// on, by Create Session or by a deployment's run, after any turns queued
// before. Each session takes the turns from the first; ScriptSession adds
// to one session's.
func (s *Server) ScriptAgent(agentID string, turns ...[]Step) error {
	return scriptError(s.rs.ScriptAgent(agentID, turns...))
}

// ReleaseSession continues the session's turns that wait at a Hold.
func (s *Server) ReleaseSession(sessionID string) error {
	return scriptError(s.rs.ReleaseSession(sessionID))
}

// scriptError restates the reference server's errors under this package's
// name.
func scriptError(err error) error {
	if err == nil {
		return nil
	}
	return errors.New("platformtest: " + strings.TrimPrefix(err.Error(), "refserver: "))
}
