package files

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// File is a stored file (type "file").
type File struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	// Filename is the name the upload gave, without any directory; "unnamed"
	// (with the extension of its MIME type, when known) when it gave none.
	Filename  string    `json:"filename"`
	MimeType  string    `json:"mime_type"`
	SizeBytes int64     `json:"size_bytes"`
	CreatedAt time.Time `json:"created_at"`
	// Downloadable reports whether Download may fetch the file's bytes:
	// true only for files the platform wrote (a session's outputs), never
	// for uploads.
	Downloadable bool `json:"downloadable"`
	// ExpiresAt is when the file is deleted; zero when it does not expire
	// (null on the wire).
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// Scope is the session that created the file, nil for an upload (null
	// on the wire).
	Scope *Scope `json:"scope,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Scope names what created a file.
type Scope struct {
	Type string `json:"type"` // "session"
	ID   string `json:"id"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// DeletedFile is the answer to Delete (type "file_deleted").
type DeletedFile struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type (
	plainFile        File
	plainScope       Scope
	plainDeletedFile DeletedFile
)

// MarshalJSON writes the file as the API sends it, Extra included.
func (f File) MarshalJSON() ([]byte, error) { return wire.Marshal(plainFile(f)) }

// UnmarshalJSON reads a file, keeping unknown members in Extra.
func (f *File) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainFile)(f)) }

// MarshalJSON writes the scope as the API sends it, Extra included.
func (s Scope) MarshalJSON() ([]byte, error) { return wire.Marshal(plainScope(s)) }

// UnmarshalJSON reads a scope, keeping unknown members in Extra.
func (s *Scope) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainScope)(s)) }

// MarshalJSON writes the answer as the API sends it, Extra included.
func (d DeletedFile) MarshalJSON() ([]byte, error) { return wire.Marshal(plainDeletedFile(d)) }

// UnmarshalJSON reads the answer, keeping unknown members in Extra.
func (d *DeletedFile) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainDeletedFile)(d))
}
