package messages_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tracing"
)

// One CLIENT span per batch call, with the batch's id; none for the
// requests inside the batch.
func TestBatchSpans(t *testing.T) {
	tp, rec := recorder(t)
	clock := refserver.NewManualClock(batchStart)
	env := reftest.New(t, refserver.WithClock(clock))
	c := env.Client(t, option.WithTracerProvider(tp))

	b, err := c.Messages.Batches.Create(ctx, batchOf("a", "b"))
	require.NoError(t, err)
	_, err = c.Messages.Batches.Get(ctx, b.ID)
	require.NoError(t, err)
	_, err = c.Messages.Batches.List(ctx, messages.BatchListParams{})
	require.NoError(t, err)
	_, err = c.Messages.Batches.Cancel(ctx, b.ID)
	require.NoError(t, err)
	clock.Advance(time.Second)
	for _, err := range c.Messages.Batches.Results(ctx, b.ID) {
		require.NoError(t, err)
	}
	_, err = c.Messages.Batches.Delete(ctx, b.ID)
	require.NoError(t, err)

	var names []string
	for _, s := range rec.Ended() {
		names = append(names, s.Name())
		require.Equal(t, trace.SpanKindClient, s.SpanKind(), s.Name())
		id, has := "", false
		for _, a := range s.Attributes() {
			if a.Key == tracing.BatchID {
				id, has = a.Value.AsString(), true
			}
		}
		if s.Name() == "vendor.messages.batches.list" {
			require.False(t, has)
			continue
		}
		require.Equal(t, b.ID, id, s.Name())
	}
	require.Equal(t, []string{
		"vendor.messages.batches.create", "vendor.messages.batches.retrieve", "vendor.messages.batches.list",
		"vendor.messages.batches.cancel", "vendor.messages.batches.results", "vendor.messages.batches.delete",
	}, names)
}
