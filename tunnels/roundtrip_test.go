package tunnels_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

func decodeTunnel(data []byte) (tunnels.Tunnel, error) {
	var tn tunnels.Tunnel
	err := json.Unmarshal(data, &tn)
	return tn, err
}

// TestServerResponsesRoundTrip: every tunnel the reference server sends
// (named or not, archived or not) encodes back to the server's JSON and
// decodes again equal.
func TestServerResponsesRoundTrip(t *testing.T) {
	ctx := context.Background()
	client := reftest.New(t).Client(t)
	_, err := client.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: "named"})
	require.NoError(t, err)
	gone, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	_, err = client.Tunnels.Archive(ctx, gone.ID)
	require.NoError(t, err)

	beta := option.WithBeta("mcp-tunnels-2026-06-22")
	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/tunnels", nil, &page, beta, option.WithQuery("include_archived", "true")))
	require.Len(t, page.Data, 2)
	var named, archived bool
	for _, raw := range page.Data {
		tn, ok := wiretest.RoundTrip(t, raw, decodeTunnel, true)
		require.True(t, ok, "%s", raw)
		var one json.RawMessage
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/tunnels/"+tn.ID, nil, &one, beta))
		_, ok = wiretest.RoundTrip(t, one, decodeTunnel, true)
		require.True(t, ok, "%s", one)
		named = named || tn.DisplayName != ""
		archived = archived || tn.Archived()
	}
	require.True(t, named && archived)
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."), tunnels.Tunnel{}, tunnels.Token{}, tunnels.Certificate{})
}

// TestTokenAndCertificatesRoundTrip: the server's tokens (revealed and
// rotated) and certificates (expiring or not, archived or not) encode back
// to the server's JSON and decode again equal.
func TestTokenAndCertificatesRoundTrip(t *testing.T) {
	ctx := context.Background()
	client := reftest.New(t).Client(t)
	tn, err := client.Tunnels.Create(ctx, tunnels.CreateParams{})
	require.NoError(t, err)
	beta := option.WithBeta("mcp-tunnels-2026-06-22")
	for _, action := range []string{"reveal_token", "rotate_token"} {
		var raw json.RawMessage
		require.NoError(t, client.Execute(ctx, http.MethodPost, "/v1/tunnels/"+tn.ID+"/"+action, map[string]any{}, &raw, beta))
		_, ok := wiretest.RoundTrip(t, raw, func(b []byte) (tunnels.Token, error) {
			var tok tunnels.Token
			return tok, json.Unmarshal(b, &tok)
		}, true)
		require.True(t, ok, "%s", raw)
	}
	expiring, _ := newCert(t, true, expiry)
	forever, _ := newCert(t, true, time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC))
	for _, text := range []string{expiring, forever} {
		c, err := client.Tunnels.Certificates.Create(ctx, tn.ID, tunnels.CertificateCreateParams{CACertificatePEM: text})
		require.NoError(t, err)
		if text == expiring {
			_, err = client.Tunnels.Certificates.Archive(ctx, tn.ID, c.ID)
			require.NoError(t, err)
		}
	}
	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/tunnels/"+tn.ID+"/certificates", nil, &page, beta, option.WithQuery("include_archived", "true")))
	require.Len(t, page.Data, 2)
	for _, raw := range page.Data {
		_, ok := wiretest.RoundTrip(t, raw, func(b []byte) (tunnels.Certificate, error) {
			var c tunnels.Certificate
			return c, json.Unmarshal(b, &c)
		}, true)
		require.True(t, ok, "%s", raw)
	}
}
