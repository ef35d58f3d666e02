package pagination

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// CursorPage is one page of a cursor-paginated list.
type CursorPage[T any] struct {
	Data []T `json:"data"`
	// NextPage is the cursor of the next page, or "" on the last page (null
	// on the wire). Pass it as the list's Page parameter.
	NextPage string `json:"next_page,omitzero"`
	// PrevPage is the cursor of the previous page, where the endpoint
	// reports one (List Sessions), else "".
	PrevPage string `json:"prev_page,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// HasMore reports whether another page follows.
func (p *CursorPage[T]) HasMore() bool { return p.NextPage != "" }

type plainCursorPage[T any] CursorPage[T]

// MarshalJSON writes the page as the API does.
func (p CursorPage[T]) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCursorPage[T](p)) }

// UnmarshalJSON reads a page as the API sends it.
func (p *CursorPage[T]) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainCursorPage[T])(p))
}

// IDPage is one page of an id-paginated list.
type IDPage[T any] struct {
	Data []T `json:"data"`
	// FirstID and LastID are the ids of the first and last objects of Data,
	// "" when Data is empty (null on the wire). Pass LastID as AfterID for
	// the next page, or FirstID as BeforeID for the previous one.
	FirstID string `json:"first_id,omitzero"`
	LastID  string `json:"last_id,omitzero"`
	// HasMore reports whether more objects exist in the direction of travel.
	HasMore bool `json:"has_more"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainIDPage[T any] IDPage[T]

// MarshalJSON writes the page as the API does.
func (p IDPage[T]) MarshalJSON() ([]byte, error) { return wire.Marshal(plainIDPage[T](p)) }

// UnmarshalJSON reads a page as the API sends it.
func (p *IDPage[T]) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainIDPage[T])(p))
}
