package pipeline

import (
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentplatform/agentplatform-go/internal/config"
	"github.com/agentplatform/agentplatform-go/option"
)

func TestObservability(t *testing.T) {
	t.Setenv(config.EnvCaptureContent, "")
	p, err := New(nil)
	require.NoError(t, err)
	tp, logger, content := p.Observability()
	require.Nil(t, tp, "nil: the global provider")
	require.Nil(t, logger)
	require.False(t, content)

	provider := sdktrace.NewTracerProvider()
	l := slog.New(slog.DiscardHandler)
	p, err = New([]option.Option{func(c *Config) error {
		c.TracerProvider, c.Logger, c.CaptureContent = provider, l, true
		return nil
	}})
	require.NoError(t, err)
	tp, logger, content = p.Observability()
	require.Same(t, provider, tp)
	require.Same(t, l, logger)
	require.True(t, content)

	_, _, content = p.Observability(func(c *Config) error { c.CaptureContent = false; return nil })
	require.False(t, content, "a call's options apply")
}

type owner struct{ p *Pipeline }

func TestOf(t *testing.T) {
	p, err := New(nil)
	require.NoError(t, err)
	RegisterOwner(func(v any) (*Pipeline, bool) {
		o, ok := v.(*owner)
		if !ok || o == nil {
			return nil, false
		}
		return o.p, true
	})
	require.Same(t, p, Of(&owner{p: p}))
	require.Nil(t, Of(&owner{}), "a service without a pipeline")
	require.Nil(t, Of((*owner)(nil)))
	require.Nil(t, Of("something else"))
}

func TestRetryAfter(t *testing.T) {
	d, ok := RetryAfter(http.Header{"Retry-After-Ms": {"1"}})
	require.True(t, ok)
	require.Equal(t, time.Millisecond, d)
	_, ok = RetryAfter(nil)
	require.False(t, ok)
}
