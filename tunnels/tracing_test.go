package tunnels_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// TestTokenAndCertificateSpans: the token and certificate calls have the
// span names of docs/tracing.md.
func TestTokenAndCertificateSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	client := reftest.New(t).Client(t, option.WithTracerProvider(tp))
	ctx := context.Background()
	tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	ca, _ := newCert(t, true, expiry)
	var cert *tunnels.Certificate
	for _, step := range []struct {
		span string
		call func() error
	}{
		{"vendor.tunnels.reveal_token", func() error { _, err := client.Tunnels.RevealToken(ctx, tn.ID); return err }},
		{"vendor.tunnels.rotate_token", func() error {
			_, err := client.Tunnels.RotateToken(ctx, tn.ID, tunnels.RotateTokenParams{})
			return err
		}},
		{"vendor.tunnels.certificates.create", func() (err error) {
			cert, err = client.Tunnels.Certificates.Create(ctx, tn.ID, tunnels.CertificateCreateParams{CACertificatePEM: ca})
			return err
		}},
		{"vendor.tunnels.certificates.list", func() error {
			_, err := client.Tunnels.Certificates.List(ctx, tn.ID, tunnels.CertificateListParams{})
			return err
		}},
		{"vendor.tunnels.certificates.retrieve", func() error { _, err := client.Tunnels.Certificates.Get(ctx, tn.ID, cert.ID); return err }},
		{"vendor.tunnels.certificates.archive", func() error {
			_, err := client.Tunnels.Certificates.Archive(ctx, tn.ID, cert.ID)
			return err
		}},
	} {
		require.NoError(t, step.call(), step.span)
		spans := rec.Ended()
		require.Equal(t, step.span, spans[len(spans)-1].Name())
	}
}
