package memorystores

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

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
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainMemoryStore MemoryStore

// MarshalJSON writes the store as the API does.
func (m MemoryStore) MarshalJSON() ([]byte, error) { return wire.Marshal(plainMemoryStore(m)) }

// UnmarshalJSON decodes the store, keeping unknown members.
func (m *MemoryStore) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainMemoryStore)(m))
}

// Archived reports whether the store has been archived.
func (m *MemoryStore) Archived() bool { return !m.ArchivedAt.IsZero() }

// deleted is the answer to a delete, which only echoes the id: Delete
// returns just the error. Decoding it still checks that the body is JSON.
type deleted struct{}
