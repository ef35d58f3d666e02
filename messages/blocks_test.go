package messages_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/messages"
)

func str(s string) *string { return &s }

// blockCases pairs every block kind with its wire form
// (docs/messages-wire.md 3.2).
var blockCases = []struct {
	name  string
	block messages.ContentBlock
	wire  string
}{
	{"text", messages.TextBlock{Text: "hi"}, `{"type":"text","text":"hi"}`},
	{"text with citations and cache control", messages.TextBlock{
		Text: "Quarterly revenue rose 12%.",
		Citations: []messages.Citation{
			messages.CharLocation{CitedText: "Quarterly revenue rose 12%.", DocumentIndex: 0, DocumentTitle: str("Q3 memo"), EndCharIndex: 27},
			messages.PageLocation{CitedText: "p", DocumentIndex: 1, StartPageNumber: 1, EndPageNumber: 2, FileID: str("file_1")},
			messages.ContentBlockLocation{CitedText: "c", DocumentIndex: 2, StartBlockIndex: 0, EndBlockIndex: 1},
			messages.WebSearchResultLocation{CitedText: "w", URL: "https://example.com", Title: str("Example"), EncryptedIndex: "Eo8="},
			messages.SearchResultLocation{CitedText: "s", SearchResultIndex: 0, Source: "kb://1", StartBlockIndex: 0, EndBlockIndex: 1},
			messages.UnknownCitation{Type: "future_location", JSON: json.RawMessage(`{"type":"future_location","x":1}`)},
		},
		CacheControl: messages.Ephemeral(messages.CacheTTL1h),
	}, `{"type":"text","text":"Quarterly revenue rose 12%.","citations":[
		{"type":"char_location","cited_text":"Quarterly revenue rose 12%.","document_index":0,"document_title":"Q3 memo","start_char_index":0,"end_char_index":27,"file_id":null},
		{"type":"page_location","cited_text":"p","document_index":1,"document_title":null,"start_page_number":1,"end_page_number":2,"file_id":"file_1"},
		{"type":"content_block_location","cited_text":"c","document_index":2,"document_title":null,"start_block_index":0,"end_block_index":1,"file_id":null},
		{"type":"web_search_result_location","cited_text":"w","url":"https://example.com","title":"Example","encrypted_index":"Eo8="},
		{"type":"search_result_location","cited_text":"s","search_result_index":0,"source":"kb://1","title":null,"start_block_index":0,"end_block_index":1},
		{"type":"future_location","x":1}],
		"cache_control":{"type":"ephemeral","ttl":"1h"}}`},
	{"image base64", messages.ImageBlock{Source: messages.Base64Source{MediaType: "image/png", Data: "iVBORw0KGgo="}},
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}`},
	{"image url", messages.ImageBlock{Source: messages.URLSource{URL: "https://example.com/a.png"}, CacheControl: messages.Ephemeral("")},
		`{"type":"image","source":{"type":"url","url":"https://example.com/a.png"},"cache_control":{"type":"ephemeral"}}`},
	{"image file", messages.ImageBlock{Source: messages.FileSource{FileID: "file_1"}},
		`{"type":"image","source":{"type":"file","file_id":"file_1"}}`},
	{"document text", messages.DocumentBlock{
		Source: messages.PlainTextSource{Data: "Quarterly revenue rose 12%. Costs were flat."},
		Title:  "Q3 memo", Context: "Internal, not for release", Citations: &messages.CitationsConfig{Enabled: true},
	}, `{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Quarterly revenue rose 12%. Costs were flat."},
		"title":"Q3 memo","context":"Internal, not for release","citations":{"enabled":true}}`},
	{"document pdf", messages.DocumentBlock{Source: messages.Base64Source{MediaType: "application/pdf", Data: "JVBERi0="}},
		`{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0="}}`},
	{"document content", messages.DocumentBlock{Source: messages.ContentSource{Content: messages.Blocks{messages.TextBlock{Text: "a"}}}},
		`{"type":"document","source":{"type":"content","content":[{"type":"text","text":"a"}]}}`},
	{"document content string", messages.DocumentBlock{Source: messages.ContentSource{Content: messages.Text("a")}},
		`{"type":"document","source":{"type":"content","content":"a"}}`},
	{"search result", messages.SearchResultBlock{Source: "kb://1", Title: "KB", Content: []messages.TextBlock{{Text: "x"}}, Citations: &messages.CitationsConfig{Enabled: true}},
		`{"type":"search_result","source":"kb://1","title":"KB","content":[{"type":"text","text":"x"}],"citations":{"enabled":true}}`},
	{"tool use", messages.ToolUseBlock{ID: "toolu_01FbXcfAkW7TGhzDtCCcxfAh", Name: "get_weather", Input: json.RawMessage(`{"location":"Paris"}`), Caller: &messages.Caller{Type: "direct"}},
		`{"type":"tool_use","id":"toolu_01FbXcfAkW7TGhzDtCCcxfAh","name":"get_weather","input":{"location":"Paris"},"caller":{"type":"direct"}}`},
	{"tool result blocks", messages.ToolResultBlock{ToolUseID: "toolu_1", Content: messages.Blocks{messages.TextBlock{Text: "15 degrees, sunny"}}},
		`{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"15 degrees, sunny"}],"is_error":false}`},
	{"tool result text error", messages.ToolResultBlock{ToolUseID: "toolu_1", Content: messages.Text("boom"), IsError: true},
		`{"type":"tool_result","tool_use_id":"toolu_1","content":"boom","is_error":true}`},
	{"tool result empty", messages.ToolResultBlock{ToolUseID: "toolu_1"}, `{"type":"tool_result","tool_use_id":"toolu_1","is_error":false}`},
	{"thinking", messages.ThinkingBlock{Thinking: "The user asked: …", Signature: "EqQB"},
		`{"type":"thinking","thinking":"The user asked: …","signature":"EqQB"}`},
	{"thinking omitted", messages.ThinkingBlock{Signature: "EqQB"}, `{"type":"thinking","thinking":"","signature":"EqQB"}`},
	{"redacted thinking", messages.RedactedThinkingBlock{Data: "EmwK"}, `{"type":"redacted_thinking","data":"EmwK"}`},
	{"server tool use", messages.ServerToolUseBlock{ID: "srvtoolu_014hJH82Qum7Td6UV8gDXThB", Name: "web_search", Input: json.RawMessage(`{"query":"go 1.26 release notes"}`), Caller: &messages.Caller{Type: "direct"}},
		`{"type":"server_tool_use","id":"srvtoolu_014hJH82Qum7Td6UV8gDXThB","name":"web_search","input":{"query":"go 1.26 release notes"},"caller":{"type":"direct"}}`},
	{"web search results", messages.WebSearchToolResultBlock{ToolUseID: "srvtoolu_1", Caller: &messages.Caller{Type: "direct"},
		Content: messages.WebSearchResults{{URL: "https://example.com/search/1?q=go", Title: "Result 1 for go", EncryptedContent: "Z28jMQ=="}, {URL: "https://e.com", Title: "t", EncryptedContent: "x", PageAge: str("2 days")}}},
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[
			{"type":"web_search_result","url":"https://example.com/search/1?q=go","title":"Result 1 for go","encrypted_content":"Z28jMQ==","page_age":null},
			{"type":"web_search_result","url":"https://e.com","title":"t","encrypted_content":"x","page_age":"2 days"}],"caller":{"type":"direct"}}`},
	{"web search error", messages.WebSearchToolResultBlock{ToolUseID: "srvtoolu_1", Content: messages.WebSearchToolResultError{ErrorCode: "max_uses_exceeded"}},
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`},
	{"code execution", messages.CodeExecutionToolResultBlock{ToolUseID: "srvtoolu_01Vh7mTqW3kC2xRsB8nLpD4e",
		Content: messages.CodeExecutionResult{Stdout: "print(2+2)\n", Content: []messages.CodeExecutionOutput{}}},
		`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_01Vh7mTqW3kC2xRsB8nLpD4e","content":{"type":"code_execution_result","stdout":"print(2+2)\n","stderr":"","return_code":0,"content":[]}}`},
	{"code execution output", messages.CodeExecutionToolResultBlock{ToolUseID: "srvtoolu_1",
		Content: messages.CodeExecutionResult{ReturnCode: 1, Stderr: "x", Content: []messages.CodeExecutionOutput{{FileID: "file_1"}}}},
		`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"code_execution_result","stdout":"","stderr":"x","return_code":1,"content":[{"type":"code_execution_output","file_id":"file_1"}]}}`},
	{"code execution error", messages.CodeExecutionToolResultBlock{ToolUseID: "srvtoolu_1", Content: messages.CodeExecutionToolResultError{ErrorCode: "unavailable"}},
		`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"code_execution_tool_result_error","error_code":"unavailable"}}`},
	{"bash code execution", messages.BashCodeExecutionToolResultBlock{ToolUseID: "srvtoolu_1",
		Content: messages.BashCodeExecutionResult{Stdout: "4\n", Content: []messages.CodeExecutionOutput{{FileID: "file_2"}}}},
		`{"type":"bash_code_execution_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"bash_code_execution_result","stdout":"4\n","stderr":"","return_code":0,"content":[{"type":"bash_code_execution_output","file_id":"file_2"}]}}`},
	{"bash code execution error", messages.BashCodeExecutionToolResultBlock{ToolUseID: "srvtoolu_1", Content: messages.BashCodeExecutionToolResultError{ErrorCode: "execution_time_exceeded"}},
		`{"type":"bash_code_execution_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"bash_code_execution_tool_result_error","error_code":"execution_time_exceeded"}}`},
	{"mcp tool use", messages.MCPToolUseBlock{ID: "mcptoolu_014Q35RayjACSWkSj4X2yov1", Name: "echo", ServerName: "example-mcp", Input: json.RawMessage(`{"param1":"value1"}`)},
		`{"type":"mcp_tool_use","id":"mcptoolu_014Q35RayjACSWkSj4X2yov1","name":"echo","server_name":"example-mcp","input":{"param1":"value1"}}`},
	{"mcp tool result", messages.MCPToolResultBlock{ToolUseID: "mcptoolu_1", Content: messages.Blocks{messages.TextBlock{Text: "echo ok"}}},
		`{"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":false,"content":[{"type":"text","text":"echo ok"}]}`},
	{"mcp tool result text", messages.MCPToolResultBlock{ToolUseID: "mcptoolu_1", IsError: true, Content: messages.Text("down")},
		`{"type":"mcp_tool_result","tool_use_id":"mcptoolu_1","is_error":true,"content":"down"}`},
	{"fallback", messages.FallbackBlock{From: messages.FallbackModel{Model: "vendor-opus-5-5"}, To: messages.FallbackModel{Model: "vendor-sonnet-5-5"}},
		`{"type":"fallback","from":{"model":"vendor-opus-5-5"},"to":{"model":"vendor-sonnet-5-5"}}`},
	{"unknown", messages.UnknownBlock{Type: "future_upload", JSON: json.RawMessage(`{"type":"future_upload","file_id":"file_1","extra":[1,{"a":null}]}`)},
		`{"type":"future_upload","file_id":"file_1","extra":[1,{"a":null}]}`},
}

// TestBlocksBothWays encodes every block kind as a request sends it and
// decodes its wire form as a response carries it; an unknown kind goes
// back byte for byte.
func TestBlocksBothWays(t *testing.T) {
	for _, tc := range blockCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.block)
			require.NoError(t, err)
			require.JSONEq(t, tc.wire, string(got))

			decoded, err := decodeBlock([]byte(tc.wire))
			require.NoError(t, err)
			if diff := cmp.Diff(tc.block, decoded, sameMessage); diff != "" {
				t.Fatalf("decoded (-want +got):\n%s", diff)
			}
			again, err := json.Marshal(decoded)
			require.NoError(t, err)
			require.JSONEq(t, tc.wire, string(again))
		})
	}
	raw := `{"type":"future_upload","file_id":"file_1","extra":[1,{"a":null}]}`
	b, err := decodeBlock([]byte(raw))
	require.NoError(t, err)
	out, err := json.Marshal(b)
	require.NoError(t, err)
	require.Equal(t, raw, string(out), "an unknown block goes back exactly as received")
}

func TestToolUseWithoutInputSendsEmptyObject(t *testing.T) {
	got, err := json.Marshal(messages.ToolUseBlock{ID: "toolu_1", Name: "get_time"})
	require.NoError(t, err)
	require.JSONEq(t, `{"type":"tool_use","id":"toolu_1","name":"get_time","input":{}}`, string(got))
}

// TestMessageDecodesUnknownsAndKeepsThem decodes a response with kinds this
// SDK does not know (a block, a citation, a web search content, a code
// result, a source) and sends the content back unchanged.
func TestMessageDecodesUnknownsAndKeepsThem(t *testing.T) {
	content := `[{"type":"text","text":"a","citations":[{"type":"future_citation","k":1}]},` +
		`{"type":"future_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"future_result","url":"https://e.com"}},` +
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"future_error","x":true}},` +
		`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_3","content":{"type":"future_result"}}]`
	data := `{"id":"msg_1","type":"message","role":"assistant","model":"vendor-sonnet-5-5","content":` + content +
		`,"stop_reason":"brand_new_reason","stop_sequence":null,"stop_details":null,"container":null,` +
		`"usage":{"input_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,"output_tokens_details":null,"server_tool_use":null,"service_tier":"flex","inference_geo":null}}`
	var m messages.Message
	require.NoError(t, json.Unmarshal([]byte(data), &m))
	require.Equal(t, messages.StopReason("brand_new_reason"), m.StopReason, "unknown stop reasons are kept")
	require.Equal(t, messages.ServiceTier("flex"), m.Usage.ServiceTier)
	require.IsType(t, messages.UnknownCitation{}, m.Content[0].(messages.TextBlock).Citations[0])
	require.IsType(t, messages.UnknownBlock{}, m.Content[1])
	require.Equal(t, "future_tool_result", m.Content[1].(messages.UnknownBlock).Type)
	require.IsType(t, messages.UnknownWebSearchContent{}, m.Content[2].(messages.WebSearchToolResultBlock).Content)
	require.IsType(t, messages.UnknownCodeExecutionContent{}, m.Content[3].(messages.CodeExecutionToolResultBlock).Content)
	back, err := json.Marshal(m.Content)
	require.NoError(t, err)
	require.JSONEq(t, content, string(back))

	src, err := decodeBlock([]byte(`{"type":"image","source":{"type":"future_source","ref":"x"}}`))
	require.NoError(t, err)
	require.IsType(t, messages.UnknownSource{}, src.(messages.ImageBlock).Source)
}
