package messages_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/messages"
)

func i64(n int64) *int64 { return &n }

// newerBlockCases are samples of the newer block kinds as the platform
// sends them, every member of the official types present, with the value
// each decodes to.
var newerBlockCases = []struct {
	name  string
	block messages.ContentBlock
	wire  string
}{
	{"web fetch result", messages.WebFetchToolResultBlock{ToolUseID: "srvtoolu_01", Caller: &messages.Caller{Type: "direct"},
		Content: messages.WebFetchResult{URL: "https://go.dev/doc", RetrievedAt: "2026-03-18T10:00:00Z",
			Content: messages.DocumentBlock{Source: messages.PlainTextSource{Data: "Go docs"}, Citations: &messages.CitationsConfig{}}}},
		`{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_01","content":{"type":"web_fetch_result","url":"https://go.dev/doc",` +
			`"retrieved_at":"2026-03-18T10:00:00Z","content":{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Go docs"},` +
			`"title":null,"citations":{"enabled":false}}},"caller":{"type":"direct"}}`},
	{"web fetch error", messages.WebFetchToolResultBlock{ToolUseID: "srvtoolu_02", Caller: &messages.Caller{Type: "code_execution_20260120", ToolID: "srvtoolu_00"},
		Content: messages.WebFetchToolResultError{ErrorCode: "url_not_accessible"}},
		`{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_02","content":{"type":"web_fetch_tool_result_error","error_code":"url_not_accessible"},` +
			`"caller":{"type":"code_execution_20260120","tool_id":"srvtoolu_00"}}`},
	{"tool search result", messages.ToolSearchToolResultBlock{ToolUseID: "srvtoolu_03",
		Content: messages.ToolSearchResult{ToolReferences: []messages.ToolReferenceBlock{{ToolName: "get_weather"}, {ToolName: "get_time"}}}},
		`{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_03","content":{"type":"tool_search_tool_search_result",` +
			`"tool_references":[{"type":"tool_reference","tool_name":"get_weather"},{"type":"tool_reference","tool_name":"get_time"}]}}`},
	{"tool search error", messages.ToolSearchToolResultBlock{ToolUseID: "srvtoolu_04",
		Content: messages.ToolSearchToolResultError{ErrorCode: "invalid_tool_input", ErrorMessage: "bad pattern"}},
		`{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_04","content":{"type":"tool_search_tool_result_error","error_code":"invalid_tool_input","error_message":"bad pattern"}}`},
	{"text editor view", messages.TextEditorCodeExecutionToolResultBlock{ToolUseID: "srvtoolu_05",
		Content: messages.TextEditorViewResult{Content: "package main\n", FileType: "text", NumLines: 1, StartLine: 1, TotalLines: 1}},
		`{"type":"text_editor_code_execution_tool_result","tool_use_id":"srvtoolu_05","content":{"type":"text_editor_code_execution_view_result",` +
			`"content":"package main\n","file_type":"text","num_lines":1,"start_line":1,"total_lines":1}}`},
	{"text editor create", messages.TextEditorCodeExecutionToolResultBlock{ToolUseID: "srvtoolu_06",
		Content: messages.TextEditorCreateResult{IsFileUpdate: true}},
		`{"type":"text_editor_code_execution_tool_result","tool_use_id":"srvtoolu_06","content":{"type":"text_editor_code_execution_create_result","is_file_update":true}}`},
	{"text editor str_replace", messages.TextEditorCodeExecutionToolResultBlock{ToolUseID: "srvtoolu_07",
		Content: messages.TextEditorStrReplaceResult{Lines: []string{"a", "b"}, OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 2}},
		`{"type":"text_editor_code_execution_tool_result","tool_use_id":"srvtoolu_07","content":{"type":"text_editor_code_execution_str_replace_result",` +
			`"lines":["a","b"],"old_start":3,"old_lines":1,"new_start":3,"new_lines":2}}`},
	{"text editor error", messages.TextEditorCodeExecutionToolResultBlock{ToolUseID: "srvtoolu_08",
		Content: messages.TextEditorCodeExecutionToolResultError{ErrorCode: "file_not_found", ErrorMessage: "no /a"}},
		`{"type":"text_editor_code_execution_tool_result","tool_use_id":"srvtoolu_08","content":{"type":"text_editor_code_execution_tool_result_error","error_code":"file_not_found","error_message":"no /a"}}`},
	{"encrypted code execution", messages.CodeExecutionToolResultBlock{ToolUseID: "srvtoolu_09",
		Content: messages.EncryptedCodeExecutionResult{EncryptedStdout: "RW5jcnlwdGVk", Stderr: "warn", ReturnCode: 2, Content: []messages.CodeExecutionOutput{{FileID: "file_1"}}}},
		`{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_09","content":{"type":"encrypted_code_execution_result",` +
			`"encrypted_stdout":"RW5jcnlwdGVk","stderr":"warn","return_code":2,"content":[{"type":"code_execution_output","file_id":"file_1"}]}}`},
	{"container upload", messages.ContainerUploadBlock{FileID: "file_2"}, `{"type":"container_upload","file_id":"file_2"}`},
	{"tool use of a toolset", messages.ToolUseBlock{ID: "toolu_1", Name: "navigate", Input: json.RawMessage(`{"url":"https://go.dev"}`),
		Caller: &messages.Caller{Type: "direct"}, ToolsetName: "browser"},
		`{"type":"tool_use","id":"toolu_1","name":"navigate","input":{"url":"https://go.dev"},"caller":{"type":"direct"},"toolset_name":"browser"}`},
	{"tool result with references and browser state", messages.ToolResultBlock{ToolUseID: "toolu_1", ToolsetName: "browser",
		Content: messages.Blocks{
			messages.ToolReferenceBlock{ToolName: "get_weather", CacheControl: messages.Ephemeral("")},
			messages.BrowserStateBlock{
				Tabs: []messages.BrowserTab{{TabID: "t1", Title: "Go", URL: "https://go.dev", Active: true}},
				StateChanges: []messages.BrowserStateChange{
					{Type: messages.BrowserTabOpened, TabID: "t1"},
					{Type: messages.BrowserDownloadCompleted, DownloadID: "d1", URL: "https://go.dev/x.tgz", Path: "/tmp/x.tgz", SizeBytes: i64(12)},
					{Type: messages.BrowserDownloadFailed, DownloadID: "d2", URL: "https://go.dev/y", Error: "denied"},
				}},
		}},
		`{"type":"tool_result","tool_use_id":"toolu_1","toolset_name":"browser","content":[` +
			`{"type":"tool_reference","tool_name":"get_weather","cache_control":{"type":"ephemeral"}},` +
			`{"type":"browser_state","tabs":[{"tab_id":"t1","title":"Go","url":"https://go.dev","active":true}],"state_changes":[` +
			`{"type":"tab_opened","tab_id":"t1"},{"type":"download_completed","download_id":"d1","url":"https://go.dev/x.tgz","path":"/tmp/x.tgz","size_bytes":12},` +
			`{"type":"download_failed","download_id":"d2","url":"https://go.dev/y","error":"denied"}]}],"is_error":false}`},
	{"image transformations", messages.ImageBlock{Source: messages.URLSource{URL: "https://example.com/big.png"},
		Transformations: &messages.ImageTransformations{OversizedImage: messages.OversizedImageError}},
		`{"type":"image","source":{"type":"url","url":"https://example.com/big.png"},"transformations":{"oversized_image":"error"}}`},
}

// TestNewerBlocksRoundTrip decodes each sample to its typed block, and
// writes it back as the same JSON, members the SDK does not know and
// members the platform sends as null aside.
func TestNewerBlocksRoundTrip(t *testing.T) {
	for _, tc := range newerBlockCases {
		t.Run(tc.name, func(t *testing.T) {
			decoded, err := decodeBlock([]byte(tc.wire))
			require.NoError(t, err)
			if diff := cmp.Diff(tc.block, decoded, sameMessage); diff != "" {
				t.Fatalf("decoded (-want +got):\n%s", diff)
			}
			again, err := json.Marshal(decoded)
			require.NoError(t, err)
			require.JSONEq(t, string(withoutNulls(t, tc.wire)), string(again))
			built, err := json.Marshal(tc.block)
			require.NoError(t, err)
			require.Equal(t, string(again), string(built))

			// A member this SDK does not know goes back too.
			extra := tc.wire[:len(tc.wire)-1] + `,"future":{"a":[1,null]}}`
			decoded, err = decodeBlock([]byte(extra))
			require.NoError(t, err)
			again, err = json.Marshal(decoded)
			require.NoError(t, err)
			require.JSONEq(t, string(withoutNulls(t, extra)), string(again))
		})
	}
}

// withoutNulls is the JSON of doc without its members whose value is null
// (the SDK leaves an unset nullable member out).
func withoutNulls(t *testing.T, doc string) []byte {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(doc), &v))
	var drop func(any) any
	drop = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if e == nil {
					delete(v, k)
				} else {
					v[k] = drop(e)
				}
			}
		case []any:
			for i, e := range v {
				v[i] = drop(e)
			}
		}
		return v
	}
	out, err := json.Marshal(drop(v))
	require.NoError(t, err)
	return out
}

// TestNewerUnknownContentIsKept: content of a kind newer than this SDK in
// the new result blocks is kept and sent back unchanged.
func TestNewerUnknownContentIsKept(t *testing.T) {
	for _, tc := range []struct {
		wire string
		want any
	}{
		{`{"type":"web_fetch_tool_result","tool_use_id":"s1","content":{"type":"web_fetch_future","x":1}}`, messages.UnknownWebFetchContent{}},
		{`{"type":"tool_search_tool_result","tool_use_id":"s2","content":{"type":"tool_search_future","x":1}}`, messages.UnknownToolSearchContent{}},
		{`{"type":"text_editor_code_execution_tool_result","tool_use_id":"s3","content":{"type":"text_editor_future","x":1}}`, messages.UnknownCodeExecutionContent{}},
	} {
		b, err := decodeBlock([]byte(tc.wire))
		require.NoError(t, err)
		var content any
		switch b := b.(type) {
		case messages.WebFetchToolResultBlock:
			content = b.Content
		case messages.ToolSearchToolResultBlock:
			content = b.Content
		case messages.TextEditorCodeExecutionToolResultBlock:
			content = b.Content
		}
		require.IsType(t, tc.want, content)
		out, err := json.Marshal(b)
		require.NoError(t, err)
		require.JSONEq(t, tc.wire, string(out))
	}
}

func TestNewerToolsEncode(t *testing.T) {
	no := false
	for _, tc := range []struct {
		tool messages.Tool
		wire string
	}{
		{messages.CodeExecutionTool{Type: messages.CodeExecution20260521, AllowedCallers: []string{"direct"}},
			`{"type":"code_execution_20260521","name":"code_execution","allowed_callers":["direct"]}`},
		{messages.WebSearchTool{Type: messages.WebSearch20260318, MaxUses: 3, ResponseInclusion: messages.ResponseInclusionExcluded},
			`{"type":"web_search_20260318","name":"web_search","max_uses":3,"response_inclusion":"excluded"}`},
		{messages.WebFetchTool{}, `{"type":"web_fetch_20250910","name":"web_fetch"}`},
		{messages.WebFetchTool{Type: messages.WebFetch20260309, MaxUses: 2, MaxContentTokens: 5000, AllowedDomains: []string{"go.dev"},
			Citations: &messages.CitationsConfig{Enabled: true}, UseCache: &no, URLSources: json.RawMessage(`{"user_input":"all"}`)},
			`{"type":"web_fetch_20260309","name":"web_fetch","max_uses":2,"max_content_tokens":5000,"allowed_domains":["go.dev"],` +
				`"citations":{"enabled":true},"use_cache":false,"url_sources":{"user_input":"all"}}`},
		{messages.WebFetchTool{Type: messages.WebFetch20260318, ResponseInclusion: messages.ResponseInclusionFull, DeferLoading: true},
			`{"type":"web_fetch_20260318","name":"web_fetch","response_inclusion":"full","defer_loading":true}`},
		{messages.ToolSearchTool{}, `{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}`},
		{messages.ToolSearchTool{Type: messages.ToolSearchBM25, CacheControl: messages.Ephemeral("")},
			`{"type":"tool_search_tool_bm25","name":"tool_search_tool_bm25","cache_control":{"type":"ephemeral"}}`},
		{messages.ToolSearchTool{Type: messages.ToolSearchBM2520251119}, `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}`},
		{messages.ToolSearchTool{Type: messages.ToolSearchRegex, Strict: true}, `{"type":"tool_search_tool_regex","name":"tool_search_tool_regex","strict":true}`},
	} {
		got, err := json.Marshal(tc.tool)
		require.NoError(t, err)
		require.JSONEq(t, tc.wire, string(got))
	}
}

// TestNewerToolsAndBlocksReachTheServer: the reference server takes the
// newer tools, and a conversation that sends every newer block back.
func TestNewerToolsAndBlocksReachTheServer(t *testing.T) {
	env, client := newEnv(t)
	p := prompt("Hello")
	p.Tools = append(messages.FromTools(weather),
		messages.CodeExecutionTool{Type: messages.CodeExecution20260521},
		messages.WebSearchTool{Type: messages.WebSearch20260318, ResponseInclusion: messages.ResponseInclusionFull},
		messages.WebFetchTool{Type: messages.WebFetch20260318, UseCache: new(true), ResponseInclusion: messages.ResponseInclusionExcluded},
		messages.ToolSearchTool{Type: messages.ToolSearchBM25},
	)
	_, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	tools := lastBody(t, env)["tools"].([]any)
	require.Equal(t, "tool_search_tool_bm25", tools[4].(map[string]any)["name"])

	var assistant messages.Blocks
	var user messages.Blocks
	for _, tc := range newerBlockCases {
		switch b := tc.block.(type) {
		case messages.ToolResultBlock, messages.ImageBlock:
			user = append(user, b)
		case messages.ToolUseBlock:
			assistant = append(assistant, b)
		case messages.ContainerUploadBlock:
			assistant = append(assistant, b)
		default:
			id := toolUseIDOf(t, b)
			assistant = append(assistant, messages.ServerToolUseBlock{ID: id, Name: "web_fetch", Input: json.RawMessage(`{}`)}, b)
		}
	}
	p = prompt("Fetch, search and edit")
	p.Tools = messages.FromTools(weather)
	p.Messages = append(p.Messages,
		messages.MessageParam{Role: messages.RoleAssistant, Content: assistant},
		messages.MessageParam{Role: messages.RoleUser, Content: user})
	_, err = client.Messages.Create(ctx, p)
	require.NoError(t, err)
	sent := lastBody(t, env)["messages"].([]any)
	require.Len(t, sent[1].(map[string]any)["content"], len(assistant))
}

// toolUseIDOf is the tool_use_id of a result block.
func toolUseIDOf(t *testing.T, b messages.ContentBlock) string {
	t.Helper()
	data, err := json.Marshal(b)
	require.NoError(t, err)
	var w struct {
		ToolUseID string `json:"tool_use_id"`
	}
	require.NoError(t, json.Unmarshal(data, &w))
	require.NotEmpty(t, w.ToolUseID)
	return w.ToolUseID
}

// TestNewerEnumsRefusedLocally: a bad oversized_image or
// response_inclusion is refused before anything is sent.
func TestNewerEnumsRefusedLocally(t *testing.T) {
	env, client := newEnv(t)
	before := len(env.Server.Requests())
	for _, tc := range []struct {
		field string
		edit  func(p *messages.MessageParams)
	}{
		{"messages.0.content.0.image.transformations.oversized_image", func(p *messages.MessageParams) {
			p.Messages[0] = messages.UserBlocks(messages.ImageBlock{Source: messages.URLSource{URL: "https://example.com/a.png"},
				Transformations: &messages.ImageTransformations{OversizedImage: "crop"}})
		}},
		{"tools.0.web_search_20260318.response_inclusion", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{messages.WebSearchTool{Type: messages.WebSearch20260318, ResponseInclusion: "some"}}
		}},
		{"tools.0.web_fetch_20260318.response_inclusion", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{messages.WebFetchTool{Type: messages.WebFetch20260318, ResponseInclusion: "none"}}
		}},
		{"tools.0.web_fetch_20250910", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{messages.WebFetchTool{AllowedDomains: []string{"a"}, BlockedDomains: []string{"b"}}}
		}},
		{"tools", func(p *messages.MessageParams) {
			p.Tools = []messages.Tool{messages.ToolSearchTool{}, messages.ToolSearchTool{Type: messages.ToolSearchRegex}}
		}},
	} {
		p := prompt("Hi")
		tc.edit(&p)
		_, err := client.Messages.Create(ctx, p)
		var invalid *apierror.ValidationError
		require.True(t, errors.As(err, &invalid), "%s: %v", tc.field, err)
		require.Equal(t, tc.field, invalid.Field)
	}
	require.Equal(t, before, len(env.Server.Requests()), "nothing is sent")

	// The server refuses them too when they come as raw JSON.
	bad, err := messages.RawTool(json.RawMessage(`{"type":"web_fetch_20260318","name":"web_fetch","response_inclusion":"none"}`))
	require.NoError(t, err)
	p := prompt("Hi")
	p.Tools = []messages.Tool{bad}
	_, err = client.Messages.Create(ctx, p)
	require.ErrorContains(t, err, "tools.0.web_fetch_20260318.response_inclusion: Input should be 'full' or 'excluded'")

	// A tool_choice may name the newer tools.
	p = prompt("Hi")
	p.Tools = []messages.Tool{messages.WebFetchTool{}, messages.ToolSearchTool{Type: messages.ToolSearchBM25}}
	p.ToolChoice = messages.ToolChoiceTool{Name: "tool_search_tool_bm25"}
	_, err = client.Messages.Create(ctx, p)
	require.NoError(t, err)
}
