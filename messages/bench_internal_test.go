package messages

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/stream"
)

// recordedStream is a long message stream in the reference server's wire
// form (docs/messages-wire.md 5.10): a thinking block of 200 deltas, a text
// block of textDeltas word deltas, and a tool call whose input arrives in
// 16-byte fragments. It returns the body and its number of events.
func recordedStream(textDeltas int) ([]byte, int) {
	var b strings.Builder
	n := 0
	emit := func(typ, data string) {
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", typ, data)
		n++
	}
	quote := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	emit("message_start", `{"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"vendor-sonnet-5-5","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":21,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard","inference_geo":"global"}}}`)
	emit("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`)
	for i := range 200 {
		emit("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user asked %d things about the weather in Paris."}}`, i))
	}
	emit("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}}`)
	emit("content_block_stop", `{"type":"content_block_stop","index":0}`)
	emit("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"","citations":null}}`)
	words := []string{"The", " forecast", " for", " Paris", " says", " \"sunny\"", " with", " 15°C", " today;", " tomorrow", " rain.\n"}
	for i := range textDeltas {
		emit("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":`+quote(words[i%len(words)])+`}}`)
	}
	emit("content_block_stop", `{"type":"content_block_stop","index":1}`)
	emit("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{},"caller":{"type":"direct"}}}`)
	input := strings.Repeat(`{"city":"Paris \"FR\"","days":3},`, 40)
	for i := 0; i < len(input); i += 16 {
		emit("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":`+quote(input[i:min(i+16, len(input))])+`}}`)
	}
	emit("content_block_stop", `{"type":"content_block_stop","index":2}`)
	emit("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"container":null},"usage":{"input_tokens":21,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":9000,"output_tokens_details":{"thinking_tokens":210},"server_tool_use":null}}`)
	emit("message_stop", `{"type":"message_stop"}`)
	return []byte(b.String()), n
}

// plainEvent is the baseline's one plain struct for every event.
type plainEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		ID    string `json:"id"`
		Model string `json:"model"`
	} `json:"message"`
	ContentBlock *struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		Signature   string `json:"signature"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
}

var decoded any

// BenchmarkMessageStreamDecoding decodes a recorded stream of about 6k events
// into values, without accumulating them: the SDK's typed events (the
// event-stream reader and the package's decoder, every event a struct of
// its type with its union fields decoded) against a baseline of a
// bufio.Scanner over the lines and encoding/json into one plain struct.
// x-baseline is the SDK's events/s over the baseline's.
func BenchmarkMessageStreamDecoding(b *testing.B) {
	body, events := recordedStream(5000)
	var baselineRate float64
	measure := func(b *testing.B, run func() int) float64 {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		iters := 0
		for b.Loop() {
			if n := run(); n != events {
				b.Fatalf("%d events, want %d", n, events)
			}
			iters++
		}
		runtime.ReadMemStats(&after)
		rate := float64(events*iters) / b.Elapsed().Seconds()
		b.ReportMetric(rate, "events/s")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events*iters), "allocs/event")
		return rate
	}
	b.Run("scanner", func(b *testing.B) {
		baselineRate = measure(b, func() int {
			sc := bufio.NewScanner(bytes.NewReader(body))
			sc.Buffer(make([]byte, 0, 64<<10), 32<<20)
			n := 0
			for sc.Scan() {
				data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
				if !ok {
					continue
				}
				var e plainEvent
				if err := json.Unmarshal(data, &e); err != nil {
					b.Fatal(err)
				}
				decoded = &e
				n++
			}
			return n
		})
	})
	b.Run("sdk", func(b *testing.B) {
		rate := measure(b, func() int {
			n := 0
			for ev, err := range stream.Read(bytes.NewReader(body), stream.DefaultMaxEventSize, createSource, decodeEvent) {
				if err != nil {
					b.Fatal(err)
				}
				decoded = ev
				n++
			}
			return n
		})
		if baselineRate > 0 {
			b.ReportMetric(rate/baselineRate, "x-baseline")
		}
	})
}
