package stream

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the SSE reader: it must never panic or
// hang, must stop after an error event, and every event it yields must have
// come from a typed frame.
func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		"event: agent.message\ndata: {\"id\":\"sevt_1\"}\n\n",
		"event: ping\ndata: {}\n\n: comment\n\nevent: x\ndata: a\ndata: b\n\n",
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"m\"}}\n\n",
		"data: untyped\n\nevent: a\r\ndata: {}\r\n\r\n",
		"event: a\ndata: {\"x\":1}", // unterminated
		"\xef\xbb\xbfevent: a\ndata: {}\n\n",
		"retry: 10\nid: 5\nevent: a\ndata: {}\n\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		decode := func(typ string, data []byte) (map[string]any, error) {
			var m map[string]any
			err := json.Unmarshal(data, &m)
			return m, err
		}
		n := 0
		for _, err := range Read(strings.NewReader(body), 1<<16, Source{"GET", "/x"}, decode) {
			n++
			if err != nil && strings.Contains(err.Error(), "reading event stream") {
				break
			}
			if n > len(body)+1 {
				t.Fatalf("more events (%d) than bytes (%d)", n, len(body))
			}
		}
	})
}

// FuzzReadData is FuzzRead for data-only streams (chat completions).
func FuzzReadData(f *testing.F) {
	for _, seed := range []string{
		"data: {\"id\":\"c\"}\n\ndata: [DONE]\n\n",
		"data: {}\n\n",
		"event: message\ndata: {}\n\ndata: [DONE]\n\n",
		"data: [DONE]",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		n := 0
		for range ReadData(strings.NewReader(body), 1<<16, Source{"POST", "/v1/chat/completions"}) {
			if n++; n > len(body)+1 {
				t.Fatalf("more items (%d) than bytes (%d)", n, len(body))
			}
		}
	})
}
