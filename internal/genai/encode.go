package genai

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"sync"
	"unicode/utf8"
)

// DefaultLimit is the largest content attribute Encode writes, in bytes,
// unless the OpenTelemetry attribute length limit of the environment is
// lower.
const DefaultLimit = 64 << 10

const (
	// minCut is the length up to which strings are never cut: ids,
	// names, roles and part types stay whole.
	minCut = 64
	// minLimit keeps a silly limit from the environment usable.
	minLimit = 1024
	ellipsis = "…"
)

// Limit is DefaultLimit, or the OpenTelemetry SDK's attribute value
// length limit from the environment when that is lower
// (OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT, else
// OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT), so that the SDK never has to cut an
// attribute, which would break its JSON. Those limits count characters,
// which are never more than bytes. It is read once.
func Limit() int { return envLimit() }

var envLimit = sync.OnceValue(func() int {
	return limitFrom(os.Getenv("OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT"), os.Getenv("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT"))
})

func limitFrom(span, global string) int {
	v := span
	if v == "" {
		v = global
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < DefaultLimit {
		return max(n, minLimit)
	}
	return DefaultLimit
}

// shape says how a tree is written: strings longer than cut bytes are cut
// (cut < 0: none), and arrays below the top level keep their first keep
// elements (keep < 0: all).
type shape struct{ cut, keep int }

var whole = shape{cut: -1, keep: -1}

// Encode returns v, a tree, as JSON of at most limit bytes (Limit() when
// limit is 0 or less), shortened inside the structure as the package
// documentation says, and whether anything was shortened. v is not
// modified.
func Encode(v any, limit int) (string, bool) {
	if limit <= 0 {
		limit = Limit()
	}
	if size(v, whole, 0) <= limit {
		return string(appendValue(nil, v, whole, 0)), false
	}
	sh := shape{cut: minCut, keep: -1}
	if size(v, sh, 0) > limit {
		v = dropOldest(v, sh, limit)
		if size(v, sh, 0) > limit {
			keep, ok := search(0, longestArray(v, 0), func(n int) bool { return size(v, shape{cut: minCut, keep: n}, 0) <= limit })
			if !ok {
				if _, obj := v.(Object); obj {
					return "{}", true
				}
				return "[]", true
			}
			sh.keep = keep
		}
	}
	sh.cut, _ = search(minCut, longestString(v), func(n int) bool { return size(v, shape{cut: n, keep: sh.keep}, 0) <= limit })
	return string(appendValue(make([]byte, 0, limit), v, sh, 0)), true
}

// search returns the largest n in [lo, hi] for which fits holds, fits
// being monotone (true up to some n, then false), and whether there is one.
func search(lo, hi int, fits func(int) bool) (int, bool) {
	if hi < lo {
		hi = lo
	}
	if !fits(lo) {
		return 0, false
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}

// dropOldest drops the first elements of a top-level array until it fits
// under sh, keeping at least one.
func dropOldest(v any, sh shape, limit int) any {
	a, ok := v.([]any)
	if !ok || len(a) < 2 {
		return v
	}
	total := size(a, sh, 0)
	i := 0
	for ; total > limit && i < len(a)-1; i++ {
		total -= size(a[i], sh, 1) + 1 // the element and its comma
	}
	return a[i:]
}

func longestString(v any) int {
	switch v := v.(type) {
	case string:
		return len(v)
	case Object:
		n := 0
		for _, m := range v {
			n = max(n, longestString(m.Value))
		}
		return n
	case []any:
		n := 0
		for _, e := range v {
			n = max(n, longestString(e))
		}
		return n
	}
	return 0
}

func longestArray(v any, depth int) int {
	n := 0
	switch v := v.(type) {
	case Object:
		for _, m := range v {
			n = max(n, longestArray(m.Value, depth+1))
		}
	case []any:
		if depth > 0 {
			n = len(v)
		}
		for _, e := range v {
			n = max(n, longestArray(e, depth+1))
		}
	}
	return n
}

// kept is how many elements of an array at depth are written.
func (sh shape) kept(n, depth int) int {
	if depth > 0 && sh.keep >= 0 && n > sh.keep {
		return sh.keep
	}
	return n
}

// size is the length of appendValue's output, computed without writing it.
func size(v any, sh shape, depth int) int {
	switch v := v.(type) {
	case nil:
		return len("null")
	case bool:
		if v {
			return len("true")
		}
		return len("false")
	case json.Number:
		return len(v)
	case string:
		if k, cut := cutAt(v, sh.cut); cut {
			return 2 + escapedLen(v[:k]) + len(ellipsis)
		}
		return 2 + escapedLen(v)
	case Object:
		n := 2 + max(len(v)-1, 0)
		for _, m := range v {
			n += 2 + escapedLen(m.Key) + 1 + size(m.Value, sh, depth+1)
		}
		return n
	case []any:
		k := sh.kept(len(v), depth)
		n := 2 + max(k-1, 0)
		for _, e := range v[:k] {
			n += size(e, sh, depth+1)
		}
		return n
	}
	return len(appendValue(nil, v, sh, depth))
}

// appendValue writes v as JSON, shaped by sh.
func appendValue(b []byte, v any, sh shape, depth int) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case json.Number:
		return append(b, v...)
	case string:
		if k, cut := cutAt(v, sh.cut); cut {
			b = appendEscaped(append(b, '"'), v[:k])
			return append(append(b, ellipsis...), '"')
		}
		return append(appendEscaped(append(b, '"'), v), '"')
	case Object:
		b = append(b, '{')
		for i, m := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendEscaped(append(b, '"'), m.Key), '"', ':')
			b = appendValue(b, m.Value, sh, depth+1)
		}
		return append(b, '}')
	case []any:
		b = append(b, '[')
		for i, e := range v[:sh.kept(len(v), depth)] {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e, sh, depth+1)
		}
		return append(b, ']')
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return append(b, "null"...)
		}
		return strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	// Not a tree value: encode it as encoding/json does, whole.
	raw, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// cutAt returns where s is cut for a limit of cut bytes (the ellipsis
// included), at a UTF-8 boundary, and whether it is cut at all.
func cutAt(s string, cut int) (int, bool) {
	if cut < 0 || len(s) <= cut {
		return len(s), false
	}
	k := max(cut-len(ellipsis), 0)
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return k, true
}

// escapedLen is the length of s escaped as appendEscaped writes it.
func escapedLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20:
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			n += 6 // \ufffd
		} else {
			n += w
		}
		i += w
	}
	return n
}

const hex = "0123456789abcdef"

// appendEscaped writes s as the inside of a JSON string: quotes,
// backslashes and control characters escaped, invalid UTF-8 replaced by
// U+FFFD.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+w]...)
		}
		i += w
	}
	return b
}
