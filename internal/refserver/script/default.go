package script

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The default turns: what the agent does when nothing is queued (doc.go
// says when each applies). They are built as Ops directly: nothing in them
// needs checking.

// ReplyTurn is the default answer to a user.message with text T:
// Think("Reading the message."), Say("You said: " + T). An agent with
// custom skills says "You said: T (skills: <names>)", naming them in
// order, so that a test sees which skills a session has
// (docs/skills-wire.md 5).
func ReplyTurn(text string, skills ...string) []Op {
	reply := "You said: " + text
	if len(skills) > 0 {
		reply += " (skills: " + strings.Join(skills, ", ") + ")"
	}
	return []Op{{Kind: KindThink, Text: "Reading the message."}, say(reply)}
}

// OutcomeTurn is the default turn a user.define_outcome starts on its own.
func OutcomeTurn(description string) []Op {
	return []Op{say("Working on the outcome: " + description)}
}

// ReportTurn is the turn a child thread's report starts on an idle
// coordinator.
func ReportTurn(agentName, report string) []Op {
	return []Op{say(agentName + " reported: " + report)}
}

// CustomToolTurn is the default first turn of an agent with a custom tool:
// a call of tool with an input built from its input_schema for the
// message's text, then, after the result, "The <tool> tool returned:
// <result text>" (KindSayToolResult: the engine fills the result in).
func CustomToolTurn(tool string, inputSchema json.RawMessage, text string) []Op {
	return []Op{
		{Kind: KindUseCustomTool, Name: tool, Raw: defaultToolInput(inputSchema, text)},
		{Kind: KindSayToolResult, Name: tool},
	}
}

func say(text string) Op { return Op{Kind: KindSay, Text: text, Chunks: []string{text}} }

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
		out = append(out, mustJSON(p.key)...)
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

type member struct {
	key   string
	value json.RawMessage
}

// objectMembers lists the members of a JSON object in order.
func objectMembers(raw []byte) []member {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return nil
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return out
		}
		out = append(out, member{key: key, value: v})
	}
	return out
}

// mustJSON encodes a string, which cannot fail.
func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
