package messages_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	sse "github.com/tmaxmax/go-sse"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// longStream records a long message in the reference server's wire form
// (docs/messages-wire.md 5.10): a thinking block, a text block of
// textDeltas word deltas, and a tool call whose input arrives in 16-byte
// fragments, then the message delta and stop. It returns the body, the
// number of events (pings included, as both readers see them), and the tool
// input.
func longStream(textDeltas, inputFields int) ([]byte, int, string) {
	var b strings.Builder
	n := 0
	emit := func(typ, data string) {
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", typ, data)
		n++
	}
	quote := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	emit("message_start", `{"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"vendor-sonnet-5-5","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":21,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard","inference_geo":"global"}}}`)
	emit("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`)
	emit("ping", `{"type":"ping"}`)
	for i := range 20 {
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
	fields := make([]string, inputFields)
	for i := range fields {
		fields[i] = fmt.Sprintf(`"city_%d":"Paris \"%d\""`, i, i)
	}
	input := "{" + strings.Join(fields, ",") + "}"
	emit("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}`)
	for i := 0; i < len(input); i += 16 {
		emit("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":`+quote(input[i:min(i+16, len(input))])+`}}`)
	}
	emit("content_block_stop", `{"type":"content_block_stop","index":2}`)
	emit("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"container":null},"usage":{"input_tokens":21,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":9000,"output_tokens_details":{"thinking_tokens":210},"server_tool_use":null}}`)
	emit("message_stop", `{"type":"message_stop"}`)
	return []byte(b.String()), n, input
}

// baseEvent is the baseline's one plain struct for every event.
type baseEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message *struct {
		ID    string `json:"id"`
		Model string `json:"model"`
		Usage struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
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
	Usage *struct {
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

// baseBlock and baseMessage are the baseline's accumulation.
type baseBlock struct {
	Type, ID, Name string
	Text           strings.Builder
	Input          json.RawMessage
}

type baseMessage struct {
	ID, Model, StopReason     string
	InputTokens, OutputTokens int
	Blocks                    []*baseBlock
}

var sink any

// BenchmarkStreamAccumulate decodes and accumulates a long streamed
// message (5k text deltas and a tool call of about 1.3k input fragments,
// served by an httptest handler from recorded bytes): the SDK (Stream,
// then Events with its Accumulator, then Message) against a baseline of raw
// net/http, go-sse's Read, encoding/json into one plain struct and
// strings.Builder accumulation. x-baseline is the SDK's events/s over the
// baseline's.
func BenchmarkStreamAccumulate(b *testing.B) {
	body, events, input := longStream(5000, 150)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Write(body)
	}))
	defer srv.Close()
	client, err := agentplatform.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("key"))
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()
	params := messages.MessageParams{Model: "vendor-sonnet-5-5", MaxTokens: 10000, Messages: []messages.MessageParam{messages.UserText("weather?")}}
	reqBody, _ := json.Marshal(map[string]any{"model": params.Model, "max_tokens": params.MaxTokens, "stream": true,
		"messages": []any{map[string]any{"role": "user", "content": "weather?"}}})

	var baselineRate float64
	measure := func(b *testing.B, run func()) float64 {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		iters := 0
		for b.Loop() {
			run()
			iters++
		}
		runtime.ReadMemStats(&after)
		rate := float64(events*iters) / b.Elapsed().Seconds()
		b.ReportMetric(rate, "events/s")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(events*iters), "allocs/event")
		return rate
	}

	b.Run("baseline", func(b *testing.B) {
		baselineRate = measure(b, func() {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/messages", strings.NewReader(string(reqBody)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer key")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			defer resp.Body.Close()
			var m baseMessage
			for ev, err := range sse.Read(resp.Body, &sse.ReadConfig{MaxEventSize: 32 << 20}) {
				if err != nil {
					b.Fatal(err)
				}
				var e baseEvent
				if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
					b.Fatal(err)
				}
				switch e.Type {
				case "message_start":
					m.ID, m.Model, m.InputTokens = e.Message.ID, e.Message.Model, e.Message.Usage.InputTokens
				case "content_block_start":
					m.Blocks = append(m.Blocks, &baseBlock{Type: e.ContentBlock.Type, ID: e.ContentBlock.ID, Name: e.ContentBlock.Name})
				case "content_block_delta":
					blk := m.Blocks[e.Index]
					blk.Text.WriteString(e.Delta.Text)
					blk.Text.WriteString(e.Delta.Thinking)
					blk.Text.WriteString(e.Delta.PartialJSON)
				case "content_block_stop":
					if blk := m.Blocks[e.Index]; blk.Type == "tool_use" {
						blk.Input = json.RawMessage(blk.Text.String())
						if !json.Valid(blk.Input) {
							b.Fatal("bad input")
						}
					}
				case "message_delta":
					m.StopReason, m.OutputTokens = e.Delta.StopReason, e.Usage.OutputTokens
				}
			}
			if string(m.Blocks[2].Input) != input {
				b.Fatal("wrong input")
			}
			sink = &m
		})
	})
	b.Run("sdk", func(b *testing.B) {
		rate := measure(b, func() {
			st, err := client.Messages.Stream(context.Background(), params)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			msg, err := st.Message()
			if err != nil {
				b.Fatal(err)
			}
			if string(msg.Content[2].(messages.ToolUseBlock).Input) != input {
				b.Fatal("wrong input")
			}
			sink = msg
		})
		if baselineRate > 0 {
			b.ReportMetric(rate/baselineRate, "x-baseline")
		}
	})
}

// BenchmarkCreateTracing is the per-call cost of the Messages span
// attributes on a recorded response, so that only the client is measured:
// no tracing configured, an explicit noop provider (these two must cost the
// same, and build nothing), a recording provider, and one in content mode.
func BenchmarkCreateTracing(b *testing.B) {
	body, _ := json.Marshal(map[string]any{"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
		"model": "vendor-sonnet-5-5", "content": []any{map[string]any{"type": "text", "text": "You said: Hello there", "citations": nil}},
		"stop_reason": "end_turn", "stop_sequence": nil, "stop_details": nil, "container": nil,
		"usage": map[string]any{"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
			"cache_creation": map[string]any{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}, "output_tokens": 6,
			"output_tokens_details": nil, "server_tool_use": nil, "service_tier": "standard", "inference_geo": "global"}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	recording := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewNoopExporter()))
	defer func() { _ = recording.Shutdown(context.Background()) }()
	params := prompt("Hello there")
	for _, tc := range []struct {
		name string
		opts []option.Option
	}{
		{"tracing=none", nil},
		{"tracing=noop", []option.Option{option.WithTracerProvider(noop.NewTracerProvider())}},
		{"tracing=sdk", []option.Option{option.WithTracerProvider(recording)}},
		{"tracing=sdk+content", []option.Option{option.WithTracerProvider(recording), option.WithContentCapture(true)}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			client, err := agentplatform.NewClient(append([]option.Option{option.WithBaseURL(srv.URL), option.WithAPIKey("key"),
				option.WithMaxRetries(0)}, tc.opts...)...)
			if err != nil {
				b.Fatal(err)
			}
			defer client.Close()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := client.Messages.Create(context.Background(), params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
