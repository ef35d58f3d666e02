package tunnels_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

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
	wiretest.Implements(t, wiretest.Methods(t, "."), tunnels.Tunnel{})
}
