package refserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Validation of /v1/messages and count_tokens (docs/messages-wire.md 1.5,
// 2, 3, 6, 8.3): every rule with its exact message.

const (
	hiMsg     = `"messages":[{"role":"user","content":"Hi"}]`
	toolUseAt = `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_time","input":{}}]}`
	timeTool  = `{"name":"get_time","input_schema":{"type":"object"}}`
)

// base is a valid create body with extra members appended.
func base(extra string) string {
	body := `{"model":"vendor-sonnet-5-5","max_tokens":1024,` + hiMsg
	if extra != "" {
		body += "," + extra
	}
	return body + "}"
}

// withMessages is a valid create body with the given messages.
func withMessages(messages string, extra ...string) string {
	body := `{"model":"vendor-sonnet-5-5","max_tokens":1024,"messages":[` + messages + `]`
	for _, x := range extra {
		body += "," + x
	}
	return body + "}"
}

const contentTagList = `'text', 'image', 'document', 'search_result', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking', ` +
	`'server_tool_use', 'web_search_tool_result', 'code_execution_tool_result', 'bash_code_execution_tool_result', ` +
	`'text_editor_code_execution_tool_result', 'web_fetch_tool_result', 'tool_search_tool_result', 'container_upload'`

const toolTagList = `'custom', 'web_search_20250305', 'web_search_20260209', 'web_search_20260318', 'code_execution_20250522', ` +
	`'code_execution_20250825', 'code_execution_20260120', 'code_execution_20260521', 'web_fetch_20250910', 'web_fetch_20260209', ` +
	`'web_fetch_20260309', 'web_fetch_20260318', 'tool_search_tool_regex_20251119', 'tool_search_tool_bm25_20251119', ` +
	`'tool_search_tool_regex', 'tool_search_tool_bm25', 'memory_20250818', 'bash_20250124', 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728', ` +
	`'browser_toolset_20260801', 'computer_toolset_20260801'`

type invalidCase struct {
	name, body, message string
	mods                []mod
}

func TestMessagesValidationMessages(t *testing.T) {
	e := newEnv(t)
	many := func(n int, item string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = strings.ReplaceAll(item, "#", strconv.Itoa(i))
		}
		return strings.Join(parts, ",")
	}
	cases := []invalidCase{
		// 1.5: JSON, unknown keys, required keys, types
		{"not JSON", `{"model":`, "The request body is not valid JSON: unexpected end of JSON input", nil},
		{"not an object", `[]`, "Input should be a valid dictionary", nil},
		{"model missing", `{"max_tokens":1,` + hiMsg + `}`, "model: Field required", nil},
		{"max_tokens missing", `{"model":"vendor-sonnet-5-5",` + hiMsg + `}`, "max_tokens: Field required", nil},
		{"messages missing", `{"model":"vendor-sonnet-5-5","max_tokens":1}`, "messages: Field required", nil},
		{"unknown key", base(`"response_format":{}`), "response_format: Extra inputs are not permitted", nil},
		{"model type", `{"model":5,"max_tokens":1,` + hiMsg + `}`, "model: Input should be a valid string", nil},
		{"max_tokens type", base(``)[:0] + `{"model":"vendor-sonnet-5-5","max_tokens":"5",` + hiMsg + `}`, "max_tokens: Input should be a valid integer", nil},
		{"max_tokens fraction", `{"model":"vendor-sonnet-5-5","max_tokens":1.5,` + hiMsg + `}`, "max_tokens: Input should be a valid integer, got a number with a fractional part", nil},
		{"max_tokens negative", `{"model":"vendor-sonnet-5-5","max_tokens":-1,` + hiMsg + `}`, "max_tokens: Input should be greater than or equal to 0", nil},
		{"max_tokens over the model", `{"model":"vendor-sonnet-5-5","max_tokens":64001,` + hiMsg + `}`,
			"max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for vendor-sonnet-5-5", nil},
		// 2.2 messages
		{"messages empty", `{"model":"vendor-sonnet-5-5","max_tokens":1,"messages":[]}`, "messages: List should have at least 1 item after validation, not 0", nil},
		{"messages type", `{"model":"vendor-sonnet-5-5","max_tokens":1,"messages":{}}`, "messages: Input should be a valid list", nil},
		{"role unknown", withMessages(`{"role":"developer","content":"x"}`), "messages.0.role: Input should be 'user', 'assistant' or 'system'", nil},
		{"content missing", withMessages(`{"role":"user"}`), "messages.0.content: Field required", nil},
		{"message extra key", withMessages(`{"role":"user","content":"x","name":"bob"}`), "messages.0.name: Extra inputs are not permitted", nil},
		{"empty string content", withMessages(`{"role":"user","content":""}`),
			"messages.0: all messages must have non-empty content except for the optional final assistant message", nil},
		{"empty list content", withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[]},{"role":"user","content":"y"}`),
			"messages.1: all messages must have non-empty content except for the optional final assistant message", nil},
		{"empty text block", withMessages(`{"role":"user","content":[{"type":"text","text":""}]}`), "messages: text content blocks must be non-empty", nil},
		{"trailing whitespace prefill", withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":"Sure "}`),
			"messages: final assistant content cannot end with trailing whitespace", nil},
		{"unknown block type", withMessages(`{"role":"user","content":[{"type":"video"}]}`),
			"messages.0.content.0: Input tag 'video' found using 'type' does not match any of the expected tags: " + contentTagList, nil},
		{"block without type", withMessages(`{"role":"user","content":[{"text":"x"}]}`), "messages.0.content.0: Unable to extract tag using discriminator 'type'", nil},
		{"text not a string", withMessages(`{"role":"user","content":[{"type":"text","text":5}]}`), "messages.0.content.0.text.text: Input should be a valid string", nil},
		{"block extra key", withMessages(`{"role":"user","content":[{"type":"text","text":"x","foo":1}]}`), "messages.0.content.0.text.foo: Extra inputs are not permitted", nil},
		{"image media type", withMessages(`{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/bmp","data":"AAAA"}}]}`),
			"messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'", nil},
		{"image data", withMessages(`{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"not base64!"}}]}`),
			"messages.0.content.0.image.source.base64.data: must be base64", nil},
		{"file source without beta", withMessages(`{"role":"user","content":[{"type":"image","source":{"type":"file","file_id":"file_1"}}]}`),
			"messages.0.content.0.image.source: Input tag 'file' found using 'type' does not match any of the expected tags: 'base64', 'url'", nil},
		{"image in assistant", withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"image","source":{"type":"url","url":"https://x"}}]}`),
			"messages.1.content.0: `image` blocks are not allowed in `assistant` messages", nil},
		{"tool_use in user", withMessages(`{"role":"user","content":[{"type":"tool_use","id":"toolu_1","name":"x","input":{}}]}`),
			"messages.0.content.0: `tool_use` blocks are not allowed in `user` messages", nil},
		{"tool_use id pattern", withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"a b","name":"x","input":{}}]}`),
			"messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'", nil},
		{"tool_use input type", withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":[]}]}`),
			"messages.1.content.0.tool_use.input: Input should be a valid dictionary", nil},
		{"tool_use without result", withMessages(`{"role":"user","content":"x"},`+toolUseAt+`,{"role":"user","content":"y"}`, `"tools":[`+timeTool+`]`),
			"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", nil},
		{"trailing tool_use", withMessages(`{"role":"user","content":"x"},` + toolUseAt),
			"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", nil},
		{"unexpected tool_result", withMessages(`{"role":"user","content":"x"},` + toolUseAt + `,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1"},{"type":"tool_result","tool_use_id":"toolu_9"}]}`),
			"messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", nil},
		{"tool_result first", withMessages(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1"}]}`),
			"messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", nil},
		{"bad signature", withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"AAAA"}]}`),
			"messages.1.content.0: Invalid `signature` in `thinking` block", nil},
		{"cache_control on thinking", withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"AAAA","cache_control":{"type":"ephemeral"}}]}`),
			"messages.1.content.0.thinking.cache_control: Extra inputs are not permitted", nil},
		{"unknown directive", msgReq(sonnet, "Hi [[refserver:bogus 1]]", ""), "messages.0.content: unknown refserver directive `bogus`", nil},
		{"unknown directive in a block", withMessages(`{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"[[refserver:nope]]"}]}`),
			"messages.0.content.1.text: unknown refserver directive `nope`", nil},
		{"bad directive arguments", msgReq(sonnet, "Hi [[refserver:error teapot_error]]", ""),
			"messages.0.content: invalid refserver directive `[[refserver:error teapot_error]]`", nil},
		{"delay past an hour", msgReq(sonnet, "Hi [[refserver:delay 3600001]]", ""),
			"messages.0.content: invalid refserver directive `[[refserver:delay 3600001]]`", nil},
		{"delay that overflows a duration", msgReq(sonnet, "Hi [[refserver:delay 9223372036854775]]", ""),
			"messages.0.content: invalid refserver directive `[[refserver:delay 9223372036854775]]`", nil},
		// 2.1 system, metadata, service tier, container
		{"empty system block", base(`"system":[{"type":"text","text":""}]`), "system: text content blocks must be non-empty", nil},
		{"system image", base(`"system":[{"type":"image"}]`), "system.0: Input tag 'image' found using 'type' does not match any of the expected tags: 'text'", nil},
		{"metadata extra key", base(`"metadata":{"user_id":"u","team":"x"}`), "metadata.team: Extra inputs are not permitted", nil},
		{"metadata user_id length", base(`"metadata":{"user_id":"` + strings.Repeat("u", 513) + `"}`), "metadata.user_id: String should have at most 512 characters", nil},
		{"service_tier", base(`"service_tier":"priority"`), "service_tier: Input should be 'auto' or 'standard_only'", nil},
		{"inference_geo value", base(`"inference_geo":"eu"`), "inference_geo: Input should be 'global' or 'us'", nil},
		{"unknown container", base(`"container":"container_nope"`), "container: container `container_nope` not found or expired", nil},
		{"stream type", base(`"stream":"yes"`), "stream: Input should be a valid boolean", nil},
		// 2.3 tools
		{"too many tools", base(`"tools":[` + many(1001, `{"name":"t#","input_schema":{"type":"object"}}`) + `]`),
			"tools: List should have at most 1000 items after validation, not 1001", nil},
		{"duplicate tool names", base(`"tools":[` + timeTool + `,` + timeTool + `]`), "tools: Tool names must be unique.", nil},
		{"tool name empty", base(`"tools":[{"name":"","input_schema":{"type":"object"}}]`), "tools.0.custom.name: String should have at least 1 character", nil},
		{"tool name pattern", base(`"tools":[{"name":"get time","input_schema":{"type":"object"}}]`),
			"tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'", nil},
		{"tool name length", base(`"tools":[{"name":"` + strings.Repeat("t", 129) + `","input_schema":{"type":"object"}}]`),
			"tools.0.custom.name: String should have at most 128 characters", nil},
		{"input_schema missing", base(`"tools":[{"name":"t"}]`), "tools.0.custom.input_schema: Field required", nil},
		{"input_schema type", base(`"tools":[{"name":"t","input_schema":{"type":"array"}}]`), "tools.0.custom.input_schema.type: Input should be 'object'", nil},
		{"property key", base(`"tools":[{"name":"t","input_schema":{"type":"object","properties":{"a b":{}}}}]`),
			"tools.0.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'", nil},
		{"unknown tool type", base(`"tools":[{"type":"shell_1","name":"x"}]`),
			"tools.0: Input tag 'shell_1' found using 'type' does not match any of the expected tags: " + toolTagList, nil},
		{"fixed tool name", base(`"tools":[{"type":"web_search_20250305","name":"search"}]`), "tools.0.web_search_20250305.name: Input should be 'web_search'", nil},
		{"both domain lists", base(`"tools":[{"type":"web_search_20250305","name":"web_search","allowed_domains":["a"],"blocked_domains":["b"]}]`),
			"tools.0.web_search_20250305: allowed_domains and blocked_domains cannot both be set", nil},
		{"max_uses", base(`"tools":[{"type":"web_search_20250305","name":"web_search","max_uses":0}]`),
			"tools.0.web_search_20250305.max_uses: Input should be greater than or equal to 1", nil},
		// 2.4 tool_choice
		{"tool_choice tag", base(`"tool_choice":{"type":"some"}`),
			"tool_choice: Input tag 'some' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'", nil},
		{"tool_choice unknown tool", base(`"tools":[` + timeTool + `],"tool_choice":{"type":"tool","name":"nope"}`), "tool_choice.tool.name: tool `nope` is not in `tools`", nil},
		{"tool_choice without tools", base(`"tool_choice":{"type":"any"}`), "tool_choice: requires at least one tool in `tools`", nil},
		{"forced tool with thinking", base(`"tools":[` + timeTool + `],"tool_choice":{"type":"any"},"thinking":{"type":"enabled","budget_tokens":1024}`),
			"Thinking may not be enabled when tool_choice forces tool use.", nil},
		// 2.5 sampling and stop sequences
		{"temperature high", base(`"temperature":1.5`), "temperature: Input should be less than or equal to 1", nil},
		{"temperature low", base(`"temperature":-0.5`), "temperature: Input should be greater than or equal to 0", nil},
		{"top_p high", base(`"top_p":2`), "top_p: Input should be less than or equal to 1", nil},
		{"top_k negative", base(`"top_k":-1`), "top_k: Input should be greater than or equal to 0", nil},
		{"temperature with thinking", base(`"thinking":{"type":"adaptive"},"temperature":0.5`),
			"`temperature` may only be set to 1 when thinking is enabled.", nil},
		{"top_p with thinking", base(`"thinking":{"type":"adaptive"},"top_p":0.9`), "top_p: must be at least 0.95 when thinking is enabled", nil},
		{"top_k with thinking", base(`"thinking":{"type":"adaptive"},"top_k":5`), "top_k: cannot be set when thinking is enabled", nil},
		{"too many stop sequences", base(`"stop_sequences":[` + many(17, `"s#"`) + `]`), "stop_sequences: List should have at most 16 items after validation, not 17", nil},
		{"whitespace stop sequence", base(`"stop_sequences":["x"," \n"]`), "stop_sequences.1: must contain a non-whitespace character", nil},
		// 2.6 thinking
		{"budget too small", base(`"thinking":{"type":"enabled","budget_tokens":1000}`), "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024", nil},
		{"budget not below max_tokens", base(`"thinking":{"type":"enabled","budget_tokens":1024}`), "`max_tokens` must be greater than `thinking.budget_tokens`.", nil},
		{"thinking tag", base(`"thinking":{"type":"on"}`), "thinking: Input tag 'on' found using 'type' does not match any of the expected tags: 'enabled', 'adaptive', 'disabled'", nil},
		{"thinking display", base(`"thinking":{"type":"adaptive","display":"full"}`), "thinking.adaptive.display: Input should be 'summarized' or 'omitted'", nil},
		{"adaptive on haiku", msgReq(haiku, "Hi", `"thinking":{"type":"adaptive"}`), "thinking: adaptive thinking is not supported by vendor-haiku-5-5", nil},
		// 2.7 output_config
		{"effort value", base(`"output_config":{"effort":"extreme"}`), "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'", nil},
		{"xhigh on sonnet", base(`"output_config":{"effort":"xhigh"}`), "output_config.effort: effort `xhigh` is not supported by vendor-sonnet-5-5", nil},
		{"effort on haiku", msgReq(haiku, "Hi", `"output_config":{"effort":"low"}`), "output_config.effort: effort `low` is not supported by vendor-haiku-5-5", nil},
		{"format schema type", base(`"output_config":{"format":{"type":"json_schema","schema":[]}}`), "output_config.format.schema: Input should be a valid dictionary", nil},
		{"output_format with format", base(`"output_config":{"format":{"type":"json_schema","schema":{}}},"output_format":{"type":"json_schema","schema":{}}`),
			"output_format: cannot be combined with output_config.format", nil},
		{"format with citations", withMessages(`{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"A."},"citations":{"enabled":true}}]}`,
			`"output_config":{"format":{"type":"json_schema","schema":{}}}`), "output_config.format: cannot be used with citations", nil},
		// 3.3 cache_control
		{"cache ttl", base(`"system":[{"type":"text","text":"s","cache_control":{"type":"ephemeral","ttl":"1d"}}]`), "system.0.text.cache_control.ttl: Input should be '5m' or '1h'", nil},
		{"five breakpoints", base(`"cache_control":{"type":"ephemeral"},"system":[` + many(4, `{"type":"text","text":"s#","cache_control":{"type":"ephemeral"}}`) + `]`),
			"A maximum of 4 blocks with cache_control may be provided. Found 5.", nil},
		{"1h after 5m", base(`"system":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},{"type":"text","text":"b","cache_control":{"type":"ephemeral","ttl":"1h"}}]`),
			"cache_control: a ttl of 1h must not follow a ttl of 5m", nil},
		// beta-gated fields (2.1, 7, 8.3)
		{"mcp_servers without beta", base(`"mcp_servers":[]`), "mcp_servers: Extra inputs are not permitted", nil},
		{"fallbacks without beta", base(`"fallbacks":"default"`), "fallbacks: Extra inputs are not permitted", nil},
		{"context_management without beta", base(`"context_management":{}`), "context_management: Extra inputs are not permitted", nil},
		{"default fallbacks under 06-01", base(`"fallbacks":"default"`), "fallbacks: the `default` form needs the beta `server-side-fallback-2026-07-01`",
			[]mod{withHeader("vendor-beta", "server-side-fallback-2026-06-01")}},
		{"fallback duplicate", base(`"fallbacks":[{"model":"vendor-sonnet-5-5"}]`), "fallbacks.0.model: duplicate model `vendor-sonnet-5-5`", []mod{fallbackBeta}},
		{"fallback unknown", base(`"fallbacks":[{"model":"vendor-nope"}]`), "fallbacks.0.model: `vendor-nope` is not a permitted fallback model", []mod{fallbackBeta}},
		{"fallback list length", base(`"fallbacks":[]`), "fallbacks: List should have at least 1 item after validation, not 0", []mod{fallbackBeta}},
		{"fallback effort", msgReq(opus, "Hi", `"output_config":{"effort":"xhigh"},"fallbacks":[{"model":"vendor-sonnet-5-5"}]`),
			"fallbacks.0: effort `xhigh` is not supported by vendor-sonnet-5-5", []mod{fallbackBeta}},
		{"default fallback chain", msgReq(opus, "Hi", `"output_config":{"effort":"xhigh"},"fallbacks":"default"`),
			"fallbacks: effort `xhigh` is not supported by vendor-sonnet-5-5", []mod{fallbackBeta}},
		{"mcp toolset unknown server", base(`"tools":[{"type":"mcp_toolset","mcp_server_name":"x"}],"mcp_servers":[{"type":"url","url":"https://m.example","name":"m"}]`),
			"tools.0.mcp_toolset.mcp_server_name: no MCP server named `x`", []mod{mcpBeta}},
		{"mcp server unreferenced", base(`"mcp_servers":[{"type":"url","url":"https://m.example","name":"m"}]`),
			"mcp_servers.0: MCP server `m` must be referenced by exactly one mcp_toolset", []mod{mcpBeta}},
		{"mcp url", base(`"mcp_servers":[{"type":"url","url":"http://m.example","name":"m"}]`), "mcp_servers.0.url: must start with https://", []mod{mcpBeta}},
		// body order: the first broken rule wins
		{"order: temperature first", `{"temperature":5,"model":"vendor-nope","max_tokens":1,` + hiMsg + `}`, "temperature: Input should be less than or equal to 1", nil},
		{"order: thinking before max_tokens", `{"thinking":{"type":"enabled","budget_tokens":2000},"model":"vendor-sonnet-5-5","max_tokens":1000,"stop_sequences":[" "],` + hiMsg + `}`,
			"`max_tokens` must be greater than `thinking.budget_tokens`.", nil},
		{"order: messages before unknown key", `{"model":"vendor-sonnet-5-5","max_tokens":1,"messages":[{"role":"user","content":""}],"foo":1}`,
			"messages.0: all messages must have non-empty content except for the optional final assistant message", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantInvalid(t, e.do(t, "POST", "/v1/messages", c.body, c.mods...), c.message)
		})
	}
}

func TestMessagesValidationStatuses(t *testing.T) {
	e := newEnv(t)
	wantError(t, e.do(t, "POST", "/v1/messages", msgReq("vendor-nope", "Hi", "")), http.StatusNotFound, "not_found_error", "model: vendor-nope")
	wantError(t, e.do(t, "POST", "/v1/messages", `{"model":"vendor-nope","temperature":5,"max_tokens":1,`+hiMsg+`}`),
		http.StatusNotFound, "not_found_error", "model: vendor-nope")
	for _, path := range []string{"/v1/messages", "/v1/messages/count_tokens"} {
		r := e.do(t, "GET", path, "")
		wantError(t, r, http.StatusMethodNotAllowed, "invalid_request_error", "method: must be POST")
		if r.header.Get("Allow") != "POST" {
			t.Fatalf("Allow %q", r.header.Get("Allow"))
		}
	}
	wantInvalid(t, e.do(t, "POST", "/v1/messages", base(""), withHeader("vendor-beta", "messages-2099-01-01")), "vendor-beta: unknown beta value `messages-2099-01-01`")
	wantError(t, e.do(t, "POST", "/v1/messages", base(""), noAuth), http.StatusUnauthorized, "authentication_error", "")
	wantInvalid(t, e.do(t, "POST", "/v1/messages", base(""), noWorkspace), "vendor-workspace-id header is required for an identity-linked key")

	// Prompt size (2.2): 800,000 runes are 200,000 tokens, plus 3 + 4.
	big := msgReq(haiku, strings.Repeat("a", 800_000), "")
	wantInvalid(t, e.do(t, "POST", "/v1/messages", big), "prompt is too long: 200007 tokens > 200000 maximum")

	// Betas unlock their fields: accepted and ignored.
	wantOK(t, e.do(t, "POST", "/v1/messages", base(`"context_management":{"edits":[]}`), withHeader("vendor-beta", "context-management-2025-06-27")))
	wantOK(t, e.do(t, "POST", "/v1/messages", base(`"speed":"fast"`), withHeader("vendor-beta", "fast-mode-2026-02-01")))
	wantOK(t, e.do(t, "POST", "/v1/messages", withMessages(`{"role":"user","content":[{"type":"image","source":{"type":"file","file_id":"file_1"}}]}`),
		withHeader("vendor-beta", "files-api-2025-04-14")))
	// The legacy output_format works without its beta.
	wantOK(t, e.do(t, "POST", "/v1/messages", base(`"output_format":{"type":"json_schema","schema":{"type":"object"}}`)))
}

func TestMessagesInferenceGeo(t *testing.T) {
	e := newEnv(t)
	ws := wantOK(t, e.do(t, "POST", "/v1/organizations/workspaces",
		`{"name":"us only","data_residency":{"allowed_inference_geos":["us"],"default_inference_geo":"us"}}`))["id"].(string)
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, ws))
	wantInvalid(t, e.do(t, "POST", "/v1/messages", base(`"inference_geo":"global"`), withWorkspace(ws)),
		"inference_geo: `global` is not allowed in this workspace")
	m := e.message(t, base(""), withWorkspace(ws))
	if usageOf(m)["inference_geo"] != "us" {
		t.Fatalf("default geo: %v", usageOf(m))
	}
	m = e.message(t, base(`"inference_geo":"us"`))
	if usageOf(m)["inference_geo"] != "us" {
		t.Fatalf("requested geo: %v", usageOf(m))
	}
}

func TestCountTokensValidation(t *testing.T) {
	e := newEnv(t)
	count := `{"model":"vendor-sonnet-5-5",` + hiMsg
	for _, key := range []string{`"max_tokens":5`, `"stream":false`, `"metadata":{}`, `"stop_sequences":["x"]`, `"temperature":1`,
		`"top_p":1`, `"top_k":1`, `"service_tier":"auto"`, `"inference_geo":"us"`, `"container":"c"`} {
		name, _, _ := strings.Cut(strings.Trim(key, `"`), `"`)
		wantInvalid(t, e.do(t, "POST", "/v1/messages/count_tokens", count+","+key+"}"), name+": Extra inputs are not permitted")
	}
	wantInvalid(t, e.do(t, "POST", "/v1/messages/count_tokens", count+`,"fallbacks":"default"}`, fallbackBeta), "fallbacks: Extra inputs are not permitted")
	wantInvalid(t, e.do(t, "POST", "/v1/messages/count_tokens", `{"model":"vendor-sonnet-5-5"}`), "messages: Field required")
	wantError(t, e.do(t, "POST", "/v1/messages/count_tokens", `{"model":"vendor-x",`+hiMsg+`}`), http.StatusNotFound, "not_found_error", "model: vendor-x")
	// No max_tokens to compare the thinking budget with.
	wantOK(t, e.do(t, "POST", "/v1/messages/count_tokens", count+`,"thinking":{"type":"enabled","budget_tokens":5000}}`))
	// A beta unlocks the same fields as on create.
	wantOK(t, e.do(t, "POST", "/v1/messages/count_tokens", count+`,"output_format":{"type":"json_schema","schema":{}}}`,
		withHeader("vendor-beta", "structured-outputs-2025-11-13")))
	wantInvalid(t, e.do(t, "POST", "/v1/messages/count_tokens", count+`,"output_format":{"type":"json_schema","schema":{}}}`),
		"output_format: Extra inputs are not permitted")
}
