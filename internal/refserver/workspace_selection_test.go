package refserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

const (
	msgRule4 = "vendor-workspace-id header is required for an identity-linked key"
	msgRule5 = "vendor-workspace-id header must be a valid workspace ID"
)

func wantRule6(t *testing.T, r response, id string) {
	t.Helper()
	wantError(t, r, http.StatusNotFound, "not_found_error", "Workspace `"+id+"` not found.")
}

// TestWorkspaceSelection covers the workspace selection rules 1, 2 and 4–7
// (workspace_selection.go) with the exact
// messages, for every key kind.
func TestWorkspaceSelection(t *testing.T) {
	e := newEnv(t)
	def := e.seed.DefaultWorkspaceID
	team := e.srv.CreateWorkspace("team")      // the owner has API access
	private := e.srv.CreateWorkspace("secret") // nobody has
	archived := e.srv.CreateWorkspace("old")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, team))
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, archived))
	must(t, e.srv.ArchiveWorkspace(archived))
	sa := e.srv.CreateServiceAccount("bot")
	must(t, e.srv.AddServiceAccountToWorkspace(sa, team))

	personal := e.seed.APIKey
	personalScoped := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, WorkspaceID: team}).Secret
	service := e.mustKey(t, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa}).Secret
	serviceScoped := e.mustKey(t, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: sa, WorkspaceID: team}).Secret
	legacy := e.mustKey(t, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: team}).Secret
	const unknown = "wrkspc_01doesnotexist"

	type outcome struct {
		status int
		ran    string // workspace the request ran in, for 200
		msg    string // message, for errors
	}
	ok := func(ws string) outcome { return outcome{status: 200, ran: ws} }
	rule4 := outcome{status: 400, msg: msgRule4}
	rule5 := outcome{status: 400, msg: msgRule5}
	rule6 := func(id string) outcome { return outcome{status: 404, msg: "Workspace `" + id + "` not found."} }

	cases := []struct {
		name   string
		key    string
		header string // "" = not sent
		want   outcome
	}{
		// Rules 2 and 4: unscoped keys must name the workspace.
		{"unscoped personal, no header", personal, "", rule4},
		{"unscoped personal, default", personal, def, ok(def)},
		{"unscoped personal, team", personal, team, ok(team)},
		{"unscoped personal, no access", personal, private, rule6(private)},
		{"unscoped personal, archived", personal, archived, rule6(archived)},
		{"unscoped personal, unknown", personal, unknown, rule6(unknown)},
		{"unscoped service account, no header", service, "", rule4},
		{"unscoped service account, default", service, def, ok(def)},
		{"unscoped service account, added", service, team, ok(team)},
		{"unscoped service account, not added", service, private, rule6(private)},
		// Rule 5: malformed ids, for every key kind.
		{"malformed: wrong prefix", personal, "ws_123", rule5},
		{"malformed: empty body", personal, "wrkspc_", rule5},
		{"malformed: punctuation", personal, "wrkspc_abc-def", rule5},
		{"malformed: too long", personal, "wrkspc_" + strings.Repeat("a", 65), rule5},
		{"longest valid id is just unknown", personal, "wrkspc_" + strings.Repeat("a", 64), rule6("wrkspc_" + strings.Repeat("a", 64))},
		{"malformed with a scoped key", personalScoped, "nope", rule5},
		{"malformed with a legacy key", legacy, "nope", rule5},
		// Rule 1: scoped keys run in their workspace; a sent header must match.
		{"scoped personal, no header", personalScoped, "", ok(team)},
		{"scoped personal, matching header", personalScoped, team, ok(team)},
		{"scoped personal, other workspace", personalScoped, def, rule6(def)},
		{"scoped service account, no header", serviceScoped, "", ok(team)},
		{"scoped service account, other workspace", serviceScoped, def, rule6(def)},
		{"legacy, no header", legacy, "", ok(team)},
		{"legacy, matching header", legacy, team, ok(team)},
		{"legacy, other workspace", legacy, unknown, rule6(unknown)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mods := []mod{withKey(tc.key), noWorkspace}
			if tc.header != "" {
				mods = append(mods, withWorkspace(tc.header))
			}
			r := e.do(t, "GET", "/v1/models", "", mods...)
			switch tc.want.status {
			case 200:
				wantOK(t, r)
				// Rule 7: the workspace the request ran in is in the response.
				if got := r.header.Get("vendor-workspace-id"); got != tc.want.ran {
					t.Fatalf("vendor-workspace-id %q, want %q", got, tc.want.ran)
				}
			case 400:
				wantInvalid(t, r, tc.want.msg)
			case 404:
				wantError(t, r, http.StatusNotFound, "not_found_error", tc.want.msg)
			}
		})
	}
}

// TestNoAccessLooksLikeNoWorkspace checks rule 6: a workspace the caller
// cannot use is indistinguishable from one that does not exist.
func TestNoAccessLooksLikeNoWorkspace(t *testing.T) {
	e := newEnv(t)
	private := e.srv.CreateWorkspace("private")
	a := e.do(t, "GET", "/v1/models", "", withWorkspace(private))
	b := e.do(t, "GET", "/v1/models", "", withWorkspace("wrkspc_01nothere"))
	wantRule6(t, a, private)
	wantRule6(t, b, "wrkspc_01nothere")
	if strings.Replace(errorMessage(t, a), private, "X", 1) != strings.Replace(errorMessage(t, b), "wrkspc_01nothere", "X", 1) {
		t.Fatal("the two messages differ beyond the id")
	}
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, private))
	wantOK(t, e.do(t, "GET", "/v1/models", "", withWorkspace(private)))
	must(t, e.srv.RevokeAPIAccess(e.seed.UserID, private))
	wantRule6(t, e.do(t, "GET", "/v1/models", "", withWorkspace(private)), private)
}

// TestRulesApplyToTheAdminAPI: the admin API follows the same selection
// rules (docs/api-choices.md), before rule 3.
func TestRulesApplyToTheAdminAPI(t *testing.T) {
	e := newEnv(t)
	wantInvalid(t, e.do(t, "GET", "/v1/organizations/workspaces", "", noWorkspace), msgRule4)
	wantInvalid(t, e.do(t, "GET", "/v1/organizations/workspaces", "", withWorkspace("bad")), msgRule5)
	scoped := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, WorkspaceID: e.seed.DefaultWorkspaceID})
	wantRule6(t, e.do(t, "GET", "/v1/organizations/workspaces", "", withKey(scoped.Secret), withWorkspace("wrkspc_01other")), "wrkspc_01other")
}
