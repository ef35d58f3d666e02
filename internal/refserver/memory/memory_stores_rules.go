package memory

import (
	"encoding/base64"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Rules shared by the memory endpoints (docs/managed-agents-wire.md 1.4,
// 1.5, 10): field checks, the 409 answers, timestamp filters and the cursors
// of the path-ordered and version lists. Every name here starts with
// "memory" so that it cannot collide with the managed-agent families' own.

// Limits of docs/managed-agents-wire.md section 10 (and 11).
const (
	memoryStoreNameMax   = 255
	memoryStoreDescMax   = 1024
	memoryMetadataPairs  = 16
	memoryMetadataKeyMax = 64
	memoryMetadataValMax = 512
	memoryPathMaxBytes   = 1024
	memoryContentMax     = 102400
	memoryListMax        = 100
	memoryFullListMax    = 20 // memories listed with view=full: larger limits are capped, not refused
)

func checkMemoryStoreName(name string) error {
	if err := kit.CheckLength("name", name, 1, memoryStoreNameMax); err != nil {
		return err
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return kit.InvalidField("name", "must not contain control characters")
	}
	return nil
}

// checkMemoryMetadataPatch checks the keys and values a body sends, in key
// order so that the message is deterministic. On create a null value is
// refused; on update it deletes the key.
func checkMemoryMetadataPatch(patch map[string]*string, creating bool) error {
	if creating && len(patch) > memoryMetadataPairs {
		return kit.InvalidField("metadata", "must have at most %d pairs", memoryMetadataPairs)
	}
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		if n := utf8.RuneCountInString(k); n < 1 || n > memoryMetadataKeyMax {
			return kit.InvalidField("metadata", "keys must be between 1 and %d characters", memoryMetadataKeyMax)
		}
		v := patch[k]
		if v == nil {
			if creating {
				return kit.InvalidField("metadata."+k, "must not be null")
			}
			continue
		}
		if err := kit.CheckLength("metadata."+k, *v, 0, memoryMetadataValMax); err != nil {
			return err
		}
	}
	return nil
}

// mergeMemoryMetadata applies a patch to a copy of cur
// (docs/managed-agents-wire.md 1.5) and
// checks the pair limit on the result.
func mergeMemoryMetadata(cur map[string]string, patch map[string]*string) (map[string]string, error) {
	out := maps.Clone(cur)
	if out == nil {
		out = map[string]string{}
	}
	for k, v := range patch {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = *v
		}
	}
	if len(out) > memoryMetadataPairs {
		return nil, kit.InvalidField("metadata", "must have at most %d pairs", memoryMetadataPairs)
	}
	return out, nil
}

// checkMemoryPath is the path rule of docs/managed-agents-wire.md 10.3. NFC normalization is
// not checked: the module has no Unicode normalization tables.
func checkMemoryPath(field, p string) error {
	switch {
	case !utf8.ValidString(p):
		return kit.InvalidField(field, "must be valid UTF-8")
	case !strings.HasPrefix(p, "/"):
		return kit.InvalidField(field, "must start with `/`")
	}
	for seg := range strings.SplitSeq(p[1:], "/") { // "/" alone is one empty segment
		if seg == "" || seg == "." || seg == ".." {
			return kit.InvalidField(field, "must not contain empty, `.` or `..` segments")
		}
	}
	if len(p) > memoryPathMaxBytes {
		return kit.InvalidField(field, "must be between 2 and %d bytes", memoryPathMaxBytes)
	}
	if strings.IndexFunc(p, memoryForbiddenRune) >= 0 {
		return kit.InvalidField(field, "must not contain control or format characters")
	}
	return nil
}

// memoryForbiddenRune: control and format characters, and the line and
// paragraph separators, which would make a path unprintable or ambiguous.
func memoryForbiddenRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

// checkMemoryPathPrefix: "/" or a valid path followed by "/".
func checkMemoryPathPrefix(p string) error {
	if p == "/" {
		return nil
	}
	if !strings.HasSuffix(p, "/") {
		return kit.InvalidField("path_prefix", "must end with `/`")
	}
	return checkMemoryPath("path_prefix", strings.TrimSuffix(p, "/"))
}

func checkMemoryContent(content string) error {
	if len(content) > memoryContentMax {
		return kit.InvalidField("content", "must be at most %d bytes", memoryContentMax)
	}
	return nil
}

// checkMemorySHA256 accepts 64 lowercase hexadecimal characters, the form
// content_sha256 is reported in.
func checkMemorySHA256(field, v string) error {
	ok := len(v) == 64
	for i := 0; ok && i < len(v); i++ {
		c := v[i]
		ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
	}
	if !ok {
		return kit.InvalidField(field, "must be 64 lowercase hexadecimal characters")
	}
	return nil
}

// memoryView reads the view query parameter: true for "full". Its default
// differs per endpoint (docs/managed-agents-wire.md 10.3).
func memoryView(q url.Values, defaultFull bool) (bool, error) {
	raw, ok := kit.QueryValue(q, "view")
	if !ok {
		return defaultFull, nil
	}
	switch raw {
	case "basic":
		return false, nil
	case "full":
		return true, nil
	}
	return false, kit.InvalidField("view", "must be one of `basic`, `full`")
}

// memoryCreatedRange reads created_at[gte] and created_at[lte], both
// inclusive; a zero time means no bound.
func memoryCreatedRange(q url.Values) (gte, lte time.Time, err error) {
	for _, bound := range []struct {
		name string
		dst  *time.Time
	}{{"created_at[gte]", &gte}, {"created_at[lte]", &lte}} {
		raw, ok := kit.QueryValue(q, bound.name)
		if !ok {
			continue
		}
		t, perr := time.Parse(time.RFC3339, raw)
		if perr != nil {
			return time.Time{}, time.Time{}, kit.InvalidField(bound.name, "must be an RFC 3339 timestamp")
		}
		*bound.dst = t
	}
	return gte, lte, nil
}

func memoryTimeInRange(t, gte, lte time.Time) bool {
	return (gte.IsZero() || !t.Before(gte)) && (lte.IsZero() || !t.After(lte))
}

// errMemoryCursor is the answer to a malformed page
// (docs/managed-agents-wire.md 1.6).
var errMemoryCursor = kit.InvalidField("page", "invalid cursor")

// Cursors of the memory and version lists: "page_" + base64url of a kind
// letter, ":" and a key. Memories are in path order, so their cursor is the
// last path (or prefix) returned; versions are in write order, so theirs is
// the last version's sequence number. Either way the position, not an
// offset, is kept: writes between two page requests never shift a page.
const (
	memoryCursorPath    = 'p'
	memoryCursorVersion = 'v'
)

func encodeMemoryCursor(kind byte, key string) *string {
	s := kit.CursorPrefix + base64.RawURLEncoding.EncodeToString(append([]byte{kind, ':'}, key...))
	return &s
}

// memoryCursor reads the page parameter of a memory or version list; ok is
// false when none was sent.
func memoryCursor(q url.Values, kind byte) (key string, ok bool, err error) {
	raw, sent := kit.QueryValue(q, "page")
	if !sent {
		return "", false, nil
	}
	rest, found := strings.CutPrefix(raw, kit.CursorPrefix)
	if !found {
		return "", false, errMemoryCursor
	}
	b, derr := base64.RawURLEncoding.DecodeString(rest)
	if derr != nil || len(b) < 3 || b[0] != kind || b[1] != ':' {
		return "", false, errMemoryCursor
	}
	return string(b[2:]), true, nil
}

// memoryStoreArchived refuses a write to an archived store: archived stores
// are read-only.
func memoryStoreArchived(c *kit.Call, id string) error {
	return kit.StateConflict("memory_store_id: memory store `%s` is archived", id)
}

const (
	errMemoryPathConflict       = "memory_path_conflict_error"
	errMemoryPreconditionFailed = "memory_precondition_failed_error"
)

// preconditionFailed is the 409 for a write guarded by a content hash that
// no longer matches. It is a state conflict with a finer type of its own,
// one of the two memory refinements of conflict_error.
func preconditionFailed(format string, args ...any) error {
	e := kit.StateConflict(format, args...)
	e.Type = errMemoryPreconditionFailed
	return e
}

// memoryPathConflictBody is the one error body with extra keys inside
// "error" (docs/managed-agents-wire.md 10.4), so it is written here rather than by writeError,
// whose body has exactly type and message.
type memoryPathConflictBody struct {
	Type  string `json:"type"`
	Error struct {
		Type                string `json:"type"`
		Message             string `json:"message"`
		ConflictingMemoryID string `json:"conflicting_memory_id"`
		ConflictingPath     string `json:"conflicting_path"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

// writeMemoryPathConflict answers 409 memory_path_conflict_error naming the
// memory in the way. The handler returns its nil result: the response is
// complete.
func writeMemoryPathConflict(c *kit.Call, in *memory) error {
	var b memoryPathConflictBody
	b.Type = "error"
	b.Error.Type = errMemoryPathConflict
	b.Error.Message = "path: occupied by memory `" + in.id + "` at `" + in.path + "`"
	b.Error.ConflictingMemoryID = in.id
	b.Error.ConflictingPath = in.path
	b.RequestID = c.Ex.RequestID
	c.W.Header().Set("x-should-retry", "false")
	kit.WriteJSON(c.W, http.StatusConflict, b)
	return nil
}
