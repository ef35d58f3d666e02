package sessions

import (
	"encoding/base64"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// List Sessions (docs/managed-agents-wire.md 6.4). Unlike the
// other cursor lists it can run in either order and pages both ways
// (next_page and prev_page), so its cursor also records the direction and
// the query it belongs to.

const sessionListMax = 100

// sessionCursor is a position in a session list, the direction to read
// from it, and the query (order and created_at window) it was issued for:
// replaying it with another order or window would silently skip or repeat
// sessions, so that is refused (docs/managed-agents-wire.md 6.4, **choice**).
type sessionCursor struct {
	backward bool
	binding  string
	pos      kit.Position
}

const sessionCursorTag = "sesn"

func (sc sessionCursor) encode() string {
	dir := "next"
	if sc.backward {
		dir = "prev"
	}
	raw := strings.Join([]string{sessionCursorTag, dir, sc.binding,
		strconv.FormatInt(sc.pos.CreatedAt.UnixMicro(), 10) + ":" + sc.pos.ID}, "|")
	return kit.CursorPrefix + base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeSessionCursor(s string) (sessionCursor, bool) {
	rest, ok := strings.CutPrefix(s, kit.CursorPrefix)
	if !ok {
		return sessionCursor{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return sessionCursor{}, false
	}
	parts := strings.Split(string(raw), "|")
	if len(parts) != 4 || parts[0] != sessionCursorTag || (parts[1] != "next" && parts[1] != "prev") {
		return sessionCursor{}, false
	}
	micros, id, ok := strings.Cut(parts[3], ":")
	n, err := strconv.ParseInt(micros, 10, 64)
	if !ok || id == "" || err != nil {
		return sessionCursor{}, false
	}
	return sessionCursor{backward: parts[1] == "prev", binding: parts[2],
		pos: kit.Position{CreatedAt: time.UnixMicro(n).UTC(), ID: id}}, true
}

type sessionListQuery struct {
	agentID         string
	agentVersion    int // 0: any
	created         kit.CreatedWindow
	deploymentID    string
	memoryStoreID   string
	statuses        []string
	includeArchived bool
	desc            bool
	limit           int
	cursor          *sessionCursor
	binding         string
}

func parseSessionListQuery(q url.Values) (sessionListQuery, error) {
	var lq sessionListQuery
	var err error
	lq.agentID, _ = kit.QueryValue(q, "agent_id")
	if raw, ok := kit.QueryValue(q, "agent_version"); ok {
		n, perr := strconv.ParseInt(raw, 10, 64)
		if perr != nil {
			return lq, kit.InvalidField("agent_version", "must be an integer")
		}
		if err := kit.Int32Min("agent_version", n, 1); err != nil {
			return lq, err
		}
		if lq.agentID == "" {
			return lq, kit.InvalidField("agent_version", "requires agent_id")
		}
		lq.agentVersion = int(n)
	}
	if lq.created, err = kit.ParseCreatedWindow(q); err != nil {
		return lq, err
	}
	lq.deploymentID, _ = kit.QueryValue(q, "deployment_id")
	lq.memoryStoreID, _ = kit.QueryValue(q, "memory_store_id")
	// Repeatable: statuses=a&statuses=b and statuses[]=a
	// (docs/managed-agents-wire.md 1.6).
	for _, v := range append(slices.Clone(q["statuses"]), q["statuses[]"]...) {
		if err := kit.OneOf("statuses", v, sessionStatuses...); err != nil {
			return lq, err
		}
		lq.statuses = append(lq.statuses, v)
	}
	if lq.includeArchived, err = kit.QueryBool(q, "include_archived"); err != nil {
		return lq, err
	}
	order := "desc"
	if raw, ok := kit.QueryValue(q, "order"); ok {
		if err := kit.OneOf("order", raw, "asc", "desc"); err != nil {
			return lq, err
		}
		order = raw
	}
	lq.desc = order == "desc"
	if lq.limit, err = kit.QueryInt(q, "limit", 20, 1, sessionListMax); err != nil {
		return lq, err
	}
	lq.binding = order + "," + lq.created.Key()
	if raw, ok := kit.QueryValue(q, "page"); ok {
		sc, ok := decodeSessionCursor(raw)
		if !ok {
			return lq, kit.InvalidField("page", "invalid cursor")
		}
		if sc.binding != lq.binding {
			return lq, kit.InvalidField("page", "cursor does not match this query")
		}
		lq.cursor = &sc
	}
	return lq, nil
}

func (lq sessionListQuery) keep(workspaceID string, x *session) bool {
	switch {
	case x.workspaceID != workspaceID,
		!lq.includeArchived && x.archived(),
		lq.agentID != "" && x.agent.Agent.ID != lq.agentID,
		lq.agentVersion != 0 && x.agent.Version != lq.agentVersion,
		!lq.created.Contains(x.createdAt),
		lq.deploymentID != "" && (x.deploymentID == nil || *x.deploymentID != lq.deploymentID),
		len(lq.statuses) > 0 && !slices.Contains(lq.statuses, x.status):
		return false
	}
	if lq.memoryStoreID != "" {
		return slices.ContainsFunc(x.resources, func(r *sessionResource) bool {
			return r.typ == "memory_store" && r.memoryStoreID == lq.memoryStoreID
		})
	}
	return true
}

type sessionPageJSON struct {
	Data     []sessionJSON `json:"data"`
	NextPage *string       `json:"next_page"`
	PrevPage *string       `json:"prev_page"`
}

// listSessions is S3. A page read forward starts right after its cursor; a
// page read backward (prev_page) ends right before it. next_page and
// prev_page are null when nothing matching lies beyond the page in that
// direction, so the first page has no prev_page.
func (s *Service) listSessions(c *kit.Call) error {
	lq, err := parseSessionListQuery(c.R.URL.Query())
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.sessions.byID), kit.NewestFirst((*session).position))
	if !lq.desc {
		slices.Reverse(all)
	}
	matching := slices.DeleteFunc(all, func(x *session) bool { return !lq.keep(c.WorkspaceID, x) })
	// inOrder reports whether p comes before q in this list's order.
	inOrder := func(p, q kit.Position) bool {
		if lq.desc {
			return p.Before(q)
		}
		return q.Before(p)
	}
	start, end := 0, min(lq.limit, len(matching))
	if sc := lq.cursor; sc != nil {
		if sc.backward {
			end = len(matching)
			for i, x := range matching {
				if !inOrder(x.position(), sc.pos) {
					end = i
					break
				}
			}
			start = max(0, end-lq.limit)
		} else {
			start = len(matching)
			for i, x := range matching {
				if inOrder(sc.pos, x.position()) {
					start = i
					break
				}
			}
			end = min(start+lq.limit, len(matching))
		}
	}
	page := matching[start:end]
	out := sessionPageJSON{Data: kit.MapSlice(page, (*session).view)}
	if len(page) > 0 {
		if end < len(matching) {
			next := sessionCursor{binding: lq.binding, pos: page[len(page)-1].position()}.encode()
			out.NextPage = &next
		}
		if start > 0 {
			prev := sessionCursor{backward: true, binding: lq.binding, pos: page[0].position()}.encode()
			out.PrevPage = &prev
		}
	}
	return c.OK(out)
}
