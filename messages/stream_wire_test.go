package messages_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// Streams the reference server never sends (it is well behaved), served
// as recorded bytes by a purpose-built handler.

const (
	wireStart     = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"vendor-opus-5-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"stop_details\":null,\"container\":null,\"usage\":{\"input_tokens\":21,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"cache_creation\":{\"ephemeral_5m_input_tokens\":0,\"ephemeral_1h_input_tokens\":0},\"output_tokens\":1,\"output_tokens_details\":null,\"server_tool_use\":null,\"service_tier\":\"standard\",\"inference_geo\":\"global\"}}}\n\n"
	wireToolStart = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}\n\n"
	wireStop      = "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null,\"stop_details\":null,\"container\":null},\"usage\":{\"output_tokens\":9}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
)

func inputDelta(i int, partial string) string {
	return "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":" + string(rune('0'+i)) +
		",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" + partial + "}}\n\n"
}

func blockStop(i int) string {
	return "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":" + string(rune('0'+i)) + "}\n\n"
}

// recorded serves body as a message stream and returns a client for it.
func recorded(t *testing.T, body string) *agentplatform.Client { return recordedData(t, body) }

// recordedData serves body as an event stream, whatever its kind.
func recordedData(t *testing.T, body string) *agentplatform.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Header().Set("request-id", "req_recorded")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := agentplatform.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("key"))
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func readRecorded(t *testing.T, body string) ([]messages.StreamEvent, *messages.Message, error) {
	t.Helper()
	st, err := recorded(t, body).Messages.Stream(ctx, prompt("x"))
	require.NoError(t, err)
	defer st.Close()
	var evs []messages.StreamEvent
	var streamErr error
	for ev, err := range st.Events() {
		if err != nil {
			require.Nil(t, streamErr, "one error ends the stream")
			streamErr = err
			continue
		}
		evs = append(evs, ev)
	}
	m, err := st.Message()
	require.Equal(t, streamErr, err)
	return evs, m, err
}

func TestMalformedToolInputNamesTheBlock(t *testing.T) {
	for _, partial := range []string{`"{\"location\":\"Par"`, `"[1,2]"`, `"{\"a\":1}{"`, `"nul"`} {
		body := wireStart + wireToolStart + inputDelta(0, `""`) + inputDelta(0, partial) + blockStop(0) + wireStop
		_, m, err := readRecorded(t, body)
		var inErr *messages.InputError
		require.ErrorAs(t, err, &inErr, partial)
		require.Equal(t, 0, inErr.Index)
		require.Contains(t, err.Error(), "content block 0")
		require.NotEmpty(t, inErr.Raw)
		require.Equal(t, "{}", string(m.Content[0].(messages.ToolUseBlock).Input), "the partial message keeps the start's input, never a guess")
	}
}

func TestToolInputAssembledFromFragments(t *testing.T) {
	body := wireStart + wireToolStart + inputDelta(0, `""`) + inputDelta(0, `"{\"loc"`) + inputDelta(0, `"ation\": \"Pa\\u00efris\""`) +
		inputDelta(0, `"}"`) + blockStop(0) + wireStop
	_, m, err := readRecorded(t, body)
	require.NoError(t, err)
	require.Equal(t, `{"location": "Pa\u00efris"}`, string(m.Content[0].(messages.ToolUseBlock).Input), "the input is the JSON as sent")
	require.Equal(t, 9, m.Usage.OutputTokens)
	require.Equal(t, 21, m.Usage.InputTokens, "kept from message_start")

	// A tool with no arguments: one empty fragment, or none at all.
	for _, deltas := range []string{inputDelta(0, `""`), ""} {
		_, m, err = readRecorded(t, wireStart+wireToolStart+deltas+blockStop(0)+wireStop)
		require.NoError(t, err)
		require.Equal(t, "{}", string(m.Content[0].(messages.ToolUseBlock).Input))
	}
}

func TestStreamWithoutMessageStopIsUnexpectedEOF(t *testing.T) {
	body := wireStart + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\",\"citations\":null}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"lo\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" never dispatched\"}}\n"
	_, m, err := readRecorded(t, body)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
	require.Equal(t, "Hello", m.Text(), "the open block holds what arrived")
}

// TestStreamKeepsWhatItDoesNotKnow: unknown events and deltas are yielded
// raw and change nothing; pings, with or without data, are skipped;
// several message_deltas replace the usage, never add to it; a fallback
// block mid-output names the serving model.
func TestStreamKeepsWhatItDoesNotKnow(t *testing.T) {
	body := wireStart +
		"event: ping\n\n" +
		"event: ping\ndata: {\"type\":\"ping\"}\n\n" +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\",\"citations\":null}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"sparkle_delta\",\"sparkle\":\"*\"}}\n\n" +
		"event: future_event\ndata: {\"type\":\"future_event\",\"x\":1}\n\n" +
		blockStop(0) +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"fallback\",\"from\":{\"model\":\"vendor-opus-5-5\"},\"to\":{\"model\":\"vendor-sonnet-5-5\"}}}\n\n" +
		blockStop(1) +
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"brand_new_block\",\"payload\":[1]}}\n\n" +
		blockStop(2) +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"stop_details\":null,\"container\":null},\"usage\":{\"output_tokens\":5,\"server_tool_use\":{\"web_search_requests\":1,\"web_fetch_requests\":0}}}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"stop_details\":null,\"container\":null},\"usage\":{\"output_tokens\":7,\"server_tool_use\":null,\"input_tokens\":22}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	evs, m, err := readRecorded(t, body)
	require.NoError(t, err)
	var unknownDelta, unknownEvent bool
	for _, ev := range evs {
		switch ev := ev.(type) {
		case messages.ContentBlockDeltaEvent:
			if d, ok := ev.Delta.(messages.UnknownDelta); ok {
				unknownDelta = true
				require.Equal(t, "sparkle_delta", d.Type)
				require.JSONEq(t, `{"type":"sparkle_delta","sparkle":"*"}`, string(d.JSON))
			}
		case messages.UnknownStreamEvent:
			unknownEvent = true
			require.Equal(t, "future_event", ev.Type)
		}
	}
	require.True(t, unknownDelta)
	require.True(t, unknownEvent)
	require.Equal(t, "Hi", m.Text())
	require.Equal(t, "vendor-sonnet-5-5", m.Model, "the serving model, from the fallback block")
	require.Equal(t, "brand_new_block", m.Content[2].(messages.UnknownBlock).Type)
	require.Equal(t, 7, m.Usage.OutputTokens, "replaced, not summed")
	require.Equal(t, 22, m.Usage.InputTokens)
	require.Equal(t, &messages.ServerToolUsage{WebSearchRequests: 1}, m.Usage.ServerToolUse, "a null leaves the value")
}

func TestStreamOutOfOrder(t *testing.T) {
	text0 := "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
	for name, body := range map[string]string{
		"delta before start": wireStart + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n" + wireStop,
		"delta after stop":   wireStart + text0 + blockStop(0) + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n" + wireStop,
		"skipped index":      wireStart + strings.Replace(text0, `"index":0`, `"index":1`, 1) + wireStop,
		"event before start": text0 + wireStop,
		"json delta on text": wireStart + text0 + inputDelta(0, `"{}"`) + wireStop,
		"text delta on tool": wireStart + wireToolStart + "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n" + wireStop,
		"second start":       wireStart + wireStart + wireStop,
	} {
		_, _, err := readRecorded(t, body)
		require.ErrorIs(t, err, messages.ErrEventOrder, name)
	}
	_, _, err := readRecorded(t, wireStart+"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":\n\n"+wireStop)
	require.Error(t, err, "an event that does not decode ends the stream")
	require.False(t, errors.Is(err, messages.ErrEventOrder))
}

func TestAccumulatorAlone(t *testing.T) {
	var acc messages.Accumulator
	require.Nil(t, acc.Message())
	require.ErrorIs(t, acc.Add(messages.MessageStopEvent{}), messages.ErrEventOrder)
	require.NoError(t, acc.Add(messages.MessageStartEvent{Message: messages.Message{ID: "msg_1", Model: "m"}}))
	require.NoError(t, acc.Add(messages.ContentBlockStartEvent{Index: 0, ContentBlock: messages.ThinkingBlock{}}))
	require.NoError(t, acc.Add(messages.ContentBlockDeltaEvent{Index: 0, Delta: messages.ThinkingDelta{Thinking: "a"}}))
	snapshot := acc.Message()
	require.NoError(t, acc.Add(messages.ContentBlockDeltaEvent{Index: 0, Delta: messages.ThinkingDelta{Thinking: "b"}}))
	require.NoError(t, acc.Add(messages.ContentBlockDeltaEvent{Index: 0, Delta: messages.SignatureDelta{Signature: "s1"}}))
	require.NoError(t, acc.Add(messages.ContentBlockDeltaEvent{Index: 0, Delta: messages.SignatureDelta{Signature: "s2"}}))
	require.NoError(t, acc.Add(messages.ContentBlockStopEvent{Index: 0}))
	require.NoError(t, acc.Add(messages.MessageStopEvent{}))
	require.True(t, acc.Done())
	require.Equal(t, messages.ThinkingBlock{Thinking: "a"}, snapshot.Content[0], "a snapshot does not change")
	require.Equal(t, []messages.ContentBlock{messages.ThinkingBlock{Thinking: "ab", Signature: "s2"}}, acc.Message().Content, "the signature is set, not appended")
}
