package conformance_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/memorystores"
	"github.com/agentplatform/agentplatform-go/param"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestMemoryStoreLifecycle creates, reads, lists and updates a store,
// archives it and deletes it.
func TestMemoryStoreLifecycle(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	st := newMemoryStore(t, tg, memorystores.CreateParams{Description: "conformance notes"})
	if st.Type != "memory_store" || !strings.HasPrefix(st.ID, "memstore_") || st.Description != "conformance notes" || !st.ArchivedAt.IsZero() {
		t.Fatalf("created store: %+v", st)
	}
	got, err := c.MemoryStores.Get(ctx, st.ID)
	if err != nil {
		t.Fatalf("get store: %v", err)
	}
	if d := cmp.Diff(st, got); d != "" {
		t.Errorf("Get differs from Create (-create +get):\n%s", d)
	}
	found := false
	for s, err := range c.MemoryStores.All(ctx, memorystores.ListParams{}) {
		if err != nil {
			t.Fatalf("list stores: %v", err)
		}
		if s.ID == st.ID {
			found = true
			break
		}
	}
	if !found {
		t.Errorf("store %s is not listed", st.ID)
	}

	newName := name(t)
	upd, err := c.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{
		Name:        newName,
		Description: param.Null[string](),
		Metadata:    map[string]*string{"stage": new("two")},
	})
	if err != nil {
		t.Fatalf("update store: %v", err)
	}
	if upd.Name != newName || upd.Description != "" || upd.Metadata["stage"] != "two" || upd.Metadata["created_by"] == "" {
		t.Errorf("after update: %+v", upd)
	}

	arch, err := c.MemoryStores.Archive(ctx, st.ID)
	if err != nil || arch.ArchivedAt.IsZero() {
		t.Fatalf("archive: %v, %+v", err, arch)
	}
	_, err = c.MemoryStores.Update(ctx, st.ID, memorystores.UpdateParams{Name: name(t)})
	wantStatus(t, err, 409)
	_, err = c.MemoryStores.Memories.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: "/late.md", Content: "x"})
	wantStatus(t, err, 409)

	if err := c.MemoryStores.Delete(ctx, st.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := c.MemoryStores.Get(ctx, st.ID); !errors.Is(err, apierror.ErrNotFound) {
		t.Errorf("get after delete: want ErrNotFound, got %v", err)
	}
}

// TestMemoriesAndVersions writes a memory, rewrites it under a content
// precondition, lists it by directory, and reads, redacts and counts its
// versions.
func TestMemoriesAndVersions(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	mems := tg.Client.MemoryStores.Memories
	vers := tg.Client.MemoryStores.Versions
	st := newMemoryStore(t, tg, memorystores.CreateParams{})

	const path, v1, v2 = "/conformance/notes.md", "Dates are ISO-8601.", "Dates are ISO-8601, in UTC."
	m, err := mems.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: path, Content: v1})
	if err != nil {
		t.Fatalf("create memory: %v", err)
	}
	if m.Type != "memory" || m.Path != path || m.MemoryStoreID != st.ID || m.ContentSHA256 != sha(v1) ||
		m.ContentSizeBytes != len(v1) || m.Content != nil || m.MemoryVersionID == "" {
		t.Errorf("created memory (basic view): %+v", m)
	}
	full, err := mems.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{})
	if err != nil {
		t.Fatalf("get memory: %v", err)
	}
	if full.Content == nil || *full.Content != v1 {
		t.Errorf("content %v, want %q", full.Content, v1)
	}
	_, err = mems.Create(ctx, st.ID, memorystores.MemoryCreateParams{Path: path, Content: "again"})
	if !errors.Is(err, memorystores.ErrPathConflict) {
		t.Errorf("creating at a taken path: want a path conflict, got %v", err)
	}

	m2, err := mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{
		Content:      new(v2),
		Precondition: &memorystores.Precondition{ContentSHA256: m.ContentSHA256},
	})
	if err != nil {
		t.Fatalf("conditional update: %v", err)
	}
	if m2.ID != m.ID || m2.ContentSHA256 != sha(v2) || m2.MemoryVersionID == m.MemoryVersionID {
		t.Errorf("after update: %+v", m2)
	}
	_, err = mems.Update(ctx, st.ID, m.ID, memorystores.MemoryUpdateParams{
		Content:      new("lost update"),
		Precondition: &memorystores.Precondition{ContentSHA256: m.ContentSHA256},
	})
	if !errors.Is(err, memorystores.ErrPreconditionFailed) {
		t.Errorf("update under a stale hash: want a failed precondition, got %v", err)
	}

	var paths []string
	for item, err := range mems.All(ctx, st.ID, memorystores.MemoryListParams{PathPrefix: "/", Depth: 1}) {
		if err != nil {
			t.Fatalf("list memories: %v", err)
		}
		switch item := item.(type) {
		case *memorystores.MemoryPrefix:
			paths = append(paths, item.Path)
		case *memorystores.Memory:
			paths = append(paths, item.Path)
		default:
			t.Errorf("listing item %T", item)
		}
	}
	if d := cmp.Diff([]string{"/conformance/"}, paths); d != "" {
		t.Errorf("depth-1 listing (-want +got):\n%s", d)
	}
	paths = nil
	for item, err := range mems.All(ctx, st.ID, memorystores.MemoryListParams{PathPrefix: "/conformance/"}) {
		if err != nil {
			t.Fatalf("list memories: %v", err)
		}
		if x, ok := item.(*memorystores.Memory); ok {
			paths = append(paths, x.Path)
		}
	}
	if d := cmp.Diff([]string{path}, paths); d != "" {
		t.Errorf("listing under /conformance/ (-want +got):\n%s", d)
	}

	versions := func() []*memorystores.MemoryVersion {
		var out []*memorystores.MemoryVersion
		for v, err := range vers.All(ctx, st.ID, memorystores.VersionListParams{MemoryID: m.ID}) {
			if err != nil {
				t.Fatalf("list versions: %v", err)
			}
			out = append(out, v)
		}
		return out
	}
	vs := versions()
	if len(vs) != 2 || vs[0].Operation != memorystores.OperationModified || vs[1].Operation != memorystores.OperationCreated {
		t.Fatalf("versions, newest first: %+v", vs)
	}
	if vs[0].ID != m2.MemoryVersionID || vs[1].ID != m.MemoryVersionID {
		t.Errorf("version ids %s, %s; want %s, %s", vs[0].ID, vs[1].ID, m2.MemoryVersionID, m.MemoryVersionID)
	}
	old, err := vers.Get(ctx, st.ID, vs[1].ID, memorystores.VersionGetParams{})
	if err != nil {
		t.Fatalf("get version: %v", err)
	}
	if old.Content == nil || *old.Content != v1 || old.Path != path || old.CreatedBy == nil {
		t.Errorf("first version: %+v", old)
	}

	_, err = vers.Redact(ctx, st.ID, vs[0].ID)
	wantStatus(t, err, 409) // the current version
	red, err := vers.Redact(ctx, st.ID, vs[1].ID)
	if err != nil {
		t.Fatalf("redact: %v", err)
	}
	if red.RedactedAt.IsZero() || red.Path != "" || red.Content != nil || red.ContentSHA256 != "" {
		t.Errorf("redacted version: %+v", red)
	}

	err = mems.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{ExpectedContentSHA256: sha(v1)})
	if !errors.Is(err, memorystores.ErrPreconditionFailed) {
		t.Errorf("delete under a stale hash: want a failed precondition, got %v", err)
	}
	if err := mems.Delete(ctx, st.ID, m.ID, memorystores.MemoryDeleteParams{ExpectedContentSHA256: sha(v2)}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := mems.Get(ctx, st.ID, m.ID, memorystores.MemoryGetParams{}); !errors.Is(err, apierror.ErrNotFound) {
		t.Errorf("get after delete: want ErrNotFound, got %v", err)
	}
	if vs := versions(); len(vs) != 3 || vs[0].Operation != memorystores.OperationDeleted {
		t.Errorf("versions after delete: %+v", vs)
	}
}
