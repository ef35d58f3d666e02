package messages

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The chat-completions response, its data-only stream and their OpenAI
// shapes (docs/messages-wire.md 9.3–9.5).

type chatCompletionJSON struct {
	ID                string           `json:"id"`
	Object            string           `json:"object"`
	Created           int64            `json:"created"`
	Model             string           `json:"model"`
	Choices           []chatChoiceJSON `json:"choices"`
	Usage             chatUsageJSON    `json:"usage"`
	ServiceTier       *string          `json:"service_tier"`
	SystemFingerprint *string          `json:"system_fingerprint"`
}

type chatChoiceJSON struct {
	Index        int             `json:"index"`
	Message      chatMessageJSON `json:"message"`
	FinishReason string          `json:"finish_reason"`
	Logprobs     *string         `json:"logprobs"`
}

type chatMessageJSON struct {
	Role      string         `json:"role"`
	Content   *string        `json:"content"`
	Refusal   *string        `json:"refusal"`
	ToolCalls []chatToolCall `json:"tool_calls,omitempty"`
}

type chatToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function chatFunctionCall `json:"function"`
}

type chatFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type chatUsageJSON struct {
	PromptTokens            int     `json:"prompt_tokens"`
	CompletionTokens        int     `json:"completion_tokens"`
	TotalTokens             int     `json:"total_tokens"`
	PromptTokensDetails     *string `json:"prompt_tokens_details"`
	CompletionTokensDetails *string `json:"completion_tokens_details"`
}

var finishReasons = map[string]string{"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length",
	"tool_use": "tool_calls", "refusal": "content_filter", "model_context_window_exceeded": "length", "pause_turn": "stop"}

// finishReason maps a stop reason; a forced unknown one reads as stop.
func finishReason(stop string) string {
	if f, ok := finishReasons[stop]; ok {
		return f
	}
	return "stop"
}

func chatUsage(u msgUsageJSON) chatUsageJSON {
	prompt := u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
	return chatUsageJSON{PromptTokens: prompt, CompletionTokens: u.OutputTokens, TotalTokens: prompt + u.OutputTokens}
}

func chatCompletion(res *modelResult, id string, created int64) chatCompletionJSON {
	msg := chatMessageJSON{Role: "assistant"}
	var text strings.Builder
	hasText := false
	for _, b := range res.content {
		switch b.typ {
		case "text":
			text.WriteString(b.text)
			hasText = true
		case "tool_use":
			msg.ToolCalls = append(msg.ToolCalls, chatToolCall{ID: b.id, Type: "function",
				Function: chatFunctionCall{Name: b.name, Arguments: string(b.input.compact())}})
		}
	}
	if hasText {
		s := text.String()
		msg.Content = &s
	}
	return chatCompletionJSON{ID: id, Object: "chat.completion", Created: created, Model: res.model,
		Choices: []chatChoiceJSON{{Index: 0, Message: msg, FinishReason: finishReason(res.stopReason)}},
		Usage:   chatUsage(res.usage)}
}

// --- streaming (9.4) ---

// chatChunks is the chunk sequence of 9.4, without [DONE].
func chatChunks(res *modelResult, id string, created int64, includeUsage bool) [][]byte {
	var chunks [][]byte
	chunk := func(delta *jnode, finish *jnode) {
		n := jobj().set("id", jstr(id)).set("object", jstr("chat.completion.chunk")).set("created", jnum(created)).
			set("model", jstr(res.model)).
			set("choices", jarr().push(jobj().set("index", jint(0)).set("delta", delta).set("finish_reason", finish).set("logprobs", jnull())))
		if includeUsage {
			n.set("usage", jnull())
		}
		chunks = append(chunks, n.compact())
	}
	chunk(jobj().set("role", jstr("assistant")).set("content", jstr("")), jnull())
	k := 0
	for _, b := range res.content {
		switch b.typ {
		case "text":
			for _, t := range wordChunks(b.text, 1) {
				chunk(jobj().set("content", jstr(t)), jnull())
			}
		case "tool_use":
			head := jobj().set("index", jint(k)).set("id", jstr(b.id)).set("type", jstr("function")).
				set("function", jobj().set("name", jstr(b.name)).set("arguments", jstr("")))
			chunk(jobj().set("tool_calls", jarr().push(head)), jnull())
			args := jsonArgumentPieces(b.input.compact())
			for _, piece := range args {
				frag := jobj().set("index", jint(k)).set("function", jobj().set("arguments", jstr(piece)))
				chunk(jobj().set("tool_calls", jarr().push(frag)), jnull())
			}
			k++
		}
	}
	chunk(jobj(), jstr(finishReason(res.stopReason)))
	if includeUsage {
		u, _ := json.Marshal(chatUsage(res.usage))
		usage, _ := parseJSON(u)
		n := jobj().set("id", jstr(id)).set("object", jstr("chat.completion.chunk")).set("created", jnum(created)).
			set("model", jstr(res.model)).set("choices", jarr()).set("usage", usage)
		chunks = append(chunks, n.compact())
	}
	return chunks
}

// jsonArgumentPieces are the non-empty input_json_delta fragments; a call
// with no arguments sends "{}" so that the arguments are valid JSON.
func jsonArgumentPieces(js []byte) []string {
	pieces := inputPieces(js)[1:]
	if len(pieces) == 0 {
		return []string{"{}"}
	}
	return pieces
}

func jnum(n int64) *jnode {
	b, _ := json.Marshal(n)
	return &jnode{kind: jNumber, num: json.Number(b)}
}

// streamChat sends the data-only stream of 9.4. Errors after the 200 are
// one `data: {"error":…}` frame and the end of the body (no [DONE]).
func (s *Service) streamChat(c *kit.Call, r *msgRequest, d *directives, geo string, cr chatRequest) {
	res := s.runModel(r, c.WorkspaceID, geo)
	chunks := chatChunks(res, s.cfg.ids("msg_"), s.now().Unix(), cr.includeUsage)

	h := c.W.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	c.W.WriteHeader(http.StatusOK)
	kit.Flush(c.W)

	written := 0
	send := func(line string) bool {
		if _, err := c.W.Write([]byte(line)); err != nil {
			return false
		}
		kit.Flush(c.W)
		return true
	}
	keepAlive := func() bool { return send(": keep-alive\n\n") }
	sendError := func(typ, message string) {
		data, _ := json.Marshal(kit.OpenAIError(typ, message))
		send("data: " + string(data) + "\n\n")
	}
	// stop applies an error directive or a Fault.StreamCutAfter due after
	// `written` chunks; it reports whether the stream is over.
	stop := func() bool {
		if d.errType != "" && written == d.errAfter {
			sendError(d.errType, directiveErrors[d.errType].message)
			return true
		}
		if f := c.Ex.StreamFault; f != nil && written >= f.StreamCutAfter {
			if f.Status == 0 {
				c.Ex.Dropped = true
				kit.DropConnection(c.W)
				return true
			}
			typ := f.ErrorType
			if typ == "" {
				typ = kit.ErrorTypeForStatus(f.Status)
			}
			msg := f.Message
			if msg == "" {
				msg = kit.DefaultFaultMessage(f.Status)
			}
			sendError(typ, msg)
			return true
		}
		return false
	}
	if stop() {
		return
	}
	for _, ch := range chunks {
		if !s.sleep(c.R.Context(), d.delay, s.cfg.pingInterval, keepAlive) {
			return
		}
		if !send("data: " + string(ch) + "\n\n") {
			return
		}
		written++
		if written < len(chunks) && stop() {
			return
		}
	}
	if s.sleep(c.R.Context(), d.delay, s.cfg.pingInterval, keepAlive) {
		send("data: [DONE]\n\n")
	}
}
