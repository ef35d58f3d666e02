package workspaces_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// TestUserProfileID: user_profile_id is stored and echoed; attaching is
// write-once (the same id again is a no-op, another id or a removal is
// refused), and the default workspace cannot have one.
func TestUserProfileID(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	badRequest := func(t *testing.T, err error, want string) {
		t.Helper()
		var apiErr *apierror.Error
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		require.Equal(t, want, apiErr.Message)
	}

	ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "profiled", UserProfileID: "uprof_01abc"})
	require.NoError(t, err)
	require.Equal(t, "uprof_01abc", ws.UserProfileID)
	got, err := client.Workspaces.Get(ctx, ws.ID)
	require.NoError(t, err)
	require.Equal(t, "uprof_01abc", got.UserProfileID)

	again, err := client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{UserProfileID: "uprof_01abc", Name: "renamed"})
	require.NoError(t, err, "the same id again changes nothing")
	require.Equal(t, "uprof_01abc", again.UserProfileID)
	require.Equal(t, "renamed", again.Name)

	_, err = client.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{UserProfileID: "uprof_02def", Name: "not applied"})
	badRequest(t, err, "user_profile_id: is write-once and cannot be replaced once set")
	err = client.Execute(ctx, http.MethodPost, "/v1/organizations/workspaces/"+ws.ID, json.RawMessage(`{"user_profile_id": null}`), nil)
	badRequest(t, err, "user_profile_id: cannot be removed once set")
	got, err = client.Workspaces.Get(ctx, ws.ID)
	require.NoError(t, err)
	require.Equal(t, "renamed", got.Name, "a refused update stores nothing")
	require.Equal(t, "uprof_01abc", got.UserProfileID)

	// Attached later, to a workspace that has none.
	plain, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "plain"})
	require.NoError(t, err)
	require.Empty(t, plain.UserProfileID)
	plain, err = client.Workspaces.Update(ctx, plain.ID, workspaces.UpdateParams{UserProfileID: "uprof_03ghi"})
	require.NoError(t, err)
	require.Equal(t, "uprof_03ghi", plain.UserProfileID)

	_, err = client.Workspaces.Update(ctx, env.Seed.DefaultWorkspaceID, workspaces.UpdateParams{UserProfileID: "uprof_01abc"})
	badRequest(t, err, "user_profile_id: cannot be set on the default workspace")

	// The form is checked by the server too (sent raw, past the SDK's check).
	err = client.Execute(ctx, http.MethodPost, "/v1/organizations/workspaces", json.RawMessage(`{"name": "x", "user_profile_id": "user_01"}`), nil)
	badRequest(t, err, "user_profile_id: must be a user profile id (`uprof_…`)")
	_, err = client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "x", UserProfileID: "user_01"})
	var v *apierror.ValidationError
	require.ErrorAs(t, err, &v)
	require.Equal(t, "user_profile_id: must be a user profile id (`uprof_…`)", v.Field+": "+v.Rule)
}
