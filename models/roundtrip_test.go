package models_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/models"
)

func decodeModel(data []byte) (models.Model, error) {
	var m models.Model
	err := json.Unmarshal(data, &m)
	return m, err
}

// TestServerResponsesRoundTrip: every model of the reference server's
// catalogue, listed and fetched, encodes back to the server's JSON and
// decodes again equal.
func TestServerResponsesRoundTrip(t *testing.T) {
	ctx := context.Background()
	client := reftest.New(t).Client(t)
	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/models", nil, &page))
	require.NotEmpty(t, page.Data)
	seen := map[string]bool{}
	for _, raw := range page.Data {
		m, ok := wiretest.RoundTrip(t, raw, decodeModel, true)
		require.True(t, ok, "%s", raw)
		wiretest.Seen(m, seen)
		var one json.RawMessage
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/models/"+m.ID, nil, &one))
		_, ok = wiretest.RoundTrip(t, one, decodeModel, true)
		require.True(t, ok, "%s", one)
	}
	for _, name := range wiretest.Methods(t, ".") {
		require.True(t, seen[name], "no model holds a %s", name)
	}
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."),
		models.Model{}, models.Capability{}, models.Capabilities{}, models.ContextManagementCapability{},
		models.EffortCapability{}, models.ServerToolsCapability{}, models.ThinkingCapability{}, models.ThinkingTypes{})
}
