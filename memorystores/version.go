package memorystores

import (
	"encoding/json"
	"fmt"
	"time"
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
	Path string `json:"path"`
	// Content is nil unless the response carried it: with ViewBasic, for a
	// deletion, and once redacted. It points to "" for empty content.
	Content *string `json:"content"`
	// ContentSHA256 and ContentSizeBytes describe the content written; they
	// are "" and 0 for a deletion and once redacted (null on the wire).
	ContentSHA256    string `json:"content_sha256"`
	ContentSizeBytes int    `json:"content_size_bytes"`
	CreatedBy        Actor  `json:"created_by"`
	// RedactedAt is zero and RedactedBy nil unless the version was redacted.
	RedactedAt time.Time `json:"redacted_at,omitzero"`
	RedactedBy Actor     `json:"redacted_by"`
	CreatedAt  time.Time `json:"created_at"`
}

// Redacted reports whether the version's path and content were erased.
func (v *MemoryVersion) Redacted() bool { return !v.RedactedAt.IsZero() }

// UnmarshalJSON decodes the version and its actor unions.
func (v *MemoryVersion) UnmarshalJSON(data []byte) error {
	type plain MemoryVersion // without this method
	var w struct {
		*plain
		CreatedBy  json.RawMessage `json:"created_by"` // shadow the interface fields
		RedactedBy json.RawMessage `json:"redacted_by"`
	}
	w.plain = (*plain)(v)
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	var err error
	if v.CreatedBy, err = decodeActor(w.CreatedBy); err != nil {
		return fmt.Errorf("created_by: %w", err)
	}
	if v.RedactedBy, err = decodeActor(w.RedactedBy); err != nil {
		return fmt.Errorf("redacted_by: %w", err)
	}
	return nil
}
