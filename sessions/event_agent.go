package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Events of the agent (docs/session-events-wire.md 4.2-4.8). A tool call is
// identified by the id of the event that announced it: answer an
// AgentToolUseEvent or AgentMCPToolUseEvent with Allow or Deny, and an
// AgentCustomToolUseEvent with CustomToolResult.
//
// Every event type has an Extra field: members this SDK does not know,
// kept as received and written back by MarshalJSON.

// AgentMessageEvent is a complete assistant message of one model request.
type AgentMessageEvent struct {
	EventMeta
	Content []ContentBlock `json:"content"` // text and redacted blocks
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AgentThinkingEvent signals that the model thought; it carries no content.
type AgentThinkingEvent struct {
	EventMeta
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AgentToolUseEvent is a call of a built-in tool (bash, edit, read, write,
// glob, grep, web_fetch, web_search). ThreadID is the child thread of a
// cross-posted call, "" for the primary thread's own.
type AgentToolUseEvent struct {
	EventMeta
	Name  agents.ToolName `json:"name"`
	Input json.RawMessage `json:"input,omitzero"` // decode it with ToolInput
	// EvaluatedPermission is what the tool's permission policy decided:
	// PermissionAsk calls wait for a user.tool_confirmation.
	EvaluatedPermission Permission `json:"evaluated_permission"`
	// Evaluation is the policy that decided; nil when the call was refused
	// before any policy applied (tool not enabled, unknown tool).
	Evaluation Evaluation `json:"evaluation"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
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
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitzero"` // as the model produced it; not checked against the schema
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AgentMCPToolUseEvent is a call of a tool of an MCP server.
type AgentMCPToolUseEvent struct {
	EventMeta
	Name                string          `json:"name"`
	MCPServerName       string          `json:"mcp_server_name"`
	Input               json.RawMessage `json:"input,omitzero"`
	EvaluatedPermission Permission      `json:"evaluated_permission"`
	Evaluation          Evaluation      `json:"evaluation"` // nil when null
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AgentToolResultEvent is the result of a built-in tool call: run by the
// server, or refused (denied, not enabled, interrupted) with IsError set.
type AgentToolResultEvent struct {
	EventMeta
	ToolUseID string         `json:"tool_use_id"`
	Content   []ContentBlock `json:"content"`
	IsError   bool           `json:"is_error"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AgentMCPToolResultEvent is the result of an MCP tool call.
type AgentMCPToolResultEvent struct {
	EventMeta
	MCPToolUseID string         `json:"mcp_tool_use_id"`
	Content      []ContentBlock `json:"content"`
	IsError      bool           `json:"is_error"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AgentThreadMessageSentEvent says the primary thread's agent sent a child
// thread a task or a follow-up.
type AgentThreadMessageSentEvent struct {
	EventMeta
	ToSessionThreadID string         `json:"to_session_thread_id"`
	ToAgentName       string         `json:"to_agent_name,omitzero"` // "" when sent to the primary agent
	Content           []ContentBlock `json:"content"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AgentThreadMessageReceivedEvent says a child thread sent the primary
// agent a report or a question.
type AgentThreadMessageReceivedEvent struct {
	EventMeta
	FromSessionThreadID string         `json:"from_session_thread_id"`
	FromAgentName       string         `json:"from_agent_name,omitzero"` // "" from the primary agent; "vendor.advisor" for advice
	Content             []ContentBlock `json:"content"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AgentThreadContextCompactedEvent says the conversation was summarised to
// fit the context window.
type AgentThreadContextCompactedEvent struct {
	EventMeta
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

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
type AlwaysAllowEvaluation struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AlwaysAskEvaluation means the policy always_ask asks the client.
type AlwaysAskEvaluation struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AutoEvaluation means the server judged the call (policy auto).
type AutoEvaluation struct {
	EvaluatedPermission AutoPermission `json:"evaluated_permission"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AutoPermission is the judgement of an auto policy: Type equals the
// event's EvaluatedPermission; ReasonCode says why it asked or denied
// ("indeterminate", "high_risk", …), "" when allowed.
type AutoPermission struct {
	Type       Permission `json:"type"`
	ReasonCode string     `json:"reason_code,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownEvaluation is a policy kind this SDK does not know, as received.
type UnknownEvaluation struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownEvaluation) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (AlwaysAllowEvaluation) isEvaluation() {}
func (AlwaysAskEvaluation) isEvaluation()   {}
func (AutoEvaluation) isEvaluation()        {}
func (UnknownEvaluation) isEvaluation()     {}

type (
	plainAlwaysAllowEvaluation AlwaysAllowEvaluation
	plainAlwaysAskEvaluation   AlwaysAskEvaluation
	plainAutoEvaluation        AutoEvaluation
	plainAutoPermission        AutoPermission
)

// MarshalJSON writes the variant's wire object, "type" first.
func (v AlwaysAllowEvaluation) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("always_allow", plainAlwaysAllowEvaluation(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *AlwaysAllowEvaluation) UnmarshalJSON(data []byte) error {
	*v = AlwaysAllowEvaluation{}
	return decodeVariant(data, (*plainAlwaysAllowEvaluation)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v AlwaysAskEvaluation) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("always_ask", plainAlwaysAskEvaluation(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *AlwaysAskEvaluation) UnmarshalJSON(data []byte) error {
	*v = AlwaysAskEvaluation{}
	return decodeVariant(data, (*plainAlwaysAskEvaluation)(v))
}

// MarshalJSON writes the variant's wire object, "type" first.
func (v AutoEvaluation) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("auto", plainAutoEvaluation(v))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (v *AutoEvaluation) UnmarshalJSON(data []byte) error {
	*v = AutoEvaluation{}
	return decodeVariant(data, (*plainAutoEvaluation)(v))
}

// MarshalJSON writes the wire object.
func (p AutoPermission) MarshalJSON() ([]byte, error) { return wire.Marshal(plainAutoPermission(p)) }

// UnmarshalJSON decodes the wire object.
func (p *AutoPermission) UnmarshalJSON(data []byte) error {
	*p = AutoPermission{}
	return wire.Unmarshal(data, (*plainAutoPermission)(p))
}

func decodeEvaluation(typ string, obj []byte) (Evaluation, error) {
	switch typ {
	case "always_allow":
		p, err := newVariant[plainAlwaysAllowEvaluation](obj)
		if err != nil {
			return nil, err
		}
		return AlwaysAllowEvaluation(*p), nil
	case "always_ask":
		p, err := newVariant[plainAlwaysAskEvaluation](obj)
		if err != nil {
			return nil, err
		}
		return AlwaysAskEvaluation(*p), nil
	case "auto":
		p, err := newVariant[plainAutoEvaluation](obj, unions)
		if err != nil {
			return nil, err
		}
		return AutoEvaluation(*p), nil
	}
	return UnknownEvaluation{Type: typ, JSON: canonical(obj)}, nil
}
