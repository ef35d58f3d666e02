package apierror_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/memorystores"
)

// The memory endpoints' 409s reach the caller as their own sentinels, and
// as conflicts; the server's other 409s are neither memory error.
func TestMemoryErrorSentinels(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	mems := client.MemoryStores.Memories
	st, err := client.MemoryStores.Create(ctx, memorystores.CreateParams{Name: "errors"})
	require.NoError(t, err)
	m, err := mems.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/a.md", Content: "v1"})
	require.NoError(t, err)

	_, err = mems.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/a.md", Content: "again"})
	require.ErrorIs(t, err, apierror.ErrMemoryPathConflict)
	require.ErrorIs(t, err, apierror.ErrConflict)
	require.NotErrorIs(t, err, apierror.ErrMemoryPreconditionFailed)
	require.NotErrorIs(t, err, apierror.ErrInvalidRequest)

	stale := "0000000000000000000000000000000000000000000000000000000000000000"
	_, err = mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{
		Content: new("v2"), Precondition: &memorystores.Precondition{ContentSHA256: stale},
	})
	require.ErrorIs(t, err, apierror.ErrMemoryPreconditionFailed)
	require.ErrorIs(t, err, apierror.ErrConflict)
	require.NotErrorIs(t, err, apierror.ErrMemoryPathConflict)

	err = mems.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{ExpectedContentSHA256: stale})
	require.ErrorIs(t, err, apierror.ErrMemoryPreconditionFailed)

	// An archived store is a conflict of another kind.
	_, err = client.MemoryStores.Archive(ctx, st.ID)
	require.NoError(t, err)
	_, err = mems.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/b.md"})
	require.ErrorIs(t, err, apierror.ErrConflict)
	require.NotErrorIs(t, err, apierror.ErrMemoryPathConflict)
	require.NotErrorIs(t, err, apierror.ErrMemoryPreconditionFailed)
}
