package messages_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/messages"
)

// Results decodes one line at a time: reading the results of a batch of
// 100,000 requests (about 70 MB of JSON Lines) keeps the heap the client
// holds under 16 MiB. The heap in use is read after a forced collection
// at the start and every 10,000 results, so that it measures what the
// loop keeps rather than garbage not yet collected.
func TestBatchResultsHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the results of a batch of 100,000 requests")
	}
	env, _, c := batchEnv(t)
	id, err := env.Server.FillMessageBatch(env.Seed.DefaultWorkspaceID, messages.MaxBatchRequests, "Hi")
	require.NoError(t, err)
	b, err := c.Messages.Batches.Get(ctx, id)
	require.NoError(t, err)
	require.Equal(t, messages.BatchRequestCounts{Succeeded: messages.MaxBatchRequests}, b.RequestCounts)

	inUse := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	}
	base := inUse()
	peak := base
	n := 0
	for r, err := range c.Messages.Batches.Results(ctx, id) {
		require.NoError(t, err)
		if _, ok := r.(messages.BatchSucceeded); !ok {
			t.Fatalf("result %d: %T", n, r)
		}
		if n++; n%10_000 == 0 {
			peak = max(peak, inUse())
		}
	}
	require.Equal(t, messages.MaxBatchRequests, n)
	grew := float64(peak-base) / (1 << 20)
	t.Logf("heap in use: %.1f MiB at the start, at most +%.2f MiB while reading %d results", float64(base)/(1<<20), grew, n)
	require.Less(t, grew, 16.0)
}
