package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/union"
)

// Events of the agent (docs/session-events-wire.md 4.2-4.8). A tool call is
// identified by the id of the event that announced it: answer an
// AgentToolUseEvent or AgentMCPToolUseEvent with Allow or Deny, and an
// AgentCustomToolUseEvent with CustomToolResult.

// AgentMessageEvent is a complete assistant message of one model request.
type AgentMessageEvent struct {
	EventMeta
	Content []ContentBlock // text and redacted blocks
}

// AgentThinkingEvent signals that the model thought; it carries no content.
type AgentThinkingEvent struct{ EventMeta }

// AgentToolUseEvent is a call of a built-in tool (bash, edit, read, write,
// glob, grep, web_fetch, web_search). ThreadID is the child thread of a
// cross-posted call, "" for the primary thread's own.
type AgentToolUseEvent struct {
	EventMeta
	Name  agents.ToolName
	Input json.RawMessage // decode it with ToolInput
	// EvaluatedPermission is what the tool's permission policy decided:
	// PermissionAsk calls wait for a user.tool_confirmation.
	EvaluatedPermission Permission
	// Evaluation is the policy that decided; nil when the call was refused
	// before any policy applied (tool not enabled, unknown tool).
	Evaluation Evaluation
}

// ToolInput decodes Input into the typed input of the built-in tool
// (agents.BashInput, agents.EditInput, …); tools without a typed input give
// an agents.UnknownToolInput.
func (e *AgentToolUseEvent) ToolInput() (agents.ToolInput, error) {
	return agents.DecodeToolInput(e.Name, e.Input)
}

// AgentCustomToolUseEvent is a call of a custom tool, which the client runs:
// answer it with CustomToolResult. ThreadID as for AgentToolUseEvent.
type AgentCustomToolUseEvent struct {
	EventMeta
	Name  string
	Input json.RawMessage // as the model produced it; not checked against the schema
}

// AgentMCPToolUseEvent is a call of a tool of an MCP server.
type AgentMCPToolUseEvent struct {
	EventMeta
	Name                string
	MCPServerName       string
	Input               json.RawMessage
	EvaluatedPermission Permission
	Evaluation          Evaluation // nil when null
}

// AgentToolResultEvent is the result of a built-in tool call: run by the
// server, or refused (denied, not enabled, interrupted) with IsError set.
type AgentToolResultEvent struct {
	EventMeta
	ToolUseID string
	Content   []ContentBlock
	IsError   bool
}

// AgentMCPToolResultEvent is the result of an MCP tool call.
type AgentMCPToolResultEvent struct {
	EventMeta
	MCPToolUseID string
	Content      []ContentBlock
	IsError      bool
}

// AgentThreadMessageSentEvent says the primary thread's agent sent a child
// thread a task or a follow-up.
type AgentThreadMessageSentEvent struct {
	EventMeta
	ToSessionThreadID string
	ToAgentName       string // "" when sent to the primary agent
	Content           []ContentBlock
}

// AgentThreadMessageReceivedEvent says a child thread sent the primary
// agent a report or a question.
type AgentThreadMessageReceivedEvent struct {
	EventMeta
	FromSessionThreadID string
	FromAgentName       string // "" from the primary agent; "vendor.advisor" for advice
	Content             []ContentBlock
}

// AgentThreadContextCompactedEvent says the conversation was summarised to
// fit the context window.
type AgentThreadContextCompactedEvent struct{ EventMeta }

func (*AgentMessageEvent) Type() string                { return EventAgentMessage }
func (*AgentThinkingEvent) Type() string               { return EventAgentThinking }
func (*AgentToolUseEvent) Type() string                { return EventAgentToolUse }
func (*AgentCustomToolUseEvent) Type() string          { return EventAgentCustomToolUse }
func (*AgentMCPToolUseEvent) Type() string             { return EventAgentMCPToolUse }
func (*AgentToolResultEvent) Type() string             { return EventAgentToolResult }
func (*AgentMCPToolResultEvent) Type() string          { return EventAgentMCPToolResult }
func (*AgentThreadMessageSentEvent) Type() string      { return EventAgentThreadMessageSent }
func (*AgentThreadMessageReceivedEvent) Type() string  { return EventAgentThreadMessageReceived }
func (*AgentThreadContextCompactedEvent) Type() string { return EventAgentThreadContextCompacted }

// Permission is what a permission policy decided for a tool call. Values
// this SDK does not know are kept.
type Permission string

const (
	PermissionAllow Permission = "allow"
	PermissionAsk   Permission = "ask"
	PermissionDeny  Permission = "deny"
)

// Evaluation is the policy that decided a tool call: AlwaysAllowEvaluation,
// AlwaysAskEvaluation, AutoEvaluation, or UnknownEvaluation.
type Evaluation interface{ isEvaluation() }

// AlwaysAllowEvaluation means the policy always_allow approved the call.
type AlwaysAllowEvaluation struct{}

// AlwaysAskEvaluation means the policy always_ask asks the client.
type AlwaysAskEvaluation struct{}

// AutoEvaluation means the server judged the call (policy auto).
type AutoEvaluation struct {
	EvaluatedPermission AutoPermission
}

// AutoPermission is the judgement of an auto policy: Type equals the
// event's EvaluatedPermission; ReasonCode says why it asked or denied
// ("indeterminate", "high_risk", …), "" when allowed.
type AutoPermission struct {
	Type       Permission
	ReasonCode string
}

// UnknownEvaluation is a policy kind this SDK does not know, as received.
type UnknownEvaluation struct{ union.Raw }

func (AlwaysAllowEvaluation) isEvaluation() {}
func (AlwaysAskEvaluation) isEvaluation()   {}
func (AutoEvaluation) isEvaluation()        {}
func (UnknownEvaluation) isEvaluation()     {}

func (r *jsonReader) evaluation() Evaluation {
	if r.null() {
		return nil
	}
	switch typ := r.typeOf(); typ {
	case "always_allow":
		r.skip()
		return AlwaysAllowEvaluation{}
	case "always_ask":
		r.skip()
		return AlwaysAskEvaluation{}
	case "auto":
		var ev AutoEvaluation
		r.object(func(key string) {
			if key != "evaluated_permission" {
				r.skip()
				return
			}
			r.object(func(key string) {
				switch key {
				case "type":
					ev.EvaluatedPermission.Type = Permission(r.str())
				case "reason_code":
					ev.EvaluatedPermission.ReasonCode = r.str()
				default:
					r.skip()
				}
			})
		})
		return ev
	default:
		return UnknownEvaluation{r.rawUnion(typ)}
	}
}

// rawMessage copies the next value; null reads as nil.
func (r *jsonReader) rawMessage() json.RawMessage {
	if r.null() {
		return nil
	}
	return json.RawMessage(r.raw())
}

func (e *AgentMessageEvent) decodeField(r *jsonReader, key string) {
	if key == "content" {
		e.Content = r.blocks()
		return
	}
	e.EventMeta.decodeField(r, key)
}

func (e *AgentToolUseEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "name":
		e.Name = agents.ToolName(r.str())
	case "input":
		e.Input = r.rawMessage()
	case "evaluated_permission":
		e.EvaluatedPermission = Permission(r.str())
	case "evaluation":
		e.Evaluation = r.evaluation()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *AgentCustomToolUseEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "name":
		e.Name = r.str()
	case "input":
		e.Input = r.rawMessage()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *AgentMCPToolUseEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "name":
		e.Name = r.str()
	case "mcp_server_name":
		e.MCPServerName = r.str()
	case "input":
		e.Input = r.rawMessage()
	case "evaluated_permission":
		e.EvaluatedPermission = Permission(r.str())
	case "evaluation":
		e.Evaluation = r.evaluation()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *AgentToolResultEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "tool_use_id":
		e.ToolUseID = r.str()
	case "content":
		e.Content = r.blocks()
	case "is_error":
		e.IsError = r.boolean()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *AgentMCPToolResultEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "mcp_tool_use_id":
		e.MCPToolUseID = r.str()
	case "content":
		e.Content = r.blocks()
	case "is_error":
		e.IsError = r.boolean()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *AgentThreadMessageSentEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "to_session_thread_id":
		e.ToSessionThreadID = r.str()
	case "to_agent_name":
		e.ToAgentName = r.str()
	case "content":
		e.Content = r.blocks()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *AgentThreadMessageReceivedEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "from_session_thread_id":
		e.FromSessionThreadID = r.str()
	case "from_agent_name":
		e.FromAgentName = r.str()
	case "content":
		e.Content = r.blocks()
	default:
		e.EventMeta.decodeField(r, key)
	}
}
