package messages

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// slowDelta is the general decoder's reading of a content_block_delta.
func slowDelta(data []byte) (ContentBlockDeltaEvent, error) {
	var w deltaWire
	if err := json.Unmarshal(data, &w); err != nil {
		return ContentBlockDeltaEvent{}, err
	}
	var d Delta
	switch w.Delta.Type {
	case "text_delta":
		d = TextDelta{w.Delta.Text}
	case "input_json_delta":
		d = InputJSONDelta{w.Delta.PartialJSON}
	case "thinking_delta":
		d = ThinkingDelta{w.Delta.Thinking}
	case "signature_delta":
		d = SignatureDelta{w.Delta.Signature}
	}
	return ContentBlockDeltaEvent{Index: w.Index, Delta: d}, nil
}

// FuzzFastDelta checks that the fast path agrees with encoding/json on
// everything it accepts; what it refuses goes to encoding/json anyway.
func FuzzFastDelta(f *testing.F) {
	for _, seed := range []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"You"}}`,
		`{"type":"content_block_delta","index":12,"delta":{"type":"input_json_delta","partial_json":"{\"location\":\"Par"}}`,
		`{ "delta" : { "thinking" : "a\u00e9\ud83d\ude00\ud800x\\\/\b\f\n\r\t" , "type" : "thinking_delta" } , "index" : 3 , "type" : "content_block_delta" }`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"signature_delta","signature":"EqQB=="}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{"type":"char_location"}}}`,
		`{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":1.5,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"bad` + "\xff" + `"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"ctl` + "\x01" + `"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"x"}} trailing`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"x","text":"y"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"\uZZZZ"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := fastDelta(data)
		if !ok {
			return
		}
		slow, err := slowDelta(data)
		if err != nil {
			t.Fatalf("fast path accepted what encoding/json rejects (%v): %q", err, data)
		}
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Fatalf("fast path differs on %q (-json +fast):\n%s", data, diff)
		}
	})
}

func TestFastDeltaTakesTheCommonShapes(t *testing.T) {
	for _, s := range []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"You"}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"is\"}"}}`,
		`{"index":0,"delta":{"thinking":"The user asked","type":"thinking_delta"},"type":"content_block_delta"}`,
	} {
		if _, ok := fastDelta([]byte(s)); !ok {
			t.Errorf("not on the fast path: %s", s)
		}
	}
}
