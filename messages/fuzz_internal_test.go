package messages

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The round trip every wire type of the package promises: a value decoded
// from the wire marshals, and the result decodes again to an equal value
// (cmp.Diff empty). The fuzz targets check it on any input that decodes;
// TestCorporaRoundTrip (roundtrip_internal_test.go) checks, on the seeds
// below and the corpora under testdata, that the encoding is also the wire
// text itself, up to null members.

// Kinds of wire value, by the first argument of FuzzValueRoundTrip.
const (
	kindBlock = iota
	kindCitation
	kindSource
	kindCodeContent
	kindContent
	kindMessage
	kindMessageParam
	kindWebSearchContent
	kindDelta
	numKinds
)

// decodeKind decodes data as a value of the kind, as the SDK decodes it:
// unions as a field of their interface type is decoded, the others with
// their UnmarshalJSON.
func decodeKind(kind int, data []byte) (any, error) {
	switch kind {
	case kindBlock:
		return decodeUnion[ContentBlock](data)
	case kindCitation:
		return decodeUnion[Citation](data)
	case kindSource:
		return decodeUnion[Source](data)
	case kindCodeContent:
		return decodeUnion[CodeExecutionContent](data)
	case kindContent:
		return decodeUnion[Content](data)
	case kindMessage:
		return decodeType[Message](data)
	case kindMessageParam:
		return decodeType[MessageParam](data)
	case kindWebSearchContent:
		return decodeUnion[WebSearchContent](data)
	default:
		return decodeUnion[Delta](data)
	}
}

func decodeUnion[T any](data []byte) (any, error) {
	var v T
	err := wire.Unmarshal(data, &v, unions)
	return v, err
}

func decodeType[T any](data []byte) (any, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// valueSeeds are wire values of every kind: the examples of
// docs/messages-wire.md sections 3 and 4, kinds newer than this SDK, and
// malformed input.
var valueSeeds = []struct {
	kind uint8
	data string
}{
	// Blocks, as docs/messages-wire.md section 3 shows them.
	{kindBlock, `{"type": "text", "text": "The document says: ", "citations": null}`},
	{kindBlock, `{"type":"text","text":"Quarterly revenue rose 12%.","citations":[{"type":"char_location","cited_text":"Quarterly revenue rose 12%.","document_index":0,"document_title":"Q3 memo","start_char_index":0,"end_char_index":27,"file_id":null},{"type":"future_location","x":1}],"cache_control":{"type":"ephemeral","ttl":"1h"}}`},
	{kindBlock, `{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}`},
	{kindBlock, `{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Quarterly revenue rose 12%."},"title":"Q3 memo","context":"Internal","citations":{"enabled":true}}`},
	{kindBlock, `{"type":"document","source":{"type":"content","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","url":"https://e.com/a.png"}}]}}`},
	{kindBlock, `{"type":"document","source":{"type":"s3","bucket":"b"}}`},
	{kindBlock, `{"type":"search_result","source":"kb://1","title":"t","content":[{"type":"text","text":"x"}],"citations":{"enabled":false}}`},
	{kindBlock, `{"type": "tool_use", "id": "toolu_01FbXcfAkW7TGhzDtCCcxfAh", "name": "get_weather", "input": {"location": "Paris"}, "caller": {"type": "direct"}}`},
	{kindBlock, `{"type":"tool_use","id":"toolu_1","name":"get_time","input":{}}`},
	{kindBlock, `{"type": "tool_result", "tool_use_id": "toolu_01FbXcfAkW7TGhzDtCCcxfAh", "content": [{"type": "text", "text": "15 degrees, sunny"}], "is_error": false}`},
	{kindBlock, `{"type":"tool_result","tool_use_id":"toolu_1","content":"15 degrees, sunny","is_error":true}`},
	{kindBlock, `{"type": "thinking", "thinking": "The user asked: …", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrk"}`},
	{kindBlock, `{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"}`},
	{kindBlock, `{"type": "server_tool_use", "id": "srvtoolu_014hJH82Qum7Td6UV8gDXThB", "name": "web_search", "input": {"query": "go 1.26 release notes"}, "caller": {"type": "direct"}}`},
	{kindBlock, `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"https://example.com/search/1","title":"Result 1","encrypted_content":"Z28=","page_age":null}],"caller":{"type":"direct"}}`},
	{kindBlock, `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"web_search_tool_result_error","error_code":"max_uses_exceeded"}}`},
	{kindBlock, `{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_01Vh7mTqW3kC2xRsB8nLpD4e","content":{"type":"code_execution_result","stdout":"print(2+2)\n","stderr":"","return_code":0,"content":[{"type":"code_execution_output","file_id":"file_1"}]}}`},
	{kindBlock, `{"type":"bash_code_execution_tool_result","tool_use_id":"srvtoolu_2","content":{"type":"bash_code_execution_tool_result_error","error_code":"unavailable"}}`},
	{kindBlock, `{"type": "mcp_tool_use", "id": "mcptoolu_014Q35RayjACSWkSj4X2yov1", "name": "echo", "server_name": "example-mcp", "input": {"param1": "value1"}}`},
	{kindBlock, `{"type": "mcp_tool_result", "tool_use_id": "mcptoolu_014Q35RayjACSWkSj4X2yov1", "is_error": false, "content": [{"type": "text", "text": "echo ok"}]}`},
	{kindBlock, `{"type": "fallback", "from": {"model": "vendor-opus-5-5"}, "to": {"model": "vendor-sonnet-5-5"}}`},
	{kindBlock, `{"type":"web_fetch_tool_result","tool_use_id":"srvtoolu_3","content":{"type":"web_fetch_result","url":"https://e.com"}}`},
	{kindBlock, ` {"type":"container_upload", "file_id":"file_9"} `},
	{kindBlock, `{"type":"text"`},
	{kindBlock, `{"text":"no type"}`},
	{kindCitation, `{"type":"page_location","cited_text":"p","document_index":1,"document_title":null,"start_page_number":1,"end_page_number":2,"file_id":"file_1"}`},
	{kindCitation, `{"type":"web_search_result_location","cited_text":"w","url":"https://example.com","title":"Example","encrypted_index":"Eo8="}`},
	{kindCitation, `{"type":"search_result_location","cited_text":"s","search_result_index":0,"source":"kb://1","title":null,"start_block_index":0,"end_block_index":1}`},
	{kindSource, `{"type":"file","file_id":"file_011CNha8iCJcU1wXNR6q4V8w"}`},
	{kindSource, `null`},
	{kindCodeContent, `{"type":"bash_code_execution_result","stdout":"","stderr":"x","return_code":1,"content":[{"type":"bash_code_execution_output","file_id":"f"}]}`},
	{kindContent, `"plain text"`},
	{kindContent, `[{"type":"text","text":"a"},{"type":"future","nested":{"deep":[1,2.5e3,true,null]}}]`},
	// Messages, as docs/messages-wire.md section 4.4 shows them.
	{kindMessage, `{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"vendor-sonnet-5-5","content":[{"type":"text","text":"You said: Hello there","citations":null}],"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":6,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard","inference_geo":"global"}}`},
	{kindMessage, `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"location":"Paris"},"caller":{"type":"direct"}}],"stop_reason":"refusal","stop_details":{"type":"refusal","category":"cyber","explanation":null},"container":{"id":"container_1","expires_at":"2026-03-15T10:00:00.000000Z"},"usage":{"iterations":[{"type":"message","model":"m","cache_creation":null}]}}`},
	{kindMessage, `{"id":"msg_2","type":"message","role":"assistant","model":"m","content":[],"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"container":null,"diagnostics":{"cache_miss_reason":{"type":"tools_changed","cache_missed_input_tokens":1200,"hint":"x"}},"usage":{"input_tokens":1,"output_tokens":1,"service_tier":"standard","speed":"fast"}}`},
	{kindMessage, `{"id":"msg_3","type":"message","role":"assistant","model":"m","content":[],"stop_reason":"end_turn","diagnostics":{"cache_miss_reason":null},"usage":{"speed":"turbo"}}`},
	{kindMessage, `{"id":"msg_4","type":"message","role":"assistant","model":"m","content":[],"stop_reason":"end_turn","diagnostics":{"cache_miss_reason":{"type":"previous_message_not_found"}},"usage":{}}`},
	{kindMessageParam, `{"role":"user","content":"Hello there"}`},
	{kindMessageParam, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","content":"15 degrees, sunny"}]}`},
	{kindWebSearchContent, `[{"type":"web_search_result","url":"https://example.com/search/1","title":"Result 1","encrypted_content":"Z28=","page_age":"2 days ago","rank":1}]`},
	{kindWebSearchContent, `{"type":"web_search_tool_result_error","error_code":"unavailable"}`},
	{kindWebSearchContent, `{"type":"web_search_future","x":1}`},
	{kindDelta, `{"type":"text_delta","text":"I'll","future":true}`},
	{kindDelta, `{"type":"compaction_delta","content":"…"}`},
}

// eventSeeds are stream events: every frame of the stream of
// docs/messages-wire.md section 5, events and deltas newer than this SDK,
// and malformed data.
var eventSeeds = []struct{ typ, data string }{
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
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","thinking":"b"}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text\u005fdelta","text":"a\u00e9"}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","text":5}}`},
	{"content_block_delta", `{"index":0,"delta":{"text":"a","type":"text_delta"},"type":"content_block_delta","future":{"x" : 1}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":null}`},
	{"message_progress", `{"type":"message_progress","done":0.5}`},
	{"message_stop", `not json`},
	{"future", `{"type":"future",`},
	{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"x"}} trailing`},
}

// FuzzValueRoundTrip checks the round trip of every union of the package
// (content blocks, their sources, citations and result contents, message
// kindContent, deltas) and of the messages that hold them.
func FuzzValueRoundTrip(f *testing.F) {
	for _, seed := range valueSeeds {
		f.Add(seed.kind, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		k := int(kind) % numKinds
		v, err := decodeKind(k, data)
		if err != nil {
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%#v from %q does not marshal: %v", v, data, err)
		}
		again, err := decodeKind(k, out)
		if err != nil {
			t.Fatalf("%q, the encoding of %q, does not decode: %v", out, data, err)
		}
		if diff := cmp.Diff(v, again); diff != "" {
			t.Fatalf("%q -> %q changed the value (-first +second):\n%s", data, out, diff)
		}
	})
}

// FuzzStreamEventRoundTrip checks the round trip of the decoder of message
// streams, and that only JSON decodes.
func FuzzStreamEventRoundTrip(f *testing.F) {
	for _, seed := range eventSeeds {
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
		if ev == nil {
			t.Fatal("no event and no error")
		}
		if typ == "content_block_delta" { // the one-pass decoder agrees with the general one
			general, err := decodeAs[ContentBlockDeltaEvent](data)
			if err != nil {
				t.Fatalf("only the one-pass decoder reads %q: %v", data, err)
			}
			if diff := cmp.Diff(general, ev); diff != "" {
				t.Fatalf("the decoders differ on %q (-general +one-pass):\n%s", data, diff)
			}
		}
		out, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("%#v from %q does not marshal: %v", ev, data, err)
		}
		again, err := decodeEvent(typ, out)
		if err != nil {
			t.Fatalf("%q, the encoding of %q, does not decode: %v", out, data, err)
		}
		if diff := cmp.Diff(ev, again); diff != "" {
			t.Fatalf("%q -> %q changed the event (-first +second):\n%s", data, out, diff)
		}
	})
}
