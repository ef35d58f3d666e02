package sessions

import (
	"bytes"
	stdjson "encoding/json"
	"errors"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentplatform/agentplatform-go/internal/hooks"
	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The JSON of the package's wire types follows internal/wire: struct tags
// name the members, an Extra field keeps unknown ones, and each union
// variant writes its "type" first. unions decodes every union-typed field
// of the package; it is set in init, as its decoders refer back to it.
var unions wire.Options

func init() {
	unions = wire.Join(
		wire.Union(func(typ string, obj []byte) (Event, error) { return decodeEventAs(EventType(typ), obj) }),
		wire.Union(decodeContentBlock),
		wire.Union(decodeSource),
		wire.Union(decodeStopReason),
		wire.Union(decodeStopDetails),
		wire.Union(decodeRetryStatus),
		wire.Union(decodeEvaluation),
		wire.Union(decodeRubric),
		wire.Union(decodeContentBlockParam),
		wire.Union(decodeEventParamUnion),
		wire.Union(decodeResourceUnion),
		wire.Union(decodeCheckoutUnion),
		wire.Union(decodeThreadAgentUnion),
		hooks.AgentUnions,
		nested,
	)
}

// nested decodes the nested wire types of events in the decoder that is
// reading the event, through their plain types: their UnmarshalJSON
// methods would each read the value out and start a decoder of their own,
// which makes decoding a delta event (event, delta, block) about a third
// slower (BenchmarkStreamDecoding).
var nested = json.JoinUnmarshalers(
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *ContentDelta) error {
		*v = ContentDelta{}
		return json.UnmarshalDecode(dec, (*plainContentDelta)(v))
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *PreviewedEvent) error {
		*v = PreviewedEvent{}
		return json.UnmarshalDecode(dec, (*plainPreviewedEvent)(v))
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *ModelUsage) error {
		*v = ModelUsage{}
		return json.UnmarshalDecode(dec, (*plainModelUsage)(v))
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *Usage) error {
		*v = Usage{}
		return json.UnmarshalDecode(dec, (*plainUsage)(v))
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *CacheCreation) error {
		*v = CacheCreation{}
		return json.UnmarshalDecode(dec, (*plainCacheCreation)(v))
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *ServerToolUse) error {
		*v = ServerToolUse{}
		return json.UnmarshalDecode(dec, (*plainServerToolUse)(v))
	}),
)

// paramVariant encodes v, a request variant's method-less copy, with
// "type": typ first. Requests are encoded with encoding/json, as the
// transport sends them.
func paramVariant(typ string, v any) ([]byte, error) {
	body, err := stdjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	return wire.WithType(typ, body)
}

// decodeUnion decodes data, one union value on its own, with decode; null
// or nothing decodes as the zero T.
func decodeUnion[T any](data []byte, decode func(typ string, obj []byte) (T, error)) (T, error) {
	var zero T
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return zero, nil
	}
	if !isObject(data) {
		return zero, errors.New("must be a JSON object")
	}
	typ, err := wire.TypeOf(data)
	if err != nil {
		return zero, err
	}
	return decode(typ, data)
}

// variantBox decodes a union variant's object into V, its method-less
// type, and reads the "type" member into a field that keeps nothing.
// wire.Variant would let "type" land in V's Extra and delete it there,
// which costs a map and two copies per variant: on a stream, where every
// event and every content block is a variant, that is most of what
// decoding allocates (see BenchmarkStreamDecoding).
type variantBox[P any] struct {
	Type skipValue `json:"type"`
	V    *P        `json:",embed"`
}

// skipValue reads any value and keeps nothing.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// valueBox is a variantBox that holds the variant: decoding a new value
// costs one allocation for both.
type valueBox[P any] struct {
	Type skipValue `json:"type"`
	V    P         `json:",embed"`
}

// newVariant decodes obj, a union variant's object, into a new value of
// its method-less type P, which the caller converts to the variant.
func newVariant[P any](obj []byte, opts ...wire.Options) (*P, error) {
	b := new(valueBox[P])
	if err := wire.Unmarshal(obj, b, opts...); err != nil {
		return nil, err
	}
	return &b.V, nil
}

// decodeVariant decodes obj, a union variant's object, into plain, the
// variant's method-less type; its "type" member is not kept.
func decodeVariant[P any](obj []byte, plain *P, opts ...wire.Options) error {
	return wire.Unmarshal(obj, &variantBox[P]{V: plain}, opts...)
}

// unknownJSON writes an Unknown variant back as received; one built by
// hand without JSON is written as {"type": typ}. The decoders keep an
// unknown object as json.Marshal writes it (canonical), so that the bytes
// written back decode to an equal value.
func unknownJSON(typ string, raw stdjson.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return wire.WithType(typ, []byte("{}"))
	}
	return raw, nil
}

// canonical returns a copy of obj, a valid JSON value, compact and with
// HTML characters escaped.
func canonical(obj []byte) stdjson.RawMessage {
	var compact bytes.Buffer
	compact.Grow(len(obj))
	if err := stdjson.Compact(&compact, obj); err != nil {
		return bytes.Clone(obj)
	}
	var out bytes.Buffer
	out.Grow(compact.Len())
	stdjson.HTMLEscape(&out, compact.Bytes())
	return out.Bytes()
}

// isObject reports whether data is one JSON object, as strictly as the
// decoder reads one: valid UTF-8, no duplicate member names.
func isObject(data []byte) bool {
	return len(data) > 0 && data[0] == '{' && wire.Unmarshal(data, &struct{}{}) == nil
}
