package memorystores

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// View chooses whether responses carry content. Values other than these are
// sent as given.
type View string

const (
	ViewBasic View = "basic" // metadata only: Content is nil
	ViewFull  View = "full"  // with Content
)

// Memory is a UTF-8 text document at a path inside a store (type "memory").
type Memory struct {
	Type          string `json:"type"`
	ID            string `json:"id"` // "mem_…"; stable across renames
	MemoryStoreID string `json:"memory_store_id"`
	// Path is unique in the store and case-sensitive, e.g. "/projects/foo/notes.md".
	Path string `json:"path"`
	// Content is nil when the response did not carry it (ViewBasic, the
	// default of Create, Update and List) and points to "" for an empty
	// memory: a pointer is what tells the two apart.
	Content          *string `json:"content"`
	ContentSHA256    string  `json:"content_sha256"`     // lowercase hex SHA-256 of the content; always set
	ContentSizeBytes int     `json:"content_size_bytes"` // always set
	// MemoryVersionID is the current version ("memver_…").
	MemoryVersionID string    `json:"memory_version_id"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

// MemoryPrefix stands in a listing for every memory under Path when the
// listing's Depth stops above them (type "memory_prefix"). Path ends with "/":
// pass it as MemoryListParams.PathPrefix to list what is inside.
type MemoryPrefix struct {
	Path string `json:"path"`
}

// MarshalJSON writes the prefix with its type.
func (p MemoryPrefix) MarshalJSON() ([]byte, error) {
	type plain MemoryPrefix
	return union.Marshal("memory_prefix", plain(p))
}

// UnknownListItem is a listing item of a type this SDK does not know. It
// keeps the object as received.
type UnknownListItem struct {
	Type string          // the item's "type"
	JSON json.RawMessage // the whole object
}

// MarshalJSON writes the object back as it was received.
func (u UnknownListItem) MarshalJSON() ([]byte, error) {
	return union.Raw{Type: u.Type, JSON: u.JSON}.MarshalJSON()
}

// ListItem is one item of a memory listing: *Memory, *MemoryPrefix or
// *UnknownListItem.
//
//	switch it := item.(type) {
//	case *memorystores.Memory:
//	case *memorystores.MemoryPrefix:
//	}
type ListItem interface{ isListItem() }

func (*Memory) isListItem()          {}
func (*MemoryPrefix) isListItem()    {}
func (*UnknownListItem) isListItem() {}

func decodeListItem(data []byte) (ListItem, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	var item ListItem
	switch typ {
	case "memory":
		item = new(Memory)
	case "memory_prefix":
		item = new(MemoryPrefix)
	default:
		raw := union.NewRaw(typ, data)
		return &UnknownListItem{Type: raw.Type, JSON: raw.JSON}, nil
	}
	if err := json.Unmarshal(data, item); err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	return item, nil
}
