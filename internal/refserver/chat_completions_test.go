package refserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// POST /v1/chat/completions (docs/messages-wire.md 9).

const chatPath = "/v1/chat/completions"

// wantOpenAIError checks the OpenAI error shape (9.5).
func wantOpenAIError(t *testing.T, r response, status int, typ, message string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	want := `{"error":{"type":"` + typ + `","code":"` + typ + `","message":` + jsonString(message) + `,"param":null}}`
	if message == "" {
		if !strings.HasPrefix(string(r.body), `{"error":{"type":"`+typ+`","code":"`+typ+`","message":`) {
			t.Fatalf("body %s", r.body)
		}
	} else if string(r.body) != want {
		t.Fatalf("body %s\nwant %s", r.body, want)
	}
	if r.header.Get("openai-version") != "2020-10-01" || !requestIDPattern.MatchString(r.header.Get("request-id")) ||
		r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v", r.header)
	}
}

const chatHello = `{"model":"vendor-sonnet-5-5","messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Hello there"}]}`

func TestChatCompletionExact(t *testing.T) {
	e := newEnv(t)
	r := e.do(t, "POST", chatPath, chatHello, noWorkspace, withHeader("vendor-workspace-id", e.seed.DefaultWorkspaceID))
	want := `{"id":"msg_010000000000000000000001","object":"chat.completion","created":1795643781,"model":"vendor-sonnet-5-5",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":"You said: Hello there","refusal":null},"finish_reason":"stop","logprobs":null}],` +
		`"usage":{"prompt_tokens":14,"completion_tokens":6,"total_tokens":20,"prompt_tokens_details":null,"completion_tokens_details":null},` +
		`"service_tier":null,"system_fingerprint":null}`
	if r.status != 200 || string(r.body) != want || r.header.Get("openai-version") != "2020-10-01" {
		t.Fatalf("%d %v\n got %s\nwant %s", r.status, r.header, r.body, want)
	}
}

func TestChatCompletionStreamExact(t *testing.T) {
	e := newEnv(t)
	r := e.do(t, "POST", chatPath, strings.TrimSuffix(chatHello, "}")+`,"stream":true,"stream_options":{"include_usage":true}}`)
	head := `{"id":"msg_010000000000000000000001","object":"chat.completion.chunk","created":1795643781,"model":"vendor-sonnet-5-5","choices":`
	chunk := func(delta, finish string) string {
		return "data: " + head + `[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `,"logprobs":null}],"usage":null}` + "\n\n"
	}
	want := chunk(`{"role":"assistant","content":""}`, "null") + chunk(`{"content":"You"}`, "null") + chunk(`{"content":" said:"}`, "null") +
		chunk(`{"content":" Hello"}`, "null") + chunk(`{"content":" there"}`, "null") + chunk(`{}`, `"stop"`) +
		"data: " + head + `[],"usage":{"prompt_tokens":14,"completion_tokens":6,"total_tokens":20,"prompt_tokens_details":null,"completion_tokens_details":null}}` + "\n\n" +
		"data: [DONE]\n\n"
	if r.status != 200 || string(r.body) != want || r.header.Get("Content-Type") != "text/event-stream; charset=utf-8" {
		t.Fatalf("%d %v\n got %s\nwant %s", r.status, r.header, r.body, want)
	}
	// Without include_usage the chunks have no usage key.
	r = e.do(t, "POST", chatPath, strings.TrimSuffix(chatHello, "}")+`,"stream":true}`)
	frames := chatFrames(t, r.body)
	if strings.Contains(string(r.body), `"usage"`) || len(frames) != 7 || frames[6] != "[DONE]" {
		t.Fatalf("no usage: %s", r.body)
	}
}

func TestChatCompletionTools(t *testing.T) {
	e := newEnv(t)
	tools := `"tools":[{"type":"function","function":{"name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]},"strict":true}},` +
		`{"type":"function","function":{"name":"get_time"}}]`
	body := `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"get_weather {\"location\": \"Paris\"} and get_time"}],` + tools + `}`
	m := wantOK(t, e.do(t, "POST", chatPath, body))
	choice := m["choices"].([]any)[0].(map[string]any)
	msg := choice["message"].(map[string]any)
	calls := msg["tool_calls"].([]any)
	first := calls[0].(map[string]any)
	if choice["finish_reason"] != "tool_calls" || msg["content"] != "I'll use get_weather, get_time." || len(calls) != 2 ||
		first["type"] != "function" || mustMarshal(first["function"]) != `{"arguments":"{\"location\":\"Paris\"}","name":"get_weather"}` ||
		calls[1].(map[string]any)["function"].(map[string]any)["arguments"] != "{}" {
		t.Fatalf("%s", mustMarshal(m))
	}
	// The same calls, streamed: header chunk, then fragments; "{}" for no arguments.
	r := e.do(t, "POST", chatPath, strings.TrimSuffix(body, "}")+`,"stream":true}`)
	args := map[float64]string{}
	ids := map[float64]string{}
	finish := ""
	for _, f := range chatFrames(t, r.body) {
		if f == "[DONE]" {
			continue
		}
		ch := decodeJSON(t, f)
		c := ch["choices"].([]any)[0].(map[string]any)
		if fr, ok := c["finish_reason"].(string); ok {
			finish = fr
		}
		delta := c["delta"].(map[string]any)
		if tc, ok := delta["tool_calls"].([]any); ok {
			call := tc[0].(map[string]any)
			idx := call["index"].(float64)
			if id, ok := call["id"].(string); ok {
				ids[idx] = id
			}
			args[idx] += call["function"].(map[string]any)["arguments"].(string)
		}
	}
	if finish != "tool_calls" || args[0] != `{"location":"Paris"}` || args[1] != "{}" || ids[0] != first["id"] {
		t.Fatalf("streamed calls %v %v %s", args, ids, finish)
	}
	// Tool results come back as tool messages; consecutive ones merge.
	history := `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"x"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"Paris\"}"}},` +
		`{"id":"call_2","type":"function","function":{"name":"get_time","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"call_1","content":"15 degrees"},{"role":"tool","tool_call_id":"call_2","content":[{"type":"text","text":"noon"}]}],` + tools + `}`
	m = wantOK(t, e.do(t, "POST", chatPath, history))
	if got := m["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"]; got != "Result of get_weather: 15 degrees\nResult of get_time: noon" {
		t.Fatalf("results: %v", got)
	}
	// tool_choice and parallel_tool_calls map onto Messages.
	m = wantOK(t, e.do(t, "POST", chatPath, `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"hi"}],`+tools+`,"tool_choice":{"type":"function","function":{"name":"get_time"}}}`))
	if msg := m["choices"].([]any)[0].(map[string]any)["message"].(map[string]any); msg["content"] != nil || len(msg["tool_calls"].([]any)) != 1 {
		t.Fatalf("forced: %s", mustMarshal(m))
	}
	m = wantOK(t, e.do(t, "POST", chatPath, `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"get_time get_weather"}],`+tools+`,"tool_choice":"required","parallel_tool_calls":false}`))
	if calls := m["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["tool_calls"].([]any); len(calls) != 1 {
		t.Fatalf("not parallel: %s", mustMarshal(m))
	}
	// Deprecated functions work like tools.
	m = wantOK(t, e.do(t, "POST", chatPath, `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"lookup"}],"functions":[{"name":"lookup"}]}`))
	if m["choices"].([]any)[0].(map[string]any)["finish_reason"] != "tool_calls" {
		t.Fatalf("functions: %s", mustMarshal(m))
	}
}

func TestChatCompletionMapping(t *testing.T) {
	e := newEnv(t, refserver.WithThinkingKey(testThinkingKey))
	finish := func(body string) (string, map[string]any) {
		t.Helper()
		m := wantOK(t, e.do(t, "POST", chatPath, body))
		return m["choices"].([]any)[0].(map[string]any)["finish_reason"].(string), m
	}
	user := func(text, extra string) string {
		return `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":` + jsonString(text) + `}]` + extra + `}`
	}
	if f, m := finish(user("Hello there", `,"max_completion_tokens":2,"max_tokens":500`)); f != "length" ||
		mustMarshal(m["usage"]) != `{"completion_tokens":2,"completion_tokens_details":null,"prompt_tokens":10,"prompt_tokens_details":null,"total_tokens":12}` {
		t.Fatalf("length: %s", mustMarshal(m))
	}
	if f, m := finish(user("x [[refserver:refuse cyber]]", "")); f != "content_filter" || m["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"] != nil {
		t.Fatalf("refusal: %s", mustMarshal(m))
	}
	if f, _ := finish(user("Hello there", `,"stop":"there"`)); f != "stop" {
		t.Fatal("stop sequence")
	}
	if f, _ := finish(user("x [[refserver:stop_reason whatever]]", "")); f != "stop" {
		t.Fatal("unknown stop reason")
	}
	// Thinking is used (and counted) but not returned.
	_, m := finish(user("Hello there", `,"max_tokens":4000,"thinking":{"type":"enabled","budget_tokens":1024}`))
	if msg := m["choices"].([]any)[0].(map[string]any)["message"].(map[string]any); msg["content"] != "You said: Hello there" ||
		num(m["usage"].(map[string]any)["completion_tokens"]) != 6+7 {
		t.Fatalf("thinking: %s", mustMarshal(m))
	}
	// Unknown and ignored keys; developer messages hoisted anywhere; temperature capped; audio stripped; images mapped.
	_, m = finish(`{"model":"vendor-sonnet-5-5","seed":1,"logit_bias":{},"whatever":{"x":1},"temperature":1.7,"user":"u",` +
		`"messages":[{"role":"user","name":"bob","content":[{"type":"text","text":"Hello"},{"type":"input_audio","input_audio":{}},` +
		`{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo=","detail":"low"}}]},{"role":"developer","content":[{"type":"text","text":"Be kind."}]}]}`)
	if num(m["usage"].(map[string]any)["prompt_tokens"]) != 3+tokOf("Be kind.")+4+tokOf("Hello")+1000 {
		t.Fatalf("mapping: %s", mustMarshal(m))
	}
	// M1 and M4 give the same text and tokens for the same prompt.
	mm := e.message(t, `{"model":"vendor-sonnet-5-5","max_tokens":4096,"system":"You are terse.","messages":[{"role":"user","content":"Hello there"}]}`)
	_, m = finish(chatHello)
	if num(m["usage"].(map[string]any)["prompt_tokens"]) != num(usageOf(mm)["input_tokens"]) {
		t.Fatal("M1 and M4 disagree")
	}
}

func TestChatCompletionErrors(t *testing.T) {
	e := newEnv(t)
	cases := []struct{ name, body, message string }{
		{"n", `{"model":"vendor-sonnet-5-5","n":2,"messages":[{"role":"user","content":"x"}]}`, "n: must be 1"},
		{"function role", `{"model":"vendor-sonnet-5-5","messages":[{"role":"function","name":"f","content":"x"}]}`, "messages.0.role: unsupported role `function`"},
		{"unknown role", `{"model":"vendor-sonnet-5-5","messages":[{"role":"robot","content":"x"}]}`, "messages.0.role: Input should be 'system', 'developer', 'user', 'assistant' or 'tool'"},
		{"content part", `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":[{"type":"file","file":{}}]}]}`, "messages.0.content.0.type: unsupported content part `file`"},
		{"arguments", `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"[1]"}}]}]}`,
			"messages.1.tool_calls.0.function.arguments: must be a JSON object"},
		{"temperature", `{"model":"vendor-sonnet-5-5","temperature":2.5,"messages":[{"role":"user","content":"x"}]}`, "temperature: Input should be less than or equal to 2"},
		{"tool type", `{"model":"vendor-sonnet-5-5","tools":[{"type":"retrieval"}],"messages":[{"role":"user","content":"x"}]}`, "tools.0.type: Input should be 'function'"},
		{"messages rules", `{"model":"vendor-sonnet-5-5","messages":[{"role":"system","content":"s"},{"role":"user","content":""}]}`,
			"messages.0: all messages must have non-empty content except for the optional final assistant message"},
		{"missing messages", `{"model":"vendor-sonnet-5-5"}`, "messages: Field required"},
		{"bad JSON", `{`, "The request body is not valid JSON: unexpected end of JSON input"},
		{"tool pairing", `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"nope","content":"r"}]}`,
			"messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks: nope. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantOpenAIError(t, e.do(t, "POST", chatPath, c.body), http.StatusBadRequest, "invalid_request_error", c.message)
		})
	}
	wantOpenAIError(t, e.do(t, "POST", chatPath, `{"model":"vendor-nope","messages":[{"role":"user","content":"x"}]}`), 404, "not_found_error", "model: vendor-nope")
	wantOpenAIError(t, e.do(t, "POST", chatPath, chatHello, noAuth), 401, "authentication_error", "")
	wantOpenAIError(t, e.do(t, "POST", chatPath, chatHello, noWorkspace), 400, "invalid_request_error", "vendor-workspace-id header is required for an identity-linked key")
	wantOpenAIError(t, e.do(t, "GET", chatPath, ""), 405, "invalid_request_error", "method: must be POST")
	wantOpenAIError(t, e.do(t, "POST", chatPath, `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"x [[refserver:error overloaded_error]]"}]}`),
		529, "overloaded_error", "Overloaded")
	e.srv.InjectFault(refserver.Fault{Path: chatPath, Status: 529})
	wantOpenAIError(t, e.do(t, "POST", chatPath, chatHello), 529, "overloaded_error", "Overloaded (injected fault)")
	// vendor-beta is checked against the known beta values, then ignored.
	wantOpenAIError(t, e.do(t, "POST", chatPath, chatHello, withHeader("vendor-beta", "nope-1")), 400, "invalid_request_error", "vendor-beta: unknown beta value `nope-1`")
	wantOK(t, e.do(t, "POST", chatPath, chatHello, mcpBeta))

	// Mid-stream: one data error frame, no [DONE].
	r := e.do(t, "POST", chatPath, `{"model":"vendor-sonnet-5-5","stream":true,"messages":[{"role":"user","content":"Hello there [[refserver:error api_error after=2]]"}]}`)
	frames := chatFrames(t, r.body)
	if r.status != 200 || len(frames) != 3 || frames[2] != `{"error":{"type":"api_error","code":"api_error","message":"Internal server error","param":null}}` {
		t.Fatalf("mid-stream %d %q", r.status, frames)
	}
	e.srv.InjectFault(refserver.Fault{Path: chatPath, Status: 429, StreamCutAfter: 1})
	r = e.do(t, "POST", chatPath, strings.TrimSuffix(chatHello, "}")+`,"stream":true}`)
	frames = chatFrames(t, r.body)
	if len(frames) != 2 || frames[1] != `{"error":{"type":"rate_limit_error","code":"rate_limit_error","message":"Too Many Requests (injected fault)","param":null}}` {
		t.Fatalf("fault %q", frames)
	}
}

func TestChatCompletionStreamMatchesCompletion(t *testing.T) {
	for _, body := range []string{
		chatHello,
		`{"model":"vendor-opus-5-5","max_tokens":5,"messages":[{"role":"user","content":"Hello there my friend"}]}`,
		`{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"get_time {\"city\": \"東京\"}"}],"tools":[{"type":"function","function":{"name":"get_time"}}]}`,
	} {
		plain, streamed := newEnv(t), newEnv(t)
		want := wantOK(t, plain.do(t, "POST", chatPath, body))
		r := streamed.do(t, "POST", chatPath, strings.TrimSuffix(body, "}")+`,"stream":true,"stream_options":{"include_usage":true}}`)
		var content strings.Builder
		var usage any
		finish := ""
		for _, f := range chatFrames(t, r.body) {
			if f == "[DONE]" {
				continue
			}
			ch := decodeJSON(t, f)
			if ch["id"] != want["id"] || ch["model"] != want["model"] || ch["created"] != want["created"] {
				t.Fatalf("chunk header %v", ch)
			}
			if u := ch["usage"]; u != nil {
				usage = u
			}
			for _, c := range ch["choices"].([]any) {
				c := c.(map[string]any)
				if s, ok := c["delta"].(map[string]any)["content"].(string); ok {
					content.WriteString(s)
				}
				if fr, ok := c["finish_reason"].(string); ok {
					finish = fr
				}
			}
		}
		choice := want["choices"].([]any)[0].(map[string]any)
		wantText, _ := choice["message"].(map[string]any)["content"].(string)
		if content.String() != wantText || finish != choice["finish_reason"] || mustMarshal(usage) != mustMarshal(want["usage"]) {
			t.Fatalf("stream %q %s %s, completion %s", content.String(), finish, mustMarshal(usage), mustMarshal(want))
		}
	}
}
