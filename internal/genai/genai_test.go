package genai

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func parse(t *testing.T, s string) any {
	t.Helper()
	v, err := Parse([]byte(s))
	require.NoError(t, err)
	return v
}

func encode(t *testing.T, v any) string {
	t.Helper()
	s, truncated := Encode(v, DefaultLimit)
	require.False(t, truncated)
	return s
}

// TestBlockParts checks the content-mode mapping of docs/tracing.md
// ("Content mode"), block by block.
func TestBlockParts(t *testing.T) {
	for _, tc := range []struct{ name, block, part string }{
		{"text", `{"type":"text","text":"Hello","citations":null,"cache_control":{"type":"ephemeral"}}`,
			`{"type":"text","content":"Hello"}`},
		{"tool_use", `{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris","days":3},"caller":{"type":"direct"}}`,
			`{"type":"tool_call","id":"toolu_1","name":"get_weather","arguments":{"city":"Paris","days":3}}`},
		{"tool_use without input", `{"type":"tool_use","id":"toolu_1","name":"now"}`,
			`{"type":"tool_call","id":"toolu_1","name":"now","arguments":{}}`},
		{"server_tool_use", `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"paris"}}`,
			`{"type":"tool_call","id":"srvtoolu_1","name":"web_search","arguments":{"query":"paris"}}`},
		{"mcp_tool_use", `{"type":"mcp_tool_use","id":"mcptoolu_1","name":"lookup","server_name":"crm","input":{"id":7}}`,
			`{"type":"tool_call","id":"mcptoolu_1","name":"lookup","arguments":{"id":7},"vendor_mcp_server_name":"crm"}`},
		{"tool_result text", `{"type":"tool_result","tool_use_id":"toolu_1","content":"15 degrees","is_error":false}`,
			`{"type":"tool_call_response","id":"toolu_1","response":"15 degrees"}`},
		{"tool_result blocks", `{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"15"},{"type":"image","source":{"type":"url","url":"https://x/y.png"}}]}`,
			`{"type":"tool_call_response","id":"toolu_1","response":[{"type":"text","content":"15"},{"type":"vendor_image","source":{"type":"url","url":"https://x/y.png"}}]}`},
		{"tool_result empty", `{"type":"tool_result","tool_use_id":"toolu_1"}`,
			`{"type":"tool_call_response","id":"toolu_1","response":null}`},
		{"mcp_tool_result", `{"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":false,"content":[{"type":"text","text":"ok"}]}`,
			`{"type":"tool_call_response","id":"mcptoolu_1","response":[{"type":"text","content":"ok"}]}`},
		{"web_search_tool_result", `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://e.com","title":"E","encrypted_content":"abc","page_age":null}]}`,
			`{"type":"tool_call_response","id":"srvtoolu_1","response":[{"type":"web_search_result","url":"https://e.com","title":"E","encrypted_content":"abc","page_age":null}]}`},
		{"code_execution_tool_result", `{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"code_execution_result","stdout":"4\n","stderr":"","return_code":0,"content":[]}}`,
			`{"type":"tool_call_response","id":"srvtoolu_2","response":{"type":"code_execution_result","stdout":"4\n","stderr":"","return_code":0,"content":[]}}`},
		{"thinking", `{"type":"thinking","thinking":"Let me see.","signature":"EqQBCgIYAhIM"}`,
			`{"type":"reasoning","content":"Let me see."}`},
		{"redacted_thinking", `{"type":"redacted_thinking","data":"EmwKAhgB"}`,
			`{"type":"vendor_redacted_thinking","data":"EmwKAhgB"}`},
		{"image", `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBOR"}}`,
			`{"type":"vendor_image","source":{"type":"base64","media_type":"image/png","data":"iVBOR"}}`},
		{"document", `{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Hi"},"title":"T"}`,
			`{"type":"vendor_document","source":{"type":"text","media_type":"text/plain","data":"Hi"},"title":"T"}`},
		{"fallback", `{"type":"fallback","from":{"model":"vendor-opus-5-5"},"to":{"model":"vendor-sonnet-5-5"}}`,
			`{"type":"vendor_fallback","from":{"model":"vendor-opus-5-5"},"to":{"model":"vendor-sonnet-5-5"}}`},
		{"a block newer than the SDK", `{"type":"container_upload","file_id":"file_1"}`,
			`{"type":"vendor_container_upload","file_id":"file_1"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, keep := BlockPart(parse(t, tc.block).(Object), Options{})
			require.True(t, keep)
			require.Equal(t, tc.part, encode(t, p), "members in order, exact")
		})
	}
}

func TestReasoningCanBeOmitted(t *testing.T) {
	content := parse(t, `[{"type":"thinking","thinking":"hmm","signature":"s"},{"type":"text","text":"Hi"}]`)
	require.Equal(t, `[{"type":"text","content":"Hi"}]`, encode(t, Parts(content, Options{OmitReasoning: true})))
	require.Equal(t, `[{"type":"reasoning","content":"hmm"},{"type":"text","content":"Hi"}]`, encode(t, Parts(content, Options{})))
}

func TestMessages(t *testing.T) {
	msgs := parse(t, `[
		{"role":"user","content":"What is the weather in Paris?"},
		{"role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"15 degrees"}]}]`)
	require.JSONEq(t, `[
		{"role":"user","parts":[{"type":"text","content":"What is the weather in Paris?"}]},
		{"role":"assistant","parts":[{"type":"text","content":"Checking."},{"type":"tool_call","id":"toolu_1","name":"get_weather","arguments":{"city":"Paris"}}]},
		{"role":"user","parts":[{"type":"tool_call_response","id":"toolu_1","response":"15 degrees"}]}]`,
		encode(t, InputMessages(msgs, Options{})))

	require.Equal(t, `[{"type":"text","content":"You are terse."}]`, encode(t, SystemInstructions("You are terse.", Options{})))
	require.Equal(t, `[{"type":"text","content":"A"},{"type":"text","content":"B"}]`,
		encode(t, SystemInstructions(parse(t, `[{"type":"text","text":"A","cache_control":{"type":"ephemeral"}},{"type":"text","text":"B"}]`), Options{})))
	require.Nil(t, SystemInstructions(nil, Options{}))

	out := OutputMessages("assistant", parse(t, `[{"type":"text","text":"Sunny."}]`), FinishReason("end_turn"), Options{})
	require.Equal(t, `[{"role":"assistant","parts":[{"type":"text","content":"Sunny."}],"finish_reason":"stop"}]`, encode(t, out))
}

func TestFinishReason(t *testing.T) {
	for stop, want := range map[string]string{
		"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "model_context_window_exceeded": "length",
		"tool_use": "tool_call", "refusal": "content_filter", "pause_turn": "pause_turn", "": "error", "brand_new": "brand_new",
	} {
		require.Equal(t, want, FinishReason(stop), stop)
	}
}

func TestEncodeKeepsValuesExactly(t *testing.T) {
	in := `{"z":1,"a":[12345678901234567890,1.5e300,-0.0,true,false,null],"s":"quote \" backslash \\ nl \n tab \t bell \u0007 é 日本 <&>"}`
	require.Equal(t, in, encode(t, parse(t, in)), "order, big numbers and escapes survive")
	s, _ := Encode(string([]byte{'a', 0xff, 'b'}), 0)
	require.True(t, json.Valid([]byte(s)))
	require.Equal(t, `"a\ufffdb"`, s, "invalid UTF-8 is replaced, as encoding/json does")
}

func requireFits(t *testing.T, s string, limit int) any {
	t.Helper()
	require.LessOrEqual(t, len(s), limit)
	require.True(t, json.Valid([]byte(s)), s)
	require.True(t, utf8.ValidString(s))
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v
}

// TestTruncationCutsStringsInsideTheStructure: one huge text, a huge
// base64 image and a tool call, in 2 KiB.
func TestTruncationCutsStringsInsideTheStructure(t *testing.T) {
	const limit = 2048
	big := strings.Repeat("日本語のテキスト ", 2000)
	msgs := []any{
		Object{{Key: "role", Value: "user"}, {Key: "parts", Value: []any{
			textPart(big),
			Object{{Key: "type", Value: "vendor_image"}, {Key: "source", Value: Object{{Key: "type", Value: "base64"}, {Key: "data", Value: strings.Repeat("QUJD", 50000)}}}},
			Object{{Key: "type", Value: "tool_call"}, {Key: "id", Value: "toolu_01T1x1fJ34qAmk2tNTrN7Up6"}, {Key: "name", Value: "get_weather"},
				{Key: "arguments", Value: Object{{Key: "city", Value: "Paris"}, {Key: "n", Value: json.Number("3")}}}},
		}}},
	}
	s, truncated := Encode(msgs, limit)
	require.True(t, truncated)
	v := requireFits(t, s, limit)
	require.Greater(t, len(s), limit-200, "the largest cut that fits is used")
	parts := v.([]any)[0].(map[string]any)["parts"].([]any)
	require.Len(t, parts, 3, "nothing dropped: strings were enough")
	text := parts[0].(map[string]any)["content"].(string)
	require.True(t, strings.HasPrefix(big, strings.TrimSuffix(text, "…")))
	require.True(t, strings.HasSuffix(text, "…"))
	require.Equal(t, map[string]any{"type": "tool_call", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "name": "get_weather",
		"arguments": map[string]any{"city": "Paris", "n": 3.0}}, parts[2], "short strings and numbers are untouched")
}

func TestTruncationDropsTheOldestMessagesFirst(t *testing.T) {
	var msgs []any
	for i := range 500 {
		msgs = append(msgs, Object{{Key: "role", Value: "user"}, {Key: "parts", Value: []any{textPart(fmt.Sprintf("message %03d", i))}}})
	}
	s, truncated := Encode(msgs, 4096)
	require.True(t, truncated)
	v := requireFits(t, s, 4096).([]any)
	require.Less(t, len(v), 500)
	last := v[len(v)-1].(map[string]any)["parts"].([]any)[0].(map[string]any)["content"]
	require.Equal(t, "message 499", last, "the newest message is kept")
	require.Equal(t, fmt.Sprintf("message %03d", 500-len(v)), v[0].(map[string]any)["parts"].([]any)[0].(map[string]any)["content"])
}

func TestTruncationShortensNestedArraysLast(t *testing.T) {
	var parts []any
	for i := range 2000 {
		parts = append(parts, textPart(fmt.Sprintf("part %d", i)))
	}
	out := OutputMessages("assistant", nil, "stop", Options{})
	out[0].(Object)[1].Value = parts
	s, truncated := Encode(out, 2048)
	require.True(t, truncated)
	v := requireFits(t, s, 2048).([]any)[0].(map[string]any)
	require.Equal(t, "assistant", v["role"])
	require.Equal(t, "stop", v["finish_reason"])
	got := v["parts"].([]any)
	require.NotEmpty(t, got)
	require.Equal(t, "part 0", got[0].(map[string]any)["content"], "the first parts are kept")

	s, truncated = Encode([]any{strings.Repeat("x", 10)}, 1)
	require.True(t, truncated)
	require.Equal(t, "[]", s, "the last resort is still valid JSON")
}

// TestEncodeRandomTrees: for random trees and limits, the output is valid
// JSON within the limit, size agrees with what is written, and an
// untruncated output is the tree itself.
func TestEncodeRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		v := randomTree(rng, 0)
		full := string(appendValue(nil, v, whole, 0))
		require.Equal(t, len(full), size(v, whole, 0))
		var want any
		require.NoError(t, json.Unmarshal([]byte(full), &want), full)
		for _, limit := range []int{64, 512, 4096, 1 << 20} {
			s, truncated := Encode(v, limit)
			require.True(t, json.Valid([]byte(s)), "tree %d limit %d: %s", i, limit, s)
			require.LessOrEqual(t, len(s), limit, "tree %d", i)
			require.Equal(t, len(full) > limit, truncated)
			if !truncated {
				require.Equal(t, full, s)
			}
		}
		for _, sh := range []shape{{cut: 70, keep: -1}, {cut: 64, keep: 1}, {cut: 100, keep: 0}} {
			require.Equal(t, len(appendValue(nil, v, sh, 0)), size(v, sh, 0))
		}
	}
}

func randomTree(rng *rand.Rand, depth int) any {
	switch k := rng.IntN(7); {
	case depth > 4 || k == 0:
		return randomString(rng)
	case k == 1:
		return json.Number(fmt.Sprint(rng.IntN(1e6)))
	case k == 2:
		return rng.IntN(2) == 0
	case k == 3:
		return nil
	case k == 4:
		o := Object{}
		for j := range rng.IntN(6) {
			o = append(o, Member{Key: fmt.Sprintf("k%d\"%s", j, randomString(rng)[:0]), Value: randomTree(rng, depth+1)})
		}
		return o
	default:
		a := []any{}
		for range rng.IntN(8) {
			a = append(a, randomTree(rng, depth+1))
		}
		return a
	}
}

func randomString(rng *rand.Rand) string {
	alphabet := []string{"a", "é", "日", "\n", "\"", "\\", "\x01", "😀", " ", "\xff"}
	var b strings.Builder
	for range rng.IntN(400) {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

func TestLimitFromEnvironment(t *testing.T) {
	require.Equal(t, DefaultLimit, limitFrom("", ""))
	require.Equal(t, 4096, limitFrom("4096", ""))
	require.Equal(t, 8000, limitFrom("", "8000"))
	require.Equal(t, 4096, limitFrom("4096", "8000"), "the span limit wins")
	require.Equal(t, DefaultLimit, limitFrom("1000000", ""), "never above the default")
	require.Equal(t, minLimit, limitFrom("10", ""))
	require.Equal(t, DefaultLimit, limitFrom("nope", ""))
}

func TestParse(t *testing.T) {
	_, err := Parse([]byte(`{"a":1} {}`))
	require.Error(t, err)
	_, err = Parse([]byte(`{"a":`))
	require.Error(t, err)
	o := parse(t, `{"type":"text","text":"x"}`).(Object)
	require.True(t, o.Has("text"))
	require.False(t, o.Has("nope"))
	require.Equal(t, "x", o.String("text"))
	require.Nil(t, o.Get("nope"))
}

// TestRepeatedKeys: a member that repeats counts with its last value, as
// encoding/json (and the API) reads it; a vendor part keeps every member.
func TestRepeatedKeys(t *testing.T) {
	o := parse(t, `{"type":"text","text":"first","text":"last"}`).(Object)
	require.Equal(t, "last", o.String("text"))
	p, _ := BlockPart(o, Options{})
	require.Equal(t, `{"type":"text","content":"last"}`, encode(t, p))
	p, _ = BlockPart(parse(t, `{"type":"image","type":"document","n":1,"n":2}`).(Object), Options{})
	require.Equal(t, `{"type":"vendor_document","n":1,"n":2}`, encode(t, p))
}
