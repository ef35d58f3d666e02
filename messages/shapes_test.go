package messages_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

func fast(p *messages.MessageParams) {
	p.Extra = map[string]json.RawMessage{"speed": json.RawMessage(`"fast"`)}
}

// TestUsageSpeedFromServer: usage.speed is the request's speed, or
// standard, decoded into Usage.Speed by Create and by a stream.
func TestUsageSpeedFromServer(t *testing.T) {
	_, client := newEnv(t)
	m, err := client.Messages.Create(ctx, prompt("Hello there"))
	require.NoError(t, err)
	require.Equal(t, messages.SpeedStandard, m.Usage.Speed)
	require.NotContains(t, m.Usage.Extra, "speed")

	m, err = client.Messages.Create(ctx, with(prompt("Hello there"), fast), option.WithBeta("fast-mode-2026-02-01"))
	require.NoError(t, err)
	require.Equal(t, messages.SpeedFast, m.Usage.Speed)

	st, err := client.Messages.Stream(ctx, with(prompt("Hello there"), fast), option.WithBeta("fast-mode-2026-02-01"))
	require.NoError(t, err)
	defer st.Close()
	streamed, err := st.Message()
	require.NoError(t, err)
	require.Equal(t, messages.SpeedFast, streamed.Usage.Speed)
	require.NotContains(t, streamed.Usage.Extra, "speed")
}

// TestDiagnosticsFromServer: the server sends diagnostics (null), and the
// SDK knows the member in Create and in a stream.
func TestDiagnosticsFromServer(t *testing.T) {
	_, client := newEnv(t)
	var raw map[string]json.RawMessage
	require.NoError(t, client.Execute(ctx, http.MethodPost, "/v1/messages", prompt("Hello there"), &raw))
	require.Contains(t, raw, "diagnostics")
	require.JSONEq(t, `null`, string(raw["diagnostics"]))

	m, err := client.Messages.Create(ctx, prompt("Hello there"))
	require.NoError(t, err)
	require.Nil(t, m.Diagnostics)
	require.NotContains(t, m.Extra, "diagnostics")

	st, err := client.Messages.Stream(ctx, prompt("Hello there"))
	require.NoError(t, err)
	defer st.Close()
	streamed, err := st.Message()
	require.NoError(t, err)
	require.Nil(t, streamed.Diagnostics)
	require.NotContains(t, streamed.Extra, "diagnostics")
}

// TestServerMessageRoundTrips: a response of the server, speed and
// diagnostics included, decodes with nothing unknown and encodes back to
// the same JSON.
func TestServerMessageRoundTrips(t *testing.T) {
	_, client := newEnv(t)
	var raw json.RawMessage
	require.NoError(t, client.Execute(ctx, http.MethodPost, "/v1/messages", prompt("Hello there"), &raw))
	m, ok := wiretest.RoundTrip(t, raw, func(b []byte) (messages.Message, error) {
		var m messages.Message
		err := json.Unmarshal(b, &m)
		return m, err
	}, true)
	require.True(t, ok, "%s", raw)
	require.Empty(t, m.Extra)
	require.Empty(t, m.Usage.Extra)
}

// TestDiagnosticsDecodeAndAccumulate: diagnostics set on message_start
// stay on the accumulated message, and a message with them encodes back
// unchanged.
func TestDiagnosticsDecodeAndAccumulate(t *testing.T) {
	const start = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],` +
		`"stop_reason":null,"stop_sequence":null,"stop_details":null,"container":null,` +
		`"diagnostics":{"cache_miss_reason":{"type":"messages_changed","cache_missed_input_tokens":812}},` +
		`"usage":{"input_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,` +
		`"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":1,` +
		`"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard","speed":"fast"}}}`
	var ev messages.MessageStartEvent
	require.NoError(t, json.Unmarshal([]byte(start), &ev))
	var acc messages.Accumulator
	require.NoError(t, acc.Add(ev))
	require.NoError(t, acc.Add(messages.MessageDeltaEvent{Delta: messages.MessageDelta{StopReason: messages.StopEndTurn}}))
	require.NoError(t, acc.Add(messages.MessageStopEvent{}))
	m := acc.Message()
	require.Equal(t, &messages.Diagnostics{CacheMissReason: &messages.CacheMissReason{
		Type: messages.CacheMissMessagesChanged, CacheMissedInputTokens: 812}}, m.Diagnostics)
	require.Equal(t, messages.SpeedFast, m.Usage.Speed)

	out, err := json.Marshal(ev)
	require.NoError(t, err)
	require.NoError(t, wiretest.SameJSON([]byte(start), out))
}

// TestErrorCodeFromServer: an error with a stable code carries it in
// error.details.error_code, which the SDK exposes as ErrorCode.
func TestErrorCodeFromServer(t *testing.T) {
	_, client := newEnv(t)
	tool := map[string]any{"name": "weather", "description": "Weather.", "input_schema": map[string]any{"type": "object"}}
	body := map[string]any{"model": "vendor-sonnet-5-5", "max_tokens": 16,
		"messages": []any{map[string]any{"role": "user", "content": "hi"}}, "tools": []any{tool, tool}}
	err := client.Execute(ctx, http.MethodPost, "/v1/messages", body, nil)
	var apiErr *apierror.Error
	require.True(t, errors.As(err, &apiErr), "%v", err)
	require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	require.Equal(t, "tool_name_conflict", apiErr.ErrorCode)
	require.JSONEq(t, `{"error_code":"tool_name_conflict"}`, string(apiErr.Details))
}
