package chat

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/tool"
)

// Role is the author of a chat message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleDeveloper Role = "developer"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is a message of a chat completion, in the request and in
// the response, so that an answer can be appended to the conversation as
// it is.
type Message struct {
	Role Role
	// Content is the text; an assistant message with ToolCalls and no
	// text sends null.
	Content string
	// Parts, when set, is sent as the content instead of Content: text
	// and image parts of a user message.
	Parts []ContentPart
	Name  string
	// ToolCalls are an assistant message's calls.
	ToolCalls []ToolCall
	// ToolCallID names the call a tool message answers.
	ToolCallID string
	// Refusal is set on a refused response. It is written back when set,
	// as received; the platform ignores it in requests.
	Refusal string
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SystemMessage returns a system message.
func SystemMessage(text string) Message {
	return Message{Role: RoleSystem, Content: text}
}

// UserMessage returns a user message of text.
func UserMessage(text string) Message { return Message{Role: RoleUser, Content: text} }

// ToolMessage returns the answer to the tool call id.
func ToolMessage(id, text string) Message {
	return Message{Role: RoleTool, ToolCallID: id, Content: text}
}

// ContentPart is a part of a user message: TextPart, ImagePart,
// or UnknownPart.
type ContentPart interface{ isChatPart() }

// TextPart is text (type "text").
type TextPart struct {
	Text string `json:"text"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ImagePart is an image (type "image_url"): a data: URL or an https URL.
type ImagePart struct {
	URL    string
	Detail string // ignored by the platform
	// Extra holds the members of the part this SDK does not know, kept as
	// received and written back by MarshalJSON.
	Extra map[string]json.RawMessage
}

// UnknownPart is a part sent or received as is.
type UnknownPart struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownPart) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

func (TextPart) isChatPart()    {}
func (ImagePart) isChatPart()   {}
func (UnknownPart) isChatPart() {}

// Tool is a function the model may call (type "function").
type Tool struct {
	Function Function `json:"function"`
}

// Function defines a function. Parameters is its JSON Schema (an object
// schema; nil means any object).
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitzero"`
	Parameters  json.RawMessage `json:"parameters,omitzero"`
	Strict      *bool           `json:"strict,omitempty"` // ignored by the platform
}

func (t Tool) MarshalJSON() ([]byte, error) {
	type plain Tool
	return wire.Tagged("function", plain(t))
}

// FromTool returns the definition of t as a chat function.
func FromTool(t tool.Tool) Tool {
	return Tool{Function: Function{Name: t.Name(), Description: t.Description(), Parameters: t.InputSchema()}}
}

// ToolChoice is ToolChoiceNone, ToolChoiceAuto,
// ToolChoiceRequired, or a ToolChoiceFunction.
type ToolChoice interface{ isChatToolChoice() }

// ToolChoiceMode is one of the string choices.
type ToolChoiceMode string

const (
	ToolChoiceNone     ToolChoiceMode = "none"
	ToolChoiceAuto     ToolChoiceMode = "auto"
	ToolChoiceRequired ToolChoiceMode = "required"
)

// ToolChoiceFunction forces a call of the named function.
type ToolChoiceFunction struct{ Name string }

func (ToolChoiceMode) isChatToolChoice()     {}
func (ToolChoiceFunction) isChatToolChoice() {}

func (c ToolChoiceFunction) MarshalJSON() ([]byte, error) {
	return wire.Tagged("function", struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}{struct {
		Name string `json:"name"`
	}{c.Name}})
}

// ToolCall is a call the model made (type "function"). Arguments is a
// JSON object as a string.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // "function"; "" is sent as "function"
	Function FunctionCall `json:"function"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// FunctionCall names the function and carries its arguments.
type FunctionCall struct {
	Name      string `json:"name,omitzero"`
	Arguments string `json:"arguments,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// messageWire is a Message as the wire has it: the content is a string,
// an array of parts, or null.
type messageWire struct {
	Role       Role                       `json:"role"`
	Content    any                        `json:"content"`
	Name       string                     `json:"name,omitzero"`
	ToolCalls  []ToolCall                 `json:"tool_calls,omitzero"`
	ToolCallID string                     `json:"tool_call_id,omitzero"`
	Refusal    string                     `json:"refusal,omitzero"`
	Extra      map[string]json.RawMessage `json:",embed"`
}

// MarshalJSON writes Parts as the content when set, else Content; an
// assistant message without text has the content null.
func (m Message) MarshalJSON() ([]byte, error) {
	w := messageWire{Role: m.Role, Content: m.Content, Name: m.Name, ToolCalls: m.ToolCalls,
		ToolCallID: m.ToolCallID, Refusal: m.Refusal, Extra: m.Extra}
	switch {
	case m.Parts != nil:
		w.Content = m.Parts
	case m.Content == "" && m.Role == RoleAssistant:
		w.Content = nil
	}
	return wire.Marshal(w)
}

func (m *Message) UnmarshalJSON(data []byte) error {
	var w struct {
		messageWire
		Content jsontext.Value `json:"content"`
	}
	if err := unmarshal(data, &w, &w.Extra, parts); err != nil {
		return err
	}
	*m = Message{Role: w.Role, Name: w.Name, ToolCalls: w.ToolCalls, ToolCallID: w.ToolCallID, Refusal: w.Refusal, Extra: w.Extra}
	switch w.Content.Kind() {
	case '"':
		return wire.Unmarshal(w.Content, &m.Content)
	case '[':
		return wire.Unmarshal(w.Content, &m.Parts, parts)
	case 'n', 0:
		return nil
	}
	return errors.New("content must be a string, an array of parts or null")
}

// parts decodes ContentPart values.
var parts = wire.Join(wire.Union(decodePart))

// decodePart is the decoder of ContentPart.
func decodePart(typ string, obj []byte) (ContentPart, error) {
	switch typ {
	case "text":
		var p TextPart
		err := p.UnmarshalJSON(obj)
		return p, err
	case "image_url":
		var p ImagePart
		err := p.UnmarshalJSON(obj)
		return p, err
	}
	return UnknownPart{Type: typ, JSON: normalize(bytes.Clone(obj))}, nil
}

type plainTextPart TextPart

func (p TextPart) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainTextPart(p))
	if err != nil {
		return nil, err
	}
	return wire.WithType("text", body)
}

func (p *TextPart) UnmarshalJSON(data []byte) error {
	err := wire.Variant(data, (*plainTextPart)(p), &p.Extra)
	normalizeAll(p.Extra)
	return err
}

// imagePartWire is an ImagePart on the wire: the URL and the detail are
// members of image_url.
type imagePartWire struct {
	ImageURL struct {
		URL    string `json:"url"`
		Detail string `json:"detail,omitzero"`
	} `json:"image_url"`
	Extra map[string]json.RawMessage `json:",embed"`
}

func (p ImagePart) MarshalJSON() ([]byte, error) {
	var w imagePartWire
	w.ImageURL.URL, w.ImageURL.Detail, w.Extra = p.URL, p.Detail, p.Extra
	body, err := wire.Marshal(w)
	if err != nil {
		return nil, err
	}
	return wire.WithType("image_url", body)
}

func (p *ImagePart) UnmarshalJSON(data []byte) error {
	var w imagePartWire
	err := wire.Variant(data, &w, &w.Extra)
	normalizeAll(w.Extra)
	*p = ImagePart{URL: w.ImageURL.URL, Detail: w.ImageURL.Detail, Extra: w.Extra}
	return err
}

type (
	plainToolCall     ToolCall
	plainFunctionCall FunctionCall
)

// MarshalJSON writes the type "function" when Type is "".
func (c ToolCall) MarshalJSON() ([]byte, error) {
	if c.Type == "" {
		c.Type = "function"
	}
	return wire.Marshal(plainToolCall(c))
}

// UnmarshalJSON reads a call without a type as a "function" call, as
// MarshalJSON writes it.
func (c *ToolCall) UnmarshalJSON(data []byte) error {
	err := unmarshal(data, (*plainToolCall)(c), &c.Extra)
	if c.Type == "" {
		c.Type = "function"
	}
	return err
}

func (c FunctionCall) MarshalJSON() ([]byte, error) { return wire.Marshal(plainFunctionCall(c)) }

func (c *FunctionCall) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainFunctionCall)(c), &c.Extra)
}
