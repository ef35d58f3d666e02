package refserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Helpers of the Messages tests (docs/messages-wire.md): request builders,
// a strict parser of finished SSE bodies, the accumulator of section 5.9,
// and a parser of data-only chat-completion streams.

const (
	sonnet = "vendor-sonnet-5-5"
	opus   = "vendor-opus-5-5"
	haiku  = "vendor-haiku-5-5"
)

// msgReq builds a create body for model with one user message and extra
// top-level members (`"k":v,…`).
func msgReq(model, text, extra string) string {
	body := `{"model":"` + model + `","max_tokens":1024,"messages":[{"role":"user","content":` + jsonString(text) + `}]`
	if extra != "" {
		body += "," + extra
	}
	return body + "}"
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (e *env) message(t *testing.T, body string, mods ...mod) map[string]any {
	t.Helper()
	return wantOK(t, e.do(t, "POST", "/v1/messages", body, mods...))
}

// stream posts body (which must set "stream": true) and returns its frames,
// checking the headers and the exact framing of every frame.
func (e *env) stream(t *testing.T, body string, mods ...mod) ([]sseFrame, response) {
	t.Helper()
	r := e.do(t, "POST", "/v1/messages", body, mods...)
	if r.status != 200 {
		t.Fatalf("stream status %d: %s", r.status, r.body)
	}
	if r.header.Get("Content-Type") != "text/event-stream; charset=utf-8" || r.header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("stream headers %v", r.header)
	}
	return parseFrames(t, r.body), r
}

// parseFrames splits a finished body into frames; each must be exactly
// `event: <type>\ndata: <json>\n\n` with the JSON's type equal to <type>.
func parseFrames(t *testing.T, body []byte) []sseFrame {
	t.Helper()
	br := bufio.NewReader(bytes.NewReader(body))
	var frames []sseFrame
	for {
		fr, err := readFrame(br)
		if err == io.EOF {
			return frames
		}
		if err != nil {
			t.Fatalf("frame %d: %v\nbody:\n%s", len(frames), err, body)
		}
		if typ, _ := fr.object(t)["type"].(string); typ != fr.typ {
			t.Fatalf("event: %s carries type %q", fr.typ, typ)
		}
		frames = append(frames, fr)
	}
}

func frameTypesNoPing(frames []sseFrame) []string {
	var out []string
	for _, fr := range frames {
		if fr.typ != "ping" {
			out = append(out, fr.typ)
		}
	}
	return out
}

// accumulate builds the message of a stream as docs/messages-wire.md 5.9
// says. It returns the message and the error event's data, if the stream
// ended with one; it fails on any breach of the event order of 5.3.
func accumulate(t *testing.T, frames []sseFrame) (map[string]any, map[string]any) {
	t.Helper()
	var msg map[string]any
	var content []any
	buffers := map[int]*strings.Builder{}
	open := -1
	stopped := false
	for i, fr := range frames {
		obj := fr.object(t)
		if i == 0 && fr.typ != "message_start" {
			t.Fatalf("first event %s, want message_start", fr.typ)
		}
		if stopped {
			t.Fatalf("%s after message_stop", fr.typ)
		}
		index := -1
		if v, ok := obj["index"].(float64); ok {
			index = int(v)
		}
		switch fr.typ {
		case "message_start":
			msg = obj["message"].(map[string]any)
			content = []any{}
		case "content_block_start":
			if open >= 0 || index != len(content) {
				t.Fatalf("content_block_start %d while %d is open, %d started", index, open, len(content))
			}
			content = append(content, obj["content_block"])
			open = index
		case "content_block_delta":
			if index != open {
				t.Fatalf("delta for %d while %d is open", index, open)
			}
			blk := content[index].(map[string]any)
			d := obj["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				blk["text"] = blk["text"].(string) + d["text"].(string)
			case "citations_delta":
				list, _ := blk["citations"].([]any)
				blk["citations"] = append(list, d["citation"])
			case "thinking_delta":
				blk["thinking"] = blk["thinking"].(string) + d["thinking"].(string)
			case "signature_delta":
				blk["signature"] = d["signature"]
			case "input_json_delta":
				if buffers[index] == nil {
					buffers[index] = &strings.Builder{}
				}
				buffers[index].WriteString(d["partial_json"].(string))
			default:
				t.Fatalf("unknown delta %v", d["type"])
			}
		case "content_block_stop":
			if index != open {
				t.Fatalf("stop for %d while %d is open", index, open)
			}
			blk := content[index].(map[string]any)
			if buf := buffers[index]; buf != nil {
				input := map[string]any{}
				if buf.Len() > 0 {
					if err := json.Unmarshal([]byte(buf.String()), &input); err != nil {
						t.Fatalf("tool input %q: %v", buf.String(), err)
					}
				}
				blk["input"] = input
			}
			if blk["type"] == "fallback" {
				msg["model"] = blk["to"].(map[string]any)["model"]
			}
			open = -1
		case "message_delta":
			for k, v := range obj["delta"].(map[string]any) {
				msg[k] = v
			}
			usage := msg["usage"].(map[string]any)
			for k, v := range obj["usage"].(map[string]any) {
				if v != nil {
					usage[k] = v
				}
			}
		case "message_stop":
			stopped = true
		case "ping":
		case "error":
			if i != len(frames)-1 {
				t.Fatalf("events after error")
			}
			msg["content"] = content
			return msg, obj
		default:
			t.Fatalf("unknown event %s", fr.typ)
		}
	}
	if !stopped {
		t.Fatal("stream ended without message_stop")
	}
	msg["content"] = content
	return msg, nil
}

// sameMessage compares two messages except their ids.
func sameMessage(t *testing.T, got, want map[string]any) {
	t.Helper()
	diff := cmp.Diff(want, got, cmp.FilterPath(func(p cmp.Path) bool {
		return len(p) == 2 && p.Last().String() == `["id"]`
	}, cmp.Ignore()))
	if diff != "" {
		t.Fatalf("accumulated stream differs from the message (-message +stream):\n%s", diff)
	}
}

// streamOf returns body with "stream": true added.
func streamOf(body string) string {
	return strings.TrimSuffix(body, "}") + `,"stream":true}`
}

// chatFrames splits a data-only stream into its data payloads, checking
// `data: <payload>\n\n` framing; comments (keep-alives) are returned as
// ": …".
func chatFrames(t *testing.T, body []byte) []string {
	t.Helper()
	var out []string
	for rest := string(body); rest != ""; {
		frame, after, ok := strings.Cut(rest, "\n\n")
		if !ok || strings.Contains(frame, "\n") {
			t.Fatalf("bad frame in %q", rest)
		}
		switch {
		case strings.HasPrefix(frame, "data: "):
			out = append(out, strings.TrimPrefix(frame, "data: "))
		case strings.HasPrefix(frame, ": "):
			out = append(out, frame)
		default:
			t.Fatalf("bad frame %q", frame)
		}
		rest = after
	}
	return out
}

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return m
}

func usageOf(m map[string]any) map[string]any { return m["usage"].(map[string]any) }

func num(v any) int { return int(v.(float64)) }

func contentOf(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, b := range m["content"].([]any) {
		out = append(out, b.(map[string]any))
	}
	return out
}

func mcpBeta(h http.Header)      { withHeader("vendor-beta", "mcp-client-2025-11-20")(h) }
func fallbackBeta(h http.Header) { withHeader("vendor-beta", "server-side-fallback-2026-07-01")(h) }
