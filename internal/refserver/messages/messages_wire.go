package messages

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Response shapes of /v1/messages (docs/messages-wire.md 4, 5). Key order
// follows that document's tables; every listed key is sent, null included,
// except the documented optional ones (stop_details.recommended_model and
// usage.iterations, only when the request set fallbacks).

type messageJSON struct {
	ID           string           `json:"id"`
	Type         string           `json:"type"`
	Role         string           `json:"role"`
	Model        string           `json:"model"`
	Content      []json.Marshaler `json:"content"`
	StopReason   *string          `json:"stop_reason"`
	StopSequence *string          `json:"stop_sequence"`
	StopDetails  *stopDetailsJSON `json:"stop_details"`
	Container    *containerJSON   `json:"container"`
	// Diagnostics is null unless the request opted in and a divergence
	// from the previous message it named was found (diagnostics.go).
	Diagnostics *diagnosticsJSON `json:"diagnostics"`
	Usage       msgUsageJSON     `json:"usage"`
}

type stopDetailsJSON struct {
	Type        string  `json:"type"`
	Category    *string `json:"category"`
	Explanation *string `json:"explanation"`
	// RecommendedModel is sent (as null) only when the request set fallbacks.
	RecommendedModel json.RawMessage `json:"recommended_model,omitempty"`
}

type containerJSON struct {
	ID        string        `json:"id"`
	ExpiresAt kit.Timestamp `json:"expires_at"`
	// Skills echoes the request's container.skills; [] when none (never
	// null: the field is required).
	Skills []containerSkill `json:"skills"`
}

type msgUsageJSON struct {
	InputTokens              int                      `json:"input_tokens"`
	CacheCreationInputTokens int                      `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int                      `json:"cache_read_input_tokens"`
	CacheCreation            msgCacheCreationJSON     `json:"cache_creation"`
	OutputTokens             int                      `json:"output_tokens"`
	OutputTokensDetails      *outputTokensDetailsJSON `json:"output_tokens_details"`
	ServerToolUse            *msgServerToolUseJSON    `json:"server_tool_use"`
	ServiceTier              string                   `json:"service_tier"`
	InferenceGeo             string                   `json:"inference_geo"`
	Speed                    string                   `json:"speed"`
	Iterations               []iterationJSON          `json:"iterations,omitempty"`
}

// usageSpeed is usage.speed: the request's top-level speed, "standard"
// when it was left out. A fallback's own speed does not change it.
func usageSpeed(r *msgRequest) string {
	if r.speed == "fast" {
		return r.speed
	}
	return "standard"
}

// deltaUsageJSON is message_delta's usage (5.6): cumulative, final values.
type deltaUsageJSON struct {
	InputTokens              int                      `json:"input_tokens"`
	CacheCreationInputTokens int                      `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int                      `json:"cache_read_input_tokens"`
	OutputTokens             int                      `json:"output_tokens"`
	OutputTokensDetails      *outputTokensDetailsJSON `json:"output_tokens_details"`
	ServerToolUse            *msgServerToolUseJSON    `json:"server_tool_use"`
	Iterations               []iterationJSON          `json:"iterations,omitempty"`
}

type msgCacheCreationJSON struct {
	Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
	Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
}

type outputTokensDetailsJSON struct {
	ThinkingTokens int `json:"thinking_tokens"`
}

type msgServerToolUseJSON struct {
	WebSearchRequests int `json:"web_search_requests"`
	WebFetchRequests  int `json:"web_fetch_requests"`
}

type iterationJSON struct {
	Type                     string                `json:"type"`
	Model                    string                `json:"model"`
	InputTokens              int                   `json:"input_tokens"`
	OutputTokens             int                   `json:"output_tokens"`
	CacheCreationInputTokens int                   `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int                   `json:"cache_read_input_tokens"`
	CacheCreation            *msgCacheCreationJSON `json:"cache_creation"`
}

// citationJSON is a char_location or a content_block_location.
type citationJSON struct {
	Type          string
	CitedText     string
	DocumentIndex int
	DocumentTitle *string
	End           int // end_char_index or end_block_index (exclusive); starts are 0
}

func (c citationJSON) MarshalJSON() ([]byte, error) {
	n := jobj().set("type", jstr(c.Type)).set("cited_text", jstr(c.CitedText)).set("document_index", jint(c.DocumentIndex))
	if c.DocumentTitle != nil {
		n.set("document_title", jstr(*c.DocumentTitle))
	} else {
		n.set("document_title", jnull())
	}
	if c.Type == "char_location" {
		n.set("start_char_index", jint(0)).set("end_char_index", jint(c.End))
	} else {
		n.set("start_block_index", jint(0)).set("end_block_index", jint(c.End))
	}
	return n.set("file_id", jnull()).compact(), nil
}

var directCaller = jobj().set("type", jstr("direct"))

// MarshalJSON is the block as the final message carries it.
func (b *outBlock) MarshalJSON() ([]byte, error) { return b.node(false).compact(), nil }

// node builds the block; start gives the empty form of content_block_start
// (5.2).
func (b *outBlock) node(start bool) *jnode {
	n := jobj().set("type", jstr(b.typ))
	switch b.typ {
	case "text":
		text := b.text
		if start {
			return n.set("text", jstr("")).set("citations", jnull())
		}
		n.set("text", jstr(text))
		if b.citations == nil {
			return n.set("citations", jnull())
		}
		list := jarr()
		for _, c := range b.citations {
			raw, _ := c.MarshalJSON()
			cn, _ := parseJSON(raw)
			list.push(cn)
		}
		return n.set("citations", list)
	case "thinking":
		if start {
			return n.set("thinking", jstr("")).set("signature", jstr(""))
		}
		return n.set("thinking", jstr(b.shownThinking())).set("signature", jstr(b.signature))
	case "redacted_thinking":
		return n.set("data", jstr(b.data))
	case "tool_use", "server_tool_use":
		n.set("id", jstr(b.id)).set("name", jstr(b.name)).set("input", b.inputNode(start))
		return n.set("caller", directCaller)
	case "mcp_tool_use":
		return n.set("id", jstr(b.id)).set("name", jstr(b.name)).set("server_name", jstr(b.server)).set("input", b.inputNode(start))
	case "fallback":
		return n.set("from", jobj().set("model", jstr(b.from))).set("to", jobj().set("model", jstr(b.to)))
	}
	raw, _ := parseJSON(b.raw)
	return raw
}

func (b *outBlock) inputNode(start bool) *jnode {
	if start {
		return jobj()
	}
	return b.input
}

func (b *outBlock) shownThinking() string {
	if b.omitted {
		return ""
	}
	return b.full
}

// message is the M1 response (4.1) for the result.
func (res *modelResult) message(id string) messageJSON {
	content := make([]json.Marshaler, len(res.content))
	for i, b := range res.content {
		content[i] = b
	}
	stop := res.stopReason
	return messageJSON{ID: id, Type: "message", Role: "assistant", Model: res.model, Content: content,
		StopReason: &stop, StopSequence: res.stopSequence, StopDetails: res.stopDetails, Container: res.container,
		Diagnostics: res.diag.remember(id), Usage: res.usage}
}

// --- stream events (5.2) ---

type messageStartJSON struct {
	Type    string      `json:"type"`
	Message messageJSON `json:"message"`
}

type blockStartJSON struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock *jnode `json:"content_block"`
}

type blockDeltaJSON struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	Delta *jnode `json:"delta"`
}

type blockStopJSON struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
}

type messageDeltaJSON struct {
	Type  string            `json:"type"`
	Delta messageDeltaInner `json:"delta"`
	Usage deltaUsageJSON    `json:"usage"`
}

type messageDeltaInner struct {
	StopReason   string           `json:"stop_reason"`
	StopSequence *string          `json:"stop_sequence"`
	StopDetails  *stopDetailsJSON `json:"stop_details"`
	Container    *containerJSON   `json:"container"`
}

func mustFrame(typ string, v any) kit.Frame {
	data, _ := json.Marshal(v)
	return kit.Frame{Type: typ, Data: data}
}

// streamFrames is the whole stream of a result (5.3), the one ping
// included: message_start, each block (start, deltas, stop), one
// message_delta, message_stop.
func (res *modelResult) streamFrames(id string) []kit.Frame {
	start := res.message(id)
	start.Content = []json.Marshaler{}
	start.StopReason, start.StopSequence, start.StopDetails, start.Container = nil, nil, nil, nil
	start.Usage.OutputTokens = 1
	start.Usage.OutputTokensDetails = nil
	start.Usage.Iterations = nil
	if start.Usage.ServerToolUse != nil {
		start.Usage.ServerToolUse = &msgServerToolUseJSON{}
	}
	frames := []kit.Frame{mustFrame("message_start", messageStartJSON{Type: "message_start", Message: start})}
	for i, b := range res.content {
		frames = append(frames, mustFrame("content_block_start", blockStartJSON{Type: "content_block_start", Index: i, ContentBlock: b.node(true)}))
		if i == 0 {
			frames = append(frames, kit.PingFrame)
		}
		for _, d := range b.deltas() {
			frames = append(frames, mustFrame("content_block_delta", blockDeltaJSON{Type: "content_block_delta", Index: i, Delta: d}))
		}
		frames = append(frames, mustFrame("content_block_stop", blockStopJSON{Type: "content_block_stop", Index: i}))
	}
	if len(res.content) == 0 {
		frames = append(frames, kit.PingFrame)
	}
	u := res.usage
	frames = append(frames, mustFrame("message_delta", messageDeltaJSON{Type: "message_delta",
		Delta: messageDeltaInner{StopReason: res.stopReason, StopSequence: res.stopSequence, StopDetails: res.stopDetails, Container: res.container},
		Usage: deltaUsageJSON{InputTokens: u.InputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens,
			CacheReadInputTokens: u.CacheReadInputTokens, OutputTokens: u.OutputTokens, OutputTokensDetails: u.OutputTokensDetails,
			ServerToolUse: u.ServerToolUse, Iterations: u.Iterations}}))
	return append(frames, kit.Frame{Type: "message_stop", Data: []byte(`{"type":"message_stop"}`)})
}

// deltas are a block's content_block_delta payloads (5.4, 10.11).
func (b *outBlock) deltas() []*jnode {
	var out []*jnode
	switch b.typ {
	case "text":
		for _, c := range b.citations {
			raw, _ := c.MarshalJSON()
			cn, _ := parseJSON(raw)
			out = append(out, jobj().set("type", jstr("citations_delta")).set("citation", cn))
		}
		for _, t := range wordChunks(b.text, 1) {
			out = append(out, jobj().set("type", jstr("text_delta")).set("text", jstr(t)))
		}
	case "thinking":
		if !b.omitted {
			for _, t := range wordChunks(b.full, 8) {
				out = append(out, jobj().set("type", jstr("thinking_delta")).set("thinking", jstr(t)))
			}
		}
		out = append(out, jobj().set("type", jstr("signature_delta")).set("signature", jstr(b.signature)))
	case "tool_use", "server_tool_use", "mcp_tool_use":
		for _, p := range inputPieces(b.input.compact()) {
			out = append(out, jobj().set("type", jstr("input_json_delta")).set("partial_json", jstr(p)))
		}
	}
	return out
}

var wordPattern = regexp.MustCompile(`\s*\S+`)

// wordChunks splits s into groups of n words, each word with the
// whitespace before it (10.11). Whitespace after the last word joins the
// last chunk, so the chunks always add up to s.
func wordChunks(s string, n int) []string {
	words := wordPattern.FindAllString(s, -1)
	var chunks []string
	for i := 0; i < len(words); i += n {
		chunks = append(chunks, strings.Join(words[i:min(i+n, len(words))], ""))
	}
	used := 0
	for _, c := range chunks {
		used += len(c)
	}
	if rest := s[used:]; rest != "" {
		if len(chunks) == 0 {
			return []string{rest}
		}
		chunks[len(chunks)-1] += rest
	}
	return chunks
}

const inputPieceBytes = 16

// inputPieces is 5.5's chunking: an empty first fragment, then pieces of
// at most 16 bytes that never split a UTF-8 sequence. A call with no
// arguments ({}) streams the empty fragment alone.
func inputPieces(js []byte) []string {
	out := []string{""}
	if string(js) == "{}" {
		return out
	}
	for len(js) > 0 {
		n := min(inputPieceBytes, len(js))
		for n < len(js) && n > 1 && !utf8.RuneStart(js[n]) {
			n--
		}
		out = append(out, string(js[:n]))
		js = js[n:]
	}
	return out
}
