package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The Messages endpoints (docs/messages-wire.md) read bodies through jnode,
// a parsed JSON value that keeps object members in body order and numbers
// as written. Order matters twice: validation reports the first broken rule
// in body order (section 1.5), and tool inputs keep the key order the
// prompt or the schema gave them (sections 10.5, 10.8). The messages of this
// file are the pydantic-like texts of section 1.5.

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

type jnode struct {
	kind jkind
	b    bool
	num  json.Number
	str  string
	arr  []*jnode
	obj  []jmember
}

type jmember struct {
	key string
	val *jnode
}

// parseBody parses a request body. An empty body reads as {} so that
// required fields are reported by name; invalid JSON gets the real text
// "The request body is not valid JSON: <decoder detail>".
func parseBody(body []byte) (*jnode, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	if !json.Valid(body) { // also bounds the nesting depth for parseNode
		var probe any
		detail := "invalid JSON"
		if err := json.Unmarshal(body, &probe); err != nil {
			detail = err.Error()
		}
		return nil, kit.InvalidRequest("The request body is not valid JSON: %s", detail)
	}
	return parseJSON(body)
}

// parseJSON parses one valid JSON value.
func parseJSON(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseNode(dec)
	if err != nil {
		return nil, kit.InvalidRequest("The request body is not valid JSON: %s", err.Error())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, kit.InvalidRequest("The request body is not valid JSON: %s", kit.ErrTrailingData.Error())
	}
	return n, nil
}

func parseNode(dec *json.Decoder) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			n := &jnode{kind: jObject}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				val, err := parseNode(dec)
				if err != nil {
					return nil, err
				}
				n.obj = append(n.obj, jmember{key: kt.(string), val: val})
			}
			_, err := dec.Token()
			return n, err
		}
		n := &jnode{kind: jArray}
		for dec.More() {
			val, err := parseNode(dec)
			if err != nil {
				return nil, err
			}
			n.arr = append(n.arr, val)
		}
		_, err := dec.Token()
		return n, err
	case string:
		return &jnode{kind: jString, str: v}, nil
	case json.Number:
		return &jnode{kind: jNumber, num: v}, nil
	case bool:
		return &jnode{kind: jBool, b: v}, nil
	}
	return &jnode{kind: jNull}, nil
}

// get returns the value of key (the last one when a key repeats, as a JSON
// object decoder would keep), or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != jObject {
		return nil
	}
	for i := len(n.obj) - 1; i >= 0; i-- {
		if n.obj[i].key == key {
			return n.obj[i].val
		}
	}
	return nil
}

func (n *jnode) isNull() bool { return n == nil || n.kind == jNull }

// jstrOf is a string node's value, "" for anything else.
func jstrOf(n *jnode) string {
	if n == nil || n.kind != jString {
		return ""
	}
	return n.str
}

// without returns a shallow copy of an object without the given keys.
func (n *jnode) without(keys ...string) *jnode {
	out := &jnode{kind: jObject}
	for _, m := range n.obj {
		drop := false
		for _, k := range keys {
			drop = drop || m.key == k
		}
		if !drop {
			out.obj = append(out.obj, m)
		}
	}
	return out
}

// toAny converts to encoding/json's generic form, numbers as json.Number.
func (n *jnode) toAny() any {
	switch n.kind {
	case jBool:
		return n.b
	case jNumber:
		return n.num
	case jString:
		return n.str
	case jArray:
		out := make([]any, len(n.arr))
		for i, v := range n.arr {
			out[i] = v.toAny()
		}
		return out
	case jObject:
		out := make(map[string]any, len(n.obj))
		for _, m := range n.obj {
			out[m.key] = m.val.toAny()
		}
		return out
	}
	return nil
}

// canon is the canon(v) of docs/messages-wire.md 10.1: compact JSON with object keys sorted,
// exactly as encoding/json writes a map[string]any.
func (n *jnode) canon() string {
	b, _ := json.Marshal(n.toAny())
	return string(b)
}

// compact is the compact JSON of n with members in their order.
func (n *jnode) compact() []byte {
	return n.appendCompact(nil)
}

// MarshalJSON keeps member order, so a jnode can sit in a response.
func (n *jnode) MarshalJSON() ([]byte, error) { return n.compact(), nil }

func (n *jnode) appendCompact(b []byte) []byte {
	switch n.kind {
	case jBool:
		return strconv.AppendBool(b, n.b)
	case jNumber:
		return append(b, n.num...)
	case jString:
		s, _ := json.Marshal(n.str)
		return append(b, s...)
	case jArray:
		b = append(b, '[')
		for i, v := range n.arr {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.appendCompact(b)
		}
		return append(b, ']')
	case jObject:
		b = append(b, '{')
		for i, m := range n.obj {
			if i > 0 {
				b = append(b, ',')
			}
			k, _ := json.Marshal(m.key)
			b = append(b, k...)
			b = append(b, ':')
			b = m.val.appendCompact(b)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// Builders for translated requests (chat completions) and synthesized
// values.
func jstr(s string) *jnode { return &jnode{kind: jString, str: s} }
func jint(i int) *jnode    { return &jnode{kind: jNumber, num: json.Number(strconv.Itoa(i))} }
func jbool(b bool) *jnode  { return &jnode{kind: jBool, b: b} }
func jobj() *jnode         { return &jnode{kind: jObject} }
func jarr() *jnode         { return &jnode{kind: jArray} }
func jnull() *jnode        { return &jnode{kind: jNull} }

func (n *jnode) set(key string, v *jnode) *jnode {
	n.obj = append(n.obj, jmember{key: key, val: v})
	return n
}

func (n *jnode) push(v *jnode) *jnode {
	n.arr = append(n.arr, v)
	return n
}

// tok is the token estimate of docs/messages-wire.md 10.1: ⌈runes / 4⌉.
func tok(s string) int {
	return (utf8.RuneCountInString(s) + 3) / 4
}

// --- validation messages (docs/messages-wire.md 1.5) ---

// joinPath appends a path element ("messages" + "3" = "messages.3").
func joinPath(p string, elems ...any) string {
	for _, e := range elems {
		s := fmt.Sprint(e)
		if p == "" {
			p = s
		} else {
			p += "." + s
		}
	}
	return p
}

// pyErr is a 400 in the `<path>: <text>` form; an empty path gives the text
// alone.
func pyErr(path, format string, args ...any) *kit.APIError {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	return &kit.APIError{Status: http.StatusBadRequest, Type: kit.ErrInvalidRequest, Message: msg}
}

func errRequired(path string) *kit.APIError { return pyErr(path, "Field required") }
func errExtra(path string) *kit.APIError    { return pyErr(path, "Extra inputs are not permitted") }

var typeNames = map[jkind]string{jString: "string", jBool: "boolean", jArray: "list", jObject: "dictionary"}

func errType(path string, want jkind) *kit.APIError {
	return pyErr(path, "Input should be a valid %s", typeNames[want])
}

// quoteAlternatives renders 'a', 'b' or 'c'.
func quoteAlternatives(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = "'" + v + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func errEnum(path string, values ...string) *kit.APIError {
	return pyErr(path, "Input should be %s", quoteAlternatives(values))
}

func errTag(path, tag string, tags []string) *kit.APIError {
	q := make([]string, len(tags))
	for i, t := range tags {
		q[i] = "'" + t + "'"
	}
	return pyErr(path, "Input tag '%s' found using 'type' does not match any of the expected tags: %s", tag, strings.Join(q, ", "))
}

func errMinItems(path string, n int) *kit.APIError {
	return pyErr(path, "List should have at least 1 item after validation, not %d", n)
}

func errMaxItems(path string, maxN, n int) *kit.APIError {
	return pyErr(path, "List should have at most %d items after validation, not %d", maxN, n)
}

func errMinLen(path string, minLen int) *kit.APIError {
	if minLen == 1 {
		return pyErr(path, "String should have at least 1 character")
	}
	return pyErr(path, "String should have at least %d characters", minLen)
}

func errMaxLen(path string, maxLen int) *kit.APIError {
	return pyErr(path, "String should have at most %d characters", maxLen)
}

// --- typed readers: each checks one JSON type and names the path ---

func readString(path string, v *jnode) (string, error) {
	if v.kind != jString {
		return "", errType(path, jString)
	}
	return v.str, nil
}

// readStrLen reads a string of minLen–maxLen characters (maxLen 0: no limit).
func readStrLen(path string, v *jnode, minLen, maxLen int) (string, error) {
	s, err := readString(path, v)
	if err != nil {
		return "", err
	}
	n := utf8.RuneCountInString(s)
	if n < minLen {
		return "", errMinLen(path, minLen)
	}
	if maxLen > 0 && n > maxLen {
		return "", errMaxLen(path, maxLen)
	}
	return s, nil
}

func readBool(path string, v *jnode) (bool, error) {
	if v.kind != jBool {
		return false, errType(path, jBool)
	}
	return v.b, nil
}

func readNumber(path string, v *jnode) (float64, error) {
	if v.kind != jNumber {
		return 0, pyErr(path, "Input should be a valid number")
	}
	f, err := v.num.Float64()
	if err != nil {
		return 0, pyErr(path, "Input should be a valid number")
	}
	return f, nil
}

// readInt reads an integer; integral numbers written with an exponent or a
// zero fraction are accepted, huge ones saturate (range checks follow).
func readInt(path string, v *jnode) (int, error) {
	if v.kind != jNumber {
		return 0, pyErr(path, "Input should be a valid integer")
	}
	if i, err := strconv.ParseInt(string(v.num), 10, 64); err == nil {
		return int(i), nil
	}
	f, err := v.num.Float64()
	if err != nil && !math.IsInf(f, 0) {
		return 0, pyErr(path, "Input should be a valid integer")
	}
	if f != math.Trunc(f) {
		return 0, pyErr(path, "Input should be a valid integer, got a number with a fractional part")
	}
	switch {
	case f >= math.MaxInt64:
		return math.MaxInt64, nil
	case f <= math.MinInt64:
		return math.MinInt64, nil
	}
	return int(f), nil
}

func readList(path string, v *jnode) ([]*jnode, error) {
	if v.kind != jArray {
		return nil, errType(path, jList)
	}
	return v.arr, nil
}

const jList = jArray

func readObject(path string, v *jnode) error {
	if v.kind != jObject {
		return errType(path, jObject)
	}
	return nil
}

func readEnum(path string, v *jnode, values ...string) (string, error) {
	s, err := readString(path, v)
	if err != nil {
		return "", err
	}
	for _, x := range values {
		if s == x {
			return s, nil
		}
	}
	return "", errEnum(path, values...)
}

// fieldFunc validates one member's value at its path.
type fieldFunc func(path string, v *jnode) error

// walkObject validates an object's members in body order with the given
// field functions; an unknown key is "Extra inputs are not permitted".
// Missing required keys are reported after the members, in the order
// given.
func walkObject(path string, n *jnode, fields map[string]fieldFunc, required ...string) error {
	if err := readObject(path, n); err != nil {
		return err
	}
	for _, m := range n.obj {
		fn, ok := fields[m.key]
		if !ok {
			return errExtra(joinPath(path, m.key))
		}
		if fn == nil {
			continue
		}
		if err := fn(joinPath(path, m.key), m.val); err != nil {
			return err
		}
	}
	for _, k := range required {
		if n.get(k) == nil {
			return errRequired(joinPath(path, k))
		}
	}
	return nil
}

// anyValue accepts any value (fields kept but not checked).
var anyValue fieldFunc = func(string, *jnode) error { return nil }

// nullable wraps fn so that null is accepted.
func nullable(fn fieldFunc) fieldFunc {
	return func(p string, v *jnode) error {
		if v.kind == jNull {
			return nil
		}
		return fn(p, v)
	}
}

var (
	isString fieldFunc = func(p string, v *jnode) error { _, err := readString(p, v); return err }
	isBool   fieldFunc = func(p string, v *jnode) error { _, err := readBool(p, v); return err }
	isObject fieldFunc = readObject
)

func isListOf(item fieldFunc) fieldFunc {
	return func(p string, v *jnode) error {
		items, err := readList(p, v)
		if err != nil {
			return err
		}
		for i, it := range items {
			if err := item(joinPath(p, i), it); err != nil {
				return err
			}
		}
		return nil
	}
}
