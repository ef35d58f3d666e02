package memory

import (
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The helpers the sessions and deployments work builds on (memory_stores.go,
// service.go).

func TestMemoryMountPath(t *testing.T) {
	for name, want := range map[string]string{
		"User Preferences":     "/mnt/memory/user-preferences",
		"  --Team_Notes v2!! ": "/mnt/memory/team-notes-v2",
		"ALLCAPS":              "/mnt/memory/allcaps",
		"a/b\\c..d":            "/mnt/memory/a-b-c-d",
		"Café Crème":           "/mnt/memory/caf-cr-me",
		"日本語":                  "/mnt/memory/memstore_01x",
		"---":                  "/mnt/memory/memstore_01x",
		"":                     "/mnt/memory/memstore_01x",
		"already-a-slug-42":    "/mnt/memory/already-a-slug-42",
	} {
		if got := memoryMountPath("memstore_01x", name); got != want {
			t.Errorf("memoryMountPath(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestMemoryStoreLocked(t *testing.T) {
	s := New(Deps{Deps: &kit.Deps{Clock: kit.SystemClock{}, IDs: kit.SequentialIDs()}})
	const ws = "wrkspc_01default"
	s.mu.Lock()
	defer s.mu.Unlock()
	// The zero state answers: nothing exists yet.
	if _, err := s.memoryStoreLocked(ws, "memstore_01none"); err == nil || err.Error() != "404 not_found_error: Memory store `memstore_01none` not found." {
		t.Fatalf("zero state: %v", err)
	}
	if _, err := s.StoreLocked(ws, "memstore_01none"); err == nil || err.Error() != "404 not_found_error: Memory store `memstore_01none` not found." {
		t.Fatalf("StoreLocked, zero state: %v", err)
	}
	st := &memoryStore{id: "memstore_01a", workspaceID: ws, name: "Prefs", description: ""}
	s.memory.stores = map[string]*memoryStore{st.id: st}
	got, err := s.memoryStoreLocked(ws, st.id)
	if err != nil || got != st {
		t.Fatalf("lookup: %v %v", got, err)
	}
	if _, err := s.memoryStoreLocked("wrkspc_01other", st.id); err == nil {
		t.Fatal("a store of another workspace was found")
	}
	if _, err := s.StoreLocked("wrkspc_01other", st.id); err == nil {
		t.Fatal("StoreLocked found a store of another workspace")
	}
	if name, desc := st.snapshot(); name != "Prefs" || desc != "" {
		t.Fatalf("snapshot %q %q", name, desc)
	}
	want := StoreInfo{ID: st.id, Name: "Prefs", MountPath: "/mnt/memory/prefs"}
	if info, err := s.StoreLocked(ws, st.id); err != nil || info != want {
		t.Fatalf("StoreLocked = %+v, %v; want %+v", info, err, want)
	}
	if st.archived() {
		t.Fatal("archived without archivedAt")
	}
	st.archivedAt = time.Now()
	if !st.archived() {
		t.Fatal("not archived")
	}
	if info, err := s.StoreLocked(ws, st.id); err != nil || !info.Archived {
		t.Fatalf("StoreLocked of an archived store = %+v, %v", info, err)
	}
	delete(s.memory.stores, st.id)
	if _, err := s.memoryStoreLocked(ws, st.id); err == nil {
		t.Fatal("a deleted store was found")
	}
}
