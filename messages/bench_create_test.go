package messages_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// BenchmarkMessagesCreate is the per-call cost of Messages.Create under
// each API version, paired with raw net/http plus encoding/json sending the
// same request and decoding the same answer into the same type. The
// server answers from a canned body, so only the clients are measured: the
// SDK's side includes its local checks of the request by the version's
// rules, headers, idempotency key, retries set up, and span handling with
// no tracer provider.
func BenchmarkMessagesCreate(b *testing.B) {
	answer, _ := json.Marshal(map[string]any{"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant",
		"model": "vendor-sonnet-5-5", "content": []any{map[string]any{"type": "text", "text": "Bonjour.", "citations": nil}},
		"stop_reason": "end_turn", "stop_sequence": nil, "stop_details": nil, "container": nil,
		"usage": map[string]any{"input_tokens": 40, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
			"cache_creation": map[string]any{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}, "output_tokens": 3,
			"output_tokens_details": nil, "server_tool_use": nil, "service_tier": "standard", "inference_geo": "global"}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	}))
	defer srv.Close()
	params := messages.MessageParams{
		Model:     "vendor-sonnet-5-5",
		MaxTokens: 256,
		System:    messages.Text("You are a concise assistant."),
		Messages: []messages.MessageParam{
			messages.UserText("Hello there."),
			messages.AssistantText("Hello! How can I help?"),
			messages.UserText("Say good morning."),
			messages.SystemText("Answer in French from now on."),
		},
	}
	for _, version := range []string{option.Version20230601, option.Version20261021} {
		b.Run("version="+version+"/impl=SDK", func(b *testing.B) {
			client, err := agentplatform.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("key"),
				option.WithMaxRetries(0), option.WithVersion(version))
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
		b.Run("version="+version+"/impl=Raw", func(b *testing.B) {
			hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
			defer hc.CloseIdleConnections()
			b.ReportAllocs()
			for b.Loop() {
				body, err := json.Marshal(params)
				if err != nil {
					b.Fatal(err)
				}
				req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/v1/messages", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				req.Header.Set("Authorization", "Bearer key")
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("vendor-version", version)
				resp, err := hc.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				var m messages.Message
				err = json.NewDecoder(resp.Body).Decode(&m)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					b.Fatal(resp.Status, err)
				}
			}
		})
	}
}
