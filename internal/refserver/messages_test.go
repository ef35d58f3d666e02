package refserver_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// POST /v1/messages (docs/messages-wire.md 4, 8.3, 10): the fake model's
// output, usage, the prompt cache, tools, thinking and fallback.

var testThinkingKey = []byte("test-thinking-key")

// signature is the thinking signature of docs/messages-wire.md 10.10,
// computed independently.
func signature(key []byte, model, text string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(model + "\x00" + text))
	buf := binary.BigEndian.AppendUint32(nil, uint32(len(text)))
	buf = append(buf, text...)
	return base64.StdEncoding.EncodeToString(mac.Sum(buf))
}

// weatherRequest is the request of docs/messages-wire.md 2.8, without
// stream.
const weatherRequest = `{"model":"vendor-sonnet-5-5","max_tokens":4096,` +
	`"system":[{"type":"text","text":"You are a weather assistant.","cache_control":{"type":"ephemeral","ttl":"1h"}}],` +
	`"messages":[{"role":"user","content":"What is the weather in Paris? Use get_weather {\"location\": \"Paris\"}"}],` +
	`"tools":[{"name":"get_weather","description":"Get the current weather","input_schema":{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}}],` +
	`"tool_choice":{"type":"auto"},"thinking":{"type":"enabled","budget_tokens":2048},"output_config":{"effort":"medium"},` +
	`"service_tier":"auto","metadata":{"user_id":"13803d75-b4b5-4c3e-b2a2-6f21399b021b"}}`

func TestMessagesPlainTextExact(t *testing.T) {
	e := newEnv(t)
	r := e.do(t, "POST", "/v1/messages", `{"model":"vendor-sonnet-5-5","max_tokens":1024,"messages":[{"role":"user","content":"Hello there"}]}`)
	want := `{"id":"msg_010000000000000000000001","type":"message","role":"assistant","model":"vendor-sonnet-5-5",` +
		`"content":[{"type":"text","text":"You said: Hello there","citations":null}],"stop_reason":"end_turn","stop_sequence":null,` +
		`"stop_details":null,"container":null,"diagnostics":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,` +
		`"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":6,"output_tokens_details":null,` +
		`"server_tool_use":null,"service_tier":"standard","inference_geo":"global","speed":"standard"}}`
	if r.status != 200 || string(r.body) != want {
		t.Fatalf("status %d\n got %s\nwant %s", r.status, r.body, want)
	}
	if !requestIDPattern.MatchString(r.header.Get("request-id")) || r.header.Get("vendor-workspace-id") != e.seed.DefaultWorkspaceID {
		t.Fatalf("headers %v", r.header)
	}
}

func TestMessagesThinkingToolAndCache(t *testing.T) {
	e := newEnv(t, refserver.WithThinkingKey(testThinkingKey))
	m := e.message(t, weatherRequest)
	thinking := "The user asked: What is the weather in Paris? Use get_weather {\"location\": \"Paris\"}"
	content := contentOf(m)
	if len(content) != 3 || content[0]["thinking"] != thinking || content[0]["signature"] != signature(testThinkingKey, sonnet, thinking) ||
		content[1]["text"] != "I'll use get_weather." || content[2]["type"] != "tool_use" || content[2]["name"] != "get_weather" ||
		mustMarshal(content[2]["input"]) != `{"location":"Paris"}` || mustMarshal(content[2]["caller"]) != `{"type":"direct"}` ||
		!strings.HasPrefix(content[2]["id"].(string), "toolu_01") || len(content[2]["id"].(string)) != 30 {
		t.Fatalf("content %s", mustMarshal(content))
	}
	if m["stop_reason"] != "tool_use" {
		t.Fatalf("stop_reason %v", m["stop_reason"])
	}
	wantUsage := `{"cache_creation":{"ephemeral_1h_input_tokens":51,"ephemeral_5m_input_tokens":0},"cache_creation_input_tokens":51,` +
		`"cache_read_input_tokens":0,"inference_geo":"global","input_tokens":21,"output_tokens":35,"output_tokens_details":{"thinking_tokens":21},` +
		`"server_tool_use":null,"service_tier":"standard","speed":"standard"}`
	if got := mustMarshal(usageOf(m)); got != wantUsage {
		t.Fatalf("usage %s\nwant %s", got, wantUsage)
	}
	// Within the hour the prefix is read, and everything else is identical.
	e.clock.Advance(59 * time.Minute)
	again := e.message(t, weatherRequest)
	if u := usageOf(again); num(u["input_tokens"]) != 21 || num(u["cache_read_input_tokens"]) != 51 || num(u["cache_creation_input_tokens"]) != 0 ||
		mustMarshal(u["cache_creation"]) != `{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0}` {
		t.Fatalf("second usage %v", u)
	}
	if mustMarshal(again["content"]) != mustMarshal(m["content"]) {
		t.Fatal("the second answer differs")
	}

	// The next turn: the content sent back as received, and the result.
	id := content[2]["id"].(string)
	next := strings.Replace(weatherRequest, `"}],"tools"`, `"},{"role":"assistant","content":`+mustMarshal(m["content"])+
		`},{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+id+`","content":"15 degrees, sunny"}]}],"tools"`, 1)
	reply := e.message(t, next)
	rc := contentOf(reply)
	if reply["stop_reason"] != "end_turn" || len(rc) != 2 || rc[0]["thinking"] != "The tool returned a result." ||
		rc[1]["text"] != "Result of get_weather: 15 degrees, sunny" {
		t.Fatalf("next turn %s", mustMarshal(reply))
	}

	// A tampered thinking text or signature fails.
	tampered := strings.Replace(next, `"thinking":"The user asked:`, `"thinking":"The user said:`, 1)
	wantInvalid(t, e.do(t, "POST", "/v1/messages", tampered), "messages.1.content.0: Invalid `signature` in `thinking` block")
	otherKey := newEnv(t) // a different server key
	wantInvalid(t, otherKey.do(t, "POST", "/v1/messages", next), "messages.1.content.0: Invalid `signature` in `thinking` block")
}

func TestMessagesThinkingVariants(t *testing.T) {
	e := newEnv(t, refserver.WithThinkingKey(testThinkingKey))
	// display omitted: "" thinking, a valid signature, tokens still counted;
	// the block round-trips.
	m := e.message(t, `{"model":"vendor-sonnet-5-5","max_tokens":2048,"thinking":{"type":"enabled","budget_tokens":1024,"display":"omitted"},`+
		`"messages":[{"role":"user","content":"Hello there"}]}`)
	c := contentOf(m)
	full := "The user asked: Hello there"
	if c[0]["thinking"] != "" || c[0]["signature"] != signature(testThinkingKey, sonnet, full) ||
		num(usageOf(m)["output_tokens"]) != tokOf(full)+6 || mustMarshal(usageOf(m)["output_tokens_details"]) != `{"thinking_tokens":7}` {
		t.Fatalf("omitted: %s", mustMarshal(m))
	}
	back := `{"model":"vendor-sonnet-5-5","max_tokens":2048,"thinking":{"type":"enabled","budget_tokens":1024},"messages":[` +
		`{"role":"user","content":"Hello there"},{"role":"assistant","content":` + mustMarshal(m["content"]) + `},{"role":"user","content":"Again"}]}`
	wantOK(t, e.do(t, "POST", "/v1/messages", back))

	// Adaptive thinks, except at low effort; details are an object either way.
	m = e.message(t, msgReq(opus, "Hi", `"thinking":{"type":"adaptive"}`))
	if contentOf(m)[0]["type"] != "thinking" {
		t.Fatalf("adaptive: %s", mustMarshal(m))
	}
	m = e.message(t, msgReq(opus, "Hi", `"thinking":{"type":"adaptive"},"output_config":{"effort":"low"}`))
	if len(contentOf(m)) != 1 || mustMarshal(usageOf(m)["output_tokens_details"]) != `{"thinking_tokens":0}` {
		t.Fatalf("adaptive low: %s", mustMarshal(m))
	}
	// redact adds a redacted_thinking block: base64 of sha256(thinking).
	m = e.message(t, msgReq(opus, "Hi [[refserver:redact]]", `"thinking":{"type":"adaptive"}`))
	sum := sha256.Sum256([]byte("The user asked: Hi"))
	if c := contentOf(m); c[1]["type"] != "redacted_thinking" || c[1]["data"] != base64.StdEncoding.EncodeToString(sum[:]) {
		t.Fatalf("redact: %s", mustMarshal(m))
	}
	// A thinking block after a fallback block is signed by the fallback model.
	text := "The user asked: x"
	hist := `{"model":"vendor-opus-5-5","max_tokens":1024,"messages":[{"role":"user","content":"x"},{"role":"assistant","content":[` +
		`{"type":"fallback","from":{"model":"vendor-opus-5-5"},"to":{"model":"vendor-sonnet-5-5"}},` +
		`{"type":"thinking","thinking":"` + text + `","signature":"` + signature(testThinkingKey, sonnet, text) + `"},{"type":"text","text":"ok"}]},` +
		`{"role":"user","content":"y"}]}`
	wantOK(t, e.do(t, "POST", "/v1/messages", hist, fallbackBeta))
	wantInvalid(t, e.do(t, "POST", "/v1/messages", strings.Replace(hist, `"to":{"model":"vendor-sonnet-5-5"}`, `"to":{"model":"vendor-haiku-5-5"}`, 1), fallbackBeta),
		"messages.1.content.1: Invalid `signature` in `thinking` block")
}

func tokOf(s string) int { return (len([]rune(s)) + 3) / 4 }

func TestMessagesStopReasons(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, body, stop, text string
		stopSeq                any
		output                 int
	}{
		{"end_turn", msgReq(sonnet, "Hello there", ""), "end_turn", "You said: Hello there", nil, 6},
		{"max_tokens", strings.Replace(msgReq(sonnet, "Hello there", ""), `"max_tokens":1024`, `"max_tokens":2`, 1), "max_tokens", "You said", nil, 2},
		{"stop_sequence", msgReq(sonnet, "Hello there", `"stop_sequences":["there","Hello"]`), "stop_sequence", "You said: ", "Hello", 3},
		{"tie goes to the first listed", msgReq(sonnet, "Hello there", `"stop_sequences":["He","Hello"]`), "stop_sequence", "You said: ", "He", 3},
		{"pause_turn", msgReq(sonnet, "Hello there [[refserver:stop_reason pause_turn]]", ""), "pause_turn", "You said: Hello there", nil, 6},
		{"forced unknown", msgReq(sonnet, "Hi [[refserver:stop_reason brand_new]]", ""), "brand_new", "You said: Hi", nil, 3},
		{"say", msgReq(sonnet, "[[refserver:say  Exactly  this]] ignored", ""), "end_turn", " Exactly  this", nil, 4},
		{"you said nothing", msgReq(sonnet, "[[refserver:delay 0]]", ""), "end_turn", "You said nothing.", nil, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := e.message(t, c.body)
			if m["stop_reason"] != c.stop || m["stop_sequence"] != c.stopSeq || contentOf(m)[0]["text"] != c.text || num(usageOf(m)["output_tokens"]) != c.output {
				t.Fatalf("%s", mustMarshal(m))
			}
		})
	}
	// A stop sequence that empties the first text block drops it and all after.
	m := e.message(t, msgReq(sonnet, "Use get_time", `"tools":[`+timeTool+`],"stop_sequences":["I'll"]`))
	if m["stop_reason"] != "stop_sequence" || len(contentOf(m)) != 0 || num(usageOf(m)["output_tokens"]) != 0 {
		t.Fatalf("emptied: %s", mustMarshal(m))
	}
	// max_tokens 0 only fills the cache.
	m = e.message(t, strings.Replace(msgReq(sonnet, "Hi", `"cache_control":{"type":"ephemeral"}`), `"max_tokens":1024`, `"max_tokens":0`, 1))
	if m["stop_reason"] != "max_tokens" || len(contentOf(m)) != 0 || num(usageOf(m)["output_tokens"]) != 0 || num(usageOf(m)["cache_creation_input_tokens"]) != 8 {
		t.Fatalf("max_tokens 0: %s", mustMarshal(m))
	}
	m = e.message(t, msgReq(sonnet, "Hi", `"cache_control":{"type":"ephemeral"}`))
	if num(usageOf(m)["cache_read_input_tokens"]) != 8 || num(usageOf(m)["input_tokens"]) != 0 {
		t.Fatalf("after pre-warming: %v", usageOf(m))
	}
	// The context window: T = 3 + 4 + 199,990 leaves 3 tokens.
	m = e.message(t, msgReq(haiku, strings.Repeat("a", 799_960), ""))
	if m["stop_reason"] != "model_context_window_exceeded" || num(usageOf(m)["output_tokens"]) != 3 || contentOf(m)[0]["text"] != "You said: aa" {
		t.Fatalf("context window: %v %v", m["stop_reason"], usageOf(m))
	}
	// A refusal (10.9) with and without a category.
	m = e.message(t, msgReq(opus, "Hello there [[refserver:refuse cyber]]", ""))
	want := `{"category":"cyber","explanation":"This request was declined because it could enable cyber harm.","type":"refusal"}`
	if m["stop_reason"] != "refusal" || len(contentOf(m)) != 0 || mustMarshal(m["stop_details"]) != want || num(usageOf(m)["input_tokens"]) != 17 {
		t.Fatalf("refusal: %s", mustMarshal(m))
	}
	m = e.message(t, msgReq(opus, "x [[refserver:refuse]]", ""))
	if mustMarshal(m["stop_details"]) != `{"category":null,"explanation":null,"type":"refusal"}` {
		t.Fatalf("refusal none: %s", mustMarshal(m))
	}
	// Prefill: the text continues the final assistant message.
	m = e.message(t, withMessages(`{"role":"user","content":"Hello there"},{"role":"assistant","content":"You said:"}`))
	if contentOf(m)[0]["text"] != " Hello there" {
		t.Fatalf("prefill: %s", mustMarshal(m))
	}
}

func TestMessagesToolUse(t *testing.T) {
	e := newEnv(t)
	const weather = `{"name":"get_weather","input_schema":{"type":"object","properties":{"unit":{"enum":["c","f"]},"location":{"type":"string"},` +
		`"days":{"type":["null","integer"]},"opts":{"type":"object","properties":{"x":{"type":"boolean"}},"required":["x"]},"v":{"const":7}},` +
		`"required":["location","unit","opts","days","v"]}}`
	tools := `"tools":[` + weather + `,` + timeTool + `]`
	// Mentions in order; JSON after the name is the input; otherwise the
	// schema is synthesized in property order.
	m := e.message(t, msgReq(sonnet, `Call get_time {"tz": "UTC", "a": [1]} and get_weather`, tools))
	c := contentOf(m)
	if m["stop_reason"] != "tool_use" || c[0]["text"] != "I'll use get_time, get_weather." || c[1]["name"] != "get_time" || c[2]["name"] != "get_weather" {
		t.Fatalf("%s", mustMarshal(m))
	}
	raw := e.do(t, "POST", "/v1/messages", msgReq(sonnet, `Call get_time {"tz": "UTC", "a": [1]} and get_weather`, tools)).body
	if !strings.Contains(string(raw), `"input":{"tz":"UTC","a":[1]}`) ||
		!strings.Contains(string(raw), `"input":{"unit":"c","location":"example","days":0,"opts":{"x":false},"v":7}`) {
		t.Fatalf("inputs keep their order: %s", raw)
	}
	// Whole words only.
	m = e.message(t, msgReq(sonnet, "get_timer and my_get_time", tools))
	if m["stop_reason"] != "end_turn" {
		t.Fatalf("whole words: %s", mustMarshal(m))
	}
	// tool_choice: tool forces one tool without a preface; any calls the
	// first tool when none is mentioned; none calls nothing;
	// disable_parallel_tool_use keeps the first call.
	m = e.message(t, msgReq(sonnet, "Hi", tools+`,"tool_choice":{"type":"tool","name":"get_time"}`))
	if c := contentOf(m); len(c) != 1 || c[0]["name"] != "get_time" || mustMarshal(c[0]["input"]) != `{}` {
		t.Fatalf("forced: %s", mustMarshal(m))
	}
	m = e.message(t, msgReq(sonnet, "Hi", tools+`,"tool_choice":{"type":"any"}`))
	if c := contentOf(m); len(c) != 1 || c[0]["name"] != "get_weather" {
		t.Fatalf("any: %s", mustMarshal(m))
	}
	m = e.message(t, msgReq(sonnet, "get_time", tools+`,"tool_choice":{"type":"none"}`))
	if m["stop_reason"] != "end_turn" || contentOf(m)[0]["text"] != "You said: get_time" {
		t.Fatalf("none: %s", mustMarshal(m))
	}
	m = e.message(t, msgReq(sonnet, "get_weather get_time", tools+`,"tool_choice":{"type":"auto","disable_parallel_tool_use":true}`))
	if c := contentOf(m); len(c) != 2 || c[1]["name"] != "get_weather" || c[0]["text"] != "I'll use get_weather." {
		t.Fatalf("no parallel: %s", mustMarshal(m))
	}
	// The same request gives the same tool ids (they are derived from it).
	a := contentOf(e.message(t, msgReq(sonnet, "get_time", tools)))[1]["id"]
	b := contentOf(e.message(t, msgReq(sonnet, "get_time", tools)))[1]["id"]
	d := contentOf(e.message(t, msgReq(sonnet, "get_time now", tools)))[1]["id"]
	if a != b || a == d {
		t.Fatalf("ids %v %v %v", a, b, d)
	}
	// Client built-in tools are called with {} (or the JSON after them).
	m = e.message(t, msgReq(sonnet, "run bash", `"tools":[{"type":"bash_20250124","name":"bash"}]`))
	if c := contentOf(m); c[1]["name"] != "bash" || mustMarshal(c[1]["input"]) != `{}` {
		t.Fatalf("bash: %s", mustMarshal(m))
	}
	// Tool errors come back as such.
	m = e.message(t, withMessages(`{"role":"user","content":"x"},`+toolUseAt+`,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":[{"type":"text","text":"boom"},{"type":"image","source":{"type":"url","url":"https://i"}}]}]}`, `"tools":[`+timeTool+`]`))
	if contentOf(m)[0]["text"] != "Error from get_time: boom\n[image]" {
		t.Fatalf("error result: %s", mustMarshal(m))
	}
}

func TestMessagesServerTools(t *testing.T) {
	e := newEnv(t)
	m := e.message(t, msgReq(sonnet, "web_search go 1.26 release notes", `"tools":[{"type":"web_search_20250305","name":"web_search"}]`))
	c := contentOf(m)
	if len(c) != 4 || c[1]["type"] != "server_tool_use" || mustMarshal(c[1]["input"]) != `{"query":"go 1.26 release notes"}` ||
		c[3]["text"] != "I found 2 results for go 1.26 release notes." || m["stop_reason"] != "end_turn" {
		t.Fatalf("%s", mustMarshal(m))
	}
	results := c[2]["content"].([]any)
	first := results[0].(map[string]any)
	if c[2]["tool_use_id"] != c[1]["id"] || len(results) != 2 || first["url"] != "https://example.com/search/1?q=go+1.26+release+notes" ||
		first["encrypted_content"] != "Z28gMS4yNiByZWxlYXNlIG5vdGVzIzE=" || first["title"] != "Result 1 for go 1.26 release notes" || first["page_age"] != nil {
		t.Fatalf("results %s", mustMarshal(c[2]))
	}
	if mustMarshal(usageOf(m)["server_tool_use"]) != `{"web_fetch_requests":0,"web_search_requests":1}` {
		t.Fatalf("usage %v", usageOf(m))
	}
	// A declared but unused server tool reports zeros.
	m = e.message(t, msgReq(sonnet, "Hi", `"tools":[{"type":"web_fetch_20250910","name":"web_fetch"}]`))
	if mustMarshal(usageOf(m)["server_tool_use"]) != `{"web_fetch_requests":0,"web_search_requests":0}` {
		t.Fatalf("declared: %v", usageOf(m))
	}
	// max_uses counts the searches of the turn being continued.
	paused := withMessages(`{"role":"user","content":"web_search cats"},{"role":"assistant","content":[{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"cats"}},`+
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}]}`, `"tools":[{"type":"web_search_20250305","name":"web_search","max_uses":1}]`)
	m = e.message(t, paused)
	if c := contentOf(m); !strings.Contains(mustMarshal(c[2]), `"error_code":"max_uses_exceeded"`) || num(usageOf(m)["server_tool_use"].(map[string]any)["web_search_requests"]) != 0 {
		t.Fatalf("max_uses: %s", mustMarshal(m))
	}

	// Code execution starts a container that later requests can reuse.
	m = e.message(t, msgReq(sonnet, "code_execution print(2+2)", `"tools":[{"type":"code_execution_20250522","name":"code_execution"}]`))
	c = contentOf(m)
	want := `{"content":{"content":[],"return_code":0,"stderr":"","stdout":"print(2+2)\n","type":"code_execution_result"},"tool_use_id":"` + c[1]["id"].(string) + `","type":"code_execution_tool_result"}`
	if mustMarshal(c[1]["input"]) != `{"code":"print(2+2)"}` || mustMarshal(c[2]) != want || c[3]["text"] != "The code ran with exit code 0." {
		t.Fatalf("code: %s", mustMarshal(m))
	}
	container := m["container"].(map[string]any)
	if !strings.HasPrefix(container["id"].(string), "container_01") || container["expires_at"] != "2026-11-25T22:56:21.123456Z" {
		t.Fatalf("container %v", container)
	}
	reuse := msgReq(sonnet, "code_execution ls", `"tools":[{"type":"code_execution_20250825","name":"code_execution"}],"container":"`+container["id"].(string)+`"`)
	m = e.message(t, reuse)
	if c := contentOf(m); c[1]["name"] != "bash_code_execution" || mustMarshal(c[1]["input"]) != `{"command":"ls"}` ||
		c[2]["type"] != "bash_code_execution_tool_result" || m["container"].(map[string]any)["id"] != container["id"] {
		t.Fatalf("bash: %s", mustMarshal(m))
	}
	e.clock.Advance(61 * time.Minute)
	wantInvalid(t, e.do(t, "POST", "/v1/messages", reuse), "container: container `"+container["id"].(string)+"` not found or expired")

	// MCP tools by mention, unless their toolset disables them.
	mcp := `"mcp_servers":[{"type":"url","url":"https://m.example","name":"docs","authorization_token":"secret"}],` +
		`"tools":[{"type":"mcp_toolset","mcp_server_name":"docs","configs":{"drop":{"enabled":false}}}]`
	m = e.message(t, msgReq(sonnet, `Try mcp:docs/echo {"param1": "value1"} and mcp:docs/drop`, mcp), mcpBeta)
	c = contentOf(m)
	if len(c) != 4 || c[1]["type"] != "mcp_tool_use" || c[1]["server_name"] != "docs" || mustMarshal(c[1]["input"]) != `{"param1":"value1"}` ||
		mustMarshal(c[2]) != `{"content":[{"text":"echo ok","type":"text"}],"is_error":false,"tool_use_id":"`+c[1]["id"].(string)+`","type":"mcp_tool_result"}` ||
		c[3]["text"] != "echo returned: echo ok" || !strings.HasPrefix(c[1]["id"].(string), "mcptoolu_01") {
		t.Fatalf("mcp: %s", mustMarshal(m))
	}
	for _, rec := range e.srv.Requests() {
		if strings.Contains(string(rec.Body), "secret") {
			t.Fatal("the MCP authorization token reached the request log")
		}
	}
}

func TestMessagesCitationsAndFormat(t *testing.T) {
	e := newEnv(t)
	doc := `{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Quarterly revenue rose 12%. Costs were flat."},` +
		`"title":"Q3 memo","context":"Internal","citations":{"enabled":true}},{"type":"text","text":"Summarize"}]}`
	m := e.message(t, withMessages(doc))
	want := `[{"citations":null,"text":"The document says: ","type":"text"},{"citations":[{"cited_text":"Quarterly revenue rose 12%.","document_index":0,` +
		`"document_title":"Q3 memo","end_char_index":27,"file_id":null,"start_char_index":0,"type":"char_location"}],"text":"Quarterly revenue rose 12%.","type":"text"}]`
	if mustMarshal(m["content"]) != want {
		t.Fatalf("citations %s", mustMarshal(m["content"]))
	}
	// T: 3 + 4 + tok(data)=11 + tok(title)=2 + tok(context)=2 + tok("Summarize")=3.
	if num(usageOf(m)["input_tokens"]) != 25 {
		t.Fatalf("usage %v", usageOf(m))
	}
	content := `{"role":"user","content":[{"type":"document","source":{"type":"content","content":[{"type":"text","text":"First! Second."}]},"citations":{"enabled":true}}]}`
	m = e.message(t, withMessages(content))
	if !strings.Contains(mustMarshal(m["content"]), `"cited_text":"First!","document_index":0,"document_title":null,"end_block_index":1,"file_id":null,"start_block_index":0,"type":"content_block_location"`) {
		t.Fatalf("content source %s", mustMarshal(m["content"]))
	}
	// JSON output: canon(synth(schema)).
	m = e.message(t, base(`"output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"string"}},"required":["b","a"]}}}`))
	if contentOf(m)[0]["text"] != `{"a":"example","b":0}` {
		t.Fatalf("format %s", mustMarshal(m))
	}
}

func TestMessagesPromptCache(t *testing.T) {
	e := newEnv(t)
	body := `{"model":"vendor-sonnet-5-5","max_tokens":1024,"system":[{"type":"text","text":"aaaa aaaa","cache_control":{"type":"ephemeral","ttl":"1h"}}],` +
		`"messages":[{"role":"user","content":[{"type":"text","text":"bbbb bbbb bbbb","cache_control":{"type":"ephemeral"}},{"type":"text","text":"cc"}]}]}`
	// T = 3 + tok(system)=3 + 4 + 4 + 1 = 15; P(system) = 6, P(message block) = 14.
	usage := func() string {
		u := usageOf(e.message(t, body))
		return mustMarshal([]any{u["input_tokens"], u["cache_creation_input_tokens"], u["cache_read_input_tokens"], u["cache_creation"]})
	}
	if got := usage(); got != `[1,14,0,{"ephemeral_1h_input_tokens":6,"ephemeral_5m_input_tokens":8}]` {
		t.Fatalf("first %s", got)
	}
	if got := usage(); got != `[1,0,14,{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0}]` {
		t.Fatalf("second %s", got)
	}
	e.clock.Advance(6 * time.Minute) // the 5-minute entry expired, the hour one holds
	if got := usage(); got != `[1,8,6,{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":8}]` {
		t.Fatalf("after 6 minutes %s", got)
	}
	// Each model, and each workspace, has its own cache; count_tokens
	// neither reads nor writes it.
	if u := usageOf(e.message(t, strings.Replace(body, sonnet, opus, 1))); num(u["cache_read_input_tokens"]) != 0 {
		t.Fatalf("other model %v", u)
	}
	counted := wantOK(t, e.do(t, "POST", "/v1/messages/count_tokens", strings.Replace(body, `"max_tokens":1024,`, "", 1)))
	if num(counted["input_tokens"]) != 15 {
		t.Fatalf("count %v", counted)
	}
	// The top-level cache_control marks the last block of the last message.
	top := msgReq(haiku, "Hello there", `"cache_control":{"type":"ephemeral"}`)
	if u := usageOf(e.message(t, top)); num(u["cache_creation_input_tokens"]) != 10 || num(u["input_tokens"]) != 0 {
		t.Fatalf("top-level %v", u)
	}
}

func TestMessagesFallback(t *testing.T) {
	e := newEnv(t)
	m := e.message(t, msgReq(opus, "Hello there [[refserver:refuse cyber]]", `"fallbacks":"default"`), fallbackBeta)
	want := `[{"from":{"model":"vendor-opus-5-5"},"to":{"model":"vendor-sonnet-5-5"},"type":"fallback"},{"citations":null,"text":"You said: Hello there","type":"text"}]`
	iterations := `[{"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"input_tokens":17,"model":"vendor-opus-5-5","output_tokens":0,"type":"message"},` +
		`{"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"input_tokens":17,"model":"vendor-sonnet-5-5","output_tokens":6,"type":"fallback_message"}]`
	if m["model"] != sonnet || mustMarshal(m["content"]) != want || m["stop_details"] != nil || mustMarshal(usageOf(m)["iterations"]) != iterations ||
		num(usageOf(m)["output_tokens"]) != 6 {
		t.Fatalf("%s", mustMarshal(m))
	}
	// haiku has no fallback: the refusal stands, with recommended_model.
	m = e.message(t, msgReq(haiku, "Hi [[refserver:refuse cyber]]", `"fallbacks":"default"`), fallbackBeta)
	if m["stop_reason"] != "refusal" || !strings.Contains(mustMarshal(m["stop_details"]), `"recommended_model":null`) || len(usageOf(m)["iterations"].([]any)) != 1 {
		t.Fatalf("haiku: %s", mustMarshal(m))
	}
	// refuse all: every hop declines; the last refusal is returned.
	m = e.message(t, msgReq(opus, "Hi [[refserver:refuse bio all]]", `"fallbacks":"default"`), fallbackBeta)
	types := []string{}
	for _, it := range usageOf(m)["iterations"].([]any) {
		types = append(types, it.(map[string]any)["type"].(string))
	}
	if m["model"] != haiku || m["stop_reason"] != "refusal" || len(contentOf(m)) != 2 || mustMarshal(types) != `["message","message","fallback_message"]` {
		t.Fatalf("all: %s", mustMarshal(m))
	}
	// The list form, with per-attempt overrides, under either beta.
	m = e.message(t, msgReq(opus, "Hi [[refserver:refuse]]", `"fallbacks":[{"model":"vendor-haiku-5-5","max_tokens":2}]`),
		withHeader("vendor-beta", "server-side-fallback-2026-06-01"))
	if m["model"] != haiku || contentOf(m)[1]["text"] != "You said" || m["stop_reason"] != "max_tokens" {
		t.Fatalf("list: %s", mustMarshal(m))
	}
	// Without a refusal the requested model serves; iterations still show it.
	m = e.message(t, msgReq(opus, "Hi", `"fallbacks":"default"`), fallbackBeta)
	if m["model"] != opus || len(usageOf(m)["iterations"].([]any)) != 1 {
		t.Fatalf("no refusal: %s", mustMarshal(m))
	}
}

func TestMessagesDirectiveErrorsAndDelay(t *testing.T) {
	e := newEnv(t)
	for typ, status := range map[string]int{"overloaded_error": 529, "api_error": 500, "rate_limit_error": 429} {
		msg := map[string]string{"overloaded_error": "Overloaded", "api_error": "Internal server error", "rate_limit_error": "Rate limited"}[typ]
		wantError(t, e.do(t, "POST", "/v1/messages", msgReq(sonnet, "Hi [[refserver:error "+typ+"]]", "")), status, typ, msg)
		wantError(t, e.do(t, "POST", "/v1/messages", msgReq(sonnet, "Hi [[refserver:error "+typ+" after=2]]", "")), status, typ, msg)
		wantError(t, e.do(t, "POST", "/v1/messages/count_tokens", `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"[[refserver:error `+typ+`]]"}]}`), status, typ, msg)
		// A stream without after= fails before the 200.
		wantError(t, e.do(t, "POST", "/v1/messages", streamOf(msgReq(sonnet, "Hi [[refserver:error "+typ+"]]", ""))), status, typ, msg)
	}
	// A delay waits on the server clock: the request is not answered until
	// the clock has moved past it, whatever the real time spent.
	done := make(chan response, 1)
	go func() { done <- e.do(t, "POST", "/v1/messages", msgReq(sonnet, "Hi [[refserver:delay 2000]]", "")) }()
	waitClock := func(when string) {
		t.Helper()
		deadline := time.Now().Add(streamWait)
		for !e.srv.ClockWaitForTest() {
			select {
			case r := <-done:
				t.Fatalf("answered %s: %s", when, r.body)
			case <-time.After(time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the delay is not waiting on the clock", when)
			}
		}
	}
	waitClock("before the clock moved")
	e.clock.Advance(time.Second)
	waitClock("after 1 of 2 seconds")
	e.clock.Advance(time.Second)
	select {
	case r := <-done:
		wantOK(t, r)
	case <-time.After(streamWait):
		t.Fatal("no answer after the delay")
	}
}

func TestMessagesIdempotency(t *testing.T) {
	e := newEnv(t)
	key := withHeader("Idempotency-Key", "k1")
	first := e.do(t, "POST", "/v1/messages", base(""), key)
	again := e.do(t, "POST", "/v1/messages", base(""), key)
	if again.header.Get("idempotent-replayed") != "true" || string(again.body) != string(first.body) {
		t.Fatalf("not replayed: %s", again.header)
	}
	// Streams ignore the key: they run again and never conflict.
	skey := withHeader("Idempotency-Key", "k2")
	s1, r1 := e.stream(t, streamOf(base("")), skey)
	s2, r2 := e.stream(t, streamOf(base("")), skey)
	_, r3 := e.stream(t, streamOf(base(`"temperature":0.5`)), skey)
	if r2.header.Get("idempotent-replayed") != "" || r3.status != 200 || len(s1) != len(s2) || string(r1.body) == string(r2.body) {
		t.Fatalf("stream replayed or conflicted")
	}
}

func TestCountTokensMatchesCreate(t *testing.T) {
	e := newEnv(t)
	counts := func(create string, mods ...mod) {
		t.Helper()
		var req map[string]any
		must(t, json.Unmarshal([]byte(create), &req))
		for _, k := range []string{"max_tokens", "stream", "metadata", "service_tier", "stop_sequences"} {
			delete(req, k)
		}
		count := num(wantOK(t, e.do(t, "POST", "/v1/messages/count_tokens", mustMarshal(req), mods...))["input_tokens"])
		u := usageOf(e.message(t, create, mods...))
		if total := num(u["input_tokens"]) + num(u["cache_creation_input_tokens"]) + num(u["cache_read_input_tokens"]); total != count {
			t.Fatalf("count %d, create %d for %s", count, total, create)
		}
	}
	counts(weatherRequest)
	if n := num(wantOK(t, e.do(t, "POST", "/v1/messages/count_tokens", `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"Hello there"}]}`))["input_tokens"]); n != 10 {
		t.Fatalf("Hello there: %d", n)
	}
	counts(msgReq(opus, "Look [[refserver:say hi]]", `"system":"Be brief.","output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}}`))
	counts(withMessages(`{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://x"}},{"type":"search_result","source":"s","title":"t","content":[{"type":"text","text":"abc"}]}]},`+
		`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"get_time","input":{"b":1,"a":2}}]},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"noon"},{"type":"document","source":{"type":"url","url":"https://d"}}]}]}`,
		`"tools":[`+timeTool+`]`))
	counts(msgReq(sonnet, "mcp:docs/x", `"mcp_servers":[{"type":"url","url":"https://m.example","name":"docs","authorization_token":"t"}],"tools":[{"type":"mcp_toolset","mcp_server_name":"docs"}]`), mcpBeta)
	// Shapes: image 1000, search_result tok(s)+tok(t)+tok(abc), tool_use tok(name+canon(input)).
	n := num(wantOK(t, e.do(t, "POST", "/v1/messages/count_tokens", `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://x"}}]}]}`))["input_tokens"])
	if n != 1007 {
		t.Fatalf("image: %d", n)
	}
	r := e.do(t, "POST", "/v1/messages/count_tokens", `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"x"}]}`)
	if string(r.body) != `{"input_tokens":8}` || r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
}
