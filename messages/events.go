package messages

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/union"
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
}

// ContentBlockStartEvent opens block Index of the content, in its empty
// form (text "", tool input {}), or complete for blocks that get no deltas
// (result blocks, redacted thinking, fallback).
type ContentBlockStartEvent struct {
	Index        int          `json:"index"`
	ContentBlock ContentBlock `json:"content_block"`
}

// ContentBlockDeltaEvent extends block Index.
type ContentBlockDeltaEvent struct {
	Index int   `json:"index"`
	Delta Delta `json:"delta"`
}

// ContentBlockStopEvent closes block Index.
type ContentBlockStopEvent struct {
	Index int `json:"index"`
}

// MessageDeltaEvent carries the final stop reason and the usage, which is
// cumulative: its values replace, never add to, the earlier ones.
type MessageDeltaEvent struct {
	Delta MessageDelta      `json:"delta"`
	Usage MessageDeltaUsage `json:"usage"`
}

// MessageStopEvent ends a successful stream.
type MessageStopEvent struct{}

// UnknownStreamEvent is an event type this SDK does not know, kept raw. It
// never ends the stream.
type UnknownStreamEvent struct{ union.Raw }

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
	StopReason   StopReason   `json:"stop_reason"`
	StopSequence string       `json:"stop_sequence"` // "" when null
	StopDetails  *StopDetails `json:"stop_details"`
	Container    *Container   `json:"container"`
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
	Iterations               []UsageIteration     `json:"iterations"`
}

// Delta is the change a ContentBlockDeltaEvent makes: TextDelta,
// InputJSONDelta, ThinkingDelta, SignatureDelta, CitationsDelta, or
// UnknownDelta (kept raw; it never ends the stream).
type Delta interface{ isDelta() }

// TextDelta appends to a text block (type "text_delta").
type TextDelta struct {
	Text string `json:"text"`
}

// InputJSONDelta is a fragment of a tool call's input (type
// "input_json_delta"). Fragments split the JSON anywhere: only their
// concatenation, at the block's stop, is JSON.
type InputJSONDelta struct {
	PartialJSON string `json:"partial_json"`
}

// ThinkingDelta appends to a thinking block (type "thinking_delta").
type ThinkingDelta struct {
	Thinking string `json:"thinking"`
}

// SignatureDelta sets a thinking block's signature (type
// "signature_delta").
type SignatureDelta struct {
	Signature string `json:"signature"`
}

// CitationsDelta adds a citation to a text block (type "citations_delta").
type CitationsDelta struct {
	Citation Citation `json:"citation"`
}

// UnknownDelta is a delta type this SDK does not know, kept raw.
type UnknownDelta struct{ union.Raw }

func (TextDelta) isDelta()      {}
func (InputJSONDelta) isDelta() {}
func (ThinkingDelta) isDelta()  {}
func (SignatureDelta) isDelta() {}
func (CitationsDelta) isDelta() {}
func (UnknownDelta) isDelta()   {}

// decodeEvent is the stream.Decoder of message streams: it dispatches on
// the SSE event name, which equals the JSON type (docs/messages-wire.md
// 5.1).
func decodeEvent(typ string, data []byte) (StreamEvent, error) {
	switch typ {
	case "content_block_delta":
		return decodeDeltaEvent(data)
	case "message_start":
		var e MessageStartEvent
		return e, json.Unmarshal(data, &e)
	case "content_block_start":
		var w struct {
			Index        int             `json:"index"`
			ContentBlock json.RawMessage `json:"content_block"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, err
		}
		b, err := DecodeContentBlock(w.ContentBlock)
		if err != nil {
			return nil, fmt.Errorf("content_block: %w", err)
		}
		return ContentBlockStartEvent{Index: w.Index, ContentBlock: b}, nil
	case "content_block_stop":
		var e ContentBlockStopEvent
		return e, json.Unmarshal(data, &e)
	case "message_delta":
		var e MessageDeltaEvent
		return e, json.Unmarshal(data, &e)
	case "message_stop":
		if !json.Valid(data) {
			return nil, errNotJSON
		}
		return MessageStopEvent{}, nil
	}
	if !json.Valid(data) { // kept raw, so checked here: only JSON is kept
		return nil, errNotJSON
	}
	return UnknownStreamEvent{union.NewRaw(typ, data)}, nil
}

var errNotJSON = errors.New("event data is not JSON")

// deltaWire is every delta's fields at once, so that the frequent event is
// decoded in one pass, without probing the delta's type first.
type deltaWire struct {
	Index int `json:"index"`
	Delta struct {
		Type        string          `json:"type"`
		Text        string          `json:"text"`
		PartialJSON string          `json:"partial_json"`
		Thinking    string          `json:"thinking"`
		Signature   string          `json:"signature"`
		Citation    json.RawMessage `json:"citation"`
	} `json:"delta"`
}

func decodeDeltaEvent(data []byte) (StreamEvent, error) {
	if ev, ok := fastDelta(data); ok {
		return ev, nil
	}
	var w deltaWire
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	var d Delta
	switch w.Delta.Type {
	case "text_delta":
		d = TextDelta{Text: w.Delta.Text}
	case "input_json_delta":
		d = InputJSONDelta{PartialJSON: w.Delta.PartialJSON}
	case "thinking_delta":
		d = ThinkingDelta{Thinking: w.Delta.Thinking}
	case "signature_delta":
		d = SignatureDelta{Signature: w.Delta.Signature}
	case "citations_delta":
		c, err := decodeCitation(w.Delta.Citation)
		if err != nil {
			return nil, fmt.Errorf("citation: %w", err)
		}
		d = CitationsDelta{Citation: c}
	default:
		var raw struct {
			Delta json.RawMessage `json:"delta"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			return nil, err
		}
		typ, err := union.Type(raw.Delta) // a delta without a type is malformed, not unknown
		if err != nil {
			return nil, fmt.Errorf("delta: %w", err)
		}
		d = UnknownDelta{union.NewRaw(typ, raw.Delta)}
	}
	return ContentBlockDeltaEvent{Index: w.Index, Delta: d}, nil
}
