package refserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// API key administration (docs/auth-wire.md section 5):
// list, retrieve and update, the key state rules, and how each key type
// stops working.

const apiKeysPath = "/v1/organizations/api_keys"

func keyPath(id string) string { return apiKeysPath + "/" + id }

func msgKeyDeleted(id string) string {
	return "API key `" + id + "` has been deleted and cannot be updated."
}

func msgKeyExpired(id string) string {
	return "API key `" + id + "` has expired; an expired key can only be deleted."
}

// hint is the partial_key_hint of a secret (docs/auth-wire.md 5.1).
func hint(secret string) string {
	body := strings.TrimPrefix(secret, "sk-vendor-api03-")
	return "sk-vendor-api03-" + body[:3] + "..." + body[len(body)-4:]
}

func wireTime(ts time.Time) string { return ts.UTC().Format("2006-01-02T15:04:05.000000Z") }

func TestAPIKeyObject(t *testing.T) {
	e := newEnv(t)
	ws := e.seed.DefaultWorkspaceID
	sa := e.srv.CreateServiceAccount("deployer")
	seedKeyID := "apikey_010000000000000000000001"
	created := wireTime(testStart)

	e.clock.Advance(time.Minute)
	expires := e.clock.Now().Add(30 * 24 * time.Hour)
	saKey := e.mustKey(t, refserver.KeySpec{
		Kind: refserver.ServiceAccountKey, OwnerID: sa, WorkspaceID: ws, Name: "ci-deploy", ExpiresAt: expires,
	})
	wsKey := e.mustKey(t, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: ws, CreatedBy: sa})

	cases := []struct {
		name string
		id   string
		want map[string]any
	}{
		{"seed personal key", seedKeyID, map[string]any{
			"type": "api_key", "id": seedKeyID, "name": seedKeyID, "workspace_id": nil,
			"created_at":       created,
			"created_by":       map[string]any{"id": e.seed.UserID, "type": "user"},
			"principal":        map[string]any{"type": "user_actor", "user_id": e.seed.UserID},
			"partial_key_hint": hint(e.seed.APIKey), "status": "active", "expires_at": nil,
			"scope": map[string]any{"type": "organization"},
		}},
		{"service account key", saKey.ID, map[string]any{
			"type": "api_key", "id": saKey.ID, "name": "ci-deploy", "workspace_id": ws,
			"created_at":       wireTime(testStart.Add(time.Minute)),
			"created_by":       map[string]any{"id": e.seed.UserID, "type": "user"},
			"principal":        map[string]any{"type": "service_account_actor", "service_account_id": sa},
			"partial_key_hint": hint(saKey.Secret), "status": "active", "expires_at": wireTime(expires),
			"scope": map[string]any{"type": "workspace", "workspace_id": ws},
		}},
		{"legacy workspace key", wsKey.ID, map[string]any{
			"type": "api_key", "id": wsKey.ID, "name": wsKey.ID, "workspace_id": ws,
			"created_at":       wireTime(testStart.Add(time.Minute)),
			"created_by":       map[string]any{"id": sa, "type": "service_account"},
			"principal":        nil,
			"partial_key_hint": hint(wsKey.Secret), "status": "active", "expires_at": nil,
			"scope": map[string]any{"type": "workspace", "workspace_id": ws},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, wantOK(t, e.do(t, "GET", keyPath(tc.id), "")))
		})
	}
	for _, id := range []string{"apikey_nope", "not-an-id", seedKeyID + "x"} {
		wantError(t, e.do(t, "GET", keyPath(id), ""), http.StatusNotFound, "not_found_error", "API key `"+id+"` not found.")
		wantError(t, e.do(t, "POST", keyPath(id), `{}`), http.StatusNotFound, "not_found_error", "API key `"+id+"` not found.")
	}
	// No secret is ever returned.
	for _, r := range []response{e.do(t, "GET", apiKeysPath, ""), e.do(t, "GET", keyPath(saKey.ID), "")} {
		require.NotContains(t, string(r.body), strings.TrimPrefix(saKey.Secret, "sk-vendor-api03-"))
		require.NotContains(t, string(r.body), strings.TrimPrefix(e.seed.APIKey, "sk-vendor-api03-"))
	}
}

func TestListAPIKeys(t *testing.T) {
	e := newEnv(t)
	ws := e.seed.DefaultWorkspaceID
	team := e.srv.CreateWorkspace("team")
	sa := e.srv.CreateServiceAccount("bot")
	require.NoError(t, e.srv.AddServiceAccountToWorkspace(sa, team))
	other := e.srv.CreateUser("other")
	require.NoError(t, e.srv.GrantAPIAccess(other, ws))
	seed := "apikey_010000000000000000000001"
	ids := []string{seed}
	for _, spec := range []refserver.KeySpec{
		{Kind: refserver.PersonalKey, OwnerID: other, WorkspaceID: ws},
		{Kind: refserver.ServiceAccountKey, OwnerID: sa, WorkspaceID: team},
		{Kind: refserver.WorkspaceKey, WorkspaceID: team},
		{Kind: refserver.PersonalKey, OwnerID: other},
	} {
		e.clock.Advance(time.Second)
		ids = append(ids, e.mustKey(t, spec).ID)
	}
	// Delete one: a deleted (archived) key stays listed.
	wantOK(t, e.do(t, "POST", keyPath(ids[2]), `{"status":"archived"}`))
	wantOK(t, e.do(t, "POST", keyPath(ids[1]), `{"status":"inactive"}`))

	listIDs := func(query string) ([]string, map[string]any) {
		t.Helper()
		out := wantOK(t, e.do(t, "GET", apiKeysPath+query, ""))
		var got []string
		for _, k := range out["data"].([]any) {
			got = append(got, k.(map[string]any)["id"].(string))
		}
		return got, out
	}
	rev := func(in ...string) []string {
		out := make([]string, len(in))
		for i, s := range in {
			out[len(in)-1-i] = s
		}
		return out
	}
	cases := []struct {
		query string
		want  []string
		more  bool
	}{
		{"", rev(ids...), false},
		{"?limit=2", []string{ids[4], ids[3]}, true},
		{"?limit=2&after_id=" + ids[3], []string{ids[2], ids[1]}, true},
		{"?after_id=" + ids[1], []string{seed}, false},
		{"?before_id=" + ids[1], []string{ids[4], ids[3], ids[2]}, false},
		{"?status=active", []string{ids[4], ids[3], seed}, false},
		{"?status=inactive", []string{ids[1]}, false},
		{"?status=archived", []string{ids[2]}, false},
		{"?workspace_id=" + team, []string{ids[3], ids[2]}, false},
		{"?workspace_id=" + ws, []string{ids[1]}, false},
		{"?workspace_id=wrkspc_nope", nil, false},
		{"?created_by_user_id=" + other, []string{ids[4], ids[1]}, false},
		{"?created_by_user_id=" + e.seed.UserID + "&status=active", []string{ids[3], seed}, false},
		{"?created_by_user_id=user_nope", nil, false},
		{"?unknown=1", rev(ids...), false},
	}
	for _, tc := range cases {
		t.Run("query "+tc.query, func(t *testing.T) {
			got, out := listIDs(tc.query)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.more, out["has_more"])
			if len(tc.want) > 0 {
				require.Equal(t, tc.want[0], out["first_id"])
				require.Equal(t, tc.want[len(tc.want)-1], out["last_id"])
			} else {
				require.Nil(t, out["first_id"])
				require.Nil(t, out["last_id"])
			}
		})
	}
	invalid := []struct{ query, message string }{
		{"?status=expiring", "status: must be one of `active`, `inactive`, `archived`, `expired`"},
		{"?workspace_id=default", "workspace_id: must be a workspace ID (`wrkspc_…`)"},
		{"?created_by_user_id=svcacct_01", "created_by_user_id: must be a user ID (`user_…`)"},
		{"?limit=0", "limit: must be between 1 and 1000"},
		{"?limit=1001", "limit: must be between 1 and 1000"},
		{"?after_id=apikey_nope", "after_id: no object with id `apikey_nope`"},
		{"?after_id=" + seed + "&before_id=" + seed, "after_id: cannot be combined with before_id"},
	}
	for _, tc := range invalid {
		t.Run("invalid "+tc.query, func(t *testing.T) {
			wantInvalid(t, e.do(t, "GET", apiKeysPath+tc.query, ""), tc.message)
		})
	}
}

// Who may call the admin API (docs/auth-wire.md 5: personal and service
// account keys not scoped to a workspace), and the routes it does not have.
func TestAPIKeyAdminAccess(t *testing.T) {
	e := newEnv(t)
	ws := e.seed.DefaultWorkspaceID
	sa := e.srv.CreateServiceAccount("bot")
	saKey := e.mustKey(t, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa})
	scoped := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, WorkspaceID: ws})
	legacy := e.mustKey(t, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: ws})

	// An unscoped service account key manages every key, a user's included.
	wantOK(t, e.do(t, "GET", apiKeysPath, "", withKey(saKey.Secret)))
	wantOK(t, e.do(t, "POST", keyPath(scoped.ID), `{"name":"renamed by a bot"}`, withKey(saKey.Secret)))
	wantInvalid(t, e.do(t, "GET", apiKeysPath, "", noWorkspace), "vendor-workspace-id header is required for an identity-linked key")

	for _, k := range []refserver.APIKey{scoped, legacy} {
		for _, req := range []struct{ method, path, body string }{
			{"GET", apiKeysPath, ""}, {"GET", keyPath(k.ID), ""}, {"POST", keyPath(k.ID), `{"status":"inactive"}`},
		} {
			wantError(t, e.do(t, req.method, req.path, req.body, withKey(k.Secret)), http.StatusForbidden, "permission_error", "")
		}
	}
	require.Equal(t, "active", wantOK(t, e.do(t, "GET", keyPath(legacy.ID), ""))["status"])

	for _, method := range []string{"DELETE", "PUT", "PATCH"} {
		wantError(t, e.do(t, method, keyPath(scoped.ID), ""), http.StatusNotFound, "not_found_error",
			"No route for "+method+" "+keyPath(scoped.ID)+".")
	}
	wantError(t, e.do(t, "POST", apiKeysPath, `{"name":"new"}`), http.StatusNotFound, "not_found_error", "No route for POST "+apiKeysPath+".")

	// A key may disable itself; it then stops working at once.
	self := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID})
	require.Equal(t, "inactive", wantOK(t, e.do(t, "POST", keyPath(self.ID), `{"status":"inactive"}`, withKey(self.Secret)))["status"])
	wantUnauthenticated(t, e.do(t, "GET", keyPath(self.ID), "", withKey(self.Secret)), msgDisabled)
}

// Body rules of Update API Key (docs/auth-wire.md 5.4).
func TestUpdateAPIKeyValidation(t *testing.T) {
	e := newEnv(t)
	k := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, Name: "orig", ExpiresAt: e.clock.Now().Add(time.Hour)})
	cases := []struct{ name, body, message string }{
		{"expires_at", `{"expires_at":"2030-01-01T00:00:00Z"}`, "expires_at: expiry is fixed at creation and cannot be changed"},
		{"expires_at null", `{"expires_at":null}`, "expires_at: expiry is fixed at creation and cannot be changed"},
		{"expires_at with a valid change", `{"name":"x","expires_at":null}`, "expires_at: expiry is fixed at creation and cannot be changed"},
		{"unknown field", `{"workspace_id":null}`, "workspace_id: unknown field"},
		{"name null", `{"name":null}`, "name: must not be null"},
		{"name empty", `{"name":""}`, "name: must be between 1 and 255 characters"},
		{"name too long", `{"name":"` + strings.Repeat("n", 256) + `"}`, "name: must be between 1 and 255 characters"},
		{"name not a string", `{"name":5}`, "name: must be a string"},
		{"status null", `{"status":null}`, "status: must not be null"},
		{"status expired", `{"status":"expired"}`, "status: must be one of `active`, `inactive`, `archived`"},
		{"status upper case", `{"status":"ACTIVE"}`, "status: must be one of `active`, `inactive`, `archived`"},
		{"not an object", `["archived"]`, "request body: must be a JSON object"},
		{"name and a bad status", `{"name":"new","status":"gone"}`, "status: must be one of `active`, `inactive`, `archived`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, e.do(t, "POST", keyPath(k.ID), tc.body), tc.message)
		})
	}
	// Nothing changed, and the name may be 255 characters.
	got := wantOK(t, e.do(t, "GET", keyPath(k.ID), ""))
	require.Equal(t, "orig", got["name"])
	require.Equal(t, wireTime(testStart.Add(time.Hour)), got["expires_at"])
	long := strings.Repeat("é", 255)
	require.Equal(t, long, wantOK(t, e.do(t, "POST", keyPath(k.ID), `{"name":"`+long+`"}`))["name"])
	// An empty body is {}.
	require.Equal(t, long, wantOK(t, e.do(t, "POST", keyPath(k.ID), ""))["name"])
}

// Every key state transition (docs/auth-wire.md 5.4), allowed and refused,
// through the update endpoint; and what the key can do afterwards.
func TestAPIKeyTransitions(t *testing.T) {
	type state string
	const (
		active          state = "active"
		inactive        state = "inactive"
		archived        state = "archived"
		expiredActive   state = "expired active"
		expiredInactive state = "expired inactive"
		expiredArchived state = "expired archived"
	)
	type outcome struct {
		status  string // the status afterwards; "" = refused
		message string // for a refusal: msgKeyDeleted or msgKeyExpired
	}
	deleted, expired := "deleted", "expired"
	same := func(s string) outcome { return outcome{status: s} }
	refuse := func(why string) outcome { return outcome{message: why} }

	requests := []string{
		`{"status":"active"}`, `{"status":"inactive"}`, `{"status":"archived"}`,
		`{"name":"renamed"}`, `{"name":"key"}`, `{}`,
		`{"status":"archived","name":"renamed"}`,
	}
	// want[state][i] answers requests[i]. The key is named "key", so
	// {"name":"key"} changes nothing, like {} and the current status. An
	// expired key reports "expired", so asking for its stored status is a
	// change, refused.
	want := map[state][]outcome{
		active:          {same("active"), same("inactive"), same("archived"), same("active"), same("active"), same("active"), same("archived")},
		inactive:        {same("active"), same("inactive"), same("archived"), same("inactive"), same("inactive"), same("inactive"), same("archived")},
		archived:        {refuse(deleted), refuse(deleted), same("archived"), refuse(deleted), same("archived"), same("archived"), refuse(deleted)},
		expiredActive:   {refuse(expired), refuse(expired), same("archived"), refuse(expired), same("expired"), same("expired"), refuse(expired)},
		expiredInactive: {refuse(expired), refuse(expired), same("archived"), refuse(expired), same("expired"), same("expired"), refuse(expired)},
		expiredArchived: {refuse(deleted), refuse(deleted), same("archived"), refuse(deleted), same("archived"), same("archived"), refuse(deleted)},
	}
	// The 401 each status gives on an API request (docs/api-choices.md
	// "Errors").
	authMessage := func(status string, isExpired bool) string {
		switch {
		case status == "archived":
			return msgDeleted
		case isExpired:
			return msgExpired
		case status == "inactive":
			return msgDisabled
		}
		return ""
	}

	for st, outcomes := range want {
		for i, body := range requests {
			t.Run(fmt.Sprintf("%s %s", st, body), func(t *testing.T) {
				e := newEnv(t)
				k := e.mustKey(t, refserver.KeySpec{
					Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, Name: "key", ExpiresAt: e.clock.Now().Add(time.Hour),
				})
				update := func(body string) response { return e.do(t, "POST", keyPath(k.ID), body) }
				switch st {
				case inactive, expiredInactive:
					wantOK(t, update(`{"status":"inactive"}`))
				case archived, expiredArchived:
					wantOK(t, update(`{"status":"archived"}`))
				}
				isExpired := strings.HasPrefix(string(st), "expired")
				if isExpired {
					e.clock.Advance(time.Hour) // expiry is inclusive
				}
				before := wantOK(t, e.do(t, "GET", keyPath(k.ID), ""))

				r := update(body)
				o := outcomes[i]
				if o.status == "" {
					msg := msgKeyDeleted(k.ID)
					if o.message == expired {
						msg = msgKeyExpired(k.ID)
					}
					wantConflict(t, r, "conflict_error", msg)
					require.Equal(t, before, wantOK(t, e.do(t, "GET", keyPath(k.ID), "")), "a refused update changes nothing")
					return
				}
				got := wantOK(t, r)
				require.Equal(t, o.status, got["status"])
				require.Equal(t, before["expires_at"], got["expires_at"], "expiry is fixed")
				if strings.Contains(body, "renamed") {
					require.Equal(t, "renamed", got["name"])
				} else {
					require.Equal(t, "key", got["name"])
				}
				require.Equal(t, got, wantOK(t, e.do(t, "GET", keyPath(k.ID), "")))
				// Still listed, whatever the status.
				listed := wantOK(t, e.do(t, "GET", apiKeysPath+"?status="+o.status, ""))["data"].([]any)
				require.Contains(t, listed, any(got))

				use := e.do(t, "GET", "/v1/models", "", withKey(k.Secret))
				if msg := authMessage(o.status, isExpired); msg != "" {
					wantUnauthenticated(t, use, msg)
				} else {
					wantOK(t, use)
				}
			})
		}
	}
}

// Deletion is permanent, and an expired key cannot come back: each path
// through the states, end to end.
func TestAPIKeyLifecycle(t *testing.T) {
	e := newEnv(t)
	k := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, ExpiresAt: e.clock.Now().Add(time.Hour)})
	use := func() response { return e.do(t, "GET", "/v1/models", "", withKey(k.Secret)) }
	set := func(status string) response { return e.do(t, "POST", keyPath(k.ID), `{"status":"`+status+`"}`) }

	wantOK(t, use())
	require.Equal(t, "inactive", wantOK(t, set("inactive"))["status"]) // Disable
	wantUnauthenticated(t, use(), msgDisabled)
	require.Equal(t, "active", wantOK(t, set("active"))["status"]) // Re-enable
	wantOK(t, use())

	e.clock.Advance(time.Hour)
	wantUnauthenticated(t, use(), msgExpired)
	got := wantOK(t, e.do(t, "GET", keyPath(k.ID), ""))
	require.Equal(t, "expired", got["status"], "status reports expiry on the server's clock")
	require.Equal(t, wireTime(testStart.Add(time.Hour)), got["expires_at"])
	wantConflict(t, set("inactive"), "conflict_error", msgKeyExpired(k.ID))
	require.Error(t, e.srv.SetAPIKeyStatus(k.ID, refserver.KeyInactive))

	require.Equal(t, "archived", wantOK(t, set("archived"))["status"]) // Delete
	wantUnauthenticated(t, use(), msgDeleted)
	wantConflict(t, set("active"), "conflict_error", msgKeyDeleted(k.ID))
	require.Error(t, e.srv.SetAPIKeyStatus(k.ID, refserver.KeyActive))
	e.clock.Set(testStart)
	require.Equal(t, "archived", wantOK(t, e.do(t, "GET", keyPath(k.ID), ""))["status"])
	wantConflict(t, set("active"), "conflict_error", msgKeyDeleted(k.ID))
	wantUnauthenticated(t, use(), msgDeleted)
}

// The expired status is computed on the server's clock, never stored: it
// appears when expires_at is reached, the list filters on it, and setting
// the clock back shows the stored status again.
func TestAPIKeyExpiredStatus(t *testing.T) {
	e := newEnv(t)
	k := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, ExpiresAt: e.clock.Now().Add(time.Hour)})
	status := func() any { return wantOK(t, e.do(t, "GET", keyPath(k.ID), ""))["status"] }
	listed := func(status string) []string {
		t.Helper()
		var ids []string
		for _, x := range wantOK(t, e.do(t, "GET", apiKeysPath+"?status="+status, ""))["data"].([]any) {
			ids = append(ids, x.(map[string]any)["id"].(string))
		}
		return ids
	}

	require.Equal(t, "active", status())
	require.Empty(t, listed("expired"))
	e.clock.Advance(time.Hour)
	require.Equal(t, "expired", status())
	require.Equal(t, []string{k.ID}, listed("expired"))
	require.NotContains(t, listed("active"), k.ID)
	e.clock.Set(testStart)
	require.Equal(t, "active", status(), "expired is never stored")
	require.Empty(t, listed("expired"))
}

// When each key kind stops working (docs/api-choices.md "API keys"), beyond
// what auth_test.go covers: an
// unscoped personal key follows its user's access workspace by workspace,
// and archived keys are not restored after a re-invite; an unscoped service
// account key follows the account's workspaces.
func TestKeyTypesFollowTheirOwner(t *testing.T) {
	t.Run("personal key follows the user's access", func(t *testing.T) {
		e := newEnv(t)
		u := e.srv.CreateUser("ann")
		team := e.srv.CreateWorkspace("team")
		require.NoError(t, e.srv.GrantAPIAccess(u, e.seed.DefaultWorkspaceID))
		require.NoError(t, e.srv.GrantAPIAccess(u, team))
		k := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: u})
		in := func(ws string) response {
			return e.do(t, "GET", "/v1/models", "", withKey(k.Secret), withWorkspace(ws))
		}
		wantOK(t, in(team))
		require.NoError(t, e.srv.RevokeAPIAccess(u, team))
		wantError(t, in(team), http.StatusNotFound, "not_found_error", "Workspace `"+team+"` not found.")
		wantOK(t, in(e.seed.DefaultWorkspaceID))
		require.NoError(t, e.srv.GrantAPIAccess(u, team))
		wantOK(t, in(team))
	})
	t.Run("archived keys stay archived after a re-invite", func(t *testing.T) {
		e := newEnv(t)
		u := e.srv.CreateUser("ann")
		require.NoError(t, e.srv.GrantAPIAccess(u, e.seed.DefaultWorkspaceID))
		k := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: u})
		require.NoError(t, e.srv.RemoveUser(u))
		require.Equal(t, "archived", wantOK(t, e.do(t, "GET", keyPath(k.ID), ""))["status"])
		require.Error(t, e.srv.ReinviteUser("user_nope"))
		require.Error(t, e.srv.ReinviteUser(e.seed.UserID), "already a member")
		require.NoError(t, e.srv.ReinviteUser(u))
		require.Error(t, e.srv.ReinviteUser(u))
		require.NoError(t, e.srv.GrantAPIAccess(u, e.seed.DefaultWorkspaceID))
		wantUnauthenticated(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret)), msgDeleted)
		wantConflict(t, e.do(t, "POST", keyPath(k.ID), `{"status":"active"}`), "conflict_error", msgKeyDeleted(k.ID))
		require.Equal(t, "archived", wantOK(t, e.do(t, "GET", keyPath(k.ID), ""))["status"])
		fresh := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: u})
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(fresh.Secret)))
	})
	t.Run("service account key follows the account's workspaces", func(t *testing.T) {
		e := newEnv(t)
		sa := e.srv.CreateServiceAccount("bot")
		team := e.srv.CreateWorkspace("team")
		k := e.mustKey(t, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa})
		in := func(ws string) response {
			return e.do(t, "GET", "/v1/models", "", withKey(k.Secret), withWorkspace(ws))
		}
		wantError(t, in(team), http.StatusNotFound, "not_found_error", "Workspace `"+team+"` not found.")
		require.NoError(t, e.srv.AddServiceAccountToWorkspace(sa, team))
		wantOK(t, in(team))
		require.NoError(t, e.srv.RemoveServiceAccountFromWorkspace(sa, team))
		wantError(t, in(team), http.StatusNotFound, "not_found_error", "Workspace `"+team+"` not found.")
		wantOK(t, in(e.seed.DefaultWorkspaceID))
		require.NoError(t, e.srv.ArchiveServiceAccount(sa))
		wantUnauthenticated(t, in(e.seed.DefaultWorkspaceID), msgNoLonger)
		// The key's own status is untouched: it is the account that stopped.
		require.Equal(t, "active", wantOK(t, e.do(t, "GET", keyPath(k.ID), ""))["status"])
	})
	t.Run("legacy workspace key stops with its workspace, and only it", func(t *testing.T) {
		e := newEnv(t)
		team := e.srv.CreateWorkspace("team")
		k := e.mustKey(t, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: team})
		wantError(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), withWorkspace(e.seed.DefaultWorkspaceID)),
			http.StatusNotFound, "not_found_error", "Workspace `"+e.seed.DefaultWorkspaceID+"` not found.")
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace))
		require.NoError(t, e.srv.RemoveUser(e.srv.CreateUser("someone")))
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace)) // it acts as nobody
		require.NoError(t, e.srv.ArchiveWorkspace(team))
		wantUnauthenticated(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace), msgNoLonger)
	})
}
