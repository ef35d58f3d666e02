package refserver_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

const (
	msgMissing  = "authentication required: send `Authorization: Bearer <key>` or `x-api-key: <key>`"
	msgInvalid  = "invalid API key"
	msgExpired  = "API key has expired"
	msgDisabled = "API key is disabled"
	msgDeleted  = "API key has been deleted"
	msgNoLonger = "API key is no longer valid"
)

func wantUnauthenticated(t *testing.T, r response, message string) {
	t.Helper()
	wantError(t, r, http.StatusUnauthorized, "authentication_error", message)
}

func TestCredentialHeaders(t *testing.T) {
	e := newEnv(t)
	good := e.seed.APIKey
	cases := []struct {
		name    string
		mods    []mod
		message string // "" = accepted
	}{
		{"bearer", nil, ""},
		{"x-api-key", []mod{withAPIKeyHeader(good)}, ""},
		{"lowercase bearer scheme", []mod{withHeader("Authorization", "bearer "+good)}, ""},
		{"none", []mod{noAuth}, msgMissing},
		{"empty bearer", []mod{withHeader("Authorization", "Bearer ")}, msgMissing},
		{"basic scheme only", []mod{withHeader("Authorization", "Basic abc")}, msgMissing},
		{"unknown key", []mod{withKey("sk-vendor-api03-unknown")}, msgInvalid},
		{"bearer wins over x-api-key", []mod{withKey("sk-vendor-api03-unknown"), withHeader("x-api-key", good)}, msgInvalid},
		{"bearer wins (valid)", []mod{withHeader("x-api-key", "sk-vendor-api03-unknown")}, ""},
		{"other scheme falls back to x-api-key", []mod{withHeader("Authorization", "Basic abc"), withHeader("x-api-key", good)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(t, "GET", "/v1/models", "", tc.mods...)
			if tc.message == "" {
				wantOK(t, r)
				return
			}
			wantUnauthenticated(t, r, tc.message)
			if strings.Contains(string(r.body), good) {
				t.Fatal("error body contains the key")
			}
		})
	}
}

func TestKeyStatusesAndExpiry(t *testing.T) {
	e := newEnv(t)
	ws := e.seed.DefaultWorkspaceID
	sa := e.srv.CreateServiceAccount("bot")
	specs := map[string]refserver.KeySpec{
		"personal":        {Kind: refserver.PersonalKey, OwnerID: e.seed.UserID},
		"personal scoped": {Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, WorkspaceID: ws},
		"service account": {Kind: refserver.ServiceAccountKey, OwnerID: sa},
		"workspace":       {Kind: refserver.WorkspaceKey, WorkspaceID: ws},
	}
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			spec.ExpiresAt = e.clock.Now().Add(time.Hour)
			k := e.mustKey(t, spec)
			get := func() response { return e.do(t, "GET", "/v1/models", "", withKey(k.Secret)) }
			wantOK(t, get())

			must(t, e.srv.SetAPIKeyStatus(k.ID, refserver.KeyInactive))
			wantUnauthenticated(t, get(), msgDisabled)
			must(t, e.srv.SetAPIKeyStatus(k.ID, refserver.KeyActive))
			wantOK(t, get())

			e.clock.Advance(time.Hour - time.Microsecond)
			wantOK(t, get())
			e.clock.Advance(time.Microsecond) // expiry is inclusive
			wantUnauthenticated(t, get(), msgExpired)
			if err := e.srv.SetAPIKeyStatus(k.ID, refserver.KeyActive); err == nil || !strings.Contains(err.Error(), "can only be deleted") {
				t.Fatalf("re-enabling an expired key: %v", err)
			}
			if err := e.srv.SetAPIKeyStatus(k.ID, refserver.KeyInactive); err == nil {
				t.Fatal("disabling an expired key succeeded")
			}
			must(t, e.srv.SetAPIKeyStatus(k.ID, refserver.KeyArchived))
			wantUnauthenticated(t, get(), msgDeleted)
			if err := e.srv.SetAPIKeyStatus(k.ID, refserver.KeyActive); err == nil || !strings.Contains(err.Error(), "permanent") {
				t.Fatalf("restoring an archived key: %v", err)
			}
			must(t, e.srv.SetAPIKeyStatus(k.ID, refserver.KeyArchived)) // idempotent
			e.clock.Set(testStart)
		})
	}
}

func TestCreateAPIKeyRejectsBadSpecs(t *testing.T) {
	e := newEnv(t)
	other := e.srv.CreateWorkspace("other")
	sa := e.srv.CreateServiceAccount("bot")
	archived := e.srv.CreateWorkspace("gone")
	must(t, e.srv.ArchiveWorkspace(archived))
	cases := map[string]refserver.KeySpec{
		"unknown kind":                      {Kind: "admin", OwnerID: e.seed.UserID},
		"unknown user":                      {Kind: refserver.PersonalKey, OwnerID: "user_nobody"},
		"user without access to scope":      {Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, WorkspaceID: other},
		"service account outside its scope": {Kind: refserver.ServiceAccountKey, OwnerID: sa, WorkspaceID: other},
		"workspace key without workspace":   {Kind: refserver.WorkspaceKey},
		"workspace key with owner":          {Kind: refserver.WorkspaceKey, OwnerID: e.seed.UserID, WorkspaceID: other},
		"archived workspace":                {Kind: refserver.WorkspaceKey, WorkspaceID: archived},
		"expiry in the past":                {Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, ExpiresAt: testStart},
	}
	for name, spec := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := e.srv.CreateAPIKey(spec); err == nil {
				t.Fatal("CreateAPIKey succeeded")
			}
		})
	}
	if err := e.srv.SetAPIKeyStatus("apikey_nope", refserver.KeyInactive); err == nil {
		t.Fatal("SetAPIKeyStatus of an unknown key succeeded")
	}
	if err := e.srv.SetAPIKeyStatus(e.mustKey(t, specFor(e)).ID, "paused"); err == nil {
		t.Fatal("SetAPIKeyStatus to an unknown status succeeded")
	}
}

func specFor(e *env) refserver.KeySpec {
	return refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID}
}

func TestKeySecretsHaveTheDocumentedForm(t *testing.T) {
	e := newEnv(t, refserver.WithIDs(refserver.RandomIDs()))
	k := e.mustKey(t, specFor(e))
	for _, secret := range []string{k.Secret, e.seed.APIKey} {
		rest, ok := strings.CutPrefix(secret, "sk-vendor-api03-")
		if !ok || len(rest) != 43 || strings.Trim(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			t.Fatalf("secret %q does not have the form sk-vendor-api03-<43 url-safe chars>", secret)
		}
	}
	if !strings.HasPrefix(k.ID, "apikey_") {
		t.Fatalf("key id %q", k.ID)
	}
}

// TestOwnerLosesAccess covers when a key stops working because its owner
// lost access (docs/api-choices.md "API keys").
func TestOwnerLosesAccess(t *testing.T) {
	t.Run("personal key of a removed user is archived for good", func(t *testing.T) {
		e := newEnv(t)
		u := e.srv.CreateUser("ann")
		must(t, e.srv.GrantAPIAccess(u, e.seed.DefaultWorkspaceID))
		unscoped := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: u})
		scoped := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: u, WorkspaceID: e.seed.DefaultWorkspaceID})
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(unscoped.Secret)))
		must(t, e.srv.RemoveUser(u))
		for _, k := range []refserver.APIKey{unscoped, scoped} {
			wantUnauthenticated(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret)), msgDeleted)
			if err := e.srv.SetAPIKeyStatus(k.ID, refserver.KeyActive); err == nil {
				t.Fatal("a removed user's key was re-enabled")
			}
		}
		if err := e.srv.GrantAPIAccess(u, e.seed.DefaultWorkspaceID); err == nil {
			t.Fatal("GrantAPIAccess to a removed user succeeded")
		}
	})
	t.Run("scoped personal key after access is revoked", func(t *testing.T) {
		e := newEnv(t)
		u := e.srv.CreateUser("ben")
		ws := e.srv.CreateWorkspace("team")
		must(t, e.srv.GrantAPIAccess(u, ws))
		k := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: u, WorkspaceID: ws})
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace))
		must(t, e.srv.RevokeAPIAccess(u, ws))
		wantUnauthenticated(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace), msgNoLonger)
		must(t, e.srv.GrantAPIAccess(u, ws))
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace))
	})
	t.Run("service account archived", func(t *testing.T) {
		e := newEnv(t)
		sa := e.srv.CreateServiceAccount("bot")
		k := e.mustKey(t, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa})
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret)))
		must(t, e.srv.ArchiveServiceAccount(sa))
		wantUnauthenticated(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret)), msgNoLonger)
	})
	t.Run("scoped service account key after removal from the workspace", func(t *testing.T) {
		e := newEnv(t)
		sa := e.srv.CreateServiceAccount("bot")
		ws := e.srv.CreateWorkspace("team")
		must(t, e.srv.AddServiceAccountToWorkspace(sa, ws))
		k := e.mustKey(t, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa, WorkspaceID: ws})
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace))
		must(t, e.srv.RemoveServiceAccountFromWorkspace(sa, ws))
		wantUnauthenticated(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace), msgNoLonger)
		if err := e.srv.RemoveServiceAccountFromWorkspace(sa, e.seed.DefaultWorkspaceID); err == nil {
			t.Fatal("removing a service account from the default workspace succeeded")
		}
	})
	t.Run("workspace key after its workspace is archived", func(t *testing.T) {
		e := newEnv(t)
		ws := e.srv.CreateWorkspace("team")
		k := e.mustKey(t, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: ws})
		wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace))
		must(t, e.srv.ArchiveWorkspace(ws))
		wantUnauthenticated(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret), noWorkspace), msgNoLonger)
	})
}

// TestAdminAPIRule3 covers the admin-API rule: the admin API accepts a
// personal or service account key only when it is not scoped to a
// workspace.
func TestAdminAPIRule3(t *testing.T) {
	e := newEnv(t)
	ws := e.seed.DefaultWorkspaceID
	sa := e.srv.CreateServiceAccount("bot")
	cases := []struct {
		name    string
		spec    refserver.KeySpec
		allowed bool
	}{
		{"unscoped personal", refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID}, true},
		{"unscoped service account", refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa}, true},
		{"scoped personal", refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, WorkspaceID: ws}, false},
		{"scoped service account", refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa, WorkspaceID: ws}, false},
		{"legacy workspace key", refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: ws}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := e.mustKey(t, tc.spec)
			for _, req := range []struct{ method, path, body string }{
				{"GET", "/v1/organizations/workspaces", ""},
				{"GET", "/v1/organizations/workspaces/" + ws, ""},
				{"POST", "/v1/organizations/workspaces", `{"name":"x"}`},
			} {
				r := e.do(t, req.method, req.path, req.body, withKey(k.Secret))
				if tc.allowed {
					wantOK(t, r)
					continue
				}
				wantError(t, r, http.StatusForbidden, "permission_error", "")
			}
			// The same key works outside the admin API.
			wantOK(t, e.do(t, "GET", "/v1/models", "", withKey(k.Secret)))
		})
	}
}
