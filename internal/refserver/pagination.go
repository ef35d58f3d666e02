package refserver

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

// idPage is the id-paginated response shape (workspaces, models).
type idPage[T any] struct {
	Data    []T     `json:"data"`
	FirstID *string `json:"first_id"`
	HasMore bool    `json:"has_more"`
	LastID  *string `json:"last_id"`
}

type idPageParams struct {
	limit    int
	afterID  string
	beforeID string
}

// parseIDPageParams reads limit (1–1000, default 20), after_id and before_id.
func parseIDPageParams(q url.Values) (idPageParams, error) {
	limit, err := queryInt(q, "limit", 20, 1, 1000)
	if err != nil {
		return idPageParams{}, err
	}
	p := idPageParams{limit: limit, afterID: q.Get("after_id"), beforeID: q.Get("before_id")}
	if p.afterID != "" && p.beforeID != "" {
		return idPageParams{}, invalidField("after_id", "cannot be combined with before_id")
	}
	return p, nil
}

// paginateByID returns the page of matching items immediately after
// after_id, immediately before before_id, or from the start. all is in list
// order. has_more tells whether more matching items lie beyond the page in
// the direction of travel.
func paginateByID[T any](all []T, id func(T) string, keep func(T) bool, p idPageParams) (idPage[T], error) {
	start, step := 0, 1
	switch {
	case p.afterID != "":
		i := indexOf(all, id, p.afterID)
		if i < 0 {
			return idPage[T]{}, invalidField("after_id", "no object with id `%s`", p.afterID)
		}
		start = i + 1
	case p.beforeID != "":
		i := indexOf(all, id, p.beforeID)
		if i < 0 {
			return idPage[T]{}, invalidField("before_id", "no object with id `%s`", p.beforeID)
		}
		start, step = i-1, -1
	}
	page := make([]T, 0, min(p.limit, len(all)))
	hasMore := false
	for i := start; i >= 0 && i < len(all); i += step {
		if !keep(all[i]) {
			continue
		}
		if len(page) == p.limit {
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
	out := idPage[T]{Data: page, HasMore: hasMore}
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

// cursorPage is the cursor-paginated response shape (tunnels, memory
// stores, managed agents).
type cursorPage[T any] struct {
	Data     []T     `json:"data"`
	NextPage *string `json:"next_page"`
}

// position is where an object sits in a newest-first list: created_at, then
// id, both descending.
type position struct {
	createdAt time.Time
	id        string
}

// before reports whether p comes before q in newest-first order.
func (p position) before(q position) bool {
	if !p.createdAt.Equal(q.createdAt) {
		return p.createdAt.After(q.createdAt)
	}
	return p.id > q.id
}

// newestFirst orders objects for cursor lists: created_at, then id, both
// descending (the order position.before defines).
func newestFirst[T any](pos func(T) position) func(a, b T) int {
	return func(a, b T) int {
		pa, pb := pos(a), pos(b)
		return cmp.Or(pb.createdAt.Compare(pa.createdAt), cmp.Compare(pb.id, pa.id))
	}
}

const cursorPrefix = "page_"

// encode makes the opaque cursor "page_" + base64url("<unix micros>:<id>").
func (p position) encode() string {
	raw := strconv.FormatInt(p.createdAt.UnixMicro(), 10) + ":" + p.id
	return cursorPrefix + base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeCursor(s string) (position, bool) {
	rest, ok := strings.CutPrefix(s, cursorPrefix)
	if !ok {
		return position{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return position{}, false
	}
	micros, id, ok := strings.Cut(string(raw), ":")
	if !ok || id == "" {
		return position{}, false
	}
	n, err := strconv.ParseInt(micros, 10, 64)
	if err != nil {
		return position{}, false
	}
	return position{createdAt: time.UnixMicro(n).UTC(), id: id}, true
}

type cursorPageParams struct {
	limit int
	after *position // nil: from the start
}

// parseCursorPageParams reads limit (1–maxLimit, default 20) and page.
func parseCursorPageParams(q url.Values, maxLimit int) (cursorPageParams, error) {
	limit, err := queryInt(q, "limit", 20, 1, maxLimit)
	if err != nil {
		return cursorPageParams{}, err
	}
	p := cursorPageParams{limit: limit}
	if raw, ok := queryValue(q, "page"); ok {
		pos, ok := decodeCursor(raw)
		if !ok {
			return cursorPageParams{}, invalidField("page", "invalid cursor")
		}
		p.after = &pos
	}
	return p, nil
}

// paginateByCursor returns up to limit matching items that come after the
// cursor position. all must be newest first. Because the cursor is a
// position, not an offset, objects created meanwhile (which sort first)
// never shift a page.
func paginateByCursor[T any](all []T, pos func(T) position, keep func(T) bool, p cursorPageParams) cursorPage[T] {
	page := make([]T, 0, min(p.limit, len(all)))
	more := false
	for _, item := range all {
		if p.after != nil && !p.after.before(pos(item)) {
			continue
		}
		if !keep(item) {
			continue
		}
		if len(page) == p.limit {
			more = true
			break
		}
		page = append(page, item)
	}
	out := cursorPage[T]{Data: page}
	if more {
		next := pos(page[len(page)-1]).encode()
		out.NextPage = &next
	}
	return out
}

// mapIDPage converts a page of stored objects into their wire form.
func mapIDPage[T, U any](p idPage[T], view func(T) U) idPage[U] {
	return idPage[U]{Data: mapSlice(p.Data, view), FirstID: p.FirstID, HasMore: p.HasMore, LastID: p.LastID}
}

// mapCursorPage converts a page of stored objects into their wire form.
func mapCursorPage[T, U any](p cursorPage[T], view func(T) U) cursorPage[U] {
	return cursorPage[U]{Data: mapSlice(p.Data, view), NextPage: p.NextPage}
}

func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
