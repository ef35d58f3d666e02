package messages

import (
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The fast path of content_block_delta, nearly every event of a stream.
// encoding/json spends about ten allocations and most of a stream's CPU on
// each one (a validation pass, then a reflective walk; measured by
// BenchmarkStreamAccumulate). fastDelta reads the one shape
// docs/messages-wire.md 5.4 defines,
//
//	{"type":"content_block_delta","index":N,"delta":{"type":T,F:"…"}}
//
// with T one of text_delta, input_json_delta, thinking_delta or
// signature_delta and F its field, in any key order and spacing, straight
// into the event: one allocation for the string. Anything else (another
// key, citations, a number that is not a plain index, a string with control
// characters or invalid UTF-8, malformed JSON) returns false and goes to
// encoding/json, which also reports errors: the fast path never rejects
// anything, so the two always agree (FuzzFastDelta checks it).

// cursor reads JSON tokens from b.
type cursor struct {
	b []byte
	i int
}

func (c *cursor) ws() {
	for c.i < len(c.b) {
		switch c.b[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// next consumes ch after white space.
func (c *cursor) next(ch byte) bool {
	c.ws()
	if c.i < len(c.b) && c.b[c.i] == ch {
		c.i++
		return true
	}
	return false
}

// str reads a string and returns its raw bytes between the quotes and
// whether they hold an escape. ok is false for anything encoding/json
// would reject or rewrite.
func (c *cursor) str() (raw []byte, escaped, ok bool) {
	if !c.next('"') {
		return nil, false, false
	}
	start, high := c.i, false
	for c.i < len(c.b) {
		switch ch := c.b[c.i]; {
		case ch == '"':
			raw = c.b[start:c.i]
			c.i++
			if high && !utf8.Valid(raw) {
				return nil, false, false
			}
			return raw, escaped, true
		case ch == '\\':
			escaped = true
			c.i += 2
		case ch < 0x20:
			return nil, false, false
		default:
			high = high || ch >= utf8.RuneSelf
			c.i++
		}
	}
	return nil, false, false
}

// key reads a member's key (plain, as every key of this shape is) and the
// colon after it.
func (c *cursor) key() (string, bool) {
	raw, escaped, ok := c.str()
	if !ok || escaped || !c.next(':') {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(raw), len(raw)), true // compared, never kept
}

// index reads a small non-negative integer.
func (c *cursor) index() (int, bool) {
	c.ws()
	n, digits := 0, 0
	for c.i < len(c.b) && c.b[c.i] >= '0' && c.b[c.i] <= '9' {
		if digits > 0 && n == 0 || digits == 9 { // a leading zero, or too long for this path
			return 0, false
		}
		n = n*10 + int(c.b[c.i]-'0')
		c.i++
		digits++
	}
	if digits == 0 || c.i < len(c.b) && (c.b[c.i] == '.' || c.b[c.i] == 'e' || c.b[c.i] == 'E') {
		return 0, false
	}
	return n, true
}

// text reads a string value as a new Go string.
func (c *cursor) text() (string, bool) {
	raw, escaped, ok := c.str()
	if !ok {
		return "", false
	}
	if !escaped {
		return string(raw), true
	}
	return unescape(raw)
}

// unescape decodes a JSON string's escapes as encoding/json does (a lone
// surrogate becomes U+FFFD).
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		ch := raw[i]
		if ch != '\\' {
			out = append(out, ch)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return "", false
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			out = append(out, raw[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(raw[i+2:])
			if !ok {
				return "", false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if raw2 := raw[i:]; len(raw2) >= 6 && raw2[0] == '\\' && raw2[1] == 'u' {
					if r2, ok := hex4(raw2[2:]); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							out = utf8.AppendRune(out, d)
							i += 6
							continue
						}
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), true // out is never written again
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, ch := range b[:4] {
		switch {
		case ch >= '0' && ch <= '9':
			ch -= '0'
		case ch >= 'a' && ch <= 'f':
			ch -= 'a' - 10
		case ch >= 'A' && ch <= 'F':
			ch -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(ch)
	}
	return r, true
}

// deltaType returns the constant for a fast delta type and the one field
// it carries, or "" for any other type.
func deltaType(raw []byte) (typ, field string) {
	switch string(raw) { // compared without a copy
	case "text_delta":
		return "text_delta", "text"
	case "input_json_delta":
		return "input_json_delta", "partial_json"
	case "thinking_delta":
		return "thinking_delta", "thinking"
	case "signature_delta":
		return "signature_delta", "signature"
	}
	return "", ""
}

// fastDelta decodes data if it has the common shape; ok is false otherwise.
func fastDelta(data []byte) (ev ContentBlockDeltaEvent, ok bool) {
	c := cursor{b: data}
	if !c.next('{') {
		return ev, false
	}
	sawType, sawIndex, sawDelta := false, false, false
	for {
		k, ok := c.key()
		if !ok {
			return ev, false
		}
		switch k {
		case "type":
			raw, escaped, ok := c.str()
			if !ok || escaped || string(raw) != "content_block_delta" {
				return ev, false
			}
			sawType = true
		case "index":
			if ev.Index, ok = c.index(); !ok {
				return ev, false
			}
			sawIndex = true
		case "delta":
			if ev.Delta, ok = c.delta(); !ok {
				return ev, false
			}
			sawDelta = true
		default:
			return ev, false
		}
		if c.next('}') {
			break
		}
		if !c.next(',') {
			return ev, false
		}
	}
	c.ws()
	return ev, sawType && sawIndex && sawDelta && c.i == len(c.b)
}

// delta reads {"type":T,F:"…"} in either order.
func (c *cursor) delta() (Delta, bool) {
	if !c.next('{') {
		return nil, false
	}
	var typ, want, field, value string
	sawType := false
	for n := 0; ; n++ {
		k, ok := c.key()
		if !ok || n == 2 {
			return nil, false
		}
		if k == "type" {
			raw, escaped, ok := c.str()
			if !ok || escaped || sawType {
				return nil, false
			}
			typ, want = deltaType(raw)
			sawType = true
		} else {
			if field != "" {
				return nil, false
			}
			field = k
			if value, ok = c.text(); !ok {
				return nil, false
			}
		}
		if c.next('}') {
			break
		}
		if !c.next(',') {
			return nil, false
		}
	}
	if typ == "" || want != field {
		return nil, false
	}
	switch typ {
	case "text_delta":
		return TextDelta{Text: value}, true
	case "input_json_delta":
		return InputJSONDelta{PartialJSON: value}, true
	case "thinking_delta":
		return ThinkingDelta{Thinking: value}, true
	default:
		return SignatureDelta{Signature: value}, true
	}
}
