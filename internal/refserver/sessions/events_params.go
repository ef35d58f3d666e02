package sessions

import "encoding/json"

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
	items, err := maArray(eventsField, raw)
	if err != nil {
		return nil, err
	}
	if err := maCount(eventsField, len(items), 1, maxSendEvents); err != nil {
		return nil, err
	}
	out := make([]eventParam, 0, len(items))
	for i, item := range items {
		p := maIndex(eventsField, i)
		typ, err := maType(p, item)
		if err != nil {
			return nil, err
		}
		switch typ {
		case eventUserMessage:
			err = parseMessageParam(p, item)
		case eventInterrupt:
			err = maDecode(p, item, &interruptBody{})
		case eventConfirmation:
			err = parseConfirmationParam(p, item)
		case eventCustomResult:
			var body customResultBody
			if err = maDecode(p, item, &body); err == nil {
				err = checkResultParam(p, customToolUseIDField, body.CustomToolUseID, body.Content)
			}
		case eventToolResult:
			var body toolResultBody
			if err = maDecode(p, item, &body); err == nil {
				err = checkResultParam(p, toolUseIDField, body.ToolUseID, body.Content)
			}
		case eventDefineOutcome:
			_, err = parseDefineOutcomeParam(p, item)
		case eventSystemMessage:
			if err = parseSystemParam(p, item); err == nil {
				// At most one system.message, last, right after the event
				// it accompanies.
				if i != len(items)-1 || i == 0 || !accompaniable(out[i-1].typ) {
					err = invalidField(p, sendSystemPlacement)
				}
			}
		default:
			err = maBadType(p, sendEventTypes...)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, eventParam{typ: typ, payload: maCompact(item)})
	}
	return out, nil
}

func accompaniable(typ string) bool {
	return typ == eventUserMessage || typ == eventToolResult || typ == eventCustomResult
}

type interruptBody struct {
	Type            optional[string] `json:"type"`
	SessionThreadID optional[string] `json:"session_thread_id"`
}

type confirmationBody struct {
	Type        optional[string] `json:"type"`
	Result      optional[string] `json:"result"`
	ToolUseID   optional[string] `json:"tool_use_id"`
	DenyMessage optional[string] `json:"deny_message"`
}

type customResultBody struct {
	Type            optional[string]          `json:"type"`
	CustomToolUseID optional[string]          `json:"custom_tool_use_id"`
	Content         optional[json.RawMessage] `json:"content"`
	IsError         optional[bool]            `json:"is_error"`
}

type toolResultBody struct {
	Type      optional[string]          `json:"type"`
	ToolUseID optional[string]          `json:"tool_use_id"`
	Content   optional[json.RawMessage] `json:"content"`
	IsError   optional[bool]            `json:"is_error"`
}

func parseConfirmationParam(path string, raw json.RawMessage) error {
	var body confirmationBody
	if err := maDecode(path, raw, &body); err != nil {
		return err
	}
	resultPath := maJoin(path, "result")
	if err := maRequired(resultPath, body.Result); err != nil {
		return err
	}
	if err := maOneOf(resultPath, body.Result.Value, "allow", "deny"); err != nil {
		return err
	}
	if err := checkToolUseID(maJoin(path, toolUseIDField), body.ToolUseID); err != nil {
		return err
	}
	if body.DenyMessage.Present() {
		denyPath := maJoin(path, "deny_message")
		if err := checkLength(denyPath, body.DenyMessage.Value, 0, maxDenyMessage); err != nil {
			return err
		}
		if body.Result.Value != "deny" {
			return invalidField(denyPath, "only allowed when result is `deny`")
		}
	}
	return nil
}

func checkToolUseID(path string, id optional[string]) error {
	if err := maRequired(path, id); err != nil {
		return err
	}
	return checkLength(path, id.Value, 1, maxToolUseID)
}

// checkResultParam checks a custom tool or sandbox tool result: the id, and
// content as an array of text blocks (omitted is []).
func checkResultParam(path, idField string, id optional[string], content optional[json.RawMessage]) error {
	if err := checkToolUseID(maJoin(path, idField), id); err != nil {
		return err
	}
	contentPath := maJoin(path, "content")
	if err := maNotNull(contentPath, content); err != nil {
		return err
	}
	if !content.Set {
		return nil
	}
	blocks, err := maArray(contentPath, content.Value)
	if err != nil {
		return err
	}
	return checkTextBlocks(contentPath, blocks)
}

// parseSystemParam checks a system.message's content: 1–1000 text blocks.
func parseSystemParam(path string, raw json.RawMessage) error {
	var body messageParamBody
	if err := maDecode(path, raw, &body); err != nil {
		return err
	}
	contentPath := maJoin(path, "content")
	if err := maRequired(contentPath, body.Content); err != nil {
		return err
	}
	blocks, err := maArray(contentPath, body.Content.Value)
	if err != nil {
		return err
	}
	if err := maCount(contentPath, len(blocks), 1, maxSystemBlocks); err != nil {
		return err
	}
	return checkTextBlocks(contentPath, blocks)
}

// checkTextBlocks checks content blocks: text only, text at least 1
// character (docs/session-events-wire.md 1.3).
func checkTextBlocks(contentPath string, blocks []json.RawMessage) error {
	for j, block := range blocks {
		bp := maIndex(contentPath, j)
		typ, err := maType(bp, block)
		if err != nil {
			return err
		}
		if typ != "text" {
			return maBadType(bp, "text")
		}
		var tb textBlockBody
		if err := maDecode(bp, block, &tb); err != nil {
			return err
		}
		textPath := maJoin(bp, "text")
		if err := maRequired(textPath, tb.Text); err != nil {
			return err
		}
		if tb.Text.Value == "" {
			return invalidField(textPath, "must be at least 1 character")
		}
	}
	return nil
}
