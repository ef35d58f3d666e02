package refserver

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/internal/genai"
)

// The span names of the route table are the ones docs/tracing.md lists:
// every API span name has its route, every listed name is an API span
// except the SDK-only ones.
func TestRouteOpsMatchDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/tracing.md")
	if err != nil {
		t.Fatal(err)
	}
	tick := regexp.MustCompile("`([^`]+)`")
	documented := map[string]bool{}
	// The table that starts with "| Span name | Endpoint |", up to the
	// blank line after it.
	_, table, _ := strings.Cut(string(doc), "| Span name | Endpoint |")
	table, _, _ = strings.Cut(table, "\n\n")
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| `vendor.") {
			continue
		}
		cell := strings.Split(line, "|")[1]
		var first string
		for _, m := range tick.FindAllStringSubmatch(cell, -1) {
			name := m[1]
			switch {
			case strings.HasPrefix(name, "vendor."): // a full name
				first = name
			case first != "": // ".list": the last full name's operation changed
				name = first[:strings.LastIndex(first, ".")] + name
			}
			documented[name] = true
		}
	}
	if len(documented) < 60 {
		t.Fatalf("parsed only %d names from docs/tracing.md", len(documented))
	}
	sdkOnly := []string{"vendor.messages.count_tokens", "vendor.chat.completions.create",
		"vendor.oauth.token.create", "vendor.oauth.device_attestation.challenge.create"}
	s := New()
	traced := map[string]bool{}
	for _, rt := range s.routes() {
		if rt.Op == "" {
			continue
		}
		name := "vendor." + rt.Op
		if !documented[name] || slices.Contains(sdkOnly, name) {
			t.Errorf("%s %s: span %s is not an API span of docs/tracing.md", rt.Method, rt.Path, name)
		}
		if traced[name] {
			t.Errorf("%s: two routes", name)
		}
		traced[name] = true
	}
	for name := range documented {
		if !traced[name] && !slices.Contains(sdkOnly, name) {
			t.Errorf("%s: documented, no route", name)
		}
	}
}

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

// Without an exporter there is no tracing state, and the hooks do nothing.
func TestTracingOffHooks(t *testing.T) {
	s := New()
	if s.trace != nil {
		t.Fatal("tracing state without an exporter")
	}
	var ms *messageSpan
	ms.response(nil, "")
	ms.failedAttempt(nil, "")
	ms.Finish(nil, spanOutcome{})
	ms.startAttempt(nil, attempt{}).done(msgUsageJSON{}, true)
	var mr *modelSpan
	mr.fail("x")
	mr.cancel()
	mr.end(tokenCount{})
	var ts *turnSpan
	ts.sessionError("x", "exhausted")
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
