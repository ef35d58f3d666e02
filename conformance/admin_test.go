package conformance_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/apikeys"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// The admin API accepts only a personal or service-account key that is not
// scoped to a workspace; with any other key these tests skip on the 403.

// TestAdminWorkspaces lists the organization's workspaces and reads one back.
func TestAdminWorkspaces(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	page, err := c.Workspaces.List(ctx, workspaces.ListParams{IncludeDefault: true})
	skipIfForbidden(t, tg, err, "list workspaces")
	if err != nil {
		t.Fatalf("list workspaces: %v", err)
	}
	if len(page.Data) == 0 {
		t.Fatal("no workspace listed, not even the default one")
	}
	var all []string
	for ws, err := range c.Workspaces.All(ctx, workspaces.ListParams{IncludeDefault: true, Limit: 1}) {
		if err != nil {
			t.Fatalf("walk workspaces: %v", err)
		}
		if ws.Type != "workspace" || ws.ID == "" || ws.Name == "" || ws.CreatedAt.IsZero() {
			t.Errorf("workspace %+v", ws)
		}
		all = append(all, ws.ID)
	}
	if len(all) < len(page.Data) {
		t.Errorf("All walked %d workspaces, the first page alone had %d", len(all), len(page.Data))
	}
	if tg.WorkspaceID != "" && !slices.Contains(all, tg.WorkspaceID) {
		t.Errorf("the target's workspace %s is not listed", tg.WorkspaceID)
	}
	first := page.Data[0]
	got, err := c.Workspaces.Get(ctx, first.ID)
	if err != nil {
		t.Fatalf("get workspace: %v", err)
	}
	if d := cmp.Diff(first, *got); d != "" {
		t.Errorf("Get differs from the listed entry (-list +get):\n%s", d)
	}
}

// TestAdminWorkspaceWrites creates, updates and archives a workspace. A
// workspace can be archived but never deleted, so against an external
// target it runs only when VENDOR_CONFORMANCE_WORKSPACE_WRITES=1.
func TestAdminWorkspaceWrites(t *testing.T) {
	tg := target(t)
	if !tg.Reference() && os.Getenv(envWorkspaceWrites) != "1" {
		t.Skipf("creates a workspace, which can be archived but never deleted: set %s=1 to run it against %s", envWorkspaceWrites, tg.Desc)
	}
	ctx := tg.ctx(t)
	c := tg.Client

	ws, err := c.Workspaces.Create(ctx, workspaces.CreateParams{Name: name(t), Tags: map[string]string{"created-by": "conformance"}})
	skipIfForbidden(t, tg, err, "create workspace")
	if err != nil {
		t.Fatalf("create workspace: %v", err)
	}
	cleanup(t, "archive workspace "+ws.ID, func(ctx context.Context) error {
		_, err := c.Workspaces.Archive(ctx, ws.ID)
		return err
	})
	if ws.Archived() || ws.DataResidency.WorkspaceGeo == "" || ws.DisplayColor == "" || ws.Tags["created-by"] != "conformance" {
		t.Errorf("created workspace: %+v", ws)
	}
	newName := name(t)
	upd, err := c.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{Name: newName, Tags: map[string]string{}})
	if err != nil {
		t.Fatalf("update workspace: %v", err)
	}
	if upd.Name != newName || len(upd.Tags) != 0 {
		t.Errorf("after update: name %q, tags %v", upd.Name, upd.Tags)
	}
	arch, err := c.Workspaces.Archive(ctx, ws.ID)
	if err != nil || !arch.Archived() {
		t.Fatalf("archive: %v, %+v", err, arch)
	}
	_, err = c.Workspaces.Update(ctx, ws.ID, workspaces.UpdateParams{Name: name(t)})
	wantStatus(t, err, 409)
}

// TestAdminAPIKeys lists the organization's API keys: none carries its
// secret, only a hint.
func TestAdminAPIKeys(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	n := 0
	for key, err := range c.APIKeys.All(ctx, apikeys.ListParams{Limit: 10}) {
		skipIfForbidden(t, tg, err, "list API keys")
		if err != nil {
			t.Fatalf("list API keys: %v", err)
		}
		if key.Type != "api_key" || key.ID == "" || key.PartialKeyHint == "" || key.Status == "" || key.CreatedAt.IsZero() {
			t.Errorf("key %+v", key)
		}
		if n == 0 {
			got, err := c.APIKeys.Get(ctx, key.ID)
			if err != nil {
				t.Fatalf("get API key: %v", err)
			}
			if d := cmp.Diff(key, got); d != "" {
				t.Errorf("Get differs from the listed key (-list +get):\n%s", d)
			}
		}
		if n++; n == 25 {
			break
		}
	}
	if n == 0 {
		t.Errorf("no API key listed, not even the one in use")
	}
}
