package messages

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// ContentBlock is one block of a message's content, in a request or in a
// response (docs/messages-wire.md 3). A block received in a response can be
// sent back unchanged in the next request. Switch on the concrete type:
//
//   - TextBlock, ImageBlock, DocumentBlock, SearchResultBlock
//   - ToolUseBlock, ToolResultBlock (client tools)
//   - ThinkingBlock, RedactedThinkingBlock
//   - ServerToolUseBlock, WebSearchToolResultBlock,
//     CodeExecutionToolResultBlock, BashCodeExecutionToolResultBlock
//   - MCPToolUseBlock, MCPToolResultBlock
//   - FallbackBlock
//   - UnknownBlock: a kind this SDK does not model (web_fetch_tool_result,
//     container_upload, or one newer than this SDK), kept as received and
//     sent back unchanged.
type ContentBlock interface{ isContentBlock() }

// CacheControl marks a prompt-cache breakpoint (type "ephemeral",
// docs/messages-wire.md 3.3). TTL is CacheTTL5m (the default when empty) or
// CacheTTL1h.
type CacheControl struct {
	TTL string `json:"ttl,omitzero"`
}

// Cache lifetimes.
const (
	CacheTTL5m = "5m"
	CacheTTL1h = "1h"
)

// Ephemeral returns a breakpoint with the given ttl ("" for the default).
func Ephemeral(ttl string) *CacheControl { return &CacheControl{TTL: ttl} }

func (c CacheControl) MarshalJSON() ([]byte, error) {
	type plain CacheControl
	return union.Marshal("ephemeral", plain(c))
}

// TextBlock is text (type "text"). Citations is nil when the text cites
// nothing (null in responses); in requests it is sent only to replay a
// received block.
type TextBlock struct {
	Text         string        `json:"text"`
	Citations    []Citation    `json:"citations,omitempty"`
	CacheControl *CacheControl `json:"cache_control,omitempty"`
}

// ImageBlock is an image, in user messages and tool results (type
// "image"). Source is a Base64Source (media type image/jpeg, image/png,
// image/gif or image/webp), a URLSource or, with the files beta, a
// FileSource.
type ImageBlock struct {
	Source       Source        `json:"source"`
	CacheControl *CacheControl `json:"cache_control,omitempty"`
}

// DocumentBlock is a document, in user messages and tool results (type
// "document"). Source is a Base64Source (application/pdf), a
// PlainTextSource, a ContentSource, a URLSource (a PDF) or, with the files
// beta, a FileSource. Title and Context are optional; Context is not
// citable.
type DocumentBlock struct {
	Source       Source           `json:"source"`
	Title        string           `json:"title,omitzero"`
	Context      string           `json:"context,omitzero"`
	Citations    *CitationsConfig `json:"citations,omitempty"`
	CacheControl *CacheControl    `json:"cache_control,omitempty"`
}

// CitationsConfig turns citations of a document or search result on.
type CitationsConfig struct {
	Enabled bool `json:"enabled"`
}

// SearchResultBlock is a search result the client supplies, in user
// messages and tool results (type "search_result").
type SearchResultBlock struct {
	Source       string           `json:"source"`
	Title        string           `json:"title"`
	Content      []TextBlock      `json:"content"`
	Citations    *CitationsConfig `json:"citations,omitempty"`
	CacheControl *CacheControl    `json:"cache_control,omitempty"`
}

// Caller says who made a tool call: {"type": "direct"} for a call the model
// made itself, or a code-execution tool (Type "code_execution_…" with
// ToolID) for a programmatic call.
type Caller struct {
	Type   string `json:"type"`
	ToolID string `json:"tool_id,omitzero"`
}

// ToolUseBlock is a call of a client tool (type "tool_use"). Input is the
// call's arguments, always a JSON object; a nil Input is sent as {}.
type ToolUseBlock struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Input        json.RawMessage `json:"input"`
	Caller       *Caller         `json:"caller,omitempty"`
	CacheControl *CacheControl   `json:"cache_control,omitempty"`
}

// ToolResultBlock answers a ToolUseBlock of the previous assistant message
// (type "tool_result", user messages only). Content is Text, or Blocks of
// TextBlock, ImageBlock, DocumentBlock and SearchResultBlock; nil sends no
// content (an empty result).
type ToolResultBlock struct {
	ToolUseID    string        `json:"tool_use_id"`
	Content      Content       `json:"content,omitempty"`
	IsError      bool          `json:"is_error,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitempty"`
}

// ThinkingBlock is the model's reasoning (type "thinking"). Send it back
// unchanged: the signature is checked. Thinking is "" when the request asked
// for display "omitted".
type ThinkingBlock struct {
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

// RedactedThinkingBlock is reasoning withheld by the safety systems (type
// "redacted_thinking"); send it back unchanged.
type RedactedThinkingBlock struct {
	Data string `json:"data"`
}

// FallbackBlock marks a handoff to a fallback model after a refusal (type
// "fallback", beta server-side-fallback-*; docs/messages-wire.md 8.3).
type FallbackBlock struct {
	From FallbackModel `json:"from"`
	To   FallbackModel `json:"to"`
}

// FallbackModel names a model of a FallbackBlock.
type FallbackModel struct {
	Model string `json:"model"`
}

// UnknownBlock is a block kind this SDK does not model, kept as received
// (Type and the whole object) and sent back unchanged.
type UnknownBlock struct{ union.Raw }

func (TextBlock) isContentBlock()             {}
func (ImageBlock) isContentBlock()            {}
func (DocumentBlock) isContentBlock()         {}
func (SearchResultBlock) isContentBlock()     {}
func (ToolUseBlock) isContentBlock()          {}
func (ToolResultBlock) isContentBlock()       {}
func (ThinkingBlock) isContentBlock()         {}
func (RedactedThinkingBlock) isContentBlock() {}
func (FallbackBlock) isContentBlock()         {}
func (UnknownBlock) isContentBlock()          {}

func (b TextBlock) MarshalJSON() ([]byte, error) {
	type plain TextBlock
	return union.Marshal("text", plain(b))
}

func (b ImageBlock) MarshalJSON() ([]byte, error) {
	type plain ImageBlock
	return union.Marshal("image", plain(b))
}

func (b DocumentBlock) MarshalJSON() ([]byte, error) {
	type plain DocumentBlock
	return union.Marshal("document", plain(b))
}

func (b SearchResultBlock) MarshalJSON() ([]byte, error) {
	type plain SearchResultBlock
	return union.Marshal("search_result", plain(b))
}

func (b ToolUseBlock) MarshalJSON() ([]byte, error) {
	type plain ToolUseBlock
	b.Input = objectOrEmpty(b.Input)
	return union.Marshal("tool_use", plain(b))
}

func (b ToolResultBlock) MarshalJSON() ([]byte, error) {
	type plain ToolResultBlock
	return union.Marshal("tool_result", plain(b))
}

func (b ThinkingBlock) MarshalJSON() ([]byte, error) {
	type plain ThinkingBlock
	return union.Marshal("thinking", plain(b))
}

func (b RedactedThinkingBlock) MarshalJSON() ([]byte, error) {
	type plain RedactedThinkingBlock
	return union.Marshal("redacted_thinking", plain(b))
}

func (b FallbackBlock) MarshalJSON() ([]byte, error) {
	type plain FallbackBlock
	return union.Marshal("fallback", plain(b))
}

// objectOrEmpty sends a missing tool input as the empty object.
func objectOrEmpty(in json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(in)) == 0 {
		return emptyObject
	}
	return in
}

var emptyObject = json.RawMessage(`{}`)

func (b *TextBlock) UnmarshalJSON(data []byte) error {
	var w struct {
		Text         string          `json:"text"`
		Citations    json.RawMessage `json:"citations"`
		CacheControl *CacheControl   `json:"cache_control"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	cites, err := union.DecodeSlice(nullAsEmpty(w.Citations), decodeCitation)
	if err != nil {
		return fmt.Errorf("citations: %w", err)
	}
	*b = TextBlock{Text: w.Text, Citations: cites, CacheControl: w.CacheControl}
	return nil
}

func (b *ImageBlock) UnmarshalJSON(data []byte) error {
	var w struct {
		Source       json.RawMessage `json:"source"`
		CacheControl *CacheControl   `json:"cache_control"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	src, err := decodeSource(w.Source)
	*b = ImageBlock{Source: src, CacheControl: w.CacheControl}
	return err
}

func (b *DocumentBlock) UnmarshalJSON(data []byte) error {
	type plain DocumentBlock
	var w struct {
		plain
		Source json.RawMessage `json:"source"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*b = DocumentBlock(w.plain)
	var err error
	b.Source, err = decodeSource(w.Source)
	return err
}

func (b *ToolResultBlock) UnmarshalJSON(data []byte) error {
	type plain ToolResultBlock
	var w struct {
		plain
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*b = ToolResultBlock(w.plain)
	var err error
	b.Content, err = decodeContent(w.Content)
	return err
}

// nullAsEmpty turns an absent value into null, which DecodeSlice reads as nil.
func nullAsEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// DecodeContentBlock decodes one content block from its JSON. An unknown
// type gives an UnknownBlock.
func DecodeContentBlock(data []byte) (ContentBlock, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "text":
		return decodeAs[TextBlock](data)
	case "image":
		return decodeAs[ImageBlock](data)
	case "document":
		return decodeAs[DocumentBlock](data)
	case "search_result":
		return decodeAs[SearchResultBlock](data)
	case "tool_use":
		return decodeAs[ToolUseBlock](data)
	case "tool_result":
		return decodeAs[ToolResultBlock](data)
	case "thinking":
		return decodeAs[ThinkingBlock](data)
	case "redacted_thinking":
		return decodeAs[RedactedThinkingBlock](data)
	case "server_tool_use":
		return decodeAs[ServerToolUseBlock](data)
	case "web_search_tool_result":
		return decodeAs[WebSearchToolResultBlock](data)
	case "code_execution_tool_result":
		return decodeAs[CodeExecutionToolResultBlock](data)
	case "bash_code_execution_tool_result":
		return decodeAs[BashCodeExecutionToolResultBlock](data)
	case "mcp_tool_use":
		return decodeAs[MCPToolUseBlock](data)
	case "mcp_tool_result":
		return decodeAs[MCPToolResultBlock](data)
	case "fallback":
		return decodeAs[FallbackBlock](data)
	}
	return UnknownBlock{union.NewRaw(typ, data)}, nil
}

func decodeAs[T ContentBlock](data []byte) (ContentBlock, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}
