package refserver_test

import (
	"fmt"
	"testing"
)

// The platform's newer tool types and block fields (docs/messages-wire.md
// 2.3.2, 3.2): accepted with their fields, refused with a bad value.

func TestMessagesNewerToolTypes(t *testing.T) {
	e := newEnv(t)
	for _, tool := range []string{
		`{"type":"code_execution_20260521","name":"code_execution","allowed_callers":["direct"],"defer_loading":false,"strict":true}`,
		`{"type":"web_search_20260318","name":"web_search","max_uses":2,"response_inclusion":"excluded","user_location":{"type":"approximate","city":"Paris"}}`,
		`{"type":"web_fetch_20250910","name":"web_fetch","max_uses":1,"max_content_tokens":1000,"citations":{"enabled":true},"allowed_domains":["go.dev"]}`,
		`{"type":"web_fetch_20260309","name":"web_fetch","use_cache":false,"url_sources":{"user_input":"all"}}`,
		`{"type":"web_fetch_20260318","name":"web_fetch","use_cache":true,"response_inclusion":"full","allowed_callers":["code_execution_20260521"]}`,
		`{"type":"tool_search_tool_regex","name":"tool_search_tool_regex","cache_control":{"type":"ephemeral"}}`,
		`{"type":"tool_search_tool_bm25","name":"tool_search_tool_bm25","allowed_callers":["direct"]}`,
	} {
		wantOK(t, e.do(t, "POST", "/v1/messages", base(`"tools":[`+tool+`]`)))
	}
	for _, c := range []struct{ tool, message string }{
		{`{"type":"web_search_20260318","name":"web_search","response_inclusion":"some"}`,
			"tools.0.web_search_20260318.response_inclusion: Input should be 'full' or 'excluded'"},
		{`{"type":"web_search_20260209","name":"web_search","response_inclusion":"full"}`,
			"tools.0.web_search_20260209.response_inclusion: Extra inputs are not permitted"},
		{`{"type":"web_fetch_20260318","name":"web_fetch","response_inclusion":"none"}`,
			"tools.0.web_fetch_20260318.response_inclusion: Input should be 'full' or 'excluded'"},
		{`{"type":"web_fetch_20260209","name":"web_fetch","use_cache":true}`,
			"tools.0.web_fetch_20260209.use_cache: Extra inputs are not permitted"},
		{`{"type":"web_fetch_20260309","name":"web_fetch","max_content_tokens":0}`,
			"tools.0.web_fetch_20260309.max_content_tokens: Input should be greater than or equal to 1"},
		{`{"type":"web_fetch_20260309","name":"web_fetch","allowed_domains":["a"],"blocked_domains":["b"]}`,
			"tools.0.web_fetch_20260309: allowed_domains and blocked_domains cannot both be set"},
		{`{"type":"tool_search_tool_bm25","name":"tool_search_tool_regex"}`,
			"tools.0.tool_search_tool_bm25.name: Input should be 'tool_search_tool_bm25'"},
		{`{"type":"code_execution_20260521","name":"code_execution","max_uses":1}`,
			"tools.0.code_execution_20260521.max_uses: Extra inputs are not permitted"},
	} {
		wantInvalid(t, e.do(t, "POST", "/v1/messages", base(`"tools":[`+c.tool+`]`)), c.message)
	}
}

func TestMessagesNewerBlockFields(t *testing.T) {
	e := newEnv(t)
	const image = `{"type":"image","source":{"type":"url","url":"https://example.com/a.png"},"transformations":{"oversized_image":"%s"}}`
	toolUse := `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_time","input":{},"toolset_name":"browser"}]}`
	results := func(content string) string {
		return withMessages(`{"role":"user","content":"x"},`+toolUse+
			`,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","toolset_name":"browser","content":[`+content+`]}]}`,
			`"tools":[`+timeTool+`]`)
	}
	for _, body := range []string{
		withMessages(`{"role":"user","content":[` + fmt.Sprintf(image, "error") + `,{"type":"text","text":"what is it?"}]}`),
		withMessages(`{"role":"user","content":[` + fmt.Sprintf(image, "downsize") + `]}`),
		results(`{"type":"tool_reference","tool_name":"get_weather"}`),
		results(`{"type":"browser_state","tabs":[{"tab_id":"t1","title":"Go","url":"https://go.dev","active":true}],` +
			`"state_changes":[{"type":"tab_opened","tab_id":"t1"},{"type":"download_completed","download_id":"d1","url":"https://go.dev/x","path":"/tmp/x","size_bytes":12},` +
			`{"type":"download_failed","download_id":"d2","url":"https://go.dev/y","error":"denied"}]}`),
		withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_time","input":{},"toolset_name":null}]}` +
			`,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","toolset_name":null}]}`),
		// The result blocks of the newer server tools go back as received.
		withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[` +
			`{"type":"server_tool_use","id":"srvtoolu_1","name":"code_execution","input":{"code":"1"}},` +
			`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"encrypted_code_execution_result","encrypted_stdout":"RW5j","stderr":"","return_code":0,"content":[]}},` +
			`{"type":"server_tool_use","id":"srvtoolu_2","name":"web_fetch","input":{"url":"https://go.dev"}},` +
			`{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"web_fetch_result","url":"https://go.dev","retrieved_at":"2026-03-01T00:00:00Z",` +
			`"content":{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Go"},"title":null,"citations":{"enabled":false}}},"caller":{"type":"direct"}},` +
			`{"type":"server_tool_use","id":"srvtoolu_3","name":"tool_search_tool_regex","input":{"query":"time"}},` +
			`{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_3","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"get_time"}]}},` +
			`{"type":"server_tool_use","id":"srvtoolu_4","name":"text_editor_code_execution","input":{"command":"view","path":"/a"}},` +
			`{"type":"text_editor_code_execution_tool_result","tool_use_id":"srvtoolu_4","content":{"type":"text_editor_code_execution_view_result","content":"a","file_type":"text","num_lines":1,"start_line":1,"total_lines":1}},` +
			`{"type":"container_upload","file_id":"file_1"},{"type":"text","text":"done"}]},{"role":"user","content":"thanks"}`),
	} {
		wantOK(t, e.do(t, "POST", "/v1/messages", body))
	}
	for _, c := range []struct{ body, message string }{
		{withMessages(`{"role":"user","content":[` + fmt.Sprintf(image, "crop") + `]}`),
			"messages.0.content.0.image.transformations.oversized_image: Input should be 'downsize' or 'error'"},
		{withMessages(`{"role":"user","content":[{"type":"image","source":{"type":"url","url":"https://x"},"transformations":{"resize":true}}]}`),
			"messages.0.content.0.image.transformations.resize: Extra inputs are not permitted"},
		{results(`{"type":"tool_reference"}`), "messages.2.content.0.tool_result.content.0.tool_reference.tool_name: Field required"},
		{results(`{"type":"browser_state","tabs":[{"tab_id":"t1","title":"Go"}]}`),
			"messages.2.content.0.tool_result.content.0.browser_state.tabs.0.url: Field required"},
		{results(`{"type":"browser_state","tabs":[],"state_changes":[{"type":"tab_closed","tab_id":"t1"}]}`),
			"messages.2.content.0.tool_result.content.0.browser_state.state_changes.0: Input tag 'tab_closed' found using 'type' does not match any of the expected tags: " +
				"'tab_opened', 'download_started', 'download_completed', 'download_failed'"},
		{withMessages(`{"role":"user","content":[{"type":"tool_reference","tool_name":"x"}]}`),
			"messages.0.content.0: Input tag 'tool_reference' found using 'type' does not match any of the expected tags: " + contentTagList},
		{withMessages(`{"role":"user","content":"x"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_time","input":{},"toolset_name":5}]}`),
			"messages.1.content.0.tool_use.toolset_name: Input should be a valid string"},
	} {
		wantInvalid(t, e.do(t, "POST", "/v1/messages", c.body), c.message)
	}
}
