package sessions

// Echoes of the events a client sends (docs/session-events-wire.md 3.2):
// what Send returns and what List and the stream deliver for them.

// UserMessageEvent is a user.message as recorded.
type UserMessageEvent struct {
	EventMeta
	Content []ContentBlock
}

// InterruptEvent is a user.interrupt as recorded. ThreadID is the thread
// it stopped, "" for every thread.
type InterruptEvent struct{ EventMeta }

// ToolConfirmationEvent is a user.tool_confirmation as recorded. ThreadID
// is the child thread the answer was routed to, "" for the primary thread.
type ToolConfirmationEvent struct {
	EventMeta
	Result      ConfirmationResult
	ToolUseID   string // the agent.tool_use or agent.mcp_tool_use event answered
	DenyMessage string // "" when none was given
}

// CustomToolResultEvent is a user.custom_tool_result as recorded.
type CustomToolResultEvent struct {
	EventMeta
	CustomToolUseID string // the agent.custom_tool_use event answered
	Content         []ContentBlock
	IsError         bool
}

// ToolResultEvent is a user.tool_result as recorded (self-hosted
// environments).
type ToolResultEvent struct {
	EventMeta
	ToolUseID string // the agent.tool_use event answered
	Content   []ContentBlock
	IsError   bool
}

// DefineOutcomeEvent is a user.define_outcome as recorded, with the
// outcome's new id and its resolved iteration bound.
type DefineOutcomeEvent struct {
	EventMeta
	Description   string
	Rubric        RubricParam // TextRubricParam, FileRubricParam or UnknownRubricParam
	MaxIterations int
	OutcomeID     string // "outc_…"
}

// SystemMessageEvent is a system.message as recorded.
type SystemMessageEvent struct {
	EventMeta
	Content []ContentBlock
}

func (*UserMessageEvent) Type() string      { return EventUserMessage }
func (*InterruptEvent) Type() string        { return EventInterrupt }
func (*ToolConfirmationEvent) Type() string { return EventToolConfirmation }
func (*CustomToolResultEvent) Type() string { return EventCustomToolResult }
func (*ToolResultEvent) Type() string       { return EventToolResult }
func (*DefineOutcomeEvent) Type() string    { return EventDefineOutcome }
func (*SystemMessageEvent) Type() string    { return EventSystemMessage }

func (e *UserMessageEvent) decodeField(r *jsonReader, key string) {
	if key == "content" {
		e.Content = r.blocks()
		return
	}
	e.EventMeta.decodeField(r, key)
}

func (e *ToolConfirmationEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "result":
		e.Result = ConfirmationResult(r.str())
	case "tool_use_id":
		e.ToolUseID = r.str()
	case "deny_message":
		e.DenyMessage = r.str()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *CustomToolResultEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "custom_tool_use_id":
		e.CustomToolUseID = r.str()
	case "content":
		e.Content = r.blocks()
	case "is_error":
		e.IsError = r.boolean()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *ToolResultEvent) decodeField(r *jsonReader, key string) {
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

func (e *DefineOutcomeEvent) decodeField(r *jsonReader, key string) {
	switch key {
	case "description":
		e.Description = r.str()
	case "rubric":
		raw := r.raw()
		if r.err != nil {
			return
		}
		rubric, err := decodeRubric([]byte(raw))
		if err != nil {
			r.fail("bad rubric: " + err.Error())
			return
		}
		e.Rubric = rubric
	case "max_iterations":
		e.MaxIterations = int(r.int())
	case "outcome_id":
		e.OutcomeID = r.str()
	default:
		e.EventMeta.decodeField(r, key)
	}
}

func (e *SystemMessageEvent) decodeField(r *jsonReader, key string) {
	if key == "content" {
		e.Content = r.blocks()
		return
	}
	e.EventMeta.decodeField(r, key)
}
