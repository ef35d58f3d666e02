package messages

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/internal/genai"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// Content crosses from jnode to internal/genai (genaiTree), which cuts
// strings to a common length with an ellipsis, then drops the oldest
// messages, then shortens nested lists, and always returns valid JSON
// within the limit, without changing its input.
func TestContentEncoding(t *testing.T) {
	fit := func(v *jnode, limit int) (string, bool) { return genai.Encode(genaiTree(v), limit) }
	text := func(s string) *jnode { return jobj().set("type", jstr("text")).set("content", jstr(s)) }
	message := func(role string, parts *jnode) *jnode { return jobj().set("role", jstr(role)).set("parts", parts) }
	msgs := jarr()
	for i := 0; i < 3; i++ {
		msgs.push(message("user", jarr().push(text(strings.Repeat("x", 1000)))))
	}
	orig := string(msgs.compact())
	out, cut := fit(msgs, 4000)
	if cut || out != orig {
		t.Fatalf("cut a fitting value: %v", cut)
	}
	out, cut = fit(msgs, 1500)
	var got []map[string]any
	if !cut || len(out) > 1500 || json.Unmarshal([]byte(out), &got) != nil || len(got) != 3 {
		t.Fatalf("cut %v, %d bytes: %s", cut, len(out), out)
	}
	txt := got[0]["parts"].([]any)[0].(map[string]any)["content"].(string)
	if !strings.HasSuffix(txt, "…") || len(txt) < 300 || got[0]["role"] != "user" || string(msgs.compact()) != orig {
		t.Fatalf("text %q; original changed %v", txt, string(msgs.compact()) != orig)
	}

	// Too many messages for even the shortest strings: the oldest go.
	many := jarr()
	for i := 0; i < 200; i++ {
		many.push(message("assistant", jarr().push(text(fmt.Sprintf("%03d", i)+strings.Repeat("y", 100)))))
	}
	out, cut = fit(many, 2000)
	if !cut || len(out) > 2000 || json.Unmarshal([]byte(out), &got) != nil || len(got) < 2 || len(got) == 200 {
		t.Fatalf("cut %v, %d bytes, %d messages", cut, len(out), len(got))
	}
	if last := got[len(got)-1]["parts"].([]any)[0].(map[string]any)["content"].(string); !strings.HasPrefix(last, "199") {
		t.Fatalf("the newest message was dropped: %q", last)
	}

	// One message with too many parts: its list keeps the first ones.
	parts := jarr()
	for i := 0; i < 1000; i++ {
		parts.push(text(fmt.Sprint(i)))
	}
	out, cut = fit(jarr().push(message("user", parts)), 2000)
	if !cut || len(out) > 2000 || json.Unmarshal([]byte(out), &got) != nil || len(got) != 1 {
		t.Fatalf("cut %v, %d bytes: %s", cut, len(out), out)
	}
	if kept := got[0]["parts"].([]any); len(kept) == 0 || len(kept) == 1000 || kept[0].(map[string]any)["content"] != "0" {
		t.Fatalf("%d parts kept", len(kept))
	}

	// Nothing fits.
	if out, _ := fit(jobj().set("k", jstr(strings.Repeat("z", 5000))), 10); out != "{}" {
		t.Fatalf("an object that cannot fit: %s", out)
	}
	if out, _ := fit(jarr().push(jstr(strings.Repeat("z", 5000))), 10); out != "[]" {
		t.Fatalf("a list that cannot fit: %s", out)
	}
	// Strings are escaped without HTML escaping, and cut on a rune;
	// numbers, null and member order stay as parsed.
	if out, _ := fit(jarr().push(jstr("<a & b>\n\"\x01")), 100); out != `["<a & b>\n\"\u0001"]` {
		t.Fatalf("escaping: %s", out)
	}
	out, _ = fit(jarr().push(jstr(strings.Repeat("é", 100))), 70)
	var one []string
	if json.Unmarshal([]byte(out), &one) != nil || !utf8.ValidString(one[0]) || !strings.HasSuffix(one[0], "…") {
		t.Fatalf("rune cut: %s", out)
	}
	raw := `{"z":[1.50,-0,12345678901234567890,null,true],"a":{}}`
	n, err := parseJSON([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := fit(n, 0); out != raw {
		t.Fatalf("values: %s", out)
	}
}

// Without spans the hooks of vendor.messages.create do nothing.
func TestMessageSpanOffHooks(t *testing.T) {
	var ms *messageSpan
	ms.response(nil, "")
	ms.failedAttempt(nil, "")
	ms.Finish(nil, spans.Outcome{})
	ms.startAttempt(nil, attempt{}).done(msgUsageJSON{}, true)
}

// Usage attributes: input includes cache reads and writes; compaction
// iterations are summed, when there are any.
func TestMsgUsageAttrs(t *testing.T) {
	u := msgUsageJSON{InputTokens: 10, CacheCreationInputTokens: 5, CacheReadInputTokens: 3, OutputTokens: 7,
		CacheCreation: msgCacheCreationJSON{Ephemeral5m: 2, Ephemeral1h: 3},
		Iterations: []iterationJSON{{Type: "compaction", InputTokens: 100, CacheReadInputTokens: 20, OutputTokens: 30},
			{Type: "message", InputTokens: 10, OutputTokens: 7}}}
	got := map[string]int64{}
	for _, kv := range msgUsageAttrs(u) {
		got[string(kv.Key)] = kv.Value.AsInt64()
	}
	want := map[string]int64{"gen_ai.usage.input_tokens": 18, "gen_ai.usage.output_tokens": 7,
		"gen_ai.usage.cache_write.input_tokens": 5, "gen_ai.usage.cache_read.input_tokens": 3,
		"vendor.usage.cache_creation.ephemeral_5m_input_tokens": 2, "vendor.usage.cache_creation.ephemeral_1h_input_tokens": 3,
		"vendor.usage.compaction.input_tokens": 120, "vendor.usage.compaction.output_tokens": 30}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("usage\n got %v\nwant %v", got, want)
	}
}
