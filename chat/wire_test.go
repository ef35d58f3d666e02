package chat_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/chat"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
)

// sameWire compares two documents with their null members left out, and,
// in a delta, the members that are the empty string: a chunk's delta may
// carry "content": "" or "arguments": "", which the SDK reads as the
// absent member it also stands for, and writes as such.
func sameWire(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return cmp.Equal(trim(x, false), trim(y, false))
}

func trim(v any, inDelta bool) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if e == nil || inDelta && e == "" {
				continue
			}
			out[k] = trim(e, inDelta || k == "delta")
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = trim(e, inDelta)
		}
		return out
	}
	return v
}

// TestWireRoundTrip checks the round trip of the wire types on what the
// reference server sends, created and streamed, with text and tool calls:
// each completion and chunk marshals back to the JSON it was read from (up
// to null members, and the empty strings of deltas), and that JSON decodes
// to an equal value. Every response type must have been seen.
func TestWireRoundTrip(t *testing.T) {
	var rec wiretest.Recorder
	_, client := newEnv(t, rec.Option())
	seen := map[string]bool{}
	check := func(wire []byte, v any) {
		t.Helper()
		out, err := json.Marshal(v)
		require.NoError(t, err)
		if !sameWire(wire, out) {
			t.Errorf("%T is not written as it was read:\n read %s\nwrote %s", v, wire, out)
		}
		again := reflect.New(reflect.TypeOf(v))
		require.NoError(t, json.Unmarshal(out, again.Interface()), "%s", out)
		if diff := cmp.Diff(v, again.Elem().Interface()); diff != "" {
			t.Errorf("%s -> %s changed the %T (-first +second):\n%s", wire, out, v, diff)
		}
		wiretest.Seen(v, seen)
	}
	tools := chatPrompt(chat.UserMessage(`Use get_weather {"location": "Paris"} and get_time`))
	tools.Tools = []chat.Tool{chatWeather, {Function: chat.Function{Name: "get_time"}}}
	for _, p := range []chat.CompletionParams{chatPrompt(chat.SystemMessage("You are terse."), chat.UserMessage("Hello there")), tools} {
		c, err := client.Create(ctx, p)
		require.NoError(t, err)
		check(rec.Last(t), *c)

		st, err := client.Stream(ctx, p)
		require.NoError(t, err)
		var chunks []*chat.CompletionChunk
		for chunk, err := range st.Chunks() {
			require.NoError(t, err)
			chunks = append(chunks, chunk)
		}
		require.NoError(t, st.Close())
		var frames []string
		for _, line := range strings.Split(string(rec.Last(t)), "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok && data != "[DONE]" {
				frames = append(frames, data)
			}
		}
		require.Len(t, frames, len(chunks))
		for i, chunk := range chunks {
			check([]byte(frames[i]), *chunk)
		}
	}
	var missing []string
	for _, name := range []string{"Completion", "Choice", "Message", "Usage", "ToolCall", "FunctionCall",
		"CompletionChunk", "ChunkChoice", "Delta", "ToolCallDelta"} {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "types the reference server never sent")
}

// TestWireTypesHaveJSONMethods: every exported struct type with an Extra
// field marshals with its own MarshalJSON (value receiver) and decodes
// with its own UnmarshalJSON (pointer receiver).
func TestWireTypesHaveJSONMethods(t *testing.T) {
	for _, v := range []any{chat.Completion{}, chat.Choice{}, chat.Usage{}, chat.Message{}, chat.TextPart{}, chat.ImagePart{},
		chat.ToolCall{}, chat.FunctionCall{}, chat.CompletionChunk{}, chat.ChunkChoice{}, chat.Delta{}, chat.ToolCallDelta{}} {
		typ := reflect.TypeOf(v)
		_, ok := typ.FieldByName("Extra")
		require.True(t, ok, typ.Name())
		require.True(t, typ.Implements(reflect.TypeFor[json.Marshaler]()), typ.Name())
		require.True(t, reflect.PointerTo(typ).Implements(reflect.TypeFor[json.Unmarshaler]()), typ.Name())
	}
}
