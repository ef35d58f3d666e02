package apikeys_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apikeys"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
)

func decodeKey(data []byte) (apikeys.APIKey, error) {
	var k apikeys.APIKey
	err := json.Unmarshal(data, &k)
	return k, err
}

// TestServerResponsesRoundTrip: every key the reference server lists or
// returns (personal, scoped and expiring, legacy without a principal,
// disabled) encodes back to the server's JSON and decodes again equal.
func TestServerResponsesRoundTrip(t *testing.T) {
	env, _, client := newEnv(t)
	createKey(t, env, refserver.KeySpec{Name: "scoped", WorkspaceID: env.Seed.DefaultWorkspaceID, ExpiresAt: t0.AddDate(0, 1, 0)})
	createKey(t, env, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: env.Seed.DefaultWorkspaceID})
	off := createKey(t, env, refserver.KeySpec{Name: "off"})
	_, err := client.APIKeys.Disable(ctx, off.ID)
	require.NoError(t, err)

	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/organizations/api_keys", nil, &page))
	require.GreaterOrEqual(t, len(page.Data), 4)
	var principals, scoped, expiring, legacy bool
	for _, raw := range page.Data {
		k, ok := wiretest.RoundTrip(t, raw, decodeKey, true)
		require.True(t, ok, "%s", raw)
		var one json.RawMessage
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/organizations/api_keys/"+k.ID, nil, &one))
		_, ok = wiretest.RoundTrip(t, one, decodeKey, true)
		require.True(t, ok, "%s", one)
		principals = principals || k.Principal != nil
		legacy = legacy || k.Principal == nil
		scoped = scoped || k.WorkspaceID != ""
		expiring = expiring || !k.ExpiresAt.IsZero()
	}
	require.True(t, principals && legacy && scoped && expiring)
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."), apikeys.APIKey{}, apikeys.Actor{}, apikeys.Scope{})
}
