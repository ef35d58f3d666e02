package messages

import (
	"encoding/json"
	"errors"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The JSON of the package's wire types goes through internal/wire: each
// type marshals a method-less copy of itself ("plain…") so that its struct
// tags do the work, keeps the members it does not know in Extra, and
// decodes its union fields with unions, the decoders of every union of the
// package. A union variant writes its "type" member first and drops it from
// Extra when decoded.

// unions decodes every interface-typed field of the package's wire types.
// It is set in init: its decoders decode nested values with it.
var unions wire.Options

func init() {
	unions = wire.Join(
		wire.Union(decodeBlock),
		wire.Union(decodeSource),
		wire.Union(decodeCitation),
		wire.Union(decodeCodeContent),
		wire.Union(decodeWebFetchContent),
		wire.Union(decodeToolSearchContent),
		wire.Union(decodeDelta),
		jsonv2.UnmarshalFromFunc(decodeContent),
		jsonv2.UnmarshalFromFunc(decodeWebSearchContent),
	)
}

// unmarshalVariant decodes a variant's object into v, its plain copy,
// without its "type", which its MarshalJSON writes again.
//
// It does what wire.Variant does without putting "type" into extra first:
// a map, a key and a value allocated and dropped for every block, event
// and delta cost more than the rest of a delta's decoding
// (BenchmarkStreamDecoding).
func unmarshalVariant[P any](data []byte, v P, extra *map[string]json.RawMessage) error {
	if err := wire.Unmarshal(data, &variant[P]{V: v}, unions); err != nil {
		return err
	}
	normalizeAll(*extra)
	return nil
}

// variant is a variant's object: its "type", skipped, and the members of
// V, a pointer to the variant's plain copy.
type variant[P any] struct {
	Type skip `json:"type"`
	V    P    `json:",embed"`
}

// skip is a member read and dropped.
type skip struct{}

func (*skip) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return dec.SkipValue() }

// unmarshal decodes a type that is not a variant into v, its plain copy.
func unmarshal(data []byte, v any, extra *map[string]json.RawMessage) error {
	if err := wire.Unmarshal(data, v, unions); err != nil {
		return err
	}
	normalizeAll(*extra)
	return nil
}

// decodeAs decodes a union variant with its own UnmarshalJSON.
func decodeAs[T any, P interface {
	*T
	json.Unmarshaler
}](obj []byte) (T, error) {
	var v T
	err := P(&v).UnmarshalJSON(obj)
	return v, err
}

// unknown keeps a variant this SDK does not model: its type and a copy of
// its object.
func unknownJSON(obj []byte) json.RawMessage {
	return normalize(json.RawMessage(obj), true)
}

// normalize rewrites raw JSON the way the encoder writes it (no white
// space, strings escaped minimally), so that a value decoded from any
// spelling of a document equals the value decoded from its encoding. It
// works on a copy when clone is set, else in place.
func normalize(raw json.RawMessage, clone bool) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	v := jsontext.Value(raw)
	if clone {
		v = v.Clone()
	}
	_ = v.Format() // it leaves v unchanged if it is not valid JSON
	return json.RawMessage(v)
}

// normalizeAll normalizes decoded unknown members, which are the decoder's
// own copies.
func normalizeAll(extra map[string]json.RawMessage) {
	for k, v := range extra {
		extra[k] = normalize(v, false)
	}
}

var errNotObject = errors.New("not a JSON object")

// nested makes the error of a variant decoded on its own part of the
// error of the document around it: the decoder then prefixes the
// variant's path ("/citations/0/document_index") with the union's
// ("/content/1"), instead of keeping the variant's alone.
func nested(err error) error { return wire.Nest(err) }

// decodeContent reads Content: a string (Text), an array of blocks
// (Blocks) or null (nil).
func decodeContent(dec *jsontext.Decoder, v *Content) error {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		*v = nil
		return err
	case '"':
		var s string
		if err := jsonv2.UnmarshalDecode(dec, &s); err != nil {
			return err
		}
		*v = Text(s)
		return nil
	case '[':
		var b []ContentBlock
		if err := jsonv2.UnmarshalDecode(dec, &b); err != nil {
			return err
		}
		*v = Blocks(b)
		return nil
	}
	if err := dec.SkipValue(); err != nil {
		return err
	}
	return errors.New("content must be a string or an array of blocks")
}

// decodeWebSearchContent reads WebSearchContent: an array of results, an
// error object, or null.
func decodeWebSearchContent(dec *jsontext.Decoder, v *WebSearchContent) error {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		*v = nil
		return err
	case '[':
		var rs []WebSearchResult
		if err := jsonv2.UnmarshalDecode(dec, &rs); err != nil {
			return err
		}
		*v = WebSearchResults(rs)
		return nil
	case '{':
		obj, err := dec.ReadValue()
		if err != nil {
			return err
		}
		typ, err := wire.TypeOf(obj)
		if err != nil {
			return err
		}
		if typ != "web_search_tool_result_error" {
			*v = UnknownWebSearchContent{Type: typ, JSON: unknownJSON(obj)}
			return nil
		}
		e, err := decodeAs[WebSearchToolResultError](obj)
		*v = e
		return nested(err)
	}
	if err := dec.SkipValue(); err != nil {
		return err
	}
	return errors.New("web search content must be an array of results or an error object")
}
