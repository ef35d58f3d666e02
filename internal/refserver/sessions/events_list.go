package sessions

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// V2 List Events (docs/session-events-wire.md 2.2): the session's log (what
// its stream delivers, without previews), filtered by processed_at window
// and types, in log order or reversed. The log is append-only, so a
// position in it is an index: the cursor carries the index and id of the
// last event of the page, and the query it was issued for.

const (
	eventListMax    = 1000
	eventCursorTag  = "sevt"
	eventTypesParam = "types"
)

type eventListQuery struct {
	window  kit.CreatedWindow
	types   []string // sorted, no repeats; nil: every type
	desc    bool
	limit   int
	binding string
	after   *eventCursor
}

type eventCursor struct {
	binding string
	index   int
	id      string
}

func (ec eventCursor) encode() string {
	raw := strings.Join([]string{eventCursorTag, ec.binding, strconv.Itoa(ec.index), ec.id}, "|")
	return kit.CursorPrefix + base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeEventCursor(s string) (eventCursor, bool) {
	rest, ok := strings.CutPrefix(s, kit.CursorPrefix)
	if !ok {
		return eventCursor{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return eventCursor{}, false
	}
	parts := strings.Split(string(raw), "|")
	if len(parts) != 4 || parts[0] != eventCursorTag || parts[3] == "" {
		return eventCursor{}, false
	}
	n, err := strconv.Atoi(parts[2])
	if err != nil || n < 0 {
		return eventCursor{}, false
	}
	return eventCursor{binding: parts[1], index: n, id: parts[3]}, true
}

func parseEventListQuery(q url.Values) (eventListQuery, error) {
	var lq eventListQuery
	var err error
	if lq.window, err = kit.ParseCreatedWindow(q); err != nil {
		return lq, err
	}
	for _, v := range append(slices.Clone(q[eventTypesParam]), q[eventTypesParam+"[]"]...) {
		if v == "" {
			return lq, kit.InvalidField(eventTypesParam, "must not be empty")
		}
		if !slices.Contains(lq.types, v) {
			lq.types = append(lq.types, v)
		}
	}
	slices.Sort(lq.types)
	order := "asc"
	if raw, ok := kit.QueryValue(q, "order"); ok {
		if err := kit.OneOf("order", raw, "asc", "desc"); err != nil {
			return lq, err
		}
		order = raw
	}
	lq.desc = order == "desc"
	if lq.limit, err = kit.QueryInt(q, "limit", eventListMax, 1, eventListMax); err != nil {
		return lq, err
	}
	// A cursor replayed with another order, types or window would skip or
	// repeat events: it is bound to them (choice, as for List Sessions in
	// docs/managed-agents-wire.md 6.4).
	sum := sha256.Sum256([]byte(order + "\x00" + strings.Join(lq.types, "\x00") + "\x00" + lq.window.Key()))
	lq.binding = hex.EncodeToString(sum[:8])
	if raw, ok := kit.QueryValue(q, "page"); ok {
		ec, ok := decodeEventCursor(raw)
		if !ok {
			return lq, kit.InvalidField("page", "invalid cursor")
		}
		if ec.binding != lq.binding {
			return lq, kit.InvalidField("page", "cursor does not match this query")
		}
		lq.after = &ec
	}
	return lq, nil
}

func (lq eventListQuery) keep(ev *sessionEvent) bool {
	if len(lq.types) > 0 {
		if _, ok := slices.BinarySearch(lq.types, ev.typ); !ok {
			return false
		}
	}
	return lq.window.Contains(ev.processedAt)
}

type eventPageJSON struct {
	Data     []json.RawMessage `json:"data"`
	NextPage *string           `json:"next_page"`
}

func (s *Service) listEvents(c *kit.Call) error {
	lq, err := parseEventListQuery(c.R.URL.Query())
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	page, err := listLog(x.events, lq)
	if err != nil {
		return err
	}
	return c.OK(page)
}

// listLog is one page of log for lq: the session's events, or a thread's
// (threads_http.go).
func listLog(log []*sessionEvent, lq eventListQuery) (eventPageJSON, error) {
	step, i := 1, 0
	if lq.desc {
		step, i = -1, len(log)-1
	}
	if a := lq.after; a != nil {
		if a.index >= len(log) || log[a.index].id != a.id {
			return eventPageJSON{}, kit.InvalidField("page", "invalid cursor")
		}
		i = a.index + step
	}
	out := eventPageJSON{Data: []json.RawMessage{}}
	last := -1
	for ; i >= 0 && i < len(log); i += step {
		if !lq.keep(log[i]) {
			continue
		}
		if len(out.Data) == lq.limit {
			next := eventCursor{binding: lq.binding, index: last, id: log[last].id}.encode()
			out.NextPage = &next
			break
		}
		out.Data = append(out.Data, log[i].raw)
		last = i
	}
	return out, nil
}
