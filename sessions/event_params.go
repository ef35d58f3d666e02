package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// The event parameters that only Send accepts (docs/session-events-wire.md
// 3): interrupts and the answers to tool calls. UserMessageParam,
// DefineOutcomeParam and SystemMessageParam are in events.go.

// Limits of docs/session-events-wire.md 10.
const (
	maxToolUseID   = 128
	maxDenyMessage = 10000
)

// InterruptParam stops the agent (type "user.interrupt"): the model request
// in flight is cancelled, pending tool calls are closed, and the session
// goes idle with stop reason end_turn. It jumps the queue: messages sent
// before it and not yet taken are dropped.
type InterruptParam struct {
	// SessionThreadID stops only that thread of a multi-agent session; ""
	// stops every thread.
	SessionThreadID string `json:"session_thread_id,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ConfirmationResult answers a tool call waiting for confirmation.
type ConfirmationResult string

const (
	ConfirmationAllow ConfirmationResult = "allow"
	ConfirmationDeny  ConfirmationResult = "deny"
)

// ToolConfirmationParam allows or denies a tool call whose permission
// policy asked (type "user.tool_confirmation"); the ids to answer are in
// the StopRequiresAction of the last idle event. Build it with Allow or
// Deny.
type ToolConfirmationParam struct {
	Result ConfirmationResult `json:"result"`
	// ToolUseID is the id of the AgentToolUseEvent or AgentMCPToolUseEvent,
	// 1 to 128 characters.
	ToolUseID string `json:"tool_use_id"`
	// DenyMessage tells the model why, at most 10000 characters; only with
	// ConfirmationDeny.
	DenyMessage string `json:"deny_message,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CustomToolResultParam is the result of a custom tool the client ran
// (type "user.custom_tool_result"): the model sees Content, as an error
// when IsError is set.
type CustomToolResultParam struct {
	// CustomToolUseID is the id of the AgentCustomToolUseEvent, 1 to 128
	// characters.
	CustomToolUseID string `json:"custom_tool_use_id"`
	// Content is the result; nil sends none (an empty result).
	Content []ContentBlockParam `json:"content,omitzero"`
	IsError bool                `json:"is_error,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolResultParam is the result of a sandbox tool (bash, read, write, edit,
// glob, grep) that the client ran itself (type "user.tool_result"). Only
// sessions on self-hosted environments accept it.
type ToolResultParam struct {
	// ToolUseID is the id of the AgentToolUseEvent, 1 to 128 characters.
	ToolUseID string              `json:"tool_use_id"`
	Content   []ContentBlockParam `json:"content,omitzero"`
	IsError   bool                `json:"is_error,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

func (InterruptParam) isEventParam()        {}
func (ToolConfirmationParam) isEventParam() {}
func (CustomToolResultParam) isEventParam() {}
func (ToolResultParam) isEventParam()       {}

// Interrupt returns a user.interrupt of every thread.
func Interrupt() InterruptParam { return InterruptParam{} }

// InterruptThread returns a user.interrupt of one thread.
func InterruptThread(threadID string) InterruptParam {
	return InterruptParam{SessionThreadID: threadID}
}

// Allow confirms the tool call toolUseID.
func Allow(toolUseID string) ToolConfirmationParam {
	return ToolConfirmationParam{Result: ConfirmationAllow, ToolUseID: toolUseID}
}

// Deny refuses the tool call toolUseID; message, if not "", tells the
// model why.
func Deny(toolUseID, message string) ToolConfirmationParam {
	return ToolConfirmationParam{Result: ConfirmationDeny, ToolUseID: toolUseID, DenyMessage: message}
}

// CustomToolResult returns the result of the custom tool call
// customToolUseID, one text block per argument.
func CustomToolResult(customToolUseID string, text ...string) CustomToolResultParam {
	return CustomToolResultParam{CustomToolUseID: customToolUseID, Content: optionalTextBlocks(text)}
}

// CustomToolError returns a failed result of the custom tool call
// customToolUseID.
func CustomToolError(customToolUseID string, text ...string) CustomToolResultParam {
	return CustomToolResultParam{CustomToolUseID: customToolUseID, Content: optionalTextBlocks(text), IsError: true}
}

// ToolResult returns the result of the sandbox tool call toolUseID.
func ToolResult(toolUseID string, text ...string) ToolResultParam {
	return ToolResultParam{ToolUseID: toolUseID, Content: optionalTextBlocks(text)}
}

// ToolError returns a failed result of the sandbox tool call toolUseID.
func ToolError(toolUseID string, text ...string) ToolResultParam {
	return ToolResultParam{ToolUseID: toolUseID, Content: optionalTextBlocks(text), IsError: true}
}

func optionalTextBlocks(text []string) []ContentBlockParam {
	if len(text) == 0 {
		return nil
	}
	return textBlocks(text)
}

// eventValidator is an event parameter that checks its own fields, naming
// them under path.
type eventValidator interface{ validateEvent(path string) error }

func (e InterruptParam) validateEvent(string) error { return nil }

func (e ToolConfirmationParam) validateEvent(path string) error {
	if e.Result == "" {
		return &apierror.ValidationError{Field: path + ".result", Rule: "is required"}
	}
	if err := check.Length(path+".tool_use_id", e.ToolUseID, 1, maxToolUseID); err != nil {
		return err
	}
	if e.DenyMessage != "" && e.Result != ConfirmationDeny {
		return &apierror.ValidationError{Field: path + ".deny_message", Rule: "only allowed when result is `deny`"}
	}
	return check.Length(path+".deny_message", e.DenyMessage, 0, maxDenyMessage)
}

func (e CustomToolResultParam) validateEvent(path string) error {
	if err := check.Length(path+".custom_tool_use_id", e.CustomToolUseID, 1, maxToolUseID); err != nil {
		return err
	}
	return validateResultContent(path+".content", e.Content)
}

func (e ToolResultParam) validateEvent(path string) error {
	if err := check.Length(path+".tool_use_id", e.ToolUseID, 1, maxToolUseID); err != nil {
		return err
	}
	return validateResultContent(path+".content", e.Content)
}

// validateResultContent checks a tool result's blocks, which may be none.
func validateResultContent(path string, blocks []ContentBlockParam) error {
	if len(blocks) == 0 {
		return nil
	}
	return validateContent(path, blocks)
}
