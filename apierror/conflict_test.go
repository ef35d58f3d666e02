package apierror_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// A 409 from the server, whatever the family, arrives as a conflict_error:
// errors.Is matches ErrConflict and not ErrInvalidRequest, and the error
// says a retry would meet the same conflict.
func TestConflictEndToEnd(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()

	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "old"})
	require.NoError(t, err)
	_, err = client.Workspaces.Archive(ctx, ws.ID)
	require.NoError(t, err)
	_, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{Name: "revived"})
	requireConflictError(t, err)

	st, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "archived"})
	require.NoError(t, err)
	_, err = client.MemoryStores.Archive(ctx, st.ID)
	require.NoError(t, err)
	_, err = client.MemoryStores.Memories.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/a.md"})
	requireConflictError(t, err)
}

func requireConflictError(t *testing.T, err error) {
	t.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 409, apiErr.StatusCode)
	require.Equal(t, apierror.TypeConflict, apiErr.Type)
	require.ErrorIs(t, err, apierror.ErrConflict)
	require.NotErrorIs(t, err, apierror.ErrInvalidRequest, "a conflict is not a malformed request")
	require.False(t, apiErr.Temporary(), "a state conflict is not worth retrying")
}
