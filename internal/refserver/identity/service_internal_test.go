package identity

import (
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The family on its own, without a server: what New seeds, the three
// methods the request pipeline calls, and the workspace lookups other
// families use (service.go).

func newTestService(t *testing.T) *Service {
	t.Helper()
	clock := kit.NewManualClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return New(Deps{Deps: &kit.Deps{Clock: clock, IDs: kit.SequentialIDs(), Logger: slog.New(slog.DiscardHandler)}})
}

func TestNewSeedsTheOrganization(t *testing.T) {
	s := newTestService(t)
	seed := s.Seed()
	want := Seed{
		OrganizationID:     "org_010000000000000000000001",
		DefaultWorkspaceID: "wrkspc_010000000000000000000001",
		UserID:             "user_010000000000000000000001",
		APIKey:             seed.APIKey, // random
	}
	if seed != want || len(seed.APIKey) != len(keySecretPrefix)+43 {
		t.Fatalf("seed %+v, want %+v", seed, want)
	}
	ws, ok := s.Workspace(seed.DefaultWorkspaceID)
	if !ok || !ws.Default || ws.Archived || ws.Name != "Default Workspace" || ws.DefaultGeo != "global" || ws.AllowedGeos != nil {
		t.Fatalf("default workspace %+v, %v", ws, ok)
	}
}

func TestPipelineMethods(t *testing.T) {
	s := newTestService(t)
	seed := s.Seed()
	h := http.Header{"Authorization": {"Bearer " + seed.APIKey}}
	p, err := s.Authenticate(h)
	if err != nil {
		t.Fatal(err)
	}
	if p.ActorID() == "" || p.IdempotencyOwner() != p.ActorID() {
		t.Fatalf("principal %+v", p)
	}
	if _, err := s.Authenticate(http.Header{"Authorization": {"Bearer sk-vendor-api03-nope"}}); err == nil || err.Error() != "401 authentication_error: invalid API key" {
		t.Fatalf("unknown key: %v", err)
	}
	if ws, err := s.SelectWorkspace(p, seed.DefaultWorkspaceID); err != nil || ws != seed.DefaultWorkspaceID {
		t.Fatalf("SelectWorkspace = %q, %v", ws, err)
	}
	if _, err := s.SelectWorkspace(p, ""); err == nil || err.Error() != "400 invalid_request_error: "+msgWorkspaceHeaderRequired {
		t.Fatalf("no header: %v", err)
	}
	other := s.CreateWorkspace("Other") // the owner has no API access there
	if _, err := s.SelectWorkspace(p, other); err == nil || err.Error() != "404 not_found_error: Workspace `"+other+"` not found." {
		t.Fatalf("unreachable workspace: %v", err)
	}
	admin := kit.Route{Method: http.MethodGet, Path: "/v1/organizations/api_keys"}
	if !IsAdminPath(admin.Path) || IsAdminPath("/v1/models") {
		t.Fatal("IsAdminPath")
	}
	r, _ := http.NewRequest(admin.Method, admin.Path, nil)
	if err := s.CheckAccess(p, admin, r, true); err != nil {
		t.Fatalf("an unscoped personal key on the admin API: %v", err)
	}
	scoped, err := s.CreateAPIKey(KeySpec{Kind: PersonalKey, OwnerID: seed.UserID, WorkspaceID: seed.DefaultWorkspaceID})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := s.Authenticate(http.Header{"X-Api-Key": {scoped.Secret}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckAccess(ps, admin, r, true); err == nil || err.Error()[:3] != "403" {
		t.Fatalf("a scoped key on the admin API: %v", err)
	}
}

func TestWorkspaceIsACopy(t *testing.T) {
	s := newTestService(t)
	id := s.CreateWorkspace("Geo")
	s.mu.Lock()
	s.workspaces[id].residency.allowedGeos = []string{"us"}
	s.workspaces[id].residency.defaultGeo = "us"
	s.mu.Unlock()

	ws, ok := s.Workspace(id)
	if !ok || ws.ID != id || ws.Name != "Geo" || ws.Default || ws.DefaultGeo != "us" || len(ws.AllowedGeos) != 1 || ws.AllowedGeos[0] != "us" {
		t.Fatalf("Workspace = %+v, %v", ws, ok)
	}
	ws.AllowedGeos[0] = "eu"
	if again, _ := s.Workspace(id); again.AllowedGeos[0] != "us" {
		t.Fatalf("changing a WorkspaceInfo changed the workspace: %+v", again)
	}
	if err := s.ArchiveWorkspace(id); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	archived, ok := s.WorkspaceLocked(id)
	s.mu.Unlock()
	if !ok || !archived.Archived {
		t.Fatalf("archived workspace: %+v, %v", archived, ok)
	}
	if _, ok := s.Workspace("wrkspc_01none"); ok {
		t.Fatal("an unknown workspace was found")
	}
}
