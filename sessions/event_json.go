package sessions

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Events are decoded by hand, with this small pull reader, straight into
// their final types. Reading a stream is dominated by JSON decoding, and
// encoding/json costs a reflection walk per value, a second pass for every
// union (first the discriminator, then the variant) and one allocation per
// string. The reader walks the document once, and it works on a string that
// holds the whole event: every string value without escapes is a substring
// of it, so an event costs one copy of its data however many strings it
// carries. The price is that any string kept from an event keeps the
// event's text alive, which is at most the size of the event.

// jsonReader reads one JSON document. After the first error every method
// returns a zero value and reports nothing more: callers read on without
// checking and look at err once at the end.
type jsonReader struct {
	s     string
	i     int
	depth int
	err   error
}

// maxDepth bounds nesting, as encoding/json does, so that a hostile document
// cannot exhaust the stack.
const maxDepth = 10000

// errSyntax is wrapped by the errors of a document that is not JSON;
// errShape by those of valid JSON whose value has the wrong type for its
// field (an event of a newer shape, or a broken server).
var (
	errSyntax = errors.New("invalid JSON")
	errShape  = errors.New("unexpected JSON value")
)

func (r *jsonReader) fail(what string) { r.stop(errSyntax, what) }

// mismatch stops at a well-formed value of the wrong type or form.
func (r *jsonReader) mismatch(what string) { r.stop(errShape, what) }

// expected stops where a value of kind was needed: a shape error when
// another JSON value stands there, a syntax error when nothing valid does.
func (r *jsonReader) expected(kind string) {
	switch c := r.peek(); {
	case c == '{' || c == '[' || c == '"' || c == 't' || c == 'f' || c == 'n' || c == '-' || (c >= '0' && c <= '9'):
		r.mismatch("expected " + kind)
	default:
		r.fail("expected " + kind)
	}
}

func (r *jsonReader) stop(kind error, what string) {
	if r.err == nil {
		r.err = &jsonError{kind: kind, what: what, offset: r.i}
	}
	r.i = len(r.s)
}

type jsonError struct {
	kind   error // errSyntax or errShape
	what   string
	offset int
}

func (e *jsonError) Error() string {
	return e.kind.Error() + ": " + e.what + " at offset " + strconv.Itoa(e.offset)
}

func (e *jsonError) Unwrap() error { return e.kind }

// peek skips white space and returns the next byte, or 0 at the end.
func (r *jsonReader) peek() byte {
	for r.i < len(r.s) {
		switch c := r.s[r.i]; c {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return c
		}
	}
	return 0
}

// object calls field for each member of an object, with the reader on the
// member's value; field must consume the value. A null reads as no members.
func (r *jsonReader) object(field func(key string)) {
	switch r.peek() {
	case 'n':
		r.null()
		return
	case '{':
	default:
		r.expected("an object")
		return
	}
	r.i++
	if r.depth++; r.depth > maxDepth {
		r.fail("nesting too deep")
		return
	}
	if r.peek() == '}' {
		r.i++
		r.depth--
		return
	}
	for r.err == nil {
		key := r.str()
		if r.peek() != ':' {
			r.fail("expected ':'")
			return
		}
		r.i++
		field(key)
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			r.depth--
			return
		default:
			r.fail("expected ',' or '}'")
		}
	}
}

// array calls elem for each element of an array; elem must consume it. It
// reports whether the value was an array (false for null).
func (r *jsonReader) array(elem func()) bool {
	switch r.peek() {
	case 'n':
		r.null()
		return false
	case '[':
	default:
		r.expected("an array")
		return false
	}
	r.i++
	if r.depth++; r.depth > maxDepth {
		r.fail("nesting too deep")
		return false
	}
	if r.peek() == ']' {
		r.i++
		r.depth--
		return true
	}
	for r.err == nil {
		elem()
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			r.depth--
			return true
		default:
			r.fail("expected ',' or ']'")
		}
	}
	return false
}

// str reads a string. A string without escapes is a substring of the
// document; null reads as "".
func (r *jsonReader) str() string {
	switch r.peek() {
	case '"':
	case 'n':
		r.null()
		return ""
	default:
		r.expected("a string")
		return ""
	}
	start := r.i + 1
	for i := start; i < len(r.s); i++ {
		switch c := r.s[i]; {
		case c == '"':
			r.i = i + 1
			return r.s[start:i]
		case c == '\\':
			return r.unescape(start)
		case c < 0x20:
			r.i = i
			r.fail("control character in string")
			return ""
		}
	}
	r.i = len(r.s)
	r.fail("unterminated string")
	return ""
}

// unescape reads the rest of a string with escapes, from start (just after
// the opening quote), as encoding/json does: a bad surrogate becomes U+FFFD.
func (r *jsonReader) unescape(start int) string {
	s := r.s
	buf := make([]byte, 0, len(s)-start)
	i := start
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			r.i = i + 1
			return unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is never written again
		case c < 0x20:
			r.i = i
			r.fail("control character in string")
			return ""
		case c != '\\':
			j := i + 1
			for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 {
				j++
			}
			if j < len(s) && s[j] < 0x20 {
				r.i = j
				r.fail("control character in string")
				return ""
			}
			buf = append(buf, s[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(s) {
			break
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r1, ok := hex4(s, i+2)
			if !ok {
				r.i = i
				r.fail("bad \\u escape")
				return ""
			}
			i += 6
			if utf16.IsSurrogate(r1) {
				if r2, ok := hex4(s, i+2); ok && i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
						i += 6
						buf = utf8.AppendRune(buf, dec)
						continue
					}
				}
				r1 = utf8.RuneError
			}
			buf = utf8.AppendRune(buf, r1)
			continue
		default:
			r.i = i
			r.fail("bad escape")
			return ""
		}
		i += 2
	}
	r.i = len(s)
	r.fail("unterminated string")
	return ""
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// null consumes a null and reports whether there was one.
func (r *jsonReader) null() bool {
	if r.peek() != 'n' {
		return false
	}
	if !strings.HasPrefix(r.s[r.i:], "null") {
		r.fail("bad literal")
		return false
	}
	r.i += 4
	return true
}

// boolean reads true or false; null reads as false.
func (r *jsonReader) boolean() bool {
	switch r.peek() {
	case 't':
		if strings.HasPrefix(r.s[r.i:], "true") {
			r.i += 4
			return true
		}
	case 'f':
		if strings.HasPrefix(r.s[r.i:], "false") {
			r.i += 5
			return false
		}
	case 'n':
		r.null()
		return false
	}
	r.expected("a boolean")
	return false
}

// number returns the text of a number, checked against JSON's grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *jsonReader) number() string {
	r.peek()
	s, start := r.s, r.i
	i := start
	digits := func() bool {
		j := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits() && i > start: // a lone minus
		r.i = i
		r.fail("bad number")
		return ""
	case i == start:
		r.expected("a number")
		return ""
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			r.i = i
			r.fail("bad number")
			return ""
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			r.i = i
			r.fail("bad number")
			return ""
		}
	}
	r.i = i
	return s[start:i]
}

// int reads an integer; null reads as 0.
func (r *jsonReader) int() int64 {
	if r.null() {
		return 0
	}
	lit := r.number()
	if r.err != nil {
		return 0
	}
	n, err := strconv.ParseInt(lit, 10, 64)
	if err != nil {
		r.expected("an integer")
	}
	return n
}

// float reads a number; null reads as 0.
func (r *jsonReader) float() float64 {
	if r.null() {
		return 0
	}
	lit := r.number()
	if r.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		r.expected("a number")
	}
	return f
}

// timestamp reads an RFC 3339 timestamp; null reads as the zero time. The
// reference server's form (UTC, Z) is parsed without time.Parse.
func (r *jsonReader) timestamp() time.Time {
	if r.null() {
		return time.Time{}
	}
	s := r.str()
	if r.err != nil {
		return time.Time{}
	}
	if t, ok := parseUTC(s); ok {
		return t
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		r.mismatch("expected an RFC 3339 timestamp")
	}
	return t
}

// parseUTC parses YYYY-MM-DDTHH:MM:SS[.fraction]Z, reporting false for
// anything else (which time.Parse then judges).
func parseUTC(s string) (time.Time, bool) {
	if len(s) < 20 || s[len(s)-1] != 'Z' || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	year, month, day := num(0, 4), num(5, 2), num(8, 2)
	hour, minute, sec := num(11, 2), num(14, 2), num(17, 2)
	if year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(time.Month(month), year) ||
		hour < 0 || hour > 23 || minute < 0 || minute > 59 || sec < 0 || sec > 59 {
		return time.Time{}, false
	}
	nsec := 0
	if frac := s[19 : len(s)-1]; frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, false
		}
		digits := frac[1:]
		if nsec = num(20, len(digits)); nsec < 0 {
			return time.Time{}, false
		}
		for range 9 - len(digits) {
			nsec *= 10
		}
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC), true
}

func daysIn(m time.Month, year int) int {
	switch m {
	case time.February:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// raw returns the text of the next value, whatever it is.
func (r *jsonReader) raw() string {
	r.peek()
	start := r.i
	r.skip()
	if r.err != nil {
		return ""
	}
	return r.s[start:r.i]
}

// skip consumes the next value.
func (r *jsonReader) skip() {
	switch r.peek() {
	case '{':
		r.object(func(string) { r.skip() })
	case '[':
		r.array(r.skip)
	case '"':
		r.skipString()
	case 't', 'f':
		r.boolean()
	case 'n':
		r.null()
	default:
		r.number()
	}
}

// skipString consumes a string without building it, checking it as
// strictly as str does: raw values such as UnknownEvent.JSON must stay
// valid JSON.
func (r *jsonReader) skipString() {
	s := r.s
	for i := r.i + 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			r.i = i + 1
			return
		case c < 0x20:
			r.i = i
			r.fail("control character in string")
			return
		case c != '\\':
		case i+1 < len(s) && strings.IndexByte(`"\\/bfnrt`, s[i+1]) >= 0:
			i++
		case i+1 < len(s) && s[i+1] == 'u':
			if _, ok := hex4(s, i+2); !ok {
				r.i = i
				r.fail("bad \\u escape")
				return
			}
			i += 5
		default:
			r.i = i
			r.fail("bad escape")
			return
		}
	}
	r.i = len(s)
	r.fail("unterminated string")
}

// typeOf returns the "type" member of the object the reader is on, without
// consuming anything: unions read their discriminator first, then decode
// the variant in one pass. The discriminator is usually the first key. A
// malformed object gives "", and the decoding that follows reports it.
func (r *jsonReader) typeOf() string {
	sub := jsonReader{s: r.s, i: r.i, depth: r.depth}
	if sub.peek() != '{' {
		return ""
	}
	sub.i++
	if sub.peek() == '}' {
		return ""
	}
	for sub.err == nil {
		key := sub.str()
		if sub.peek() != ':' {
			return ""
		}
		sub.i++
		if key == "type" {
			return sub.str()
		}
		sub.skip()
		if sub.peek() != ',' {
			return ""
		}
		sub.i++
	}
	return ""
}

// end checks that nothing but white space follows the document.
func (r *jsonReader) end() error {
	if r.peek(); r.err == nil && r.i < len(r.s) {
		r.fail("data after the value")
	}
	return r.err
}
