package memorystores

import "time"

// MemoryStore is a named store of memories that sessions can mount (type
// "memory_store").
type MemoryStore struct {
	Type string `json:"type"`
	ID   string `json:"id"` // "memstore_…"
	// Name is 1 to 255 characters. The path a session mounts the store at is
	// derived from it when the session is created; a later rename does not
	// move existing mounts.
	Name string `json:"name"`
	// Description is "" when unset. It is included in the system prompt of
	// sessions the store is attached to.
	Description string            `json:"description"`
	Metadata    map[string]string `json:"metadata"` // returned, not filterable
	// ArchivedAt is zero while the store is active. Archiving is one-way;
	// an archived store is read-only and cannot be attached to new sessions.
	ArchivedAt time.Time `json:"archived_at,omitzero"`
	CreatedAt  time.Time `json:"created_at"`
	// UpdatedAt changes when the name, description or metadata change.
	// Writing memories inside the store does not change it.
	UpdatedAt time.Time `json:"updated_at"`
}

// Archived reports whether the store has been archived.
func (m *MemoryStore) Archived() bool { return !m.ArchivedAt.IsZero() }

// Deleted is the answer to a delete: the id of what is gone and a type of
// "memory_store_deleted" or "memory_deleted".
type Deleted struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}
