package sessions

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Shapes of the event params of V1 Send Events (docs/session-events-wire.md
// 3.1). initial_events accept three of these types and are parsed by
// parseEventParams (sessions_events.go), whose messages for them are the
// same; the state rules of 3.3 are in events_check.go.

var sendEventTypes = []string{"user.message", "user.interrupt", "user.tool_confirmation", "user.custom_tool_result",
	"user.tool_result", "user.define_outcome", "system.message"}

const (
	maxSendEvents        = 50
	maxToolUseID         = 128
	maxDenyMessage       = 10000
	maxSystemBlocks      = 1000
	sendSystemPlacement  = "system.message must be the last event and follow a user.message, user.tool_result or user.custom_tool_result"
	eventUserMessage     = "user.message"
	eventInterrupt       = "user.interrupt"
	eventConfirmation    = "user.tool_confirmation"
	eventCustomResult    = "user.custom_tool_result"
	eventToolResult      = "user.tool_result"
	eventDefineOutcome   = "user.define_outcome"
	eventSystemMessage   = "system.message"
	eventsField          = "events"
	toolUseIDField       = "tool_use_id"
	customToolUseIDField = "custom_tool_use_id"
)

// parseSendEvents checks the events array of a Send Events body.
func parseSendEvents(raw json.RawMessage) ([]eventParam, error) {
	items, err := kit.ArrayAt(eventsField, raw)
	if err != nil {
		return nil, err
	}
	if err := kit.CheckCount(eventsField, len(items), 1, maxSendEvents); err != nil {
		return nil, err
	}
	out := make([]eventParam, 0, len(items))
	for i, item := range items {
		p := kit.IndexPath(eventsField, i)
		typ, err := kit.TypeAt(p, item)
		if err != nil {
			return nil, err
		}
		switch typ {
		case eventUserMessage:
			err = parseMessageParam(p, item)
		case eventInterrupt:
			err = kit.DecodeAt(p, item, &interruptBody{})
		case eventConfirmation:
			err = parseConfirmationParam(p, item)
		case eventCustomResult:
			var body customResultBody
			if err = kit.DecodeAt(p, item, &body); err == nil {
				err = checkResultParam(p, customToolUseIDField, body.CustomToolUseID, body.Content)
			}
		case eventToolResult:
			var body toolResultBody
			if err = kit.DecodeAt(p, item, &body); err == nil {
				err = checkResultParam(p, toolUseIDField, body.ToolUseID, body.Content)
			}
		case eventDefineOutcome:
			_, err = parseDefineOutcomeParam(p, item)
		case eventSystemMessage:
			if err = parseSystemParam(p, item); err == nil {
				// At most one system.message, last, right after the event
				// it accompanies.
				if i != len(items)-1 || i == 0 || !accompaniable(out[i-1].typ) {
					err = kit.InvalidField(p, sendSystemPlacement)
				}
			}
		default:
			err = kit.BadType(p, sendEventTypes...)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, eventParam{typ: typ, payload: kit.CompactJSON(item)})
	}
	return out, nil
}

func accompaniable(typ string) bool {
	return typ == eventUserMessage || typ == eventToolResult || typ == eventCustomResult
}

type interruptBody struct {
	Type            kit.Optional[string] `json:"type"`
	SessionThreadID kit.Optional[string] `json:"session_thread_id"`
}

type confirmationBody struct {
	Type        kit.Optional[string] `json:"type"`
	Result      kit.Optional[string] `json:"result"`
	ToolUseID   kit.Optional[string] `json:"tool_use_id"`
	DenyMessage kit.Optional[string] `json:"deny_message"`
}

type customResultBody struct {
	Type            kit.Optional[string]          `json:"type"`
	CustomToolUseID kit.Optional[string]          `json:"custom_tool_use_id"`
	Content         kit.Optional[json.RawMessage] `json:"content"`
	IsError         kit.Optional[bool]            `json:"is_error"`
}

type toolResultBody struct {
	Type      kit.Optional[string]          `json:"type"`
	ToolUseID kit.Optional[string]          `json:"tool_use_id"`
	Content   kit.Optional[json.RawMessage] `json:"content"`
	IsError   kit.Optional[bool]            `json:"is_error"`
}

func parseConfirmationParam(path string, raw json.RawMessage) error {
	var body confirmationBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return err
	}
	resultPath := kit.JoinPath(path, "result")
	if err := kit.Required(resultPath, body.Result); err != nil {
		return err
	}
	if err := kit.OneOf(resultPath, body.Result.Value, "allow", "deny"); err != nil {
		return err
	}
	if err := checkToolUseID(kit.JoinPath(path, toolUseIDField), body.ToolUseID); err != nil {
		return err
	}
	if body.DenyMessage.Present() {
		denyPath := kit.JoinPath(path, "deny_message")
		if err := kit.CheckLength(denyPath, body.DenyMessage.Value, 0, maxDenyMessage); err != nil {
			return err
		}
		if body.Result.Value != "deny" {
			return kit.InvalidField(denyPath, "only allowed when result is `deny`")
		}
	}
	return nil
}

func checkToolUseID(path string, id kit.Optional[string]) error {
	if err := kit.Required(path, id); err != nil {
		return err
	}
	return kit.CheckLength(path, id.Value, 1, maxToolUseID)
}

// checkResultParam checks a custom tool or sandbox tool result: the id, and
// content as an array of text blocks (omitted is []).
func checkResultParam(path, idField string, id kit.Optional[string], content kit.Optional[json.RawMessage]) error {
	if err := checkToolUseID(kit.JoinPath(path, idField), id); err != nil {
		return err
	}
	contentPath := kit.JoinPath(path, "content")
	if err := kit.NotNull(contentPath, content); err != nil {
		return err
	}
	if !content.Set {
		return nil
	}
	blocks, err := kit.ArrayAt(contentPath, content.Value)
	if err != nil {
		return err
	}
	return checkTextBlocks(contentPath, blocks)
}

// parseSystemParam checks a system.message's content: 1–1000 text blocks.
func parseSystemParam(path string, raw json.RawMessage) error {
	var body messageParamBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return err
	}
	contentPath := kit.JoinPath(path, "content")
	if err := kit.Required(contentPath, body.Content); err != nil {
		return err
	}
	blocks, err := kit.ArrayAt(contentPath, body.Content.Value)
	if err != nil {
		return err
	}
	if err := kit.CheckCount(contentPath, len(blocks), 1, maxSystemBlocks); err != nil {
		return err
	}
	return checkTextBlocks(contentPath, blocks)
}

// checkTextBlocks checks content blocks: text only, text at least 1
// character (docs/session-events-wire.md 1.3).
func checkTextBlocks(contentPath string, blocks []json.RawMessage) error {
	for j, block := range blocks {
		bp := kit.IndexPath(contentPath, j)
		typ, err := kit.TypeAt(bp, block)
		if err != nil {
			return err
		}
		if typ != "text" {
			return kit.BadType(bp, "text")
		}
		var tb textBlockBody
		if err := kit.DecodeAt(bp, block, &tb); err != nil {
			return err
		}
		textPath := kit.JoinPath(bp, "text")
		if err := kit.Required(textPath, tb.Text); err != nil {
			return err
		}
		if tb.Text.Value == "" {
			return kit.InvalidField(textPath, "must be at least 1 character")
		}
	}
	return nil
}
