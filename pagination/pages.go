package pagination

// CursorPage is one page of a cursor-paginated list.
type CursorPage[T any] struct {
	Data []T `json:"data"`
	// NextPage is the cursor of the next page, or "" on the last page (null
	// on the wire). Pass it as the list's Page parameter.
	NextPage string `json:"next_page"`
	// PrevPage is the cursor of the previous page, where the endpoint
	// reports one (List Sessions), else "".
	PrevPage string `json:"prev_page"`
}

// HasMore reports whether another page follows.
func (p *CursorPage[T]) HasMore() bool { return p.NextPage != "" }

// IDPage is one page of an id-paginated list.
type IDPage[T any] struct {
	Data []T `json:"data"`
	// FirstID and LastID are the ids of the first and last objects of Data,
	// "" when Data is empty. Pass LastID as AfterID for the next page, or
	// FirstID as BeforeID for the previous one.
	FirstID string `json:"first_id"`
	LastID  string `json:"last_id"`
	// HasMore reports whether more objects exist in the direction of travel.
	HasMore bool `json:"has_more"`
}
