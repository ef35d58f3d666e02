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
	createKey(t, env, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: env.Server.CreateServiceAccount("sa")})
	off := createKey(t, env, refserver.KeySpec{Name: "off"})
	_, err := client.APIKeys.Disable(ctx, off.ID)
	require.NoError(t, err)

	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/organizations/api_keys", nil, &page))
	require.GreaterOrEqual(t, len(page.Data), 4)
	var users, accounts, scoped, expiring, legacy bool
	for _, raw := range page.Data {
		k, ok := wiretest.RoundTrip(t, raw, decodeKey, true)
		require.True(t, ok, "%s", raw)
		var one json.RawMessage
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/organizations/api_keys/"+k.ID, nil, &one))
		_, ok = wiretest.RoundTrip(t, one, decodeKey, true)
		require.True(t, ok, "%s", one)
		switch k.Principal.(type) {
		case *apikeys.UserActor:
			users = true
		case *apikeys.ServiceAccountActor:
			accounts = true
		case nil:
			legacy = true
		default:
			t.Fatalf("principal %#v of %s", k.Principal, raw)
		}
		scoped = scoped || k.WorkspaceID != ""
		expiring = expiring || !k.ExpiresAt.IsZero()
	}
	require.True(t, users && accounts && legacy && scoped && expiring)
}

// TestPrincipalShapes: each principal shape decodes to its variant, keeps
// unknown members, and encodes back as received. A principal of an unknown
// type, the SDK's older {id, type} shape included, is an UnknownPrincipal.
func TestPrincipalShapes(t *testing.T) {
	key := func(principal string) []byte {
		return []byte(`{"type":"api_key","id":"apikey_01","name":"k","created_at":"2026-05-01T09:00:00Z",` +
			`"created_by":{"id":"user_01","type":"user"},"principal":` + principal +
			`,"partial_key_hint":"sk-vendor-api03-abc...wxyz","status":"expired","expires_at":null,` +
			`"scope":{"type":"organization"}}`)
	}
	cases := []struct {
		principal string
		want      apikeys.Principal
	}{
		{`null`, nil},
		{`{"type":"user_actor","user_id":"user_01"}`, &apikeys.UserActor{UserID: "user_01"}},
		{`{"type":"service_account_actor","service_account_id":"svcacct_01"}`,
			&apikeys.ServiceAccountActor{ServiceAccountID: "svcacct_01"}},
		{`{"type":"user_actor","user_id":"user_01","email":"a@example.com"}`,
			&apikeys.UserActor{UserID: "user_01", Extra: map[string]json.RawMessage{"email": json.RawMessage(`"a@example.com"`)}}},
		{`{"id":"user_01","type":"user"}`,
			&apikeys.UnknownPrincipal{Type: "user", JSON: json.RawMessage(`{"id":"user_01","type":"user"}`)}},
		{`{"type":"workload_actor","workload":"w"}`,
			&apikeys.UnknownPrincipal{Type: "workload_actor", JSON: json.RawMessage(`{"type":"workload_actor","workload":"w"}`)}},
	}
	for _, c := range cases {
		k, ok := wiretest.RoundTrip(t, key(c.principal), decodeKey, true)
		require.True(t, ok, c.principal)
		require.Equal(t, c.want, k.Principal, c.principal)
		require.Equal(t, apikeys.StatusExpired, k.Status)
	}

	// Built by hand, an unknown principal writes its type.
	data, err := json.Marshal(apikeys.APIKey{Principal: &apikeys.UnknownPrincipal{Type: "robot"}})
	require.NoError(t, err)
	require.Contains(t, string(data), `"principal":{"type":"robot"}`)
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."), apikeys.APIKey{}, apikeys.Actor{}, apikeys.Scope{},
		apikeys.UserActor{}, apikeys.ServiceAccountActor{})
}
