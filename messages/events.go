package messages

import (
	"encoding/json"
	"errors"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// StreamEvent is one event of a message stream (docs/messages-wire.md 5.2):
// MessageStartEvent, ContentBlockStartEvent, ContentBlockDeltaEvent,
// ContentBlockStopEvent, MessageDeltaEvent, MessageStopEvent, or
// UnknownStreamEvent for a type newer than this SDK. Pings are skipped, and
// an error event ends the stream with an *apierror.Error.
type StreamEvent interface{ isStreamEvent() }

// MessageStartEvent opens the stream. Message has every field, empty
// content, no stop reason, and the final input-side usage; its
// OutputTokens is a placeholder.
type MessageStartEvent struct {
	Message Message `json:"message"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ContentBlockStartEvent opens block Index of the content, in its empty
// form (text "", tool input {}), or complete for blocks that get no deltas
// (result blocks, redacted thinking, fallback).
type ContentBlockStartEvent struct {
	Index        int          `json:"index"`
	ContentBlock ContentBlock `json:"content_block"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ContentBlockDeltaEvent extends block Index.
type ContentBlockDeltaEvent struct {
	Index int   `json:"index"`
	Delta Delta `json:"delta"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ContentBlockStopEvent closes block Index.
type ContentBlockStopEvent struct {
	Index int `json:"index"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MessageDeltaEvent carries the final stop reason and the usage, which is
// cumulative: its values replace, never add to, the earlier ones.
type MessageDeltaEvent struct {
	Delta MessageDelta      `json:"delta"`
	Usage MessageDeltaUsage `json:"usage"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MessageStopEvent ends a successful stream.
type MessageStopEvent struct {
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownStreamEvent is an event type this SDK does not know, kept raw. It
// never ends the stream.
type UnknownStreamEvent struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownStreamEvent) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

func (MessageStartEvent) isStreamEvent()      {}
func (ContentBlockStartEvent) isStreamEvent() {}
func (ContentBlockDeltaEvent) isStreamEvent() {}
func (ContentBlockStopEvent) isStreamEvent()  {}
func (MessageDeltaEvent) isStreamEvent()      {}
func (MessageStopEvent) isStreamEvent()       {}
func (UnknownStreamEvent) isStreamEvent()     {}

// MessageDelta is the end of the message: these four fields overwrite
// the message's.
type MessageDelta struct {
	StopReason   StopReason   `json:"stop_reason,omitzero"`
	StopSequence string       `json:"stop_sequence,omitzero"` // "" when null
	StopDetails  *StopDetails `json:"stop_details"`
	Container    *Container   `json:"container"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MessageDeltaUsage is the usage of a message_delta. A nil field was absent
// or null and leaves the message's value as it is.
type MessageDeltaUsage struct {
	InputTokens              *int                 `json:"input_tokens"`
	CacheCreationInputTokens *int                 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int                 `json:"cache_read_input_tokens"`
	OutputTokens             *int                 `json:"output_tokens"`
	OutputTokensDetails      *OutputTokensDetails `json:"output_tokens_details"`
	ServerToolUse            *ServerToolUsage     `json:"server_tool_use"`
	Iterations               []UsageIteration     `json:"iterations,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Delta is the change a ContentBlockDeltaEvent makes: TextDelta,
// InputJSONDelta, ThinkingDelta, SignatureDelta, CitationsDelta, or
// UnknownDelta (kept raw; it never ends the stream).
type Delta interface{ isDelta() }

// TextDelta appends to a text block (type "text_delta").
type TextDelta struct {
	Text string `json:"text"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// InputJSONDelta is a fragment of a tool call's input (type
// "input_json_delta"). Fragments split the JSON anywhere: only their
// concatenation, at the block's stop, is JSON.
type InputJSONDelta struct {
	PartialJSON string `json:"partial_json"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ThinkingDelta appends to a thinking block (type "thinking_delta").
type ThinkingDelta struct {
	Thinking string `json:"thinking"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SignatureDelta sets a thinking block's signature (type
// "signature_delta").
type SignatureDelta struct {
	Signature string `json:"signature"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CitationsDelta adds a citation to a text block (type "citations_delta").
type CitationsDelta struct {
	Citation Citation `json:"citation"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownDelta is a delta type this SDK does not know, kept raw.
type UnknownDelta struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownDelta) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

func (TextDelta) isDelta()      {}
func (InputJSONDelta) isDelta() {}
func (ThinkingDelta) isDelta()  {}
func (SignatureDelta) isDelta() {}
func (CitationsDelta) isDelta() {}
func (UnknownDelta) isDelta()   {}

// The plain copies of the types above, and their JSON.
type (
	plainMessageStartEvent      MessageStartEvent
	plainContentBlockStartEvent ContentBlockStartEvent
	plainContentBlockDeltaEvent ContentBlockDeltaEvent
	plainContentBlockStopEvent  ContentBlockStopEvent
	plainMessageDeltaEvent      MessageDeltaEvent
	plainMessageStopEvent       MessageStopEvent
	plainMessageDelta           MessageDelta
	plainMessageDeltaUsage      MessageDeltaUsage
	plainTextDelta              TextDelta
	plainInputJSONDelta         InputJSONDelta
	plainThinkingDelta          ThinkingDelta
	plainSignatureDelta         SignatureDelta
	plainCitationsDelta         CitationsDelta
)

func (e MessageStartEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("message_start", plainMessageStartEvent(e))
}
func (e *MessageStartEvent) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainMessageStartEvent)(e), &e.Extra)
}

func (e ContentBlockStartEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("content_block_start", plainContentBlockStartEvent(e))
}
func (e *ContentBlockStartEvent) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainContentBlockStartEvent)(e), &e.Extra)
}

func (e ContentBlockDeltaEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("content_block_delta", plainContentBlockDeltaEvent(e))
}
func (e *ContentBlockDeltaEvent) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainContentBlockDeltaEvent)(e), &e.Extra)
}

func (e ContentBlockStopEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("content_block_stop", plainContentBlockStopEvent(e))
}
func (e *ContentBlockStopEvent) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainContentBlockStopEvent)(e), &e.Extra)
}

func (e MessageDeltaEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("message_delta", plainMessageDeltaEvent(e))
}
func (e *MessageDeltaEvent) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainMessageDeltaEvent)(e), &e.Extra)
}

func (e MessageStopEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("message_stop", plainMessageStopEvent(e))
}
func (e *MessageStopEvent) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainMessageStopEvent)(e), &e.Extra)
}

func (d MessageDelta) MarshalJSON() ([]byte, error) { return wire.Marshal(plainMessageDelta(d)) }
func (d *MessageDelta) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainMessageDelta)(d), &d.Extra)
}

func (u MessageDeltaUsage) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainMessageDeltaUsage(u))
}
func (u *MessageDeltaUsage) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainMessageDeltaUsage)(u), &u.Extra)
}

func (d TextDelta) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("text_delta", plainTextDelta(d))
}
func (d *TextDelta) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainTextDelta)(d), &d.Extra)
}

func (d InputJSONDelta) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("input_json_delta", plainInputJSONDelta(d))
}
func (d *InputJSONDelta) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainInputJSONDelta)(d), &d.Extra)
}

func (d ThinkingDelta) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("thinking_delta", plainThinkingDelta(d))
}
func (d *ThinkingDelta) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainThinkingDelta)(d), &d.Extra)
}

func (d SignatureDelta) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("signature_delta", plainSignatureDelta(d))
}
func (d *SignatureDelta) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainSignatureDelta)(d), &d.Extra)
}

func (d CitationsDelta) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant("citations_delta", plainCitationsDelta(d))
}
func (d *CitationsDelta) UnmarshalJSON(data []byte) error {
	return unmarshalVariant(data, (*plainCitationsDelta)(d), &d.Extra)
}

// decodeDelta is the decoder of Delta. A delta of an unknown type is kept;
// one without a type is malformed.
func decodeDelta(typ string, obj []byte) (Delta, error) {
	v, err := variantDelta(typ, obj)
	return v, nested(err)
}

func variantDelta(typ string, obj []byte) (Delta, error) {
	switch typ {
	case "text_delta":
		return decodeAs[TextDelta](obj)
	case "input_json_delta":
		return decodeAs[InputJSONDelta](obj)
	case "thinking_delta":
		return decodeAs[ThinkingDelta](obj)
	case "signature_delta":
		return decodeAs[SignatureDelta](obj)
	case "citations_delta":
		return decodeAs[CitationsDelta](obj)
	}
	return UnknownDelta{Type: typ, JSON: unknownJSON(obj)}, nil
}

// decodeEvent is the stream.Decoder of message streams: it dispatches on
// the SSE event name, which equals the JSON type (docs/messages-wire.md
// 5.1). An event of an unknown type is kept, provided it is JSON.
func decodeEvent(typ string, data []byte) (StreamEvent, error) {
	switch typ {
	case "content_block_delta":
		return decodeDeltaEvent(data)
	case "message_start":
		return decodeAs[MessageStartEvent](data)
	case "content_block_start":
		return decodeAs[ContentBlockStartEvent](data)
	case "content_block_stop":
		return decodeAs[ContentBlockStopEvent](data)
	case "message_delta":
		return decodeAs[MessageDeltaEvent](data)
	case "message_stop":
		return decodeAs[MessageStopEvent](data)
	}
	if !jsontext.Value(data).IsValid() { // kept raw, so checked here: only JSON is kept
		return nil, errNotJSON
	}
	return UnknownStreamEvent{Type: typ, JSON: unknownJSON(data)}, nil
}

var errNotJSON = errors.New("event data is not JSON")
