package memory

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Memory versions (docs/managed-agents-wire.md 10.5): every write that
// changes a memory appends one immutable version to its store. Versions
// survive the memory's deletion and go only with the store. Redaction blanks
// a version's path and content for good.

const (
	memoryOpCreated  = "created"
	memoryOpModified = "modified"
	memoryOpDeleted  = "deleted"
)

// memoryActor is who wrote a version: an API key (api_actor), a service
// account (service_account_actor), a session (session_actor) or a console
// user (user_actor). Writes through this API are api_actor, or
// service_account_actor when the caller is a service account with no API
// key to name (a federation access token); sessions that write to mounted
// stores record session_actor.
type memoryActor struct {
	kind string // "api_actor", "service_account_actor", "session_actor", "user_actor"
	id   string
}

// serviceAccountCaller is a kit.Caller that may act as a service account
// without an API key (identity.Principal).
type serviceAccountCaller interface {
	// ServiceAccountID is the svcacct_… id; "" when the caller is an API
	// key or acts as no service account.
	ServiceAccountID() string
}

func apiMemoryActor(c *kit.Call) memoryActor {
	if sa, ok := c.Caller.(serviceAccountCaller); ok {
		if id := sa.ServiceAccountID(); id != "" {
			return memoryActor{kind: "service_account_actor", id: id}
		}
	}
	return memoryActor{kind: "api_actor", id: c.Caller.ActorID()}
}

// memoryActorIDKey is the key that carries each actor kind's id.
var memoryActorIDKey = map[string]string{
	"api_actor":             "api_key_id",
	"service_account_actor": "service_account_id",
	"session_actor":         "session_id",
	"user_actor":            "user_id",
}

// MarshalJSON writes {"type": kind, "<kind's id key>": id}, type first.
func (a memoryActor) MarshalJSON() ([]byte, error) {
	kind, _ := json.Marshal(a.kind)
	key, _ := json.Marshal(memoryActorIDKey[a.kind])
	id, _ := json.Marshal(a.id)
	out := append([]byte(`{"type":`), kind...)
	out = append(append(append(out, ','), key...), ':')
	return append(append(out, id...), '}'), nil
}

type memoryVersion struct {
	seq        uint64 // write order, server-wide
	id         string
	storeID    string
	memoryID   string
	operation  string
	path       string // "" once redacted
	content    string // "" once redacted or for deleted
	sha256     string // "" once redacted or for deleted
	createdBy  memoryActor
	createdAt  time.Time
	redactedAt time.Time // zero unless redacted
	redactedBy memoryActor
}

func (v *memoryVersion) redacted() bool { return !v.redactedAt.IsZero() }

// hasContent: deleted versions and redacted ones carry no content, hash or size.
func (v *memoryVersion) hasContent() bool {
	return v.operation != memoryOpDeleted && !v.redacted()
}

type memoryVersionJSON struct {
	Type             string         `json:"type"`
	ID               string         `json:"id"`
	MemoryStoreID    string         `json:"memory_store_id"`
	MemoryID         string         `json:"memory_id"`
	Operation        string         `json:"operation"`
	Path             *string        `json:"path"`
	Content          *string        `json:"content"`
	ContentSHA256    *string        `json:"content_sha256"`
	ContentSizeBytes *int           `json:"content_size_bytes"`
	CreatedBy        memoryActor    `json:"created_by"`
	RedactedAt       *kit.Timestamp `json:"redacted_at"`
	RedactedBy       *memoryActor   `json:"redacted_by"`
	CreatedAt        kit.Timestamp  `json:"created_at"`
}

func (v *memoryVersion) view(full bool) memoryVersionJSON {
	out := memoryVersionJSON{
		Type:          "memory_version",
		ID:            v.id,
		MemoryStoreID: v.storeID,
		MemoryID:      v.memoryID,
		Operation:     v.operation,
		CreatedBy:     v.createdBy,
		RedactedAt:    kit.OptionalTimestamp(v.redactedAt),
		CreatedAt:     kit.Timestamp(v.createdAt),
	}
	if !v.redacted() {
		path := v.path
		out.Path = &path
	} else {
		by := v.redactedBy
		out.RedactedBy = &by
	}
	if v.hasContent() {
		sha, size := v.sha256, len(v.content)
		out.ContentSHA256, out.ContentSizeBytes = &sha, &size
		if full {
			content := v.content
			out.Content = &content
		}
	}
	return out
}

// appendMemoryVersionLocked records a write of m (its state after the
// write; for a deletion, its last path) and, unless m was deleted, makes the
// new version its head.
func (s *Service) appendMemoryVersionLocked(st *memoryStore, m *memory, op string, by memoryActor, now time.Time) *memoryVersion {
	s.memory.seq++
	v := &memoryVersion{
		seq:       s.memory.seq,
		id:        s.cfg.ids("memver_"),
		storeID:   st.id,
		memoryID:  m.id,
		operation: op,
		path:      m.path,
		createdBy: by,
		createdAt: now,
	}
	if op != memoryOpDeleted {
		v.content, v.sha256 = m.content, m.sha256
		m.versionID = v.id
	}
	st.versions = append(st.versions, v)
	st.versionsByID[v.id] = v
	return v
}

func (st *memoryStore) versionLocked(id string) (*memoryVersion, error) {
	v, ok := st.versionsByID[id]
	if !ok {
		return nil, kit.NotFound("Memory version `%s` not found.", id)
	}
	return v, nil
}

// listMemoryVersions is MV1: newest first, filtered by memory, operation,
// writer and creation time.
func (s *Service) listMemoryVersions(c *kit.Call) error {
	q := c.R.URL.Query()
	memoryID, _ := kit.QueryValue(q, "memory_id")
	operation, hasOperation := kit.QueryValue(q, "operation")
	if hasOperation && operation != memoryOpCreated && operation != memoryOpModified && operation != memoryOpDeleted {
		return kit.InvalidField("operation", "must be one of `created`, `modified`, `deleted`")
	}
	sessionID, _ := kit.QueryValue(q, "session_id")
	apiKeyID, _ := kit.QueryValue(q, "api_key_id")
	serviceAccountID, _ := kit.QueryValue(q, "service_account_id")
	gte, lte, err := memoryCreatedRange(q)
	if err != nil {
		return err
	}
	full, err := memoryView(q, false)
	if err != nil {
		return err
	}
	limit, err := kit.QueryInt(q, "limit", 20, 1, memoryListMax)
	if err != nil {
		return err
	}
	afterKey, hasAfter, err := memoryCursor(q, memoryCursorVersion)
	if err != nil {
		return err
	}
	var after uint64
	if hasAfter {
		if after, err = strconv.ParseUint(afterKey, 10, 64); err != nil {
			return errMemoryCursor
		}
	}
	keep := func(v *memoryVersion) bool {
		return (memoryID == "" || v.memoryID == memoryID) &&
			(!hasOperation || v.operation == operation) &&
			(sessionID == "" || v.createdBy == memoryActor{kind: "session_actor", id: sessionID}) &&
			(apiKeyID == "" || v.createdBy == memoryActor{kind: "api_actor", id: apiKeyID}) &&
			(serviceAccountID == "" || v.createdBy == memoryActor{kind: "service_account_actor", id: serviceAccountID}) &&
			memoryTimeInRange(v.createdAt, gte, lte)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	page := kit.CursorPage[memoryVersionJSON]{Data: []memoryVersionJSON{}}
	var lastSeq uint64
	for i := len(st.versions) - 1; i >= 0; i-- {
		v := st.versions[i]
		if hasAfter && v.seq >= after {
			continue
		}
		if !keep(v) {
			continue
		}
		if len(page.Data) == limit {
			page.NextPage = encodeMemoryCursor(memoryCursorVersion, strconv.FormatUint(lastSeq, 10))
			break
		}
		page.Data = append(page.Data, v.view(full))
		lastSeq = v.seq
	}
	return c.OK(page)
}

func (s *Service) getMemoryVersion(c *kit.Call) error {
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
	v, err := st.versionLocked(c.R.PathValue("memory_version_id"))
	if err != nil {
		return err
	}
	return c.OK(v.view(full))
}

// redactMemoryVersion is MV3: path and content are erased for good, so a
// second call changes nothing. The head version of a live memory cannot be
// redacted: the memory's content is that version's content
// (docs/managed-agents-wire.md 10.5).
// Redaction writes to the store, which an archived store refuses.
func (s *Service) redactMemoryVersion(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	v, err := st.versionLocked(c.R.PathValue("memory_version_id"))
	if err != nil {
		return err
	}
	if st.archived() {
		return memoryStoreArchived(c, st.id)
	}
	if m, live := st.memories[v.memoryID]; live && m.versionID == v.id {
		return kit.StateConflict("memory_version_id: cannot redact the current version of a memory")
	}
	if !v.redacted() {
		v.redactedAt, v.redactedBy = c.Now(), apiMemoryActor(c)
		v.path, v.content, v.sha256 = "", "", ""
	}
	return c.OK(v.view(true))
}
