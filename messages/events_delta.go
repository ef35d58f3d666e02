package messages

import (
	"bytes"
	"encoding/json"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The common content_block_delta, nearly every event of a stream, read in
// one pass of the decoder: its delta's members go to a flat struct with a
// field for each delta kind's member, instead of the delta being read as a
// raw value, probed for its type, and decoded again by its variant. That
// second pass made typed decoding slower than a plain bufio.Scanner and
// encoding/json (BenchmarkStreamDecoding). A delta that is not one of the
// four plain kinds, that has a member of another kind or one this SDK does
// not know, goes to the general decoder, which keeps everything.

// deltaEventWire is a content_block_delta in one pass.
type deltaEventWire struct {
	Type  skip                       `json:"type"`
	Index int                        `json:"index"`
	Delta flatDelta                  `json:"delta"`
	Extra map[string]json.RawMessage `json:",embed"`
}

// flatDelta is the members of the four plain delta kinds.
type flatDelta struct {
	Type        deltaKind                  `json:"type"`
	Text        optString                  `json:"text"`
	PartialJSON optString                  `json:"partial_json"`
	Thinking    optString                  `json:"thinking"`
	Signature   optString                  `json:"signature"`
	Extra       map[string]json.RawMessage `json:",embed"`
}

// deltaKind is a plain delta's type, read without allocating.
type deltaKind uint8

const (
	otherDelta deltaKind = iota
	textDelta
	inputJSONDelta
	thinkingDelta
	signatureDelta
)

func (k *deltaKind) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	switch string(v) { // compared without a copy; an escaped name is another kind
	case `"text_delta"`:
		*k = textDelta
	case `"input_json_delta"`:
		*k = inputJSONDelta
	case `"thinking_delta"`:
		*k = thinkingDelta
	case `"signature_delta"`:
		*k = signatureDelta
	default:
		*k = otherDelta
	}
	return nil
}

// optString is a string member and whether it was there.
type optString struct {
	s   string
	set bool
}

func (o *optString) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	o.set = true
	return jsonv2.UnmarshalDecode(dec, &o.s)
}

// decodeDeltaEvent decodes a content_block_delta.
func decodeDeltaEvent(data []byte) (StreamEvent, error) {
	if ev, ok := fixedDelta(data); ok {
		return ev, nil
	}
	var w deltaEventWire
	var delta Delta
	if err := wire.Unmarshal(data, &w); err == nil && w.Delta.Extra == nil {
		d := &w.Delta
		switch d.Type {
		case textDelta:
			if d.members() == 1<<0 {
				delta = TextDelta{Text: d.Text.s}
			}
		case inputJSONDelta:
			if d.members() == 1<<1 {
				delta = InputJSONDelta{PartialJSON: d.PartialJSON.s}
			}
		case thinkingDelta:
			if d.members() == 1<<2 {
				delta = ThinkingDelta{Thinking: d.Thinking.s}
			}
		case signatureDelta:
			if d.members() == 1<<3 {
				delta = SignatureDelta{Signature: d.Signature.s}
			}
		}
	}
	if delta == nil { // another kind, another shape, or an error: the general decoder says
		return decodeAs[ContentBlockDeltaEvent](data)
	}
	normalizeAll(w.Extra)
	return ContentBlockDeltaEvent{Index: w.Index, Delta: delta, Extra: w.Extra}, nil
}

// members is which of the string members were there, a bit each.
func (d *flatDelta) members() int {
	n := 0
	for i, o := range [...]*optString{&d.Text, &d.PartialJSON, &d.Thinking, &d.Signature} {
		if o.set {
			n |= 1 << i
		}
	}
	return n
}

// The shapes of a content_block_delta as the API writes it, member for
// member: most events of a stream are these, and reading them byte by byte
// costs a fraction of the general decoder. Anything else (white space,
// another order, another member) goes to the decoder, which a fuzz test
// keeps in agreement with this path.
const (
	fixedDeltaHead = `{"type":"content_block_delta","index":`
	fixedDeltaMid  = `,"delta":{"type":"`
)

var fixedDeltaKinds = [...]struct {
	prefix string // the delta's type and the name of its one member
	make   func(string) Delta
}{
	{`text_delta","text":`, func(s string) Delta { return TextDelta{Text: s} }},
	{`input_json_delta","partial_json":`, func(s string) Delta { return InputJSONDelta{PartialJSON: s} }},
	{`thinking_delta","thinking":`, func(s string) Delta { return ThinkingDelta{Thinking: s} }},
	{`signature_delta","signature":`, func(s string) Delta { return SignatureDelta{Signature: s} }},
}

// fixedDelta reads data when it is exactly one of the fixed shapes.
func fixedDelta(data []byte) (StreamEvent, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(fixedDeltaHead))
	if !ok {
		return nil, false
	}
	index, n := 0, 0
	for n < len(rest) && n < 9 && rest[n] >= '0' && rest[n] <= '9' {
		index = index*10 + int(rest[n]-'0')
		n++
	}
	if n == 0 || n == 9 || (rest[0] == '0' && n > 1) {
		return nil, false
	}
	if rest, ok = bytes.CutPrefix(rest[n:], []byte(fixedDeltaMid)); !ok {
		return nil, false
	}
	body, ok := bytes.CutSuffix(rest, []byte("}}"))
	if !ok {
		return nil, false
	}
	for _, kind := range fixedDeltaKinds {
		if str, ok := bytes.CutPrefix(body, []byte(kind.prefix)); ok {
			value, ok := wire.String(str)
			if !ok {
				return nil, false
			}
			return ContentBlockDeltaEvent{Index: index, Delta: kind.make(value)}, true
		}
	}
	return nil, false
}
