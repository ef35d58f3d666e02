package pagination

import (
	"errors"
	"iter"
)

// errStuck stops a walk whose server returns the cursor it was given, which
// would otherwise loop forever.
var errStuck = errors.New("agentplatform: pagination: the server returned the same cursor again")

// Cursor walks a cursor-paginated list from the page named by start ("" for
// the first page), calling fetch for each page as the loop needs it. It yields
// pointers into each page's data. A fetch error is yielded once and ends the walk.
func Cursor[T any](start string, fetch func(page string) (*CursorPage[T], error)) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		cursor := start
		for {
			p, err := fetch(cursor)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range p.Data {
				if !yield(&p.Data[i], nil) {
					return
				}
			}
			switch {
			case p.NextPage == "":
				return
			case p.NextPage == cursor:
				yield(nil, errStuck)
				return
			}
			cursor = p.NextPage
		}
	}
}

// ByID walks an id-paginated list. With beforeID empty it goes forward from
// afterID ("" for the start), each page after the previous one's LastID. With
// beforeID set it goes backward: each page is the one before the previous
// page's FirstID, and objects within a page keep the list's order.
func ByID[T any](afterID, beforeID string, fetch func(afterID, beforeID string) (*IDPage[T], error)) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		backward := beforeID != ""
		for {
			p, err := fetch(afterID, beforeID)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range p.Data {
				if !yield(&p.Data[i], nil) {
					return
				}
			}
			if !p.HasMore || len(p.Data) == 0 {
				return
			}
			next := p.LastID
			if backward {
				next = p.FirstID
			}
			if next == "" || next == afterID+beforeID {
				yield(nil, errStuck)
				return
			}
			if backward {
				beforeID = next
			} else {
				afterID = next
			}
		}
	}
}
