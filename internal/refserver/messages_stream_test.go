package refserver_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Streaming /v1/messages (docs/messages-wire.md 5): framing, order,
// chunking, accumulation, mid-stream errors and cuts.

func TestMessagesStreamBytes(t *testing.T) {
	e := newEnv(t)
	_, r := e.stream(t, `{"model":"vendor-sonnet-5-5","max_tokens":1024,"stream":true,"messages":[{"role":"user","content":"Hello there"}]}`)
	delta := func(text string) string {
		return "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + text + "\"}}\n\n"
	}
	want := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_010000000000000000000001\",\"type\":\"message\",\"role\":\"assistant\"," +
		"\"model\":\"vendor-sonnet-5-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"stop_details\":null,\"container\":null,\"diagnostics\":null," +
		"\"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"cache_creation\":{\"ephemeral_5m_input_tokens\":0," +
		"\"ephemeral_1h_input_tokens\":0},\"output_tokens\":1,\"output_tokens_details\":null,\"server_tool_use\":null,\"service_tier\":\"standard\",\"inference_geo\":\"global\",\"speed\":\"standard\"}}}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\",\"citations\":null}}\n\n" +
		"event: ping\ndata: {\"type\":\"ping\"}\n\n" +
		delta("You") + delta(" said:") + delta(" Hello") + delta(" there") +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"stop_details\":null,\"container\":null}," +
		"\"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":6,\"output_tokens_details\":null,\"server_tool_use\":null}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	if string(r.body) != want {
		t.Fatalf("stream\n%s\nwant\n%s", r.body, want)
	}
}

// TestMessagesStreamContractExample checks every frame of the complete
// stream in docs/messages-wire.md 5.10;
// the id, tool id and signature are the ones this server derives.
func TestMessagesStreamContractExample(t *testing.T) {
	ref := newEnv(t, refserver.WithThinkingKey(testThinkingKey))
	toolID := contentOf(ref.message(t, weatherRequest))[2]["id"].(string)
	e := newEnv(t, refserver.WithThinkingKey(testThinkingKey))
	frames, _ := e.stream(t, streamOf(weatherRequest))
	sig := signature(testThinkingKey, sonnet, "The user asked: What is the weather in Paris? Use get_weather {\"location\": \"Paris\"}")
	want := []string{
		`{"type":"message_start","message":{"id":"msg_010000000000000000000001","type":"message","role":"assistant","model":"vendor-sonnet-5-5","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"container":null,"diagnostics":null,"usage":{"input_tokens":21,"cache_creation_input_tokens":51,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":51},"output_tokens":1,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard","inference_geo":"global","speed":"standard"}}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
		`{"type":"ping"}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user asked: What is the weather in"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" Paris? Use get_weather {\"location\": \"Paris\"}"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"` + sig + `"}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"","citations":null}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"I'll"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" use"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" get_weather."}}`,
		`{"type":"content_block_stop","index":1}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"` + toolID + `","name":"get_weather","input":{},"caller":{"type":"direct"}}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"location\":\"Par"}}`,
		`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"is\"}"}}`,
		`{"type":"content_block_stop","index":2}`,
		`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"container":null},"usage":{"input_tokens":21,"cache_creation_input_tokens":51,"cache_read_input_tokens":0,"output_tokens":35,"output_tokens_details":{"thinking_tokens":21},"server_tool_use":null}}`,
		`{"type":"message_stop"}`,
	}
	if len(frames) != len(want) {
		t.Fatalf("%d frames, want %d: %q", len(frames), len(want), frameTypes(frames))
	}
	for i, w := range want {
		if frames[i].data != w {
			t.Fatalf("frame %d\n got %s\nwant %s", i, frames[i].data, w)
		}
	}
}

func TestMessagesStreamNoArgumentTool(t *testing.T) {
	e := newEnv(t)
	body := `{"model":"vendor-sonnet-5-5","max_tokens":1024,"tools":[{"name":"get_time","description":"Current time","input_schema":{"type":"object","properties":{}}}],` +
		`"messages":[{"role":"user","content":"Call get_time please"}]}`
	frames, _ := e.stream(t, streamOf(body))
	id := contentOf(e.message(t, body))[1]["id"].(string)
	tail := []string{
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"` + id + `","name":"get_time","input":{},"caller":{"type":"direct"}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`,
		`{"type":"content_block_stop","index":1}`,
	}
	for i, w := range tail {
		if got := frames[len(frames)-5+i].data; got != w {
			t.Fatalf("frame %d\n got %s\nwant %s", i, got, w)
		}
	}
	msg, _ := accumulate(t, frames)
	if u := usageOf(msg); num(u["input_tokens"]) != 37 || num(u["output_tokens"]) != 8 || msg["stop_reason"] != "tool_use" {
		t.Fatalf("%s", mustMarshal(msg))
	}
}

// TestMessagesStreamEqualsMessage: for the same request, the accumulated
// stream equals the non-streamed message except its id (5.9).
func TestMessagesStreamEqualsMessage(t *testing.T) {
	tools := `"tools":[{"name":"get_time","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]`
	doc := `{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"Quarterly revenue rose 12%. Costs were flat."},` +
		`"title":"Q3 memo","citations":{"enabled":true}},{"type":"text","text":"Summarize"}]}`
	mcp := `"mcp_servers":[{"type":"url","url":"https://m.example","name":"docs"}],"tools":[{"type":"mcp_toolset","mcp_server_name":"docs"}]`
	cases := []struct {
		name, body string
		mods       []mod
	}{
		{"plain", msgReq(sonnet, "Hello there", ""), nil},
		{"thinking, text and a tool, cached", weatherRequest, nil},
		{"omitted thinking and redacted", `{"model":"vendor-opus-5-5","max_tokens":4096,"thinking":{"type":"enabled","budget_tokens":2048,"display":"omitted"},` +
			`"messages":[{"role":"user","content":"Think about it [[refserver:redact]]"}]}`, nil},
		{"long thinking", msgReq(opus, strings.Repeat("word ", 60), `"thinking":{"type":"adaptive"}`), nil},
		{"unicode tool input", msgReq(sonnet, `get_time {"city": "Zürich — 東京東京東京東京 ✓"}`, tools), nil},
		{"synthesized input", msgReq(sonnet, "get_time", tools), nil},
		{"web search", msgReq(sonnet, "web_search go 1.26", `"tools":[{"type":"web_search_20260209","name":"web_search"}]`), nil},
		{"code and container", msgReq(sonnet, "code_execution echo hi", `"tools":[{"type":"code_execution_20260120","name":"code_execution"}]`), nil},
		{"mcp", msgReq(sonnet, "mcp:docs/echo", mcp), []mod{mcpBeta}},
		{"citations", withMessages(doc), nil},
		{"stop sequence", msgReq(sonnet, "Hello there", `"stop_sequences":["there"]`), nil},
		{"max_tokens cut", strings.Replace(msgReq(sonnet, "Hello there", ""), `"max_tokens":1024`, `"max_tokens":3`, 1), nil},
		{"max_tokens 0", strings.Replace(msgReq(sonnet, "Hello there", ""), `"max_tokens":1024`, `"max_tokens":0`, 1), nil},
		{"refusal", msgReq(opus, "x [[refserver:refuse bio]]", ""), nil},
		{"fallback", msgReq(opus, "Hello there [[refserver:refuse cyber]]", `"fallbacks":"default"`), []mod{fallbackBeta}},
		{"every hop refuses", msgReq(opus, "x [[refserver:refuse all]]", `"fallbacks":"default"`), []mod{fallbackBeta}},
		{"json output", base(`"output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}}`), nil},
		{"prefill", withMessages(`{"role":"user","content":"Hello there"},{"role":"assistant","content":"You said:"}`), nil},
		{"trailing whitespace", msgReq(sonnet, "[[refserver:say  a  b  ]]", ""), nil},
		{"forced stop reason", msgReq(sonnet, "x [[refserver:stop_reason pause_turn]]", ""), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plain := newEnv(t, refserver.WithThinkingKey(testThinkingKey))
			streamed := newEnv(t, refserver.WithThinkingKey(testThinkingKey))
			want := plain.message(t, c.body, c.mods...)
			frames, _ := streamed.stream(t, streamOf(c.body), c.mods...)
			got, errEvent := accumulate(t, frames)
			if errEvent != nil {
				t.Fatalf("error event %v", errEvent)
			}
			sameMessage(t, got, want)
			// Exactly one ping: after the first content_block_start, or
			// after message_start when there is no block.
			var pings []int
			for i, fr := range frames {
				if fr.typ == "ping" {
					pings = append(pings, i)
				}
			}
			wantAt := 2
			if len(contentOf(want)) == 0 {
				wantAt = 1
			}
			if len(pings) != 1 || pings[0] != wantAt {
				t.Fatalf("pings at %v: %q", pings, frameTypes(frames))
			}
			// Result, fallback and redacted blocks arrive whole.
			for i, fr := range frames {
				if fr.typ != "content_block_start" {
					continue
				}
				blk := fr.object(t)["content_block"].(map[string]any)
				switch blk["type"] {
				case "fallback", "redacted_thinking", "web_search_tool_result", "bash_code_execution_tool_result", "mcp_tool_result":
					next := frames[i+1]
					if next.typ == "ping" {
						next = frames[i+2]
					}
					if next.typ != "content_block_stop" {
						t.Fatalf("%v block has deltas", blk["type"])
					}
				}
			}
		})
	}
}

func TestMessagesStreamInputChunks(t *testing.T) {
	e := newEnv(t)
	frames, _ := e.stream(t, streamOf(msgReq(sonnet, `get_time {"city": "東京東京東京東京東京東京"}`, `"tools":[`+timeTool+`]`)))
	var pieces []string
	for _, fr := range frames {
		if d, ok := fr.object(t)["delta"].(map[string]any); ok && d["type"] == "input_json_delta" {
			pieces = append(pieces, d["partial_json"].(string))
		}
	}
	if pieces[0] != "" || strings.Join(pieces, "") != `{"city":"東京東京東京東京東京東京"}` {
		t.Fatalf("pieces %q", pieces)
	}
	for _, p := range pieces {
		if len(p) > 16 || !isValidUTF8(p) {
			t.Fatalf("piece %q", p)
		}
	}
}

func isValidUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func TestMessagesStreamOverloadExact(t *testing.T) {
	e := newEnv(t)
	_, r := e.stream(t, `{"model":"vendor-sonnet-5-5","max_tokens":1024,"stream":true,"messages":[{"role":"user","content":"Hello there [[refserver:error overloaded_error after=3]]"}]}`)
	frames := parseFrames(t, r.body)
	if got := frameTypes(frames); !slices.Equal(got, []string{"message_start", "content_block_start", "ping", "content_block_delta", "error"}) {
		t.Fatalf("frames %q", got)
	}
	want := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"` + r.header.Get("request-id") + `"}`
	if frames[4].data != want || !strings.Contains(frames[0].data, `"input_tokens":21`) || frames[3].data != `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"You"}}` {
		t.Fatalf("frames %v", frames)
	}
	msg, errEvent := accumulate(t, frames)
	if errEvent == nil || contentOf(msg)[0]["text"] != "You" {
		t.Fatalf("partial %v %v", msg, errEvent)
	}
	// after=0: the error is the first event; an after= past the end never fires.
	frames, _ = e.stream(t, streamOf(msgReq(sonnet, "x [[refserver:error api_error after=0]]", "")))
	if got := frameTypes(frames); !slices.Equal(got, []string{"error"}) || !strings.Contains(frames[0].data, `"type":"api_error","message":"Internal server error"`) {
		t.Fatalf("after=0 %q", got)
	}
	frames, _ = e.stream(t, streamOf(msgReq(sonnet, "x [[refserver:error rate_limit_error after=50]]", "")))
	if got := frameTypesNoPing(frames); got[len(got)-1] != "message_stop" {
		t.Fatalf("after past the end %q", got)
	}
}

func TestMessagesStreamFaults(t *testing.T) {
	e := newEnv(t)
	// A StreamCutAfter fault with a Status ends the stream with an error event.
	e.srv.InjectFault(refserver.Fault{Path: "/v1/messages", Status: 529, StreamCutAfter: 2})
	frames, r := e.stream(t, streamOf(msgReq(sonnet, "Hello there", "")))
	if got := frameTypes(frames); !slices.Equal(got, []string{"message_start", "content_block_start", "error"}) {
		t.Fatalf("frames %q", got)
	}
	want := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded (injected fault)"},"request_id":"` + r.header.Get("request-id") + `"}`
	if frames[2].data != want {
		t.Fatalf("error %s", frames[2].data)
	}
	// Without a Status the connection drops mid-body.
	e.srv.InjectFault(refserver.Fault{Path: "/v1/messages", StreamCutAfter: 3})
	req, _ := http.NewRequest("POST", e.url+"/v1/messages", strings.NewReader(streamOf(msgReq(sonnet, "Hello there", ""))))
	req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
	req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
	res, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err == nil || strings.Count(string(body), "event: ") != 4 {
		t.Fatalf("not cut: %v\n%s", err, body)
	}
	// A fault with a Status alone answers before the stream, as JSON.
	e.srv.InjectFault(refserver.Fault{Path: "/v1/messages", Status: 529})
	wantError(t, e.do(t, "POST", "/v1/messages", streamOf(base(""))), 529, "overloaded_error", "Overloaded (injected fault)")
	// A StreamCutAfter fault does nothing to a JSON response (but is used up).
	e.srv.InjectFault(refserver.Fault{Path: "/v1/messages", Status: 529, StreamCutAfter: 1})
	wantOK(t, e.do(t, "POST", "/v1/messages", base("")))
	frames, _ = e.stream(t, streamOf(base("")))
	if frameTypes(frames)[len(frames)-1] != "message_stop" {
		t.Fatal("the fault was not used up")
	}
}

// The delay directive holds every frame until the server clock has moved
// past it, and keep-alive pings flow while a frame waits. The test moves
// the clock one delay each time a frame waits on it (ClockWaitForTest), and
// after message_start (before which no ping is due) only once it has read a
// ping since its last move: each frame is released by the test, and every
// wait after the first shows a ping, however fast or slow the machine.
func TestMessagesStreamDelayAndKeepAlive(t *testing.T) {
	e := newEnv(t, refserver.WithPingInterval(2*time.Millisecond))
	ctx, cancel := context.WithTimeout(t.Context(), streamWait) // a safety net, not an assertion
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", e.url+"/v1/messages", strings.NewReader(streamOf(msgReq(sonnet, "Hi [[refserver:delay 1000]]", ""))))
	req.Header.Set("Authorization", "Bearer "+e.seed.APIKey)
	req.Header.Set("vendor-workspace-id", e.seed.DefaultWorkspaceID)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}

	var pinged atomic.Bool // a ping was read since the clock last moved
	done := make(chan struct{})
	advances := make(chan int, 1)
	go func() {
		n := 0
		defer func() { advances <- n }()
		for {
			for !e.srv.ClockWaitForTest() || n > 0 && !pinged.Load() {
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
				}
			}
			pinged.Store(false)
			e.clock.Advance(time.Second) // the delay: one frame
			n++
		}
	}()
	br := bufio.NewReader(res.Body)
	var frames []sseFrame
	for {
		fr, err := readFrame(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("frame %d: %v", len(frames), err)
		}
		if fr.typ == "ping" {
			pinged.Store(true)
		}
		frames = append(frames, fr)
	}
	close(done)
	advanced := <-advances

	pings := 0
	for _, fr := range frames {
		if fr.typ == "ping" {
			pings++
		}
	}
	noPing := frameTypesNoPing(frames)
	if pings < 2 || len(noPing) == 0 || noPing[len(noPing)-1] != "message_stop" || advanced < len(noPing) {
		t.Fatalf("%d pings, %d advances: %q", pings, advanced, frameTypes(frames))
	}
	msg, _ := accumulate(t, frames)
	if contentOf(msg)[0]["text"] != "You said: Hi" {
		t.Fatalf("%s", mustMarshal(msg))
	}
}
