package messages

import (
	"bytes"
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// ContentBlock is one block of a message's content, in a request or in a
// response (docs/messages-wire.md 3). A block received in a response can be
// sent back unchanged in the next request. Switch on the concrete type:
//
//   - TextBlock, ImageBlock, DocumentBlock, SearchResultBlock
//   - ToolUseBlock, ToolResultBlock (client tools)
//   - ThinkingBlock, RedactedThinkingBlock
//   - ToolReferenceBlock, BrowserStateBlock (in tool results only)
//   - ServerToolUseBlock, WebSearchToolResultBlock, WebFetchToolResultBlock,
//     ToolSearchToolResultBlock, CodeExecutionToolResultBlock,
//     BashCodeExecutionToolResultBlock,
//     TextEditorCodeExecutionToolResultBlock, ContainerUploadBlock
//   - MCPToolUseBlock, MCPToolResultBlock
//   - FallbackBlock
//   - UnknownBlock: a kind newer than this SDK, kept as received and sent
//     back unchanged.
type ContentBlock interface{ isContentBlock() }

// CacheControl marks a prompt-cache breakpoint (type "ephemeral",
// docs/messages-wire.md 3.3). TTL is CacheTTL5m (the default when empty) or
// CacheTTL1h.
type CacheControl struct {
	TTL CacheTTL `json:"ttl,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CacheTTL is how long a prompt-cache breakpoint lives. Values this SDK
// does not know are kept as received.
type CacheTTL string

// Cache lifetimes.
const (
	CacheTTL5m CacheTTL = "5m"
	CacheTTL1h CacheTTL = "1h"
)

// Ephemeral returns a breakpoint with the given ttl ("" for the default).
func Ephemeral(ttl CacheTTL) *CacheControl { return &CacheControl{TTL: ttl} }

// TextBlock is text (type "text"). Citations is nil when the text cites
// nothing (null in responses); in requests it is sent only to replay a
// received block.
type TextBlock struct {
	Text         string        `json:"text"`
	Citations    []Citation    `json:"citations,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ImageBlock is an image, in user messages and tool results (type
// "image"). Source is a Base64Source (media type image/jpeg, image/png,
// image/gif or image/webp), a URLSource or, with the files beta, a
// FileSource. Transformations says what the platform does with an image
// larger than the model takes; nil leaves it to the platform (which
// downsizes it).
type ImageBlock struct {
	Source          Source                `json:"source"`
	CacheControl    *CacheControl         `json:"cache_control,omitzero"`
	Transformations *ImageTransformations `json:"transformations,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
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
	Citations    *CitationsConfig `json:"citations,omitzero"`
	CacheControl *CacheControl    `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ImageTransformations are the changes the platform may make to an image.
type ImageTransformations struct {
	OversizedImage OversizedImage `json:"oversized_image,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// OversizedImage is what the platform does with an image larger than the
// model takes.
type OversizedImage string

// What to do with an oversized image.
const (
	// OversizedImageDownsize scales the image down to fit (the default):
	// the model sees other dimensions than the image's.
	OversizedImageDownsize OversizedImage = "downsize"
	// OversizedImageError refuses the request with an error that names
	// the image's dimensions and the largest that fit.
	OversizedImageError OversizedImage = "error"
)

// CitationsConfig turns citations of a document or search result on.
type CitationsConfig struct {
	Enabled bool `json:"enabled"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SearchResultBlock is a search result the client supplies, in user
// messages and tool results (type "search_result").
type SearchResultBlock struct {
	Source       string           `json:"source"`
	Title        string           `json:"title"`
	Content      []TextBlock      `json:"content"`
	Citations    *CitationsConfig `json:"citations,omitzero"`
	CacheControl *CacheControl    `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Caller says who made a tool call: {"type": "direct"} for a call the model
// made itself, or a code-execution tool (Type "code_execution_…" with
// ToolID) for a programmatic call.
type Caller struct {
	Type   string `json:"type"`
	ToolID string `json:"tool_id,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolUseBlock is a call of a client tool (type "tool_use"). Input is the
// call's arguments, always a JSON object; a nil Input is sent as {}.
// ToolsetName names the toolset of a tool that belongs to one ("" when it
// does not: null in responses).
type ToolUseBlock struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Input        json.RawMessage `json:"input"`
	Caller       *Caller         `json:"caller,omitzero"`
	ToolsetName  string          `json:"toolset_name,omitzero"`
	CacheControl *CacheControl   `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolResultBlock answers a ToolUseBlock of the previous assistant message
// (type "tool_result", user messages only). Content is Text, or Blocks of
// TextBlock, ImageBlock, DocumentBlock, SearchResultBlock,
// ToolReferenceBlock and BrowserStateBlock; nil sends no content (an empty
// result). ToolsetName names the toolset of the tool that was called, as
// its ToolUseBlock did.
type ToolResultBlock struct {
	ToolUseID    string        `json:"tool_use_id"`
	ToolsetName  string        `json:"toolset_name,omitzero"`
	Content      Content       `json:"content,omitzero"`
	IsError      bool          `json:"is_error"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ThinkingBlock is the model's reasoning (type "thinking"). Send it back
// unchanged: the signature is checked. Thinking is "" when the request asked
// for display "omitted".
type ThinkingBlock struct {
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// RedactedThinkingBlock is reasoning withheld by the safety systems (type
// "redacted_thinking"); send it back unchanged.
type RedactedThinkingBlock struct {
	Data string `json:"data"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// FallbackBlock marks a handoff to a fallback model after a refusal (type
// "fallback", beta server-side-fallback-*; docs/messages-wire.md 8.3).
type FallbackBlock struct {
	From FallbackModel `json:"from"`
	To   FallbackModel `json:"to"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// FallbackModel names a model of a FallbackBlock.
type FallbackModel struct {
	Model string `json:"model"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownBlock is a block kind this SDK does not model, kept as received
// (Type and the whole object) and sent back unchanged.
type UnknownBlock struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownBlock) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

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

// The plain copies of the types above, and their JSON.
type (
	plainCacheControl          CacheControl
	plainTextBlock             TextBlock
	plainImageBlock            ImageBlock
	plainImageTransformations  ImageTransformations
	plainDocumentBlock         DocumentBlock
	plainCitationsConfig       CitationsConfig
	plainSearchResultBlock     SearchResultBlock
	plainCaller                Caller
	plainToolUseBlock          ToolUseBlock
	plainToolResultBlock       ToolResultBlock
	plainThinkingBlock         ThinkingBlock
	plainRedactedThinkingBlock RedactedThinkingBlock
	plainFallbackBlock         FallbackBlock
	plainFallbackModel         FallbackModel
)

func (c CacheControl) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("ephemeral", plainCacheControl(c))
}
func (c *CacheControl) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainCacheControl)(c), &c.Extra)
}

func (b TextBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text", plainTextBlock(b))
}
func (b *TextBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainTextBlock)(b), &b.Extra)
}

func (b ImageBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("image", plainImageBlock(b))
}
func (b *ImageBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainImageBlock)(b), &b.Extra)
}

func (t ImageTransformations) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainImageTransformations(t))
}
func (t *ImageTransformations) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainImageTransformations)(t), &t.Extra)
}

func (b DocumentBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("document", plainDocumentBlock(b))
}
func (b *DocumentBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainDocumentBlock)(b), &b.Extra)
}

func (c CitationsConfig) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCitationsConfig(c)) }
func (c *CitationsConfig) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainCitationsConfig)(c), &c.Extra)
}

func (b SearchResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("search_result", plainSearchResultBlock(b))
}
func (b *SearchResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainSearchResultBlock)(b), &b.Extra)
}

func (c Caller) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCaller(c)) }
func (c *Caller) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainCaller)(c), &c.Extra)
}

func (b ToolUseBlock) MarshalJSON() ([]byte, error) {
	b.Input = objectOrEmpty(b.Input)
	return wire.MarshalVariant("tool_use", plainToolUseBlock(b))
}
func (b *ToolUseBlock) UnmarshalJSON(data []byte) error {
	err := unmarshalVariant(data, (*plainToolUseBlock)(b), &b.Extra)
	b.Input = decodedInput(b.Input)
	return err
}

func (b ToolResultBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("tool_result", plainToolResultBlock(b))
}
func (b *ToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainToolResultBlock)(b), &b.Extra)
}

func (b ThinkingBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("thinking", plainThinkingBlock(b))
}
func (b *ThinkingBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainThinkingBlock)(b), &b.Extra)
}

func (b RedactedThinkingBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("redacted_thinking", plainRedactedThinkingBlock(b))
}
func (b *RedactedThinkingBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainRedactedThinkingBlock)(b), &b.Extra)
}

func (b FallbackBlock) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("fallback", plainFallbackBlock(b))
}
func (b *FallbackBlock) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainFallbackBlock)(b), &b.Extra)
}

func (m FallbackModel) MarshalJSON() ([]byte, error) { return wire.Marshal(plainFallbackModel(m)) }
func (m *FallbackModel) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainFallbackModel)(m), &m.Extra)
}

// objectOrEmpty sends a missing tool input as the empty object.
func objectOrEmpty(in json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(in)) == 0 {
		return emptyObject
	}
	return in
}

var emptyObject = json.RawMessage(`{}`)

// decodedInput is a decoded tool input: normalized, and {} when absent, as
// MarshalJSON sends it.
func decodedInput(in json.RawMessage) json.RawMessage {
	if len(in) == 0 {
		return json.RawMessage(`{}`)
	}
	return normalize(in, false)
}

// decodeBlock is the decoder of ContentBlock. An unknown type gives an
// UnknownBlock.
func decodeBlock(typ string, obj []byte) (ContentBlock, error) {
	v, err := variantBlock(typ, obj)
	return v, nested(err)
}

func variantBlock(typ string, obj []byte) (ContentBlock, error) {
	switch typ {
	case "text":
		return decodeAs[TextBlock](obj)
	case "image":
		return decodeAs[ImageBlock](obj)
	case "document":
		return decodeAs[DocumentBlock](obj)
	case "search_result":
		return decodeAs[SearchResultBlock](obj)
	case "tool_use":
		return decodeAs[ToolUseBlock](obj)
	case "tool_result":
		return decodeAs[ToolResultBlock](obj)
	case "thinking":
		return decodeAs[ThinkingBlock](obj)
	case "redacted_thinking":
		return decodeAs[RedactedThinkingBlock](obj)
	case "server_tool_use":
		return decodeAs[ServerToolUseBlock](obj)
	case "web_search_tool_result":
		return decodeAs[WebSearchToolResultBlock](obj)
	case "code_execution_tool_result":
		return decodeAs[CodeExecutionToolResultBlock](obj)
	case "bash_code_execution_tool_result":
		return decodeAs[BashCodeExecutionToolResultBlock](obj)
	case "mcp_tool_use":
		return decodeAs[MCPToolUseBlock](obj)
	case "mcp_tool_result":
		return decodeAs[MCPToolResultBlock](obj)
	case "fallback":
		return decodeAs[FallbackBlock](obj)
	}
	if b, ok, err := variantBlockMore(typ, obj); ok {
		return b, err
	}
	return UnknownBlock{Type: typ, JSON: unknownJSON(obj)}, nil
}
