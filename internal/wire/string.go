package wire

import (
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Streams decode a few fixed shapes the API writes very often (a text
// delta, a plain text block) without the general decoder; String is what
// they share. A caller's fixed-shape path must fall back to the general
// decoder whenever String says no, and a fuzz test keeps both in
// agreement.

// String returns the value of str when it is one JSON string and
// nothing else; str is valid JSON text, or it is checked here (UTF-8, no
// control characters, valid escapes).
func String(str []byte) (string, bool) {
	if len(str) < 2 || str[0] != '"' || str[len(str)-1] != '"' {
		return "", false
	}
	inner := str[1 : len(str)-1]
	escaped, ascii := false, true
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		if plainByte[c] {
			continue
		}
		switch {
		case c == '\\':
			escaped = true
			i++
		case c >= utf8.RuneSelf:
			ascii = false
		default:
			return "", false // a quote or a control character: not one string
		}
	}
	if !ascii && !utf8.Valid(inner) {
		return "", false
	}
	if !escaped {
		return string(inner), true
	}
	// Unquoting never lengthens the text: one buffer of the quoted size
	// saves the reallocations of growing from nothing.
	text, err := jsontext.AppendUnquote(make([]byte, 0, len(str)), str)
	if err != nil {
		return "", false
	}
	return string(text), true
}

// plainByte marks the bytes a JSON string holds as they are: printable
// ASCII but the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
