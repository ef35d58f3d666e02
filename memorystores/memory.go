package memorystores

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
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
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainMemory Memory

// MarshalJSON writes the memory as the API does.
func (m Memory) MarshalJSON() ([]byte, error) { return wire.Marshal(plainMemory(m)) }

// UnmarshalJSON decodes the memory, keeping unknown members.
func (m *Memory) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainMemory)(m)) }

// MemoryPrefix stands in a listing for every memory under Path when the
// listing's Depth stops above them (type "memory_prefix"). Path ends with "/":
// pass it as MemoryListParams.PathPrefix to list what is inside.
type MemoryPrefix struct {
	Path string `json:"path"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainMemoryPrefix MemoryPrefix

// MarshalJSON writes the prefix with its type first.
func (p MemoryPrefix) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(itemPrefix, plainMemoryPrefix(p))
}

// UnmarshalJSON decodes the prefix's members; its "type" is not read.
func (p *MemoryPrefix) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainMemoryPrefix)(p), &p.Extra)
}

// UnknownListItem is a listing item of a type this SDK does not know. It
// keeps the object as received.
type UnknownListItem struct {
	Type string          // the item's "type"
	JSON json.RawMessage // the whole object
}

// MarshalJSON writes the object back as it was received.
func (u UnknownListItem) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

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

const (
	itemMemory = "memory"
	itemPrefix = "memory_prefix"
)

// listItems decodes a listing's items.
var listItems = wire.Join(wire.Union(decodeListItem))

func decodeListItem(typ string, obj []byte) (ListItem, error) {
	var item interface {
		ListItem
		json.Unmarshaler
	}
	switch typ {
	case itemMemory:
		item = new(Memory)
	case itemPrefix:
		item = new(MemoryPrefix)
	default:
		return &UnknownListItem{Type: typ, JSON: bytes.Clone(obj)}, nil
	}
	if err := item.UnmarshalJSON(obj); err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	return item, nil
}
