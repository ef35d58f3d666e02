// Package union is the JSON plumbing shared by every sealed-interface union of
// the SDK (skills, tools, resources, events, content blocks).
//
// A union is an interface with an unexported method, one struct per variant,
// and an Unknown variant that keeps the raw JSON, so that a type added by the
// server later is carried through, never dropped. Variants marshal themselves
// with Marshal, which adds the "type" discriminator; a union's decoder reads
// the discriminator with Type and picks the variant.
package union

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Type returns the "type" member of a JSON object.
func Type(data []byte) (string, error) {
	var probe struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return "", err
	}
	if probe.Type == nil {
		return "", errors.New(`union: object has no "type"`)
	}
	return *probe.Type, nil
}

// Marshal encodes v, which must encode as a JSON object, with "type": typ as
// its first member.
func Marshal(typ string, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	body = bytes.TrimSpace(body)
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("union: %s variant does not encode as an object", typ)
	}
	out := make([]byte, 0, len(body)+len(typ)+12)
	out = append(out, `{"type":`...)
	out = appendString(out, typ)
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// appendString appends typ as a JSON string. strconv's quoting is JSON only
// for printable ASCII; anything else (a type read from a newer server, or
// set by hand on an Unknown variant) goes through encoding/json, which
// escapes control characters and replaces invalid UTF-8.
func appendString(out []byte, typ string) []byte {
	for i := 0; i < len(typ); i++ {
		if typ[i] < 0x20 || typ[i] > 0x7e {
			s, _ := json.Marshal(typ) // a string always marshals
			return append(out, s...)
		}
	}
	return strconv.AppendQuote(out, typ)
}

// DecodeSlice decodes a JSON array whose elements are union values. null
// decodes as a nil slice.
func DecodeSlice[T any](data []byte, decode func([]byte) (T, error)) ([]T, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, err
	}
	if raws == nil {
		return nil, nil
	}
	out := make([]T, len(raws))
	for i, raw := range raws {
		v, err := decode(raw)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// Raw is the payload of an Unknown variant: its discriminator and the whole
// object as received.
type Raw struct {
	Type string
	JSON json.RawMessage
}

// MarshalJSON writes the object back exactly as it was received.
func (r Raw) MarshalJSON() ([]byte, error) {
	if len(r.JSON) == 0 {
		return Marshal(r.Type, struct{}{})
	}
	return r.JSON, nil
}

// NewRaw copies data, which the caller's decoder may reuse.
func NewRaw(typ string, data []byte) Raw {
	return Raw{Type: typ, JSON: bytes.Clone(data)}
}
