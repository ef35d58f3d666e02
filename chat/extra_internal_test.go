package chat

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzWireRoundTrip checks the round trip of the decoders of the package:
// a message (with its content parts) and a chunk that decode marshal to
// JSON that decodes to an equal value.
func FuzzWireRoundTrip(f *testing.F) {
	for _, seed := range []string{
		`{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"https://e.com/a.png","detail":"high"}},{"type":"input_audio","input_audio":{}}]}`,
		`{"role":"assistant","content":null,"refusal":"no","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
		`{"role":"assistant","content":"You said: Hello there","refusal":null}`,
		`{"id":"msg_01Yk4QhV8bN3cT6wRz2Lm9Pd","object":"chat.completion.chunk","created":1786300000,"model":"vendor-sonnet-5-5","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null,"logprobs":null}],"usage":null}`,
		`{"id":"msg_01Yk4QhV8bN3cT6wRz2Lm9Pd","object":"chat.completion.chunk","created":1786300000,"model":"vendor-sonnet-5-5","choices":[],"usage":{"prompt_tokens":14,"completion_tokens":6,"total_tokens":20,"prompt_tokens_details":null,"completion_tokens_details":null}}`,
		`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"f","arguments":""}}]},"finish_reason":null}]}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		check := func(v, again any) {
			if json.Unmarshal([]byte(data), v) != nil {
				return
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%#v from %q does not marshal: %v", v, data, err)
			}
			if err := json.Unmarshal(out, again); err != nil {
				t.Fatalf("%q, the encoding of %q, does not decode: %v", out, data, err)
			}
			if diff := cmp.Diff(v, again); diff != "" {
				t.Fatalf("%q -> %q changed the value (-first +second):\n%s", data, out, diff)
			}
		}
		check(new(Message), new(Message))
		check(new(CompletionChunk), new(CompletionChunk))
		check(new(Completion), new(Completion))
	})
}
