package messages_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
)

// The platform's limits are checked before anything is sent, each failure
// naming the field and the rule.
func TestBatchLocalLimits(t *testing.T) {
	env, _, c := batchEnv(t)
	many := make([]messages.BatchRequest, messages.MaxBatchRequests+1)
	for _, tc := range []struct {
		name   string
		params messages.BatchCreateParams
		field  string
		rule   string
	}{
		{"no requests", messages.BatchCreateParams{}, "requests", "at least 1"},
		{"too many requests", messages.BatchCreateParams{Requests: many}, "requests", "at most 100000 requests, got 100001"},
		{"empty custom_id", withID(batchOf("a", "b"), 1, ""), "requests.1.custom_id", "1 to 64 characters"},
		{"long custom_id", withID(batchOf("a"), 0, strings.Repeat("x", 65)), "requests.0.custom_id", "1 to 64 characters, got 65"},
		{"custom_id with a space", withID(batchOf("a"), 0, "a b"), "requests.0.custom_id", "letters, digits"},
		{"duplicate custom_id", withID(batchOf("a", "b"), 1, "r0"), "requests.1.custom_id", "unique within the batch: requests.0"},
		{"invalid params", noModel(batchOf("a", "b"), 1), "requests.1.params.model", "Field required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Messages.Batches.Create(ctx, tc.params)
			reftest.RequireLocal(t, err, tc.field)
			require.Contains(t, err.Error(), tc.rule)
		})
	}
	// The longest custom_id passes.
	_, err := c.Messages.Batches.Create(ctx, withID(batchOf("a"), 0, strings.Repeat("A-_9", 16)))
	require.NoError(t, err)

	t.Run("body size", func(t *testing.T) {
		defer messages.SetMaxBatchBody(1000)()
		_, err := c.Messages.Batches.Create(ctx, batchOf(strings.Repeat("long ", 200)))
		reftest.RequireLocal(t, err, "requests")
		require.Contains(t, err.Error(), "at most 1000 bytes")
	})
	require.Equal(t, 1, env.Count("POST", "/v1/messages/batches"), "only the valid batch was sent")

	_, err = c.Messages.Batches.Get(ctx, "batch_1")
	reftest.RequireLocal(t, err, "message_batch_id")
	_, err = c.Messages.Batches.Get(ctx, "")
	reftest.RequireLocal(t, err, "message_batch_id")
}

func withID(p messages.BatchCreateParams, i int, id string) messages.BatchCreateParams {
	p.Requests[i].CustomID = id
	return p
}

func noModel(p messages.BatchCreateParams, i int) messages.BatchCreateParams {
	p.Requests[i].Params.Model = ""
	return p
}
