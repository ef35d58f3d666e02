package tunnels_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// TestTokens: reveal returns the same token until a rotation replaces it;
// no tunnel object carries it; an archived tunnel's token is frozen.
func TestTokens(t *testing.T) {
	client := reftest.New(t).Client(t)
	ctx := context.Background()
	tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "farm"})
	require.NoError(t, err)

	tok, err := client.Tunnels.RevealToken(ctx, tn.ID)
	require.NoError(t, err)
	require.Equal(t, "tunnel_token", tok.Type)
	require.True(t, strings.HasPrefix(tok.ID, "tnltok_"))
	value := string(tok.TunnelToken)
	require.True(t, strings.HasPrefix(value, "vtnl-"))
	again, err := client.Tunnels.RevealToken(ctx, tn.ID)
	require.NoError(t, err)
	require.Equal(t, tok, again, "the same value until rotated")

	rotated, err := client.Tunnels.RotateToken(ctx, tn.ID, tunnels.RotateTokenParams{Reason: "connector host replaced"})
	require.NoError(t, err)
	require.NotEqual(t, tok.ID, rotated.ID)
	require.NotEqual(t, value, string(rotated.TunnelToken))
	now, err := client.Tunnels.RevealToken(ctx, tn.ID)
	require.NoError(t, err)
	require.Equal(t, rotated, now)
	_, err = client.Tunnels.RotateToken(ctx, tn.ID, tunnels.RotateTokenParams{})
	require.NoError(t, err, "the reason is optional")

	// The token is in no tunnel object.
	var raw map[string]any
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/tunnels/"+tn.ID, nil, &raw, option.WithBeta("mcp-tunnels-2026-06-22")))
	require.NotContains(t, fmt.Sprint(raw), string(now.TunnelToken))

	_, err = client.Tunnels.Archive(ctx, tn.ID)
	require.NoError(t, err)
	_, err = client.Tunnels.RevealToken(ctx, tn.ID)
	requireStatus(t, err, http.StatusConflict, "is archived")
	_, err = client.Tunnels.RotateToken(ctx, tn.ID, tunnels.RotateTokenParams{})
	requireStatus(t, err, http.StatusConflict, "is archived")
}

// TestTokenNeverPrinted: a Token prints and logs "[redacted]" with every
// verb, and the SDK's debug log of the calls that return one shows no
// value; JSON still carries it.
func TestTokenNeverPrinted(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	client := reftest.New(t).Client(t, option.WithLogger(logger))
	ctx := context.Background()
	tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	tok, err := client.Tunnels.RevealToken(ctx, tn.ID)
	require.NoError(t, err)
	rotated, err := client.Tunnels.RotateToken(ctx, tn.ID, tunnels.RotateTokenParams{})
	require.NoError(t, err)
	for _, v := range []string{string(tok.TunnelToken), string(rotated.TunnelToken)} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
			require.NotContains(t, fmt.Sprintf(verb, tok), v)
			require.NotContains(t, fmt.Sprintf(verb, *rotated), v)
		}
		require.NotContains(t, logs.String(), v)
	}
	logger.Info("token", "tok", tok.TunnelToken)
	require.NotContains(t, logs.String(), string(tok.TunnelToken))
	b, err := tok.MarshalJSON()
	require.NoError(t, err)
	require.Contains(t, string(b), string(tok.TunnelToken))
}
