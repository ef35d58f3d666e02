package refserver

import "encoding/json"

// defaultToolInput builds the input of the default turn's custom tool call
// from the tool's input_schema: each property, in schema order, gets T when
// it is a string and the zero value of its type otherwise (0, false, [],
// {}; null when the type is missing or not one of these).
func defaultToolInput(schema json.RawMessage, text string) json.RawMessage {
	var props json.RawMessage
	for _, m := range objectMembers(schema) {
		if m.key == "properties" {
			props = m.value
		}
	}
	out := []byte{'{'}
	for i, p := range objectMembers(props) {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendJSONString(out, p.key)
		out = append(out, ':')
		out = append(out, zeroFor(p.value, text)...)
	}
	return append(out, '}')
}

func zeroFor(propSchema json.RawMessage, text string) []byte {
	var s struct {
		Type json.RawMessage `json:"type"`
	}
	_ = json.Unmarshal(propSchema, &s)
	var typ string
	if json.Unmarshal(s.Type, &typ) != nil {
		// A list of types ("type": ["string", "null"]): the first wins.
		var types []string
		if json.Unmarshal(s.Type, &types) == nil && len(types) > 0 {
			typ = types[0]
		}
	}
	switch typ {
	case "string":
		return mustJSON(text)
	case "number", "integer":
		return []byte("0")
	case "boolean":
		return []byte("false")
	case "array":
		return []byte("[]")
	case "object":
		return []byte("{}")
	}
	return []byte("null")
}
