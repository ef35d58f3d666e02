package messages_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/messages"
)

// Every batch wire type decodes what the API sends, keeps what the SDK
// does not know, and writes it back.
func TestBatchWireRoundTrip(t *testing.T) {
	const batchJSON = `{"id":"msgbatch_1","type":"message_batch","processing_status":"ended",` +
		`"request_counts":{"processing":0,"succeeded":2,"errored":1,"canceled":0,"expired":0,"new_count":4},` +
		`"created_at":"2026-03-02T09:00:00.000000Z","expires_at":"2026-03-03T09:00:00.000000Z",` +
		`"ended_at":"2026-03-02T09:00:00.300000Z","cancel_initiated_at":null,"archived_at":null,` +
		`"results_url":"https://api.example/v1/messages/batches/msgbatch_1/results","future":{"a":1}}`
	var b messages.Batch
	require.NoError(t, json.Unmarshal([]byte(batchJSON), &b))
	require.Equal(t, messages.BatchEnded, b.ProcessingStatus)
	require.Equal(t, 2, b.RequestCounts.Succeeded)
	require.Equal(t, time.Date(2026, 3, 2, 9, 0, 0, 300_000_000, time.UTC), b.EndedAt)
	require.True(t, b.CancelInitiatedAt.IsZero())
	require.JSONEq(t, `{"a":1}`, string(b.Extra["future"]))
	require.JSONEq(t, `4`, string(b.RequestCounts.Extra["new_count"]))
	out, err := json.Marshal(b)
	require.NoError(t, err)
	var again messages.Batch
	require.NoError(t, json.Unmarshal(out, &again))
	require.Equal(t, b, again)

	var d messages.DeletedBatch
	require.NoError(t, json.Unmarshal([]byte(`{"id":"msgbatch_1","type":"message_batch_deleted","x":true}`), &d))
	out, err = json.Marshal(d)
	require.NoError(t, err)
	require.JSONEq(t, `{"id":"msgbatch_1","type":"message_batch_deleted","x":true}`, string(out))
}

func TestBatchResultRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		line string
		want messages.BatchResult
	}{
		{`{"custom_id":"a","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: bad"},"request_id":null}}}`,
			messages.BatchErrored{CustomID: "a", Error: messages.BatchError{Type: apierror.TypeInvalidRequest, Message: "max_tokens: bad"}}},
		{`{"custom_id":"b","result":{"type":"errored","error":{"type":"error","error":{"type":"api_error","message":"boom"},"request_id":"req_1"}}}`,
			messages.BatchErrored{CustomID: "b", Error: messages.BatchError{Type: apierror.TypeAPI, Message: "boom", RequestID: "req_1"}}},
		{`{"custom_id":"c","result":{"type":"canceled"}}`, messages.BatchCanceled{CustomID: "c"}},
		{`{"custom_id":"d","result":{"type":"expired"}}`, messages.BatchExpired{CustomID: "d"}},
		{`{"custom_id":"e","result":{"type":"postponed","until":"later"}}`,
			messages.BatchUnknown{CustomID: "e", Type: "postponed", Result: json.RawMessage(`{"type":"postponed","until":"later"}`)}},
	} {
		r, err := messages.UnmarshalBatchResult([]byte(tc.line))
		require.NoError(t, err, tc.line)
		require.Equal(t, tc.want, r)
		out, err := json.Marshal(r)
		require.NoError(t, err)
		require.JSONEq(t, tc.line, string(out))
	}

	const ok = `{"custom_id":"s","result":{"type":"succeeded","message":{"id":"msg_1","type":"message","role":"assistant",` +
		`"model":"vendor-sonnet-5-5","content":[{"type":"text","text":"You said: Hi"}],"stop_reason":"end_turn",` +
		`"stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":9,"output_tokens":4},"extra_member":[1]}}}`
	r, err := messages.UnmarshalBatchResult([]byte(ok))
	require.NoError(t, err)
	msg := r.(messages.BatchSucceeded).Message
	require.Equal(t, "s", r.RequestCustomID())
	require.Equal(t, "You said: Hi", msg.Text())
	require.JSONEq(t, `[1]`, string(msg.Extra["extra_member"]))
	out, err := json.Marshal(r)
	require.NoError(t, err)
	again, err := messages.UnmarshalBatchResult(out)
	require.NoError(t, err)
	require.Equal(t, r, again)

	for _, bad := range []string{`{"custom_id":"x","result":{"type":"succeeded"}}`, `{"custom_id":"x","result":{"type":"errored"}}`, `[1]`, `{"custom_id":`} {
		_, err := messages.UnmarshalBatchResult([]byte(bad))
		require.Error(t, err, bad)
	}
}

// A request marshals its params as Create sends them.
func TestBatchRequestJSON(t *testing.T) {
	out, err := json.Marshal(messages.BatchRequest{CustomID: "q1", Params: prompt("Hi")})
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m))
	require.Equal(t, "q1", m["custom_id"])
	params := m["params"].(map[string]any)
	require.Equal(t, "vendor-sonnet-5-5", params["model"])
	require.NotContains(t, params, "stream")
}
