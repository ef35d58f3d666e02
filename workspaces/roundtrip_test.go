package workspaces_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

func decodeWorkspace(data []byte) (workspaces.Workspace, error) {
	var w workspaces.Workspace
	err := json.Unmarshal(data, &w)
	return w, err
}

// TestServerResponsesRoundTrip: every workspace the reference server sends
// (the default one, one with tags, a key and a geo list, an archived one)
// encodes back to the server's JSON and decodes again equal.
func TestServerResponsesRoundTrip(t *testing.T) {
	ctx := context.Background()
	client := reftest.New(t).Client(t)
	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "tagged", Tags: map[string]string{"team": "a"}})
	require.NoError(t, err)
	_, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{ExternalKeyID: "ekey_01first"})
	require.NoError(t, err)
	gone, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "gone"})
	require.NoError(t, err)
	_, err = client.Workspaces.Archive(ctx, gone.ID)
	require.NoError(t, err)

	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/organizations/workspaces", nil, &page,
		option.WithQuery("include_archived", "true"), option.WithQuery("include_default", "true")))
	require.Len(t, page.Data, 3)
	var keyed, archived bool
	for _, raw := range page.Data {
		w, ok := wiretest.RoundTrip(t, raw, decodeWorkspace, true)
		require.True(t, ok, "%s", raw)
		var one json.RawMessage
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/organizations/workspaces/"+w.ID, nil, &one))
		_, ok = wiretest.RoundTrip(t, one, decodeWorkspace, true)
		require.True(t, ok, "%s", one)
		keyed = keyed || w.ExternalKeyID != ""
		archived = archived || w.Archived()
	}
	require.True(t, keyed && archived)
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."), workspaces.Workspace{}, workspaces.DataResidency{})
}
