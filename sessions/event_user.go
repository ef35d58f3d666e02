package sessions

import "encoding/json"

// Echoes of the events a client sends (docs/session-events-wire.md 3.2):
// what Send returns and what List and the stream deliver for them.

// UserMessageEvent is a user.message as recorded.
type UserMessageEvent struct {
	EventMeta
	Content []ContentBlock `json:"content"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// InterruptEvent is a user.interrupt as recorded. ThreadID is the thread
// it stopped, "" for every thread.
type InterruptEvent struct {
	EventMeta
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolConfirmationEvent is a user.tool_confirmation as recorded. ThreadID
// is the child thread the answer was routed to, "" for the primary thread.
type ToolConfirmationEvent struct {
	EventMeta
	Result      ConfirmationResult `json:"result"`
	ToolUseID   string             `json:"tool_use_id"`           // the agent.tool_use or agent.mcp_tool_use event answered
	DenyMessage string             `json:"deny_message,omitzero"` // "" when none was given
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CustomToolResultEvent is a user.custom_tool_result as recorded.
type CustomToolResultEvent struct {
	EventMeta
	CustomToolUseID string         `json:"custom_tool_use_id"` // the agent.custom_tool_use event answered
	Content         []ContentBlock `json:"content"`
	IsError         bool           `json:"is_error"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolResultEvent is a user.tool_result as recorded (self-hosted
// environments).
type ToolResultEvent struct {
	EventMeta
	ToolUseID string         `json:"tool_use_id"` // the agent.tool_use event answered
	Content   []ContentBlock `json:"content"`
	IsError   bool           `json:"is_error"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// DefineOutcomeEvent is a user.define_outcome as recorded, with the
// outcome's new id and its resolved iteration bound.
type DefineOutcomeEvent struct {
	EventMeta
	Description   string      `json:"description"`
	Rubric        RubricParam `json:"rubric"` // TextRubricParam, FileRubricParam or UnknownRubricParam
	MaxIterations int         `json:"max_iterations"`
	OutcomeID     string      `json:"outcome_id"` // "outc_…"
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SystemMessageEvent is a system.message as recorded.
type SystemMessageEvent struct {
	EventMeta
	Content []ContentBlock `json:"content"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}
