package memorystores_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
)

// TestServiceAccountActor: a service account calling with a federation
// access token has no API key to name, so its writes and redactions record
// a service_account_actor, which the versions filter service_account_id
// selects; writes with an API key still record an api_actor.
func TestServiceAccountActor(t *testing.T) {
	ctx := context.Background()
	srv, keyClient := platformtest.New(t)
	fed, err := srv.AddFederation("system:serviceaccount:prod:memory-writer")
	require.NoError(t, err)
	creds, err := auth.Federation(fed.Config())
	require.NoError(t, err)
	t.Cleanup(func() { _ = creds.Close() })
	var rec wiretest.Recorder
	saClient, err := srv.Client(option.WithCredentials(creds), option.WithWorkspaceID(""), rec.Option())
	require.NoError(t, err)
	t.Cleanup(func() { _ = saClient.Close() })

	st := newStore(t, keyClient, "shared")
	newMemory(t, keyClient, st.ID, "/by-key.md", "key")
	m := newMemory(t, saClient, st.ID, "/by-account.md", "one")
	_, err = saClient.MemoryStores.Memories.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{Content: new("two")})
	require.NoError(t, err)

	versions := saClient.MemoryStores.Versions
	page, err := versions.List(ctx, st.ID, memorystores.VersionListParams{ServiceAccountID: fed.ServiceAccountID})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	want := &memorystores.ServiceAccountActor{ServiceAccountID: fed.ServiceAccountID}
	for _, v := range page.Data {
		require.Equal(t, m.ID, v.MemoryID)
		require.Equal(t, want, v.CreatedBy)
	}

	// The older version is no longer current, so it may be redacted.
	red, err := versions.Redact(ctx, st.ID, page.Data[1].ID)
	require.NoError(t, err)
	require.Equal(t, want, red.RedactedBy)

	all, err := versions.List(ctx, st.ID, memorystores.VersionListParams{})
	require.NoError(t, err)
	require.Len(t, all.Data, 3)
	require.IsType(t, &memorystores.APIActor{}, all.Data[2].CreatedBy, "the API key's write")

	none, err := versions.List(ctx, st.ID, memorystores.VersionListParams{ServiceAccountID: "svcacct_0000000000000000000000"})
	require.NoError(t, err)
	require.Empty(t, none.Data)

	// What the server sends round-trips through the SDK's types.
	n := 0
	for _, r := range rec.Bodies() {
		if strings.HasSuffix(r.Path, "/memory_versions") {
			for _, data := range pageItems(t, r.Body) {
				checkWire[memorystores.MemoryVersion](t, data)
				n++
			}
		}
	}
	require.Equal(t, 5, n)
}
