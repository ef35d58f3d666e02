package conformance_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/files"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestSessionResources mounts a memory store and a repository at creation,
// lists and reads them, rotates the repository's token and removes it.
func TestSessionResources(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	store := newMemoryStore(t, tg, memorystores.CreateParams{Description: "conformance notes"})
	s := newSession(t, tg, sessions.CreateParams{
		Resources: []sessions.ResourceParam{
			sessions.MemoryStoreResourceParam{MemoryStoreID: store.ID, Access: sessions.AccessReadOnly, Instructions: "Read only."},
			sessions.RepositoryResourceParam{
				URL:                "https://github.com/octocat/Hello-World",
				AuthorizationToken: param.Secret("conformance-not-a-real-token"),
				Checkout:           sessions.BranchCheckout{Name: "master"},
			},
		},
	})
	if len(s.Resources) != 2 {
		t.Fatalf("session has %d resources, want 2: %#v", len(s.Resources), s.Resources)
	}

	var listed []sessions.Resource
	for r, err := range c.Sessions.Resources.All(ctx, s.ID, sessions.ResourceListParams{}) {
		if err != nil {
			t.Fatalf("list resources: %v", err)
		}
		listed = append(listed, r)
	}
	if len(listed) != 2 {
		t.Fatalf("listed %d resources, want 2", len(listed))
	}
	// Resources attached by one request share created_at; the listing
	// breaks that tie by id, so their order is not checked here.
	mem, ok1 := pick[sessions.MemoryStoreResource](listed)
	repo, ok2 := pick[sessions.RepositoryResource](listed)
	if !ok1 || !ok2 {
		t.Fatalf("want a memory store and a repository, listed %#v", listed)
	}
	if mem.MemoryStoreID != store.ID || mem.Access != sessions.AccessReadOnly || mem.Name != store.Name ||
		mem.Description != "conformance notes" || mem.Instructions != "Read only." ||
		!strings.HasPrefix(mem.MountPath, "/mnt/memory/") || !strings.HasPrefix(mem.ID, "sesrsc_") {
		t.Errorf("memory store resource: %+v", mem)
	}
	if repo.URL != "https://github.com/octocat/Hello-World" || repo.MountPath == "" {
		t.Errorf("repository resource: %+v", repo)
	}
	if b, ok := repo.Checkout.(sessions.BranchCheckout); !ok || b.Name != "master" {
		t.Errorf("checkout %#v", repo.Checkout)
	}

	got, err := c.Sessions.Resources.Get(ctx, s.ID, mem.ID)
	if err != nil {
		t.Fatalf("get resource: %v", err)
	}
	if g, ok := got.(sessions.MemoryStoreResource); !ok || g.ID != mem.ID || g.MountPath != mem.MountPath {
		t.Errorf("Get gave %#v", got)
	}

	rotated, err := c.Sessions.Resources.Update(ctx, s.ID, repo.ID, sessions.ResourceUpdateParams{
		AuthorizationToken: param.Secret("conformance-another-fake-token"),
	})
	if err != nil {
		t.Fatalf("rotate the repository token: %v", err)
	}
	if r, ok := rotated.(sessions.RepositoryResource); !ok || r.ID != repo.ID {
		t.Errorf("Update gave %#v", rotated)
	}
	_, err = c.Sessions.Resources.Update(ctx, s.ID, mem.ID, sessions.ResourceUpdateParams{
		AuthorizationToken: param.Secret("conformance-another-fake-token"),
	})
	wantStatus(t, err, 400) // memory stores have no token

	if err := c.Sessions.Resources.Delete(ctx, s.ID, repo.ID); err != nil {
		t.Fatalf("delete resource: %v", err)
	}
	if _, err := c.Sessions.Resources.Get(ctx, s.ID, repo.ID); !errors.Is(err, apierror.ErrNotFound) {
		t.Errorf("get after delete: want ErrNotFound, got %v", err)
	}
}

// TestSessionFileResource uploads a file, adds it to a session and removes
// it; the file is deleted when the test ends.
func TestSessionFileResource(t *testing.T) {
	tg := target(t)
	fileID := newFile(t, tg, []byte("id,total\n1,42\n"), files.UploadParams{Filename: name(t) + ".csv"}).ID
	ctx := tg.ctx(t)
	c := tg.Client
	s := newSession(t, tg, sessions.CreateParams{})

	f, err := c.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: fileID})
	if err != nil {
		t.Fatalf("add file: %v", err)
	}
	if f.FileID != fileID || f.MountPath != "/mnt/session/uploads/"+fileID || !strings.HasPrefix(f.ID, "sesrsc_") {
		t.Errorf("file resource: %+v", f)
	}
	page, err := c.Sessions.Resources.List(ctx, s.ID, sessions.ResourceListParams{})
	if err != nil {
		t.Fatalf("list resources: %v", err)
	}
	if len(page.Data) != 1 || page.HasMore() {
		t.Fatalf("listed %d resources (more: %v), want the file", len(page.Data), page.HasMore())
	}
	if err := c.Sessions.Resources.Delete(ctx, s.ID, f.ID); err != nil {
		t.Fatalf("delete file resource: %v", err)
	}
}

// pick returns the first resource of type T.
func pick[T sessions.Resource](rs []sessions.Resource) (T, bool) {
	for _, r := range rs {
		if x, ok := r.(T); ok {
			return x, true
		}
	}
	var zero T
	return zero, false
}
