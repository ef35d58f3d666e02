package sessions

import "encoding/json"

// EventParam is an event sent to a session (docs/session-events-wire.md 3):
// in a session's or a deployment's initial events, UserMessageParam,
// DefineOutcomeParam and SystemMessageParam; with Events.Send, also
// InterruptParam, ToolConfirmationParam, CustomToolResultParam and
// ToolResultParam. UnknownEventParam carries any other type as raw JSON,
// both ways: a deployment's stored events of a type newer than this SDK
// decode into it and are sent back unchanged.
//
// The constructors cover the usual cases:
//
//	InitialEvents: []sessions.EventParam{
//		sessions.UserMessage("Summarise the open issues."),
//		sessions.SystemMessage("Answer in French."),
//	}
type EventParam interface{ isEventParam() }

// UserMessageParam is a message from the user (type "user.message").
type UserMessageParam struct {
	// Content holds at least one block; TextBlockParam is the kind the API
	// accepts today.
	Content []ContentBlockParam `json:"content"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// DefineOutcomeParam sets an outcome for the agent to work towards and be
// evaluated against (type "user.define_outcome"); the agent starts work on
// receipt.
type DefineOutcomeParam struct {
	Description string      `json:"description"` // required, at least 1 character
	Rubric      RubricParam `json:"rubric"`      // required: TextRubricParam or FileRubricParam
	// MaxIterations bounds the evaluate-and-retry loop, 1 to 20; 0 is not
	// sent and means 3.
	MaxIterations int `json:"max_iterations,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SystemMessageParam adds privileged context as a system-role turn, for the
// turn it accompanies and every later one (type "system.message"). At most
// one per request; it must be the last event and immediately follow the
// user.message it accompanies. Only models that accept mid-conversation
// system messages support it.
type SystemMessageParam struct {
	Content []ContentBlockParam `json:"content"` // at least one TextBlockParam
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownEventParam is an event type this SDK does not know, sent and
// received as its raw JSON.
type UnknownEventParam struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownEventParam) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (UserMessageParam) isEventParam()   {}
func (DefineOutcomeParam) isEventParam() {}
func (SystemMessageParam) isEventParam() {}
func (UnknownEventParam) isEventParam()  {}

// UserMessage returns a user.message of one text block per argument.
func UserMessage(text ...string) UserMessageParam {
	return UserMessageParam{Content: textBlocks(text)}
}

// SystemMessage returns a system.message of one text block per argument.
func SystemMessage(text ...string) SystemMessageParam {
	return SystemMessageParam{Content: textBlocks(text)}
}

// DefineOutcome returns a user.define_outcome with the default iteration
// bound.
func DefineOutcome(description string, rubric RubricParam) DefineOutcomeParam {
	return DefineOutcomeParam{Description: description, Rubric: rubric}
}

func textBlocks(text []string) []ContentBlockParam {
	blocks := make([]ContentBlockParam, len(text))
	for i, t := range text {
		blocks[i] = TextBlockParam{Text: t}
	}
	return blocks
}

// ContentBlockParam is a block of a message's content: TextBlockParam, or
// UnknownContentBlockParam for kinds this SDK does not know (the API
// accepts only text in these events today).
type ContentBlockParam interface{ isContentBlockParam() }

// TextBlockParam is a block of text (type "text").
type TextBlockParam struct {
	Text string `json:"text"` // at least 1 character
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownContentBlockParam is a content block kind this SDK does not know,
// sent and received as its raw JSON.
type UnknownContentBlockParam struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownContentBlockParam) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (TextBlockParam) isContentBlockParam()           {}
func (UnknownContentBlockParam) isContentBlockParam() {}

// RubricParam is what an outcome is judged by: TextRubricParam,
// FileRubricParam, or UnknownRubricParam.
type RubricParam interface{ isRubricParam() }

// TextRubricParam is a rubric written inline (type "text").
type TextRubricParam struct {
	Content string `json:"content"` // 1 to 262144 characters
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// FileRubricParam is a rubric in an uploaded file (type "file").
type FileRubricParam struct {
	FileID string `json:"file_id"` // "file_…"
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownRubricParam is a rubric kind this SDK does not know, sent and
// received as its raw JSON.
type UnknownRubricParam struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownRubricParam) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (TextRubricParam) isRubricParam()    {}
func (FileRubricParam) isRubricParam()    {}
func (UnknownRubricParam) isRubricParam() {}

// TextRubric returns an inline rubric.
func TextRubric(content string) TextRubricParam { return TextRubricParam{Content: content} }

// FileRubric returns a rubric read from an uploaded file.
func FileRubric(fileID string) FileRubricParam { return FileRubricParam{FileID: fileID} }
