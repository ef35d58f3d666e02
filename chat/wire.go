package chat

import (
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The JSON of the package's wire types goes through internal/wire: each
// type marshals a method-less copy of itself ("plain…") so that its struct
// tags do the work, and keeps the members it does not know in Extra.

// unmarshal decodes data into v, a plain copy, and normalizes the unknown
// members it kept in extra.
func unmarshal(data []byte, v any, extra *map[string]json.RawMessage, opts ...wire.Options) error {
	if err := wire.Unmarshal(data, v, opts...); err != nil {
		return err
	}
	normalizeAll(*extra)
	return nil
}

// normalize rewrites raw JSON, the decoder's own copy, the way the encoder
// writes it (no white space, strings escaped minimally), so that a value
// decoded from any spelling of a document equals the value decoded from
// its encoding.
func normalize(raw json.RawMessage) json.RawMessage {
	v := jsontext.Value(raw)
	_ = v.Format() // it leaves v unchanged if it is not valid JSON
	return json.RawMessage(v)
}

func normalizeAll(extra map[string]json.RawMessage) {
	for k, v := range extra {
		extra[k] = normalize(v)
	}
}
