package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/union"
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
}

// ToolResultParam is the result of a sandbox tool (bash, read, write, edit,
// glob, grep) that the client ran itself (type "user.tool_result"). Only
// sessions on self-hosted environments accept it.
type ToolResultParam struct {
	// ToolUseID is the id of the AgentToolUseEvent, 1 to 128 characters.
	ToolUseID string              `json:"tool_use_id"`
	Content   []ContentBlockParam `json:"content,omitzero"`
	IsError   bool                `json:"is_error,omitzero"`
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

func (e InterruptParam) MarshalJSON() ([]byte, error) {
	type plain InterruptParam
	return union.Marshal(string(EventInterrupt), plain(e))
}

func (e ToolConfirmationParam) MarshalJSON() ([]byte, error) {
	type plain ToolConfirmationParam
	return union.Marshal(string(EventToolConfirmation), plain(e))
}

func (e CustomToolResultParam) MarshalJSON() ([]byte, error) {
	type plain CustomToolResultParam
	return union.Marshal(string(EventCustomToolResult), plain(e))
}

func (e ToolResultParam) MarshalJSON() ([]byte, error) {
	type plain ToolResultParam
	return union.Marshal(string(EventToolResult), plain(e))
}

// decodeSendOnlyParam decodes the parameters of this file for
// DecodeEventParam; ok is false for any other type.
func decodeSendOnlyParam(typ string, data []byte) (p EventParam, ok bool, err error) {
	switch EventType(typ) {
	case EventInterrupt:
		var w struct {
			SessionThreadID *string `json:"session_thread_id"`
		}
		err = json.Unmarshal(data, &w)
		e := InterruptParam{}
		if w.SessionThreadID != nil {
			e.SessionThreadID = *w.SessionThreadID
		}
		return e, true, err
	case EventToolConfirmation:
		var w struct {
			Result      ConfirmationResult `json:"result"`
			ToolUseID   string             `json:"tool_use_id"`
			DenyMessage *string            `json:"deny_message"`
		}
		err = json.Unmarshal(data, &w)
		e := ToolConfirmationParam{Result: w.Result, ToolUseID: w.ToolUseID}
		if w.DenyMessage != nil {
			e.DenyMessage = *w.DenyMessage
		}
		return e, true, err
	case EventCustomToolResult, EventToolResult:
		var w struct {
			CustomToolUseID string          `json:"custom_tool_use_id"`
			ToolUseID       string          `json:"tool_use_id"`
			Content         json.RawMessage `json:"content"`
			IsError         *bool           `json:"is_error"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, true, err
		}
		content, err := decodeList(w.Content, decodeContentBlockParam)
		isError := w.IsError != nil && *w.IsError
		if EventType(typ) == EventToolResult {
			return ToolResultParam{ToolUseID: w.ToolUseID, Content: content, IsError: isError}, true, err
		}
		return CustomToolResultParam{CustomToolUseID: w.CustomToolUseID, Content: content, IsError: isError}, true, err
	}
	return nil, false, nil
}

// eventValidator is an event parameter that checks its own fields, naming
// them under path.
type eventValidator interface{ validateEvent(path string) error }

func (e InterruptParam) validateEvent(string) error { return nil }

func (e ToolConfirmationParam) validateEvent(path string) error {
	if e.Result == "" {
		return apierror.Invalid(path+".result", "is required")
	}
	if err := check.Length(path+".tool_use_id", e.ToolUseID, 1, maxToolUseID); err != nil {
		return err
	}
	if e.DenyMessage != "" && e.Result != ConfirmationDeny {
		return apierror.Invalid(path+".deny_message", "only allowed when result is `deny`")
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
