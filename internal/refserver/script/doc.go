// Package script is the step language of the reference server's scripted
// agent. The server has no model: what an agent does in a turn is a list
// of Steps that a test queues (the server's ScriptSession for one session,
// ScriptAgent for every new session of an agent; platformtest offers the
// same steps to the SDK's users). Each turn-starting event (user.message,
// user.define_outcome) takes the next queued turn; with nothing queued
// the agent follows the default behaviour below, which the quickstart
// relies on.
//
// The package builds and checks scripts; it runs nothing. Compile turns
// the Steps of queued turns into Ops, failing with a message naming the
// turn and step when one is wrong, and the session engine of the
// reference server runs the Ops. The package has no state and no lock:
// Steps and Ops are values, and the server keeps queued turns under its
// own mutex. All it needs from the server is whether an agent name is in a
// coordinator's roster (Compile's inRoster) and how many child threads a
// session already has.
//
// # Model requests
//
// Consecutive agent steps (Say, SayChunks, Think, the three tool steps,
// Refuse, Fail, Reschedule, Terminate, Firehose) up to and including a
// tool call (or a step with the Outcome option) form one model request:
// span.model_request_start, the previews of its steps, its buffered events
// in step order, span.model_request_end. Spawn and Emit close the open
// request first and are not part of one. Hold pauses where it stands,
// inside a request or between two: an interrupt during a Hold cuts the
// open request short (no buffered events, only its span end). A turn's
// steps continue after a tool result, a confirmation or a release.
//
// # Errors
//
// Fail, Reschedule and Terminate (docs/session-events-wire.md 6.6, 4.11)
// make the open model request fail where they stand: the steps of that
// request before them are dropped (their previews were sent; the span end
// closes them), and span.model_request_end has is_error true and the usage
// of a failed request. What follows is the session.error's retry_status:
// exhausted (Fail) ends the turn, retrying (Reschedule) retries at once
// and goes on with the next step, terminal (Terminate) ends the session
// for good. The latter two run on the primary thread only (a Spawn's steps
// cannot use them).
//
// # Default behaviour
//
// With no script, for a user.message with text T (the text blocks joined
// with "\n"):
//
//   - the session's first turn, when the agent has a custom tool: one model
//     request calls the first custom tool with an input built from its
//     input_schema (each string property gets T, other properties the zero
//     value of their type: 0, false, [], {}, or null when untyped); after
//     the user.custom_tool_result, a second request says
//     "The <tool> tool returned: <result text>" and the turn ends
//     (CustomToolTurn);
//   - otherwise: Think("Reading the message."), Say("You said: " + T)
//     (ReplyTurn); an agent with custom skills says
//     "You said: T (skills: <names>)".
//
// A user.define_outcome that starts a turn on its own defaults to
// Say("Working on the outcome: <description>") (OutcomeTurn), then the
// evaluation. A child thread's report that reaches an idle coordinator
// starts a turn that says "<agent name> reported: <report>" (ReportTurn,
// not taken from the script).
//
// # Usage
//
// The usage of a model request (docs/session-events-wire.md section 8) is
// the sum of the Tokens options of its steps, or by default 1000 input and
// 100 output tokens (1000 and 0 for a failed request), no cache tokens. A
// grader cycle of an outcome uses 500 input and 50 output tokens. The
// engine applies these defaults; Ops carry only what a script set.
package script
