package apikeys_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/apikeys"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
)

// newEnv starts a server on a manual clock and returns an admin client
// (the seeded owner's unscoped key).
func newEnv(t *testing.T) (*reftest.Env, *refserver.ManualClock, *agentplatform.Client) {
	t.Helper()
	clock := refserver.NewManualClock(t0)
	env := reftest.New(t, refserver.WithClock(clock))
	return env, clock, env.Client(t)
}

// createKey creates a personal key of the seeded owner.
func createKey(t *testing.T, env *reftest.Env, spec refserver.KeySpec) refserver.APIKey {
	t.Helper()
	if spec.Kind == "" {
		spec.Kind, spec.OwnerID = refserver.PersonalKey, env.Seed.UserID
	}
	k, err := env.Server.CreateAPIKey(spec)
	require.NoError(t, err)
	return k
}

// requireConflict checks a typed 409 state conflict that must not be retried.
func requireConflict(t *testing.T, err error, contains string) {
	t.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusConflict, apiErr.StatusCode, "%v", err)
	require.Equal(t, apierror.TypeConflict, apiErr.Type)
	require.False(t, apiErr.Temporary(), "a state conflict is not worth retrying")
	require.Contains(t, apiErr.Message, contains)
}

func TestGetDecodesEveryField(t *testing.T) {
	env, _, client := newEnv(t)
	expires := t0.Add(30 * 24 * time.Hour)
	k := createKey(t, env, refserver.KeySpec{Name: "ci-deploy", WorkspaceID: env.Seed.DefaultWorkspaceID, ExpiresAt: expires})

	got, err := client.APIKeys.Get(ctx, k.ID)
	require.NoError(t, err)
	body := strings.TrimPrefix(k.Secret, "sk-vendor-api03-")
	want := &apikeys.APIKey{
		Type:           "api_key",
		ID:             k.ID,
		Name:           "ci-deploy",
		WorkspaceID:    env.Seed.DefaultWorkspaceID,
		Scope:          apikeys.Scope{Type: apikeys.ScopeWorkspace, WorkspaceID: env.Seed.DefaultWorkspaceID},
		CreatedAt:      t0,
		CreatedBy:      apikeys.Actor{ID: env.Seed.UserID, Type: apikeys.ActorUser},
		Principal:      &apikeys.UserActor{UserID: env.Seed.UserID},
		PartialKeyHint: "sk-vendor-api03-" + body[:3] + "..." + body[len(body)-4:],
		Status:         apikeys.StatusActive,
		ExpiresAt:      expires,
	}
	require.Empty(t, cmp.Diff(want, got))
	require.False(t, got.Expired(t0))
	require.True(t, got.Expired(expires))

	// Nulls: an unscoped key that never expires; a legacy workspace key acts as nobody.
	seed, err := client.APIKeys.List(ctx, apikeys.ListParams{CreatedByUserID: env.Seed.UserID, Limit: 1000})
	require.NoError(t, err)
	var unscoped *apikeys.APIKey
	for i := range seed.Data {
		if seed.Data[i].ID != k.ID {
			unscoped = &seed.Data[i]
		}
	}
	require.NotNil(t, unscoped, "the seeded owner's key is listed")
	require.Empty(t, unscoped.WorkspaceID)
	require.Equal(t, apikeys.Scope{Type: apikeys.ScopeOrganization}, unscoped.Scope, "a key without a workspace belongs to the organization")
	require.True(t, unscoped.ExpiresAt.IsZero())
	require.False(t, unscoped.Expired(t0.Add(100*365*24*time.Hour)))

	legacy := createKey(t, env, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: env.Seed.DefaultWorkspaceID})
	got, err = client.APIKeys.Get(ctx, legacy.ID)
	require.NoError(t, err)
	require.Nil(t, got.Principal)
	require.Equal(t, legacy.ID, got.Name, "the name defaults to the id")

	_, err = client.APIKeys.Get(ctx, "apikey_01nosuchkey")
	require.ErrorIs(t, err, apierror.ErrNotFound)
	require.ErrorContains(t, err, "API key `apikey_01nosuchkey` not found.")
}

func TestListFiltersAndPages(t *testing.T) {
	env, clock, client := newEnv(t)
	other := env.Server.CreateWorkspace("other")
	require.NoError(t, env.Server.GrantAPIAccess(env.Seed.UserID, other))
	creator := env.Server.CreateUser("Creator")
	var ids []string // in creation order
	for i := range 5 {
		clock.Advance(time.Second)
		spec := refserver.KeySpec{Name: "k" + string(rune('0'+i))}
		if i%2 == 1 {
			spec.WorkspaceID = other
			spec.CreatedBy = creator
		}
		ids = append(ids, createKey(t, env, spec).ID)
	}
	_, err := client.APIKeys.Disable(ctx, ids[0])
	require.NoError(t, err)
	_, err = client.APIKeys.Delete(ctx, ids[1])
	require.NoError(t, err)

	idsOf := func(params apikeys.ListParams) []string {
		t.Helper()
		var out []string
		for k, err := range client.APIKeys.All(ctx, params) {
			require.NoError(t, err)
			out = append(out, k.ID)
		}
		return out
	}
	all := idsOf(apikeys.ListParams{Limit: 2})
	require.Len(t, all, 6, "five keys and the seeded one, deleted keys included")
	require.Equal(t, []string{ids[4], ids[3], ids[2], ids[1], ids[0]}, all[:5], "newest first")

	require.Equal(t, []string{ids[3], ids[1]}, idsOf(apikeys.ListParams{WorkspaceID: other}))
	require.Equal(t, []string{ids[3], ids[1]}, idsOf(apikeys.ListParams{CreatedByUserID: creator}))
	require.Equal(t, []string{ids[1]}, idsOf(apikeys.ListParams{Status: apikeys.StatusArchived}))
	require.Equal(t, []string{ids[0]}, idsOf(apikeys.ListParams{Status: apikeys.StatusInactive}))
	require.Empty(t, idsOf(apikeys.ListParams{WorkspaceID: "wrkspc_01nosuchworkspace"}))

	page, err := client.APIKeys.List(ctx, apikeys.ListParams{Limit: 2})
	require.NoError(t, err)
	require.True(t, page.HasMore)
	require.Equal(t, ids[4], page.FirstID)
	require.Equal(t, ids[3], page.LastID)
	page, err = client.APIKeys.List(ctx, apikeys.ListParams{AfterID: page.LastID, Limit: 2})
	require.NoError(t, err)
	require.Equal(t, []string{ids[2], ids[1]}, []string{page.Data[0].ID, page.Data[1].ID})
	page, err = client.APIKeys.List(ctx, apikeys.ListParams{BeforeID: ids[2], Limit: 10})
	require.NoError(t, err)
	require.Equal(t, []string{ids[4], ids[3]}, []string{page.Data[0].ID, page.Data[1].ID})

	// Walking backwards from before_id: page by page towards the newest.
	require.Equal(t, []string{ids[3], ids[4]}, idsOf(apikeys.ListParams{BeforeID: ids[2], Limit: 1}))

	// Refused locally or by the server, with the parameter named.
	_, err = client.APIKeys.List(ctx, apikeys.ListParams{AfterID: ids[0], BeforeID: ids[1]})
	var verr *apierror.ValidationError
	require.ErrorAs(t, err, &verr)
	_, err = client.APIKeys.List(ctx, apikeys.ListParams{Limit: 1001})
	require.ErrorAs(t, err, &verr)
	_, err = client.APIKeys.List(ctx, apikeys.ListParams{Status: "expiring"})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.ErrorContains(t, err, "status")
	_, err = client.APIKeys.List(ctx, apikeys.ListParams{WorkspaceID: "ws-1"})
	require.ErrorContains(t, err, "workspace_id")
	_, err = client.APIKeys.List(ctx, apikeys.ListParams{CreatedByUserID: "bob"})
	require.ErrorContains(t, err, "created_by_user_id")
	_, err = client.APIKeys.List(ctx, apikeys.ListParams{AfterID: "apikey_01nosuchkey"})
	require.ErrorContains(t, err, "after_id")
}

func TestUpdateName(t *testing.T) {
	env, _, client := newEnv(t)
	k := createKey(t, env, refserver.KeySpec{Name: "old"})
	got, err := client.APIKeys.Update(ctx, k.ID, apikeys.UpdateParams{Name: "new"})
	require.NoError(t, err)
	require.Equal(t, "new", got.Name)
	require.Equal(t, apikeys.StatusActive, got.Status)
	require.JSONEq(t, `{"name":"new"}`, string(lastBody(t, env)))

	same, err := client.APIKeys.Update(ctx, k.ID, apikeys.UpdateParams{})
	require.NoError(t, err, "an empty update returns the key unchanged")
	require.Equal(t, got, same)
	require.JSONEq(t, `{}`, string(lastBody(t, env)))

	env.Server.ResetRequests()
	_, err = client.APIKeys.Update(ctx, k.ID, apikeys.UpdateParams{Name: strings.Repeat("n", 256)})
	var verr *apierror.ValidationError
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "name", verr.Field)
	_, err = client.APIKeys.Update(ctx, k.ID, apikeys.UpdateParams{Status: "expired"})
	require.ErrorAs(t, err, &verr)
	require.Empty(t, env.Server.Requests(), "refused locally, nothing sent")
}

func lastBody(t *testing.T, env *reftest.Env) []byte {
	t.Helper()
	reqs := env.Server.Requests()
	require.NotEmpty(t, reqs)
	return reqs[len(reqs)-1].Body
}

// TestStateTransitions walks every status move of a key (active, inactive,
// archived) with the console's verbs, the allowed ones and the refused ones, and checks what each status
// does to requests made with the key.
func TestStateTransitions(t *testing.T) {
	env, _, client := newEnv(t)
	k := createKey(t, env, refserver.KeySpec{Name: "moving"})
	useKey := func() error {
		_, err := client.Models.List(ctx, models.ListParams{}, option.WithAPIKey(k.Secret))
		return err
	}
	require.NoError(t, useKey())

	steps := []struct {
		name string
		move func(context.Context, string, ...option.Option) (*apikeys.APIKey, error)
		want apikeys.Status
		use  string // "" = the key works; else the 401 message
	}{
		{"disable", client.APIKeys.Disable, apikeys.StatusInactive, "API key is disabled"},
		{"disable again", client.APIKeys.Disable, apikeys.StatusInactive, "API key is disabled"},
		{"enable", client.APIKeys.Enable, apikeys.StatusActive, ""},
		{"enable again", client.APIKeys.Enable, apikeys.StatusActive, ""},
		{"disable before delete", client.APIKeys.Disable, apikeys.StatusInactive, "API key is disabled"},
		{"delete an inactive key", client.APIKeys.Delete, apikeys.StatusArchived, "API key has been deleted"},
		{"delete again", client.APIKeys.Delete, apikeys.StatusArchived, "API key has been deleted"},
	}
	for _, s := range steps {
		got, err := s.move(ctx, k.ID)
		require.NoError(t, err, s.name)
		require.Equal(t, s.want, got.Status, s.name)
		if s.use == "" {
			require.NoError(t, useKey(), s.name)
		} else {
			err := useKey()
			require.ErrorIs(t, err, apierror.ErrAuthentication, s.name)
			require.ErrorContains(t, err, s.use, s.name)
		}
	}

	// A deleted key never changes again, and is still listed.
	const deleted = "has been deleted and cannot be updated"
	_, err := client.APIKeys.Enable(ctx, k.ID)
	requireConflict(t, err, deleted)
	_, err = client.APIKeys.Disable(ctx, k.ID)
	requireConflict(t, err, deleted)
	_, err = client.APIKeys.Update(ctx, k.ID, apikeys.UpdateParams{Name: "renamed"})
	requireConflict(t, err, deleted)
	got, err := client.APIKeys.Get(ctx, k.ID)
	require.NoError(t, err)
	require.Equal(t, apikeys.StatusArchived, got.Status)
	require.Equal(t, "moving", got.Name)
	require.Equal(t, 1, env.Count("POST", "/v1/organizations/api_keys/"+k.ID)-len(steps)-2,
		"409s are not retried: one request each") // 7 steps + 3 refusals = 10 requests
}

// TestExpiredKeyCanOnlyBeDeleted: once its expiry passes on the server's
// clock a key reports StatusExpired, whatever its stored status, is listed
// under that status, and every move but Delete is a 409.
func TestExpiredKeyCanOnlyBeDeleted(t *testing.T) {
	for _, start := range []apikeys.Status{apikeys.StatusActive, apikeys.StatusInactive} {
		t.Run(string(start), func(t *testing.T) {
			env, clock, client := newEnv(t)
			k := createKey(t, env, refserver.KeySpec{Name: "short", ExpiresAt: t0.Add(3 * time.Hour)})
			if start == apikeys.StatusInactive {
				_, err := client.APIKeys.Disable(ctx, k.ID)
				require.NoError(t, err)
			}
			listed := func(status apikeys.Status) bool {
				t.Helper()
				page, err := client.APIKeys.List(ctx, apikeys.ListParams{Status: status})
				require.NoError(t, err)
				return slices.ContainsFunc(page.Data, func(x apikeys.APIKey) bool { return x.ID == k.ID })
			}
			clock.Advance(3*time.Hour - time.Nanosecond)
			got, err := client.APIKeys.Get(ctx, k.ID)
			require.NoError(t, err)
			require.Equal(t, start, got.Status, "not expired yet")
			require.True(t, listed(start))
			require.False(t, listed(apikeys.StatusExpired))

			clock.Advance(time.Nanosecond) // expiry is inclusive
			got, err = client.APIKeys.Get(ctx, k.ID)
			require.NoError(t, err)
			require.Equal(t, apikeys.StatusExpired, got.Status, "the server's clock has passed expires_at")
			require.True(t, got.Expired(clock.Now()))
			require.True(t, listed(apikeys.StatusExpired))
			require.False(t, listed(start), "listed under the status it reports")
			_, err = client.Models.List(ctx, models.ListParams{}, option.WithAPIKey(k.Secret))
			require.ErrorContains(t, err, "API key has expired")

			const expired = "has expired; an expired key can only be deleted"
			_, err = client.APIKeys.Enable(ctx, k.ID)
			requireConflict(t, err, expired)
			_, err = client.APIKeys.Disable(ctx, k.ID)
			requireConflict(t, err, expired)
			same, err := client.APIKeys.Update(ctx, k.ID, apikeys.UpdateParams{Name: "short"})
			require.NoError(t, err, "no change is always fine")
			require.Equal(t, apikeys.StatusExpired, same.Status)
			_, err = client.APIKeys.Update(ctx, k.ID, apikeys.UpdateParams{Name: "renamed"})
			requireConflict(t, err, expired)
			_, err = client.APIKeys.Update(ctx, k.ID, apikeys.UpdateParams{Name: "renamed", Status: apikeys.StatusArchived})
			requireConflict(t, err, expired)

			got, err = client.APIKeys.Delete(ctx, k.ID)
			require.NoError(t, err)
			require.Equal(t, apikeys.StatusArchived, got.Status)
			require.Equal(t, "short", got.Name)
			_, err = client.Models.List(ctx, models.ListParams{}, option.WithAPIKey(k.Secret))
			require.ErrorContains(t, err, "API key has been deleted", "archived and expired reports deleted")
			got, err = client.APIKeys.Get(ctx, k.ID)
			require.NoError(t, err)
			require.Equal(t, apikeys.StatusArchived, got.Status, "deleted wins over expired")
			require.True(t, listed(apikeys.StatusArchived))
			require.False(t, listed(apikeys.StatusExpired))
		})
	}
}

// TestAdminAccessOnly: a workspace-scoped key cannot manage keys.
func TestAdminAccessOnly(t *testing.T) {
	env, _, client := newEnv(t)
	scoped := createKey(t, env, refserver.KeySpec{WorkspaceID: env.Seed.DefaultWorkspaceID})
	_, err := client.APIKeys.List(ctx, apikeys.ListParams{}, option.WithAPIKey(scoped.Secret))
	require.ErrorIs(t, err, apierror.ErrPermission)
	var apiErr *apierror.Error
	require.True(t, errors.As(err, &apiErr))
	require.NotContains(t, err.Error(), scoped.Secret)
}

// TestPrincipalKinds: the principal decodes to the variant of the key's
// owner, and a legacy workspace key has none.
func TestPrincipalKinds(t *testing.T) {
	env, _, client := newEnv(t)
	sa := env.Server.CreateServiceAccount("deployer")
	saKey := createKey(t, env, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa})
	personal := createKey(t, env, refserver.KeySpec{})
	legacy := createKey(t, env, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: env.Seed.DefaultWorkspaceID})

	want := map[string]apikeys.Principal{
		saKey.ID:    &apikeys.ServiceAccountActor{ServiceAccountID: sa},
		personal.ID: &apikeys.UserActor{UserID: env.Seed.UserID},
		legacy.ID:   nil,
	}
	for id, p := range want {
		got, err := client.APIKeys.Get(ctx, id)
		require.NoError(t, err)
		require.Equal(t, p, got.Principal, id)
	}
	for k, err := range client.APIKeys.All(ctx, apikeys.ListParams{}) {
		require.NoError(t, err)
		if p, ok := want[k.ID]; ok {
			require.Equal(t, p, k.Principal, "listed %s", k.ID)
		}
	}
}
