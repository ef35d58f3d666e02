package refserver_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

const legacyTunnelsPath = "/v1/organizations/tunnels"

// TestLegacyTunnelEndpoints: the organization endpoints serve the same
// tunnels as /v1/tunnels, with the same records, without the beta value.
func TestLegacyTunnelEndpoints(t *testing.T) {
	e := newEnv(t)
	created := wantOK(t, e.do(t, "POST", legacyTunnelsPath, `{"display_name":"old client"}`))
	id := created["id"].(string)
	if created["type"] != "tunnel" || created["display_name"] != "old client" || !domainPattern.MatchString(created["domain"].(string)) {
		t.Fatalf("created %v", created)
	}
	// The same object on either path.
	for _, r := range []response{
		e.do(t, "GET", "/v1/tunnels/"+id, "", tunnelsBeta),
		e.do(t, "GET", legacyTunnelsPath+"/"+id, ""),
	} {
		if got := wantOK(t, r); !reflect.DeepEqual(got, created) {
			t.Fatalf("get %v, want %v", got, created)
		}
	}
	current := e.createTunnel(t)
	e.clock.Advance(1000)
	archived := wantOK(t, e.do(t, "POST", legacyTunnelsPath+"/"+current+"/archive", ""))
	if archived["archived_at"] == nil {
		t.Fatalf("archived %v", archived)
	}
	if again := wantOK(t, e.do(t, "GET", "/v1/tunnels/"+current, "", tunnelsBeta)); !reflect.DeepEqual(again, archived) {
		t.Fatalf("archive through the organization path: %v", again)
	}

	// The list has the same shape and data, paging and include_archived
	// included.
	for _, query := range []string{"", "?include_archived=true", "?limit=1", "?include_archived=true&limit=1"} {
		r := e.do(t, "GET", legacyTunnelsPath+query, "")
		wantOK(t, r)
		var legacy tunnelPage
		r.decode(t, &legacy)
		if cur := listTunnels(t, e, query); !reflect.DeepEqual(legacy, cur) {
			t.Fatalf("%s: organization list %+v, /v1/tunnels %+v", query, legacy, cur)
		}
	}
	if got := listTunnelIDs(t, e, "?include_archived=true"); !reflect.DeepEqual(got, []string{current, id}) {
		t.Fatalf("ids %v", got)
	}
	wantInvalid(t, e.do(t, "GET", legacyTunnelsPath+"?limit=1001", ""), "limit: must be between 1 and 1000")
	wantError(t, e.do(t, "GET", legacyTunnelsPath+"/tnl_01nothere", ""), http.StatusNotFound, "not_found_error", "Tunnel `tnl_01nothere` not found.")
	// The beta value is accepted there too.
	wantOK(t, e.do(t, "GET", legacyTunnelsPath, "", tunnelsBeta))
}

// TestLegacyTunnelEndpointsAreAdmin: like every organization endpoint they
// take only a key not scoped to a workspace, which selects the workspace
// with vendor-workspace-id; a tunnel stays in its workspace.
func TestLegacyTunnelEndpointsAreAdmin(t *testing.T) {
	e := newEnv(t)
	ws := e.seed.DefaultWorkspaceID
	scoped := e.mustKey(t, refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: e.seed.UserID, WorkspaceID: ws})
	workspaceKey := e.mustKey(t, refserver.KeySpec{Kind: refserver.WorkspaceKey, WorkspaceID: ws})
	id := e.createTunnel(t)
	for _, k := range []refserver.APIKey{scoped, workspaceKey} {
		for _, req := range []struct{ method, path string }{
			{"GET", legacyTunnelsPath}, {"POST", legacyTunnelsPath}, {"GET", legacyTunnelsPath + "/" + id},
			{"POST", legacyTunnelsPath + "/" + id + "/archive"},
		} {
			wantError(t, e.do(t, req.method, req.path, "", withKey(k.Secret)), http.StatusForbidden, "permission_error", "")
		}
		// The same keys work on /v1/tunnels.
		wantOK(t, e.do(t, "GET", "/v1/tunnels/"+id, "", tunnelsBeta, withKey(k.Secret)))
	}
	wantInvalid(t, e.do(t, "GET", legacyTunnelsPath, "", noWorkspace), "vendor-workspace-id header is required for an identity-linked key")

	other := e.srv.CreateWorkspace("other")
	must(t, e.srv.GrantAPIAccess(e.seed.UserID, other))
	wantError(t, e.do(t, "GET", legacyTunnelsPath+"/"+id, "", withWorkspace(other)), http.StatusNotFound, "not_found_error",
		"Tunnel `"+id+"` not found.")
	r := e.do(t, "GET", legacyTunnelsPath, "", withWorkspace(other))
	wantOK(t, r)
	var page tunnelPage
	r.decode(t, &page)
	if len(page.Data) != 0 {
		t.Fatalf("other workspace lists %+v", page.Data)
	}
}
