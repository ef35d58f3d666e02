package workspaces_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// TestListByIDs: the ids filter keeps only the named workspaces; the
// archived and default filters still apply and unknown ids match nothing.
func TestListByIDs(t *testing.T) {
	ctx := context.Background()
	client := reftest.New(t).Client(t)
	var ids []string
	for i := range 3 {
		ws, err := client.Workspaces.Create(ctx, workspaces.CreateParams{Name: fmt.Sprintf("w%d", i)})
		require.NoError(t, err)
		ids = append(ids, ws.ID)
	}
	_, err := client.Workspaces.Archive(ctx, ids[2])
	require.NoError(t, err)
	listed := func(p workspaces.ListParams) []string {
		t.Helper()
		page, err := client.Workspaces.List(ctx, p)
		require.NoError(t, err)
		var got []string
		for _, w := range page.Data {
			got = append(got, w.ID)
		}
		return got
	}
	require.Equal(t, []string{ids[0]}, listed(workspaces.ListParams{IDs: []string{ids[0]}}))
	require.Equal(t, []string{ids[0]}, listed(workspaces.ListParams{IDs: []string{ids[0], ids[2], "wrkspc_missing"}}),
		"archived ones need IncludeArchived; unknown ids are left out")
	require.Equal(t, []string{ids[2], ids[0]}, listed(workspaces.ListParams{IDs: []string{ids[0], ids[2]}, IncludeArchived: true}))
	require.Len(t, listed(workspaces.ListParams{}), 2, "no ids: no filter")
}

func TestListIDsValidation(t *testing.T) {
	client := reftest.New(t).Client(t)
	many := make([]string, 101)
	for i := range many {
		many[i] = fmt.Sprintf("wrkspc_%d", i)
	}
	for name, tc := range map[string]struct {
		ids  []string
		want string
	}{
		"too many":   {many, "ids: must have at most 100 values"},
		"not an id":  {[]string{"wrkspc_a", "file_b"}, "ids[1]: must be a workspace id (`wrkspc_…`)"},
		"duplicated": {[]string{"wrkspc_a", "wrkspc_a"}, "ids[1]: duplicate workspace id `wrkspc_a`"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := client.Workspaces.List(context.Background(), workspaces.ListParams{IDs: tc.ids})
			var v *apierror.ValidationError
			require.True(t, errors.As(err, &v), "%v", err)
			require.Equal(t, tc.want, v.Field+": "+v.Rule)
		})
	}
}

// TestUserProfileIDIsAKnownMember: the server's user_profile_id (null
// when none is attached) decodes into the field, not into Extra.
func TestUserProfileIDIsAKnownMember(t *testing.T) {
	ws, err := reftest.New(t).Client(t).Workspaces.Create(context.Background(), workspaces.CreateParams{Name: "p"})
	require.NoError(t, err)
	require.Empty(t, ws.UserProfileID)
	require.NotContains(t, ws.Extra, "user_profile_id")
}
