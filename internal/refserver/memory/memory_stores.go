package memory

import (
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Memory stores, memories and memory versions (docs/managed-agents-wire.md
// section 10). This file holds the state, the route table,
// the store endpoints M1–M6 and the helpers behind Service.StoreLocked, which
// sessions and deployments use to attach and check stores
// (memoryStoreLocked, archived, snapshot, memoryMountPath). Memories are
// in memories.go, their list in memories_list.go, versions in
// memories_versions.go, and the shared rules in memory_stores_rules.go.

// betaAgentMemory is the memory beta value (docs/managed-agents-wire.md 1.1). The managed-agents value
// is spelled out in memoryBetas rather than named, so that this file declares
// nothing the managed-agent families might declare too.
const betaAgentMemory = "agent-memory-2026-07-22"

// memoryBetas are the values of which every memory endpoint needs one.
var memoryBetas = []string{betaAgentMemory, "managed-agents-2026-04-01"}

// memoryState is every memory store of every workspace. It is guarded by
// Service.mu and usable as its zero value: maps are made on first write.
type memoryState struct {
	stores map[string]*memoryStore // by id; a deleted store is removed
	// seq numbers versions in the order they are written, server-wide, so
	// "newest first" never depends on two writes falling in different
	// microseconds.
	seq uint64
}

// memoryStore is a store and everything in it: deleting the store drops its
// memories and versions with it.
type memoryStore struct {
	id          string
	workspaceID string
	name        string
	description string
	metadata    map[string]string
	createdAt   time.Time
	updatedAt   time.Time // name, description and metadata changes only
	archivedAt  time.Time // zero while active; set once

	memories     map[string]*memory        // by id
	byPath       map[string]*memory        // by current path
	versions     []*memoryVersion          // in write order, oldest first
	versionsByID map[string]*memoryVersion // the same versions, by id
}

// archived reports whether the store is archived: read-only, and not
// attachable to new sessions.
func (st *memoryStore) archived() bool { return !st.archivedAt.IsZero() }

// snapshot is what a session attachment copies at attach time:
// later renames do not propagate. description is "" when the store has none.
func (st *memoryStore) snapshot() (name, description string) { return st.name, st.description }

func (st *memoryStore) position() kit.Position {
	return kit.Position{CreatedAt: st.createdAt, ID: st.id}
}

// memoryStoreLocked returns the store with this id in the workspace; 404
// ("Memory store `<id>` not found.") when unknown, deleted, or in another workspace. The
// caller holds s.mu.
func (s *Service) memoryStoreLocked(workspaceID, id string) (*memoryStore, error) {
	st, ok := s.memory.stores[id]
	if !ok || st.workspaceID != workspaceID {
		return nil, kit.NotFound("Memory store `%s` not found.", id)
	}
	return st, nil
}

// memoryMountPath is where a session mounts a store
// (docs/managed-agents-wire.md 3.9):
// "/mnt/memory/<slug>", the slug being the name lowercased with every run of
// characters other than ASCII letters and digits collapsed to "-" and
// leading and trailing "-" trimmed. A name with no letters or digits at all
// uses the store id instead.
func memoryMountPath(storeID, name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	slug := b.String()
	if slug == "" {
		slug = storeID
	}
	return "/mnt/memory/" + slug
}

func (s *Service) memoryRoutes() []kit.Route {
	b := memoryBetas
	const store = "/v1/memory_stores/{memory_store_id}"
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/memory_stores", Op: "memory_stores.create", Betas: b, Handle: s.createMemoryStore},
		{Method: http.MethodGet, Path: "/v1/memory_stores", Op: "memory_stores.list", Betas: b, Handle: s.listMemoryStores},
		{Method: http.MethodGet, Path: store, Op: "memory_stores.retrieve", Betas: b, Handle: s.getMemoryStore},
		{Method: http.MethodPost, Path: store, Op: "memory_stores.update", Betas: b, Handle: s.updateMemoryStore},
		{Method: http.MethodPost, Path: store + "/archive", Op: "memory_stores.archive", Betas: b, Handle: s.archiveMemoryStore},
		{Method: http.MethodDelete, Path: store, Op: "memory_stores.delete", Betas: b, Handle: s.deleteMemoryStore},

		{Method: http.MethodPost, Path: store + "/memories", Op: "memory_stores.memories.create", Betas: b, Handle: s.createMemory},
		{Method: http.MethodGet, Path: store + "/memories", Op: "memory_stores.memories.list", Betas: b, Handle: s.listMemories},
		{Method: http.MethodGet, Path: store + "/memories/{memory_id}", Op: "memory_stores.memories.retrieve", Betas: b, Handle: s.getMemory},
		{Method: http.MethodPost, Path: store + "/memories/{memory_id}", Op: "memory_stores.memories.update", Betas: b, Handle: s.updateMemory},
		{Method: http.MethodDelete, Path: store + "/memories/{memory_id}", Op: "memory_stores.memories.delete", Betas: b, Handle: s.deleteMemory},

		{Method: http.MethodGet, Path: store + "/memory_versions", Op: "memory_stores.memory_versions.list", Betas: b, Handle: s.listMemoryVersions},
		{Method: http.MethodGet, Path: store + "/memory_versions/{memory_version_id}", Op: "memory_stores.memory_versions.retrieve", Betas: b, Handle: s.getMemoryVersion},
		{Method: http.MethodPost, Path: store + "/memory_versions/{memory_version_id}/redact", Op: "memory_stores.memory_versions.redact", Betas: b, Handle: s.redactMemoryVersion},
	}
}

type memoryStoreJSON struct {
	Type        string            `json:"type"`
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Metadata    map[string]string `json:"metadata"`
	ArchivedAt  *kit.Timestamp    `json:"archived_at"`
	CreatedAt   kit.Timestamp     `json:"created_at"`
	UpdatedAt   kit.Timestamp     `json:"updated_at"`
}

func (st *memoryStore) view() memoryStoreJSON {
	return memoryStoreJSON{
		Type:        "memory_store",
		ID:          st.id,
		Name:        st.name,
		Description: st.description,
		Metadata:    st.metadata,
		ArchivedAt:  kit.OptionalTimestamp(st.archivedAt),
		CreatedAt:   kit.Timestamp(st.createdAt),
		UpdatedAt:   kit.Timestamp(st.updatedAt),
	}
}

// memoryStoreBody is the body of create (M1) and update (M4). Metadata
// values are pointers so that a null value is seen: it deletes the key on
// update and is refused on create.
type memoryStoreBody struct {
	Name        kit.Optional[string]             `json:"name"`
	Description kit.Optional[string]             `json:"description"`
	Metadata    kit.Optional[memoryMetadataBody] `json:"metadata"`
}

// memoryMetadataBody is a metadata map as sent: a nil value is a null. It
// decodes values itself so that a wrong type is reported with its key
// ("metadata.k: must be a string"), which encoding/json does not do for map
// values.
type memoryMetadataBody map[string]*string

func (m *memoryMetadataBody) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	out := make(memoryMetadataBody, len(raw))
	for _, k := range slices.Sorted(maps.Keys(raw)) { // sorted: the first bad key is always the same
		if string(raw[k]) == "null" {
			out[k] = nil
			continue
		}
		var v string
		if err := json.Unmarshal(raw[k], &v); err != nil {
			return &json.UnmarshalTypeError{Value: "value", Field: k, Type: reflect.TypeFor[string]()}
		}
		out[k] = &v
	}
	*m = out
	return nil
}

func (s *Service) createMemoryStore(c *kit.Call) error {
	var body memoryStoreBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if !body.Name.Set {
		return kit.InvalidField("name", "is required")
	}
	if body.Name.Null {
		return kit.InvalidField("name", "must not be null")
	}
	if err := checkMemoryStoreName(body.Name.Value); err != nil {
		return err
	}
	description := ""
	if body.Description.Present() { // null means omitted on create (docs/managed-agents-wire.md 10.2)
		if err := kit.CheckLength("description", body.Description.Value, 0, memoryStoreDescMax); err != nil {
			return err
		}
		description = body.Description.Value
	}
	metadata := map[string]string{}
	if body.Metadata.Set {
		if body.Metadata.Null {
			return kit.InvalidField("metadata", "must not be null")
		}
		if err := checkMemoryMetadataPatch(body.Metadata.Value, true); err != nil {
			return err
		}
		m, err := mergeMemoryMetadata(metadata, body.Metadata.Value)
		if err != nil {
			return err
		}
		metadata = m
	}
	now := c.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &memoryStore{
		id:           s.cfg.ids("memstore_"),
		workspaceID:  c.WorkspaceID,
		name:         body.Name.Value,
		description:  description,
		metadata:     metadata,
		createdAt:    now,
		updatedAt:    now,
		memories:     map[string]*memory{},
		byPath:       map[string]*memory{},
		versionsByID: map[string]*memoryVersion{},
	}
	if s.memory.stores == nil {
		s.memory.stores = map[string]*memoryStore{}
	}
	s.memory.stores[st.id] = st
	return c.OK(st.view())
}

func (s *Service) getMemoryStore(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	return c.OK(st.view())
}

func (s *Service) listMemoryStores(c *kit.Call) error {
	q := c.R.URL.Query()
	gte, lte, err := memoryCreatedRange(q)
	if err != nil {
		return err
	}
	includeArchived, err := kit.QueryBool(q, "include_archived")
	if err != nil {
		return err
	}
	limit, err := kit.QueryInt(q, "limit", 20, 1, memoryListMax)
	if err != nil {
		return err
	}
	p := kit.CursorPageParams{Limit: limit}
	if raw, ok := kit.QueryValue(q, "page"); ok {
		pos, ok := kit.DecodeCursor(raw)
		if !ok {
			return errMemoryCursor
		}
		p.After = &pos
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.memory.stores), kit.NewestFirst((*memoryStore).position))
	keep := func(st *memoryStore) bool {
		return st.workspaceID == c.WorkspaceID && (includeArchived || !st.archived()) &&
			memoryTimeInRange(st.createdAt, gte, lte)
	}
	page := kit.PaginateByCursor(all, (*memoryStore).position, keep, p)
	return c.OK(kit.MapCursorPage(page, (*memoryStore).view))
}

func (s *Service) updateMemoryStore(c *kit.Call) error {
	var body memoryStoreBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if body.Name.Present() {
		if err := checkMemoryStoreName(body.Name.Value); err != nil {
			return err
		}
	}
	if body.Description.Present() {
		if err := kit.CheckLength("description", body.Description.Value, 0, memoryStoreDescMax); err != nil {
			return err
		}
	}
	if body.Metadata.Present() {
		if err := checkMemoryMetadataPatch(body.Metadata.Value, false); err != nil {
			return err
		}
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
	// The pair limit applies to the result of the patch, so it is checked
	// against the stored map; nothing is stored until every rule passes.
	metadata := st.metadata
	if body.Metadata.Present() {
		if metadata, err = mergeMemoryMetadata(st.metadata, body.Metadata.Value); err != nil {
			return err
		}
	}
	changed := false
	if body.Name.Present() && body.Name.Value != st.name {
		st.name, changed = body.Name.Value, true
	}
	if body.Description.Set {
		d := body.Description.Value // "" when null: null clears
		if d != st.description {
			st.description, changed = d, true
		}
	}
	if !maps.Equal(metadata, st.metadata) {
		st.metadata, changed = metadata, true
	}
	if changed {
		st.updatedAt = c.Now()
	}
	return c.OK(st.view())
}

func (s *Service) archiveMemoryStore(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	if !st.archived() { // one-way and idempotent; updated_at is not touched
		st.archivedAt = c.Now()
	}
	return c.OK(st.view())
}

type memoryDeletedJSON struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// deleteMemoryStore removes the store with its memories and versions; an
// archived store can be deleted (docs/managed-agents-wire.md 10.2).
func (s *Service) deleteMemoryStore(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	delete(s.memory.stores, st.id)
	return c.OK(memoryDeletedJSON{ID: st.id, Type: "memory_store_deleted"})
}
