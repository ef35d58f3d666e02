package messages_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
)

// TestUnreadStreamEndsWithItsContext: a Messages
// stream that is never read nor closed ends its span, unset, when its
// context ends (with a cause or not), and lets its connection go. Reading
// it afterwards yields the context's error and changes nothing.
func TestUnreadStreamEndsWithItsContext(t *testing.T) {
	kinds := []struct {
		name, span string
		open       func(ctx context.Context, c *agentplatform.Client) (read func() error, err error)
	}{
		{"messages", "vendor.messages.create", func(ctx context.Context, c *agentplatform.Client) (func() error, error) {
			st, err := c.Messages.Stream(ctx, prompt("Hello there"))
			if err != nil {
				return nil, err
			}
			return func() error { _, err := st.Message(); return err }, nil
		}},
	}
	for _, kind := range kinds {
		for _, cause := range []error{nil, errors.New("shutting down")} {
			t.Run(kind.name, func(t *testing.T) {
				conns := new(reftest.OpenConns)
				_, client, rec := tracedEnv(t, option.WithHTTPClient(conns.Client()))
				sctx, cancel := context.WithCancelCause(ctx)
				defer cancel(nil)
				read, err := kind.open(sctx, client)
				require.NoError(t, err)
				require.Empty(t, spantest.Named(rec, kind.span), "open while its context lasts")

				cancel(cause)
				require.Eventually(t, func() bool { return len(spantest.Named(rec, kind.span)) > 0 }, time.Minute, time.Millisecond)
				span := spantest.One(t, rec, kind.span)
				require.Equal(t, codes.Unset, span.Status().Code)
				require.NotContains(t, spantest.Attrs(span), attr.ErrorType)
				require.Eventually(t, func() bool { return conns.Open() == 0 }, time.Minute, time.Millisecond, "the connection is released")

				require.ErrorIs(t, read(), context.Canceled)
				span = spantest.One(t, rec, kind.span)
				require.Equal(t, codes.Unset, span.Status().Code, "ended once")
			})
		}
	}
}

// TestStreamCancelledAndClosedAtOnce: the context ending while the
// application closes the stream ends the span once, unset.
func TestStreamCancelledAndClosedAtOnce(t *testing.T) {
	_, client, rec := tracedEnv(t)
	for range 20 {
		rec.Reset()
		sctx, cancel := context.WithCancel(ctx)
		st, err := client.Messages.Stream(sctx, prompt("Hello there"))
		require.NoError(t, err)
		var wg sync.WaitGroup
		wg.Go(cancel)
		require.NoError(t, st.Close())
		wg.Wait()
		span := spantest.One(t, rec, "vendor.messages.create") // ended by Close, if not before
		require.Equal(t, codes.Unset, span.Status().Code)
	}
}
