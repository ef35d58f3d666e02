package memorystores

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Operation is what a version recorded. Values not listed here are kept as
// received.
type Operation string

const (
	OperationCreated  Operation = "created"
	OperationModified Operation = "modified"
	OperationDeleted  Operation = "deleted"
)

// MemoryVersion is one immutable write of a memory (type "memory_version").
// Every write that changes a memory appends one; versions belong to the
// store and outlive the memory's deletion.
type MemoryVersion struct {
	Type          string    `json:"type"`
	ID            string    `json:"id"` // "memver_…"
	MemoryStoreID string    `json:"memory_store_id"`
	MemoryID      string    `json:"memory_id"`
	Operation     Operation `json:"operation"`
	// Path is the memory's path after the write (its last path, for a
	// deletion); "" once the version is redacted.
	Path string `json:"path,omitzero"`
	// Content is nil unless the response carried it: with ViewBasic, for a
	// deletion, and once redacted. It points to "" for empty content.
	Content *string `json:"content"`
	// ContentSHA256 and ContentSizeBytes describe the content written; they
	// are "" and 0 for a deletion and once redacted (null on the wire).
	ContentSHA256    string `json:"content_sha256,omitzero"`
	ContentSizeBytes int    `json:"content_size_bytes"`
	CreatedBy        Actor  `json:"created_by"`
	// RedactedAt is zero and RedactedBy nil unless the version was redacted.
	RedactedAt time.Time `json:"redacted_at,omitzero"`
	RedactedBy Actor     `json:"redacted_by"`
	CreatedAt  time.Time `json:"created_at"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Redacted reports whether the version's path and content were erased.
func (v *MemoryVersion) Redacted() bool { return !v.RedactedAt.IsZero() }

type plainMemoryVersion MemoryVersion

// MarshalJSON writes the version as the API does: without a content hash
// (a deletion, a redacted version) there is no size either, null on the
// wire rather than 0.
func (v MemoryVersion) MarshalJSON() ([]byte, error) {
	if v.ContentSHA256 == "" && v.ContentSizeBytes == 0 {
		return wire.Marshal(struct {
			plainMemoryVersion
			ContentSizeBytes *int `json:"content_size_bytes"` // shadows the int
		}{plainMemoryVersion: plainMemoryVersion(v)})
	}
	return wire.Marshal(plainMemoryVersion(v))
}

// UnmarshalJSON decodes the version and its actor unions.
func (v *MemoryVersion) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainMemoryVersion)(v), actors)
}
