package refserver

import "github.com/agentplatform/agentplatform-go/internal/refserver/script"

// The scripted agent: its step language (the steps, their options, the
// checks and the default turns) is package script, which documents what
// each step does. The server queues compiled turns (ScriptSession,
// ScriptAgent) and the engine runs them.

// Step is one thing the scripted agent does (package script).
type Step = script.Step

// StepOption adjusts a step (package script).
type StepOption = script.StepOption

// The steps and their options, as package script defines them.
var (
	Say           = script.Say
	SayChunks     = script.SayChunks
	Think         = script.Think
	UseTool       = script.UseTool
	UseMCPTool    = script.UseMCPTool
	UseCustomTool = script.UseCustomTool
	Fail          = script.Fail
	Reschedule    = script.Reschedule
	Terminate     = script.Terminate
	Refuse        = script.Refuse
	Hold          = script.Hold
	Spawn         = script.Spawn
	Emit          = script.Emit
	Firehose      = script.Firehose

	Verdict    = script.Verdict
	ToolOutput = script.ToolOutput
	Tokens     = script.Tokens
	Outcome    = script.Outcome
)

// ScriptSession queues turns for a session: each turn-starting event
// (user.message, user.define_outcome) takes the next one.
func (s *Server) ScriptSession(sessionID string, turns ...[]Step) error {
	return s.sessions.ScriptSession(sessionID, turns...)
}

// ScriptAgent queues turns for every session of the agent created from now
// on (by Create Session or a deployment), in addition to the turns already
// queued for it.
func (s *Server) ScriptAgent(agentID string, turns ...[]Step) error {
	return s.sessions.ScriptAgent(agentID, turns...)
}

// ReleaseSession continues every held turn of the session.
func (s *Server) ReleaseSession(sessionID string) error { return s.sessions.ReleaseSession(sessionID) }
