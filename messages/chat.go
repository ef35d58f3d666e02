package messages

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/union"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tool"
)

// ChatCompletionsService calls the OpenAI-compatible endpoint
// (docs/messages-wire.md 9), for code written against the OpenAI
// chat-completions shape. Get one from
// agentplatform.Client.Messages.ChatCompletions. Its errors are
// *apierror.Error too: the endpoint's OpenAI-shaped error body is read into
// the same type, message and status.
type ChatCompletionsService struct{ p *pipeline.Pipeline }

// Create runs a chat completion: POST /v1/chat/completions.
func (s *ChatCompletionsService) Create(ctx context.Context, params ChatCompletionParams, opts ...option.Option) (*ChatCompletion, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/chat/completions")
	req.Body = chatBody{p: &params}
	req.Result = chatResult
	return pipeline.Do[ChatCompletion](ctx, s.p, req, opts)
}

// ChatCompletionParams is the request of a chat completion
// (docs/messages-wire.md 9.1). Fields the platform ignores are not
// modelled; Extra sends any field as given.
type ChatCompletionParams struct {
	Model    string        `json:"model"`
	Messages []ChatMessage `json:"messages"`
	// MaxCompletionTokens wins over MaxTokens; with neither, the platform
	// allows min(4096, the model's limit).
	MaxCompletionTokens int            `json:"max_completion_tokens,omitzero"`
	MaxTokens           int            `json:"max_tokens,omitzero"`
	Temperature         *float64       `json:"temperature,omitempty"` // 0–2; above 1 is capped at 1
	TopP                *float64       `json:"top_p,omitempty"`
	Stop                []string       `json:"stop,omitzero"`
	Tools               []ChatTool     `json:"tools,omitzero"`
	ToolChoice          ChatToolChoice `json:"tool_choice,omitempty"`
	ParallelToolCalls   *bool          `json:"parallel_tool_calls,omitempty"`
	// Thinking turns reasoning on; it is used but not returned.
	Thinking Thinking `json:"thinking,omitempty"`
	// StreamOptions applies to Stream only; nil there means include_usage.
	StreamOptions *ChatStreamOptions `json:"stream_options,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

// ChatStreamOptions configures a streamed completion.
type ChatStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// ChatRole is the author of a chat message.
type ChatRole string

const (
	ChatRoleSystem    ChatRole = "system"
	ChatRoleDeveloper ChatRole = "developer"
	ChatRoleUser      ChatRole = "user"
	ChatRoleAssistant ChatRole = "assistant"
	ChatRoleTool      ChatRole = "tool"
)

// ChatMessage is a message of a chat completion, in the request and in
// the response, so that an answer can be appended to the conversation as
// it is.
type ChatMessage struct {
	Role ChatRole
	// Content is the text; an assistant message with ToolCalls and no
	// text sends null.
	Content string
	// Parts, when set, is sent as the content instead of Content: text
	// and image parts of a user message.
	Parts []ChatContentPart
	Name  string
	// ToolCalls are an assistant message's calls.
	ToolCalls []ChatToolCall
	// ToolCallID names the call a tool message answers.
	ToolCallID string
	// Refusal is set on a refused response; it is never sent.
	Refusal string
}

// ChatSystemMessage returns a system message.
func ChatSystemMessage(text string) ChatMessage {
	return ChatMessage{Role: ChatRoleSystem, Content: text}
}

// ChatUserMessage returns a user message of text.
func ChatUserMessage(text string) ChatMessage { return ChatMessage{Role: ChatRoleUser, Content: text} }

// ChatToolMessage returns the answer to the tool call id.
func ChatToolMessage(id, text string) ChatMessage {
	return ChatMessage{Role: ChatRoleTool, ToolCallID: id, Content: text}
}

func (m ChatMessage) MarshalJSON() ([]byte, error) {
	var content any = m.Content
	switch {
	case m.Parts != nil:
		content = m.Parts
	case m.Content == "" && m.Role == ChatRoleAssistant:
		content = nil
	}
	return json.Marshal(struct {
		Role       ChatRole       `json:"role"`
		Content    any            `json:"content"`
		Name       string         `json:"name,omitzero"`
		ToolCalls  []ChatToolCall `json:"tool_calls,omitzero"`
		ToolCallID string         `json:"tool_call_id,omitzero"`
	}{m.Role, content, m.Name, m.ToolCalls, m.ToolCallID})
}

func (m *ChatMessage) UnmarshalJSON(data []byte) error {
	var w struct {
		Role       ChatRole        `json:"role"`
		Content    json.RawMessage `json:"content"`
		Name       string          `json:"name"`
		ToolCalls  []ChatToolCall  `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
		Refusal    string          `json:"refusal"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*m = ChatMessage{Role: w.Role, Name: w.Name, ToolCalls: w.ToolCalls, ToolCallID: w.ToolCallID, Refusal: w.Refusal}
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

// ChatContentPart is a part of a user message: ChatTextPart, ChatImagePart,
// or UnknownChatPart.
type ChatContentPart interface{ isChatPart() }

// ChatTextPart is text (type "text").
type ChatTextPart struct {
	Text string `json:"text"`
}

// ChatImagePart is an image (type "image_url"): a data: URL or an https URL.
type ChatImagePart struct {
	URL    string
	Detail string // ignored by the platform
}

// UnknownChatPart is a part sent or received as is.
type UnknownChatPart struct{ union.Raw }

func (ChatTextPart) isChatPart()    {}
func (ChatImagePart) isChatPart()   {}
func (UnknownChatPart) isChatPart() {}

func (p ChatTextPart) MarshalJSON() ([]byte, error) {
	type plain ChatTextPart
	return union.Marshal("text", plain(p))
}

type chatImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitzero"`
}

func (p ChatImagePart) MarshalJSON() ([]byte, error) {
	return union.Marshal("image_url", struct {
		ImageURL chatImageURL `json:"image_url"`
	}{chatImageURL(p)})
}

func decodeChatPart(data []byte) (ChatContentPart, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "text":
		var p ChatTextPart
		return p, json.Unmarshal(data, &p)
	case "image_url":
		var w struct {
			ImageURL chatImageURL `json:"image_url"`
		}
		err := json.Unmarshal(data, &w)
		return ChatImagePart{URL: w.ImageURL.URL, Detail: w.ImageURL.Detail}, err
	}
	return UnknownChatPart{union.NewRaw(typ, data)}, nil
}

// ChatTool is a function the model may call (type "function").
type ChatTool struct {
	Function ChatFunction `json:"function"`
}

// ChatFunction defines a function. Parameters is its JSON Schema (an object
// schema; nil means any object).
type ChatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitzero"`
	Parameters  json.RawMessage `json:"parameters,omitzero"`
	Strict      *bool           `json:"strict,omitempty"` // ignored by the platform
}

func (t ChatTool) MarshalJSON() ([]byte, error) {
	type plain ChatTool
	return union.Marshal("function", plain(t))
}

// ChatToolFrom returns the definition of t as a chat function.
func ChatToolFrom(t tool.Tool) ChatTool {
	return ChatTool{Function: ChatFunction{Name: t.Name(), Description: t.Description(), Parameters: t.InputSchema()}}
}

// ChatToolChoice is ChatToolChoiceNone, ChatToolChoiceAuto,
// ChatToolChoiceRequired, or a ChatToolChoiceFunction.
type ChatToolChoice interface{ isChatToolChoice() }

// ChatToolChoiceMode is one of the string choices.
type ChatToolChoiceMode string

const (
	ChatToolChoiceNone     ChatToolChoiceMode = "none"
	ChatToolChoiceAuto     ChatToolChoiceMode = "auto"
	ChatToolChoiceRequired ChatToolChoiceMode = "required"
)

// ChatToolChoiceFunction forces a call of the named function.
type ChatToolChoiceFunction struct{ Name string }

func (ChatToolChoiceMode) isChatToolChoice()     {}
func (ChatToolChoiceFunction) isChatToolChoice() {}

func (c ChatToolChoiceFunction) MarshalJSON() ([]byte, error) {
	return union.Marshal("function", struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}{struct {
		Name string `json:"name"`
	}{c.Name}})
}

// ChatToolCall is a call the model made (type "function"). Arguments is a
// JSON object as a string.
type ChatToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"` // "function"; "" is sent as "function"
	Function ChatFunctionCall `json:"function"`
}

// ChatFunctionCall names the function and carries its arguments.
type ChatFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func (c ChatToolCall) MarshalJSON() ([]byte, error) {
	type plain ChatToolCall
	if c.Type == "" {
		c.Type = "function"
	}
	return json.Marshal(plain(c))
}

// ChatCompletion is the answer of Create (object "chat.completion").
type ChatCompletion struct {
	ID                string       `json:"id"`
	Object            string       `json:"object"`
	Created           int64        `json:"created"` // Unix seconds
	Model             string       `json:"model"`
	Choices           []ChatChoice `json:"choices"` // exactly one
	Usage             *ChatUsage   `json:"usage"`
	ServiceTier       string       `json:"service_tier"`       // "" when null
	SystemFingerprint string       `json:"system_fingerprint"` // "" when null
}

// ChatChoice is the answer.
type ChatChoice struct {
	Index        int          `json:"index"`
	Message      ChatMessage  `json:"message"`
	FinishReason FinishReason `json:"finish_reason"`
}

// FinishReason says why the model stopped. Unknown values are kept.
type FinishReason string

const (
	FinishStop          FinishReason = "stop"
	FinishLength        FinishReason = "length"
	FinishToolCalls     FinishReason = "tool_calls"
	FinishContentFilter FinishReason = "content_filter"
)

// ChatUsage is the token usage: PromptTokens is the whole input.
type ChatUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// chatBody is the JSON of a chat request.
type chatBody struct {
	p      *ChatCompletionParams
	stream bool
}

func (b chatBody) MarshalJSON() ([]byte, error) {
	type plain ChatCompletionParams
	p := plain(*b.p)
	if !b.stream {
		p.StreamOptions = nil
	} else if p.StreamOptions == nil {
		p.StreamOptions = &ChatStreamOptions{IncludeUsage: true}
	}
	out, err := json.Marshal(&p)
	if err != nil || (!b.stream && len(b.p.Extra) == 0) {
		return out, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, err
	}
	maps.Copy(m, b.p.Extra)
	if b.stream {
		m["stream"] = json.RawMessage("true")
	}
	return json.Marshal(m)
}
