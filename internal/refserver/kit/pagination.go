package kit

import (
	"cmp"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Pagination (docs/api-choices.md "Pagination").
//
// Both helpers take the whole collection in its list order plus a filter,
// rather than a pre-filtered slice, so that a position stays valid when the
// object it names stops matching the filter between two page requests (for
// example, it was archived).

// IDPage is the id-paginated response shape (workspaces, models).
type IDPage[T any] struct {
	Data    []T     `json:"data"`
	FirstID *string `json:"first_id"`
	HasMore bool    `json:"has_more"`
	LastID  *string `json:"last_id"`
}

// IDPageParams is a parsed id list request.
type IDPageParams struct {
	Limit    int
	AfterID  string
	BeforeID string
}

// ParseIDPageParams reads limit (1–1000, default 20), after_id and before_id.
func ParseIDPageParams(q url.Values) (IDPageParams, error) {
	limit, err := QueryInt(q, "limit", 20, 1, 1000)
	if err != nil {
		return IDPageParams{}, err
	}
	p := IDPageParams{Limit: limit, AfterID: q.Get("after_id"), BeforeID: q.Get("before_id")}
	if p.AfterID != "" && p.BeforeID != "" {
		return IDPageParams{}, InvalidField("after_id", "cannot be combined with before_id")
	}
	return p, nil
}

// PaginateByID returns the page of matching items immediately after
// after_id, immediately before before_id, or from the start. all is in list
// order. has_more tells whether more matching items lie beyond the page in
// the direction of travel.
func PaginateByID[T any](all []T, id func(T) string, keep func(T) bool, p IDPageParams) (IDPage[T], error) {
	start, step := 0, 1
	switch {
	case p.AfterID != "":
		i := indexOf(all, id, p.AfterID)
		if i < 0 {
			return IDPage[T]{}, InvalidField("after_id", "no object with id `%s`", p.AfterID)
		}
		start = i + 1
	case p.BeforeID != "":
		i := indexOf(all, id, p.BeforeID)
		if i < 0 {
			return IDPage[T]{}, InvalidField("before_id", "no object with id `%s`", p.BeforeID)
		}
		start, step = i-1, -1
	}
	page := make([]T, 0, min(p.Limit, len(all)))
	hasMore := false
	for i := start; i >= 0 && i < len(all); i += step {
		if !keep(all[i]) {
			continue
		}
		if len(page) == p.Limit {
			hasMore = true
			break
		}
		page = append(page, all[i])
	}
	if step < 0 {
		// Walking backwards collected the page in reverse; pages are always
		// in list order.
		for i, j := 0, len(page)-1; i < j; i, j = i+1, j-1 {
			page[i], page[j] = page[j], page[i]
		}
	}
	out := IDPage[T]{Data: page, HasMore: hasMore}
	if len(page) > 0 {
		first, last := id(page[0]), id(page[len(page)-1])
		out.FirstID, out.LastID = &first, &last
	}
	return out, nil
}

func indexOf[T any](all []T, id func(T) string, want string) int {
	for i, item := range all {
		if id(item) == want {
			return i
		}
	}
	return -1
}

// CursorPage is the cursor-paginated response shape (tunnels, memory
// stores, managed agents).
type CursorPage[T any] struct {
	Data     []T     `json:"data"`
	NextPage *string `json:"next_page"`
}

// Position is where an object sits in a newest-first list: created_at, then
// id, both descending.
type Position struct {
	CreatedAt time.Time
	ID        string
}

// Before reports whether p comes before q in newest-first order.
func (p Position) Before(q Position) bool {
	if !p.CreatedAt.Equal(q.CreatedAt) {
		return p.CreatedAt.After(q.CreatedAt)
	}
	return p.ID > q.ID
}

// NewestFirst orders objects for cursor lists: created_at, then id, both
// descending (the order Position.Before defines).
func NewestFirst[T any](pos func(T) Position) func(a, b T) int {
	return func(a, b T) int {
		pa, pb := pos(a), pos(b)
		return cmp.Or(pb.CreatedAt.Compare(pa.CreatedAt), cmp.Compare(pb.ID, pa.ID))
	}
}

// CursorPrefix starts every cursor.
const CursorPrefix = "page_"

// Encode makes the opaque cursor "page_" + base64url("<unix micros>:<id>").
func (p Position) Encode() string {
	raw := strconv.FormatInt(p.CreatedAt.UnixMicro(), 10) + ":" + p.ID
	return CursorPrefix + base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// DecodeCursor reads a cursor Encode made.
func DecodeCursor(s string) (Position, bool) {
	rest, ok := strings.CutPrefix(s, CursorPrefix)
	if !ok {
		return Position{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return Position{}, false
	}
	micros, id, ok := strings.Cut(string(raw), ":")
	if !ok || id == "" {
		return Position{}, false
	}
	n, err := strconv.ParseInt(micros, 10, 64)
	if err != nil {
		return Position{}, false
	}
	return Position{CreatedAt: time.UnixMicro(n).UTC(), ID: id}, true
}

// CursorPageParams is a parsed cursor list request.
type CursorPageParams struct {
	Limit int
	After *Position // nil: from the start
}

// ParseCursorPageParams reads limit (1–maxLimit, default 20) and page.
func ParseCursorPageParams(q url.Values, maxLimit int) (CursorPageParams, error) {
	limit, err := QueryInt(q, "limit", 20, 1, maxLimit)
	if err != nil {
		return CursorPageParams{}, err
	}
	p := CursorPageParams{Limit: limit}
	if raw, ok := QueryValue(q, "page"); ok {
		pos, ok := DecodeCursor(raw)
		if !ok {
			return CursorPageParams{}, InvalidField("page", "invalid cursor")
		}
		p.After = &pos
	}
	return p, nil
}

// PaginateByCursor returns up to limit matching items that come after the
// cursor position. all must be newest first. Because the cursor is a
// Position, not an offset, objects created meanwhile (which sort first)
// never shift a page.
func PaginateByCursor[T any](all []T, pos func(T) Position, keep func(T) bool, p CursorPageParams) CursorPage[T] {
	page := make([]T, 0, min(p.Limit, len(all)))
	more := false
	for _, item := range all {
		if p.After != nil && !p.After.Before(pos(item)) {
			continue
		}
		if !keep(item) {
			continue
		}
		if len(page) == p.Limit {
			more = true
			break
		}
		page = append(page, item)
	}
	out := CursorPage[T]{Data: page}
	if more {
		next := pos(page[len(page)-1]).Encode()
		out.NextPage = &next
	}
	return out
}

// MapIDPage converts a page of stored objects into their wire form.
func MapIDPage[T, U any](p IDPage[T], view func(T) U) IDPage[U] {
	return IDPage[U]{Data: MapSlice(p.Data, view), FirstID: p.FirstID, HasMore: p.HasMore, LastID: p.LastID}
}

// MapCursorPage converts a page of stored objects into their wire form.
func MapCursorPage[T, U any](p CursorPage[T], view func(T) U) CursorPage[U] {
	return CursorPage[U]{Data: MapSlice(p.Data, view), NextPage: p.NextPage}
}

// MapSlice applies f to each element.
func MapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
