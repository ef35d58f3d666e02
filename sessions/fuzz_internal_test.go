package sessions

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecodeEvent checks the hand-written event reader against
// encoding/json: it never panics, it never calls a document that
// encoding/json accepts a syntax error, it accepts nothing json.Valid
// rejects, and the raw JSON it keeps for unknown events is valid.
func FuzzDecodeEvent(f *testing.F) {
	for _, seed := range []string{
		`{"type":"agent.message","id":"sevt_1","processed_at":"2026-11-25T21:56:21.123456Z","content":[{"type":"text","text":"hi \u00e9\n"}]}`,
		`{"type":"session.status_idle","id":"sevt_2","processed_at":null,"stop_reason":{"type":"requires_action","event_ids":["sevt_1"]},"stop_details":null}`,
		`{"type":"agent.tool_use","id":"sevt_3","name":"bash","input":{"command":"ls","n":[1,2.5e3,-0.1,true,null]},"evaluated_permission":"ask","evaluation":{"type":"auto","evaluated_permission":{"type":"ask","reason_code":"indeterminate"}}}`,
		`{"type":"future.event","nested":{"deep":[[[{}]]]},"s":"\ud83d\ude00"}`,
		`{"type":"agent.message","content":"not an array"}`,
		`{"type":"span.model_request_end","model_usage":{"input_tokens":1,"output_tokens":2}}`,
		`{"type":"x",}`,
		`{"type":"x"} trailing`,
		`{"type":"x","a":"\x01"}`,
		"{\"type\":\"x\",\"a\":\"\x01\"}",
		"{\"type\":\"agent.message\",\"content\":[{\"type\":\"text\",\"text\":\"a\\n\x1f\"}]}",
		"{\"type\":\"x\",\"a\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := DecodeEvent(data)
		valid := json.Valid(data)
		syntax := errors.Is(err, errSyntax)
		if valid && syntax {
			t.Fatalf("valid JSON reported as a syntax error: %v\n%s", err, data)
		}
		if !valid && err == nil {
			t.Fatalf("invalid JSON accepted as %T\n%q", ev, data)
		}
		if err == nil && ev == nil {
			t.Fatal("no error and no event")
		}
		if u, ok := ev.(*UnknownEvent); ok && err == nil && valid {
			if !json.Valid(u.JSON) {
				t.Fatalf("unknown event kept invalid raw JSON: %q", u.JSON)
			}
		}
	})
}
