package messages_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

// Create is retried only when the request surely did not reach the
// platform (Create's doc); other calls keep the usual retries.
func TestBatchCreateRetries(t *testing.T) {
	const path = "/v1/messages/batches"
	for _, tc := range []struct {
		name     string
		fault    refserver.Fault
		attempts int
		created  bool
	}{
		{"500 is not retried", refserver.Fault{Status: http.StatusInternalServerError}, 1, false},
		{"503 is not retried", refserver.Fault{Status: http.StatusServiceUnavailable}, 1, false},
		{"429 is retried", refserver.Fault{Status: http.StatusTooManyRequests}, 2, true},
		{"a connection dropped after the request is not retried", refserver.Fault{DropAfterHandling: true}, 1, true},
		{"a connection dropped unanswered is not retried", refserver.Fault{Drop: true}, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, _, c := batchEnv(t, option.WithMaxRetries(3))
			// A call first, so that the create reuses a kept-alive
			// connection: net/http must not replay it either.
			_, err := c.Messages.Batches.List(ctx, messages.BatchListParams{})
			require.NoError(t, err)
			f := tc.fault
			f.Method, f.Path = http.MethodPost, path
			env.Server.InjectFault(f)
			_, err = c.Messages.Batches.Create(ctx, batchOf("Hi"))
			if tc.attempts == 1 {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, tc.attempts, env.Count(http.MethodPost, path))
			page, err := c.Messages.Batches.List(ctx, messages.BatchListParams{})
			require.NoError(t, err)
			require.Equal(t, tc.created, len(page.Data) == 1, "batches: %d", len(page.Data))
		})
	}

	t.Run("other batch calls keep the usual retries", func(t *testing.T) {
		env, _, c := batchEnv(t, option.WithMaxRetries(3))
		b, err := c.Messages.Batches.Create(ctx, batchOf("Hi"))
		require.NoError(t, err)
		env.Server.InjectFault(refserver.Fault{Method: http.MethodGet, Path: path + "/" + b.ID, Status: http.StatusInternalServerError})
		_, err = c.Messages.Batches.Get(ctx, b.ID)
		require.NoError(t, err)
		require.Equal(t, 2, env.Count(http.MethodGet, path+"/"+b.ID))
	})
}
