package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Memories (docs/managed-agents-wire.md 10.3, 10.4): UTF-8 text documents at
// paths inside a store, endpoints MM1, MM2, MM4 and MM5 (the list, MM3, is in
// memories_list.go). Every write that changes something appends a version
// (memories_versions.go); a write that changes nothing appends none.
//
// Checks run in this order: the request itself (400), the store and the
// memory named in the path (404), then the state they are in (409: archived
// store, failed precondition, occupied path).

type memory struct {
	id        string
	storeID   string
	path      string
	content   string
	sha256    string // lowercase hex of content
	versionID string // the current version: the head pointer
	createdAt time.Time
	updatedAt time.Time
}

func memoryContentSHA256(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:])
}

type memoryJSON struct {
	Type             string        `json:"type"`
	ID               string        `json:"id"`
	MemoryStoreID    string        `json:"memory_store_id"`
	Path             string        `json:"path"`
	Content          *string       `json:"content"` // null with view=basic
	ContentSHA256    string        `json:"content_sha256"`
	ContentSizeBytes int           `json:"content_size_bytes"`
	MemoryVersionID  string        `json:"memory_version_id"`
	CreatedAt        kit.Timestamp `json:"created_at"`
	UpdatedAt        kit.Timestamp `json:"updated_at"`
}

func (m *memory) view(full bool) memoryJSON {
	out := memoryJSON{
		Type:             "memory",
		ID:               m.id,
		MemoryStoreID:    m.storeID,
		Path:             m.path,
		ContentSHA256:    m.sha256,
		ContentSizeBytes: len(m.content),
		MemoryVersionID:  m.versionID,
		CreatedAt:        kit.Timestamp(m.createdAt),
		UpdatedAt:        kit.Timestamp(m.updatedAt),
	}
	if full {
		content := m.content
		out.Content = &content
	}
	return out
}

// memoryLocked finds a memory of the store; memories of other stores do not
// exist for it.
func (st *memoryStore) memoryLocked(id string) (*memory, error) {
	m, ok := st.memories[id]
	if !ok {
		return nil, kit.NotFound("Memory `%s` not found.", id)
	}
	return m, nil
}

// pathConflict returns the memory that keeps p from being used by self (nil
// when creating): one at p itself, or, since a store mounts as a file tree,
// one at a path above p (which would have to be a directory) or below it
// (which would need p to be one). Descendants are searched in path order so
// the answer is deterministic.
func (st *memoryStore) pathConflict(p string, self *memory) *memory {
	if m := st.byPath[p]; m != nil && m != self {
		return m
	}
	for i := len(p) - 1; i > 0; i-- {
		if p[i] == '/' {
			if m := st.byPath[p[:i]]; m != nil && m != self {
				return m
			}
		}
	}
	var first *memory
	below := p + "/"
	for _, m := range st.memories {
		if m != self && strings.HasPrefix(m.path, below) && (first == nil || m.path < first.path) {
			first = m
		}
	}
	return first
}

type memoryCreateBody struct {
	Path    kit.Optional[string] `json:"path"`
	Content kit.Optional[string] `json:"content"`
}

func requiredMemoryString(field string, v kit.Optional[string]) error {
	if !v.Set {
		return kit.InvalidField(field, "is required")
	}
	if v.Null {
		return kit.InvalidField(field, "must not be null")
	}
	return nil
}

func (s *Service) createMemory(c *kit.Call) error {
	full, err := memoryView(c.R.URL.Query(), false)
	if err != nil {
		return err
	}
	var body memoryCreateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := requiredMemoryString("path", body.Path); err != nil {
		return err
	}
	if err := checkMemoryPath("path", body.Path.Value); err != nil {
		return err
	}
	if err := requiredMemoryString("content", body.Content); err != nil {
		return err
	}
	if err := checkMemoryContent(body.Content.Value); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	if st.archived() {
		return memoryStoreArchived(c, st.id)
	}
	if in := st.pathConflict(body.Path.Value, nil); in != nil {
		return writeMemoryPathConflict(c, in)
	}
	now := c.Now()
	m := &memory{
		id:        s.cfg.ids("mem_"),
		storeID:   st.id,
		path:      body.Path.Value,
		content:   body.Content.Value,
		sha256:    memoryContentSHA256(body.Content.Value),
		createdAt: now,
		updatedAt: now,
	}
	st.memories[m.id] = m
	st.byPath[m.path] = m
	s.appendMemoryVersionLocked(st, m, memoryOpCreated, apiMemoryActor(c), now)
	return c.OK(m.view(full))
}

func (s *Service) getMemory(c *kit.Call) error {
	full, err := memoryView(c.R.URL.Query(), true)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	m, err := st.memoryLocked(c.R.PathValue("memory_id"))
	if err != nil {
		return err
	}
	return c.OK(m.view(full))
}

type memoryUpdateBody struct {
	Content      kit.Optional[string]                 `json:"content"`
	Path         kit.Optional[string]                 `json:"path"`
	Precondition kit.Optional[memoryPreconditionBody] `json:"precondition"`
}

// memoryPreconditionBody is a union with one variant so far:
// {type: content_sha256, content_sha256}.
type memoryPreconditionBody struct {
	Type          kit.Optional[string] `json:"type"`
	ContentSHA256 kit.Optional[string] `json:"content_sha256"`
}

func (p memoryPreconditionBody) check() error {
	if err := requiredMemoryString("precondition.type", p.Type); err != nil {
		return err
	}
	if p.Type.Value != "content_sha256" {
		return kit.InvalidField("precondition.type", "must be one of `content_sha256`")
	}
	if err := requiredMemoryString("precondition.content_sha256", p.ContentSHA256); err != nil {
		return err
	}
	return checkMemorySHA256("precondition.content_sha256", p.ContentSHA256.Value)
}

func (s *Service) updateMemory(c *kit.Call) error {
	full, err := memoryView(c.R.URL.Query(), false)
	if err != nil {
		return err
	}
	var body memoryUpdateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if body.Content.Present() {
		if err := checkMemoryContent(body.Content.Value); err != nil {
			return err
		}
	}
	if body.Path.Present() {
		if err := checkMemoryPath("path", body.Path.Value); err != nil {
			return err
		}
	}
	if body.Precondition.Set {
		if body.Precondition.Null {
			return kit.InvalidField("precondition", "must not be null")
		}
		if err := body.Precondition.Value.check(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	m, err := st.memoryLocked(c.R.PathValue("memory_id"))
	if err != nil {
		return err
	}
	if st.archived() {
		return memoryStoreArchived(c, st.id)
	}
	content, path := m.content, m.path
	if body.Content.Present() {
		content = body.Content.Value
	}
	if body.Path.Present() {
		path = body.Path.Value
	}
	if content == m.content && path == m.path {
		// Already in the requested state: 200 with no new version, even when
		// the precondition names an older hash (the write it guards is done).
		return c.OK(m.view(full))
	}
	if body.Precondition.Present() && body.Precondition.Value.ContentSHA256.Value != m.sha256 {
		return preconditionFailed("precondition.content_sha256: stored content_sha256 is `%s`", m.sha256)
	}
	if path != m.path {
		if in := st.pathConflict(path, m); in != nil {
			return writeMemoryPathConflict(c, in)
		}
		delete(st.byPath, m.path)
		m.path = path
		st.byPath[path] = m
	}
	if content != m.content {
		m.content, m.sha256 = content, memoryContentSHA256(content)
	}
	now := c.Now()
	m.updatedAt = now // the store's updated_at is not touched by memory writes
	s.appendMemoryVersionLocked(st, m, memoryOpModified, apiMemoryActor(c), now)
	return c.OK(m.view(full))
}

func (s *Service) deleteMemory(c *kit.Call) error {
	expected, hasExpected := kit.QueryValue(c.R.URL.Query(), "expected_content_sha256")
	if hasExpected {
		if err := checkMemorySHA256("expected_content_sha256", expected); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	m, err := st.memoryLocked(c.R.PathValue("memory_id"))
	if err != nil {
		return err
	}
	if st.archived() {
		return memoryStoreArchived(c, st.id)
	}
	if hasExpected && expected != m.sha256 {
		return preconditionFailed("expected_content_sha256: stored content_sha256 is `%s`", m.sha256)
	}
	delete(st.memories, m.id)
	delete(st.byPath, m.path)
	s.appendMemoryVersionLocked(st, m, memoryOpDeleted, apiMemoryActor(c), c.Now())
	return c.OK(memoryDeletedJSON{ID: m.id, Type: "memory_deleted"})
}
