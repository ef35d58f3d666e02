package chat

import (
	"bytes"
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/union"
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
	// Refusal is set on a refused response; it is never sent.
	Refusal string
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

func (m Message) MarshalJSON() ([]byte, error) {
	var content any = m.Content
	switch {
	case m.Parts != nil:
		content = m.Parts
	case m.Content == "" && m.Role == RoleAssistant:
		content = nil
	}
	return json.Marshal(struct {
		Role       Role       `json:"role"`
		Content    any        `json:"content"`
		Name       string     `json:"name,omitzero"`
		ToolCalls  []ToolCall `json:"tool_calls,omitzero"`
		ToolCallID string     `json:"tool_call_id,omitzero"`
	}{m.Role, content, m.Name, m.ToolCalls, m.ToolCallID})
}

func (m *Message) UnmarshalJSON(data []byte) error {
	var w struct {
		Role       Role            `json:"role"`
		Content    json.RawMessage `json:"content"`
		Name       string          `json:"name"`
		ToolCalls  []ToolCall      `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
		Refusal    string          `json:"refusal"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*m = Message{Role: w.Role, Name: w.Name, ToolCalls: w.ToolCalls, ToolCallID: w.ToolCallID, Refusal: w.Refusal}
	c := bytes.TrimSpace(w.Content)
	switch {
	case len(c) == 0 || c[0] == 'n':
	case c[0] == '"':
		return json.Unmarshal(c, &m.Content)
	default:
		var err error
		m.Parts, err = union.DecodeSlice(c, decodeChatPart)
		return err
	}
	return nil
}

// ContentPart is a part of a user message: TextPart, ImagePart,
// or UnknownPart.
type ContentPart interface{ isChatPart() }

// TextPart is text (type "text").
type TextPart struct {
	Text string `json:"text"`
}

// ImagePart is an image (type "image_url"): a data: URL or an https URL.
type ImagePart struct {
	URL    string
	Detail string // ignored by the platform
}

// UnknownPart is a part sent or received as is.
type UnknownPart struct{ union.Raw }

func (TextPart) isChatPart()    {}
func (ImagePart) isChatPart()   {}
func (UnknownPart) isChatPart() {}

func (p TextPart) MarshalJSON() ([]byte, error) {
	type plain TextPart
	return union.Marshal("text", plain(p))
}

type chatImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitzero"`
}

func (p ImagePart) MarshalJSON() ([]byte, error) {
	return union.Marshal("image_url", struct {
		ImageURL chatImageURL `json:"image_url"`
	}{chatImageURL(p)})
}

func decodeChatPart(data []byte) (ContentPart, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "text":
		var p TextPart
		return p, json.Unmarshal(data, &p)
	case "image_url":
		var w struct {
			ImageURL chatImageURL `json:"image_url"`
		}
		err := json.Unmarshal(data, &w)
		return ImagePart{URL: w.ImageURL.URL, Detail: w.ImageURL.Detail}, err
	}
	return UnknownPart{union.NewRaw(typ, data)}, nil
}

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
	return union.Marshal("function", plain(t))
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
	return union.Marshal("function", struct {
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
}

// FunctionCall names the function and carries its arguments.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func (c ToolCall) MarshalJSON() ([]byte, error) {
	type plain ToolCall
	if c.Type == "" {
		c.Type = "function"
	}
	return json.Marshal(plain(c))
}
