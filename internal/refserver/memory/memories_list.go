package memory

import (
	"math"
	"slices"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// List memories (MM3, docs/managed-agents-wire.md 10.4): the memories under
// path_prefix in path (byte) order. With depth d > 0, a memory more than d
// segments below the prefix is rolled up into a memory_prefix item naming
// the directory d segments down, listed once. Memories and prefixes share
// one order and both count toward limit.

type memoryPrefixJSON struct {
	Type string `json:"type"`
	Path string `json:"path"`
}

// memoryListEntry is one item of the list: a memory, or a prefix when m is
// nil. key is its place in the order: the path, or the prefix with its
// trailing "/". A memory can never sit at a prefix's path minus the slash
// (that would be a file/directory clash), so keys are unique.
type memoryListEntry struct {
	key string
	m   *memory
}

func (s *Service) listMemories(c *kit.Call) error {
	q := c.R.URL.Query()
	prefix := "/"
	if raw, ok := kit.QueryValue(q, "path_prefix"); ok {
		if err := checkMemoryPathPrefix(raw); err != nil {
			return err
		}
		prefix = raw
	}
	depth, err := kit.QueryInt(q, "depth", 0, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	full, err := memoryView(q, false)
	if err != nil {
		return err
	}
	limit, err := kit.QueryInt(q, "limit", 20, 1, memoryListMax)
	if err != nil {
		return err
	}
	if full {
		limit = min(limit, memoryFullListMax) // capped, not refused (docs/managed-agents-wire.md 10.4)
	}
	after, hasAfter, err := memoryCursor(q, memoryCursorPath)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.memoryStoreLocked(c.WorkspaceID, c.R.PathValue("memory_store_id"))
	if err != nil {
		return err
	}
	entries := memoryListEntries(st, prefix, depth)
	page := kit.CursorPage[any]{Data: []any{}}
	lastKey := ""
	for _, e := range entries {
		if hasAfter && e.key <= after {
			continue
		}
		if len(page.Data) == limit {
			page.NextPage = encodeMemoryCursor(memoryCursorPath, lastKey)
			break
		}
		if e.m != nil {
			page.Data = append(page.Data, e.m.view(full))
		} else {
			page.Data = append(page.Data, memoryPrefixJSON{Type: "memory_prefix", Path: e.key})
		}
		lastKey = e.key
	}
	return c.OK(page)
}

// memoryListEntries is every item the list shows for prefix and depth, in
// order. Building it whole on each request keeps the cursor a plain key:
// the store is in memory and small.
func memoryListEntries(st *memoryStore, prefix string, depth int) []memoryListEntry {
	entries := make([]memoryListEntry, 0, len(st.memories))
	seen := map[string]bool{}
	for _, m := range st.memories {
		rel, ok := strings.CutPrefix(m.path, prefix)
		if !ok {
			continue
		}
		if depth > 0 {
			if cut := memoryNthSlash(rel, depth); cut >= 0 {
				key := prefix + rel[:cut+1]
				if !seen[key] {
					seen[key] = true
					entries = append(entries, memoryListEntry{key: key})
				}
				continue
			}
		}
		entries = append(entries, memoryListEntry{key: m.path, m: m})
	}
	slices.SortFunc(entries, func(a, b memoryListEntry) int { return strings.Compare(a.key, b.key) })
	return entries
}

// memoryNthSlash is the index of the n-th (from 1) "/" in s, or -1.
func memoryNthSlash(s string, n int) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}
