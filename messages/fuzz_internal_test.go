package messages

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/union"
	"github.com/agentplatform/agentplatform-go/internal/union/uniontest"
)

// unmarshal decodes a struct that holds unions with its own UnmarshalJSON.
func unmarshal[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// member adapts a decoder of an object member's json.RawMessage, which is
// either nothing (no such key) or one JSON value exactly as encoding/json
// hands it over; inputs outside that domain never reach it and are skipped.
func member[T any](decode func(json.RawMessage) (T, error)) func([]byte) (T, error) {
	return func(b []byte) (T, error) { return decode(b) }
}

// isMember reports whether data is something encoding/json hands a
// json.RawMessage member: nothing, or a JSON value without white space
// around it.
func isMember(data []byte) bool {
	return len(data) == 0 || json.Valid(data) && len(bytes.Trim(data, " \t\r\n")) == len(data)
}

// unionChecks are the union decoders of the package and the structs that
// hold them, by the kind byte of FuzzDecodeUnion.
var unionChecks = []struct {
	check  func(*testing.T, []byte)
	member bool // only ever given what isMember accepts
}{
	{uniontest.Decoder[ContentBlock]{Decode: DecodeContentBlock}.Check, false},
	{uniontest.Decoder[Citation]{Decode: decodeCitation}.Check, false},
	{uniontest.Decoder[Source]{Decode: member(decodeSource), EmptyIsAbsent: true}.Check, true},
	{uniontest.Decoder[CodeExecutionContent]{Decode: member(decodeCodeContent), EmptyIsAbsent: true}.Check, true},
	{uniontest.Decoder[Content]{Decode: member(decodeContent), EmptyIsAbsent: true}.Check, true},
	{uniontest.Decoder[Message]{Decode: unmarshal[Message]}.Check, false},
	{uniontest.Decoder[MessageParam]{Decode: unmarshal[MessageParam]}.Check, false},
}

// FuzzDecodeUnion checks every union decoder of the package (content
// blocks, their sources, citations and result contents, chat parts) and
// the messages that hold them: no panic, no value from invalid JSON,
// unknown kinds kept byte for byte, and a stable round trip through
// json.Marshal (see uniontest).
func FuzzDecodeUnion(f *testing.F) {
	const (
		block = iota
		citation
		source
		codeContent
		content
		message
		messageParam
	)
	for _, seed := range []struct {
		kind uint8
		data string
	}{
		// Blocks, as docs/messages-wire.md section 3 shows them.
		{block, `{"type": "text", "text": "The document says: ", "citations": null}`},
		{block, `{"type":"text","text":"Quarterly revenue rose 12%.","citations":[{"type":"char_location","cited_text":"Quarterly revenue rose 12%.","document_index":0,"document_title":"Q3 memo","start_char_index":0,"end_char_index":27,"file_id":null},{"type":"future_location","x":1}],"cache_control":{"type":"ephemeral","ttl":"1h"}}`},
		{block, `{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}`},
		{block, `{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Quarterly revenue rose 12%."},"title":"Q3 memo","context":"Internal","citations":{"enabled":true}}`},
		{block, `{"type":"document","source":{"type":"content","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","url":"https://e.com/a.png"}}]}}`},
		{block, `{"type":"document","source":{"type":"s3","bucket":"b"}}`},
		{block, `{"type":"search_result","source":"kb://1","title":"t","content":[{"type":"text","text":"x"}],"citations":{"enabled":false}}`},
		{block, `{"type": "tool_use", "id": "toolu_01FbXcfAkW7TGhzDtCCcxfAh", "name": "get_weather", "input": {"location": "Paris"}, "caller": {"type": "direct"}}`},
		{block, `{"type":"tool_use","id":"toolu_1","name":"get_time","input":{}}`},
		{block, `{"type": "tool_result", "tool_use_id": "toolu_01FbXcfAkW7TGhzDtCCcxfAh", "content": [{"type": "text", "text": "15 degrees, sunny"}], "is_error": false}`},
		{block, `{"type":"tool_result","tool_use_id":"toolu_1","content":"15 degrees, sunny","is_error":true}`},
		{block, `{"type": "thinking", "thinking": "The user asked: …", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrk"}`},
		{block, `{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"}`},
		{block, `{"type": "server_tool_use", "id": "srvtoolu_014hJH82Qum7Td6UV8gDXThB", "name": "web_search", "input": {"query": "go 1.26 release notes"}, "caller": {"type": "direct"}}`},
		{block, `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://example.com/search/1","title":"Result 1","encrypted_content":"Z28=","page_age":null}],"caller":{"type":"direct"}}`},
		{block, `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`},
		{block, `{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_01Vh7mTqW3kC2xRsB8nLpD4e","content":{"type":"code_execution_result","stdout":"print(2+2)\n","stderr":"","return_code":0,"content":[{"type":"code_execution_output","file_id":"file_1"}]}}`},
		{block, `{"type":"bash_code_execution_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"bash_code_execution_tool_result_error","error_code":"unavailable"}}`},
		{block, `{"type": "mcp_tool_use", "id": "mcptoolu_014Q35RayjACSWkSj4X2yov1", "name": "echo", "server_name": "example-mcp", "input": {"param1": "value1"}}`},
		{block, `{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_014Q35RayjACSWkSj4X2yov1", "is_error": false, "content": [{"type": "text", "text": "echo ok"}]}`},
		{block, `{"type": "fallback", "from": {"model": "vendor-opus-5-5"}, "to": {"model": "vendor-sonnet-5-5"}}`},
		{block, `{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_3","content":{"type":"web_fetch_result","url":"https://e.com"}}`},
		{block, ` {"type":"container_upload", "file_id":"file_9"} `},
		{block, `{"type":"text"`},
		{block, `{"text":"no type"}`},
		{citation, `{"type":"page_location","cited_text":"p","document_index":1,"document_title":null,"start_page_number":1,"end_page_number":2,"file_id":"file_1"}`},
		{citation, `{"type":"web_search_result_location","cited_text":"w","url":"https://example.com","title":"Example","encrypted_index":"Eo8="}`},
		{citation, `{"type":"search_result_location","cited_text":"s","search_result_index":0,"source":"kb://1","title":null,"start_block_index":0,"end_block_index":1}`},
		{source, `{"type":"file","file_id":"file_011CNha8iCJcU1wXNR6q4V8w"}`},
		{source, `null`},
		{codeContent, `{"type":"bash_code_execution_result","stdout":"","stderr":"x","return_code":1,"content":[{"type":"bash_code_execution_output","file_id":"f"}]}`},
		{content, `"plain text"`},
		{content, `[{"type":"text","text":"a"},{"type":"future","nested":{"deep":[1,2.5e3,true,null]}}]`},
		// Messages, as docs/messages-wire.md section 4.4 shows them.
		{message, `{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"vendor-sonnet-5-5","content":[{"type":"text","text":"You said: Hello there","citations":null}],"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":6,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard","inference_geo":"global"}}`},
		{message, `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"location":"Paris"},"caller":{"type":"direct"}}],"stop_reason":"refusal","stop_details":{"type":"refusal","category":"cyber","explanation":null},"container":{"id":"container_1","expires_at":"2026-03-15T10:00:00Z"},"usage":{"iterations":[{"type":"message","model":"m","cache_creation":null}]}}`},
		{messageParam, `{"role":"user","content":"Hello there"}`},
		{messageParam, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","content":"15 degrees, sunny"}]}`},
	} {
		f.Add(seed.kind, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		c := unionChecks[int(kind)%len(unionChecks)]
		if c.member && !isMember(data) {
			t.Skip("not a member value")
		}
		c.check(t, data)
	})
}

// FuzzDecodeStreamEvent checks the decoder of message streams: no panic, no
// event from data that is not JSON, unknown events and deltas kept as
// received, and the blocks and messages events carry round-trip as their
// own decoders promise.
func FuzzDecodeStreamEvent(f *testing.F) {
	for _, seed := range []struct{ typ, data string }{
		// The stream of docs/messages-wire.md section 5, every frame.
		{"message_start", `{"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"vendor-sonnet-5-5","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":21,"cache_creation_input_tokens":51,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":51},"output_tokens":1,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard","inference_geo":"global"}}}`},
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user asked: What is the weather in"}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}}`},
		{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		{"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"","citations":null}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"I'll"}}`},
		{"content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{},"caller":{"type":"direct"}}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"location\":\"Par"}}`},
		{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"container":null},"usage":{"input_tokens":21,"cache_creation_input_tokens":51,"cache_read_input_tokens":0,"output_tokens":35,"output_tokens_details":{"thinking_tokens":21},"server_tool_use":null}}`},
		{"message_stop", `{"type":"message_stop"}`},
		// Deltas and events newer than this SDK, and malformed data.
		{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"c","document_index":0,"document_title":null,"start_char_index":0,"end_char_index":1,"file_id":null}}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":3,"delta":{"type":"compaction_delta","content":"…"}}`},
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_3","content":{}}}`},
		{"message_progress", `{"type":"message_progress","done":0.5}`},
		{"message_stop", `not json`},
		{"future", `{"type":"future",`},
		{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"x"}} trailing`},
	} {
		f.Add(seed.typ, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, typ string, data []byte) {
		ev, err := decodeEvent(typ, data)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("%q event decoded from invalid JSON as %#v: %q", typ, ev, data)
		}
		switch ev := ev.(type) {
		case nil:
			t.Fatal("no event and no error")
		case UnknownStreamEvent:
			if ev.Type != typ || !bytes.Equal(ev.JSON, data) {
				t.Fatalf("unknown event kept as %q %q, want %q %q", ev.Type, ev.JSON, typ, data)
			}
		case ContentBlockDeltaEvent:
			if u, ok := ev.Delta.(UnknownDelta); ok {
				if !json.Valid(u.JSON) || !bytes.Contains(data, u.JSON) {
					t.Fatalf("unknown delta kept as %q, not a part of %q", u.JSON, data)
				}
				if typ, err := union.Type(u.JSON); err == nil && typ != u.Type {
					t.Fatalf("unknown delta has type %q, its JSON %q", u.Type, typ)
				}
			}
		case ContentBlockStartEvent:
			uniontest.RoundTrip(t, ev.ContentBlock, DecodeContentBlock)
		case MessageStartEvent:
			uniontest.RoundTrip(t, ev.Message, unmarshal[Message])
		}
	})
}
