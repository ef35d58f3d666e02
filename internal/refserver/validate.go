package refserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeStrict decodes a JSON object body into dst the way the platform
// reads bodies: unknown fields, wrong types, invalid JSON and trailing data
// are all 400 invalid_request_error naming the field. An empty body reads as
// {} so that required fields are reported by name.
func decodeStrict(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	if err := checkDuplicateNames(body); err != nil {
		return err
	}
	if err := unmarshalStrict(body, dst); err != nil {
		return describeDecodeError(err)
	}
	return nil
}

// unmarshalStrict is json.Unmarshal with unknown fields rejected and
// nothing allowed after the value. Custom UnmarshalJSON methods (optional,
// unions) use it too, so nested objects are as strict as the top level.
func unmarshalStrict(data []byte, dst any) error {
	if err := checkExactNames(data, reflect.TypeOf(dst)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			// encoding/json reports an unknown field by name only. As a
			// type error it gains its path: every decoder it passes
			// through on the way out (optional nests them) prefixes its
			// own field names.
			if unquoted, uerr := strconv.Unquote(name); uerr == nil {
				name = unquoted
			}
			return &json.UnmarshalTypeError{Field: name, Type: unknownFieldType}
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errTrailingData
	}
	return nil
}

var errTrailingData = errors.New("data after the JSON value")

// checkDuplicateNames refuses an object that names a member twice, which
// encoding/json would read as its last value: the platform's documented
// choice is to refuse, as Messages does. Anything else wrong with the
// body is left to the decoder's own messages.
func checkDuplicateNames(body []byte) *apiError {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	for {
		_, err := dec.ReadToken()
		if err == nil {
			continue
		}
		var serr *jsontext.SyntacticError
		if errors.As(err, &serr) && errors.Is(serr.Err, jsontext.ErrDuplicateName) {
			return invalidField(dottedPath(serr.JSONPointer), "duplicate field")
		}
		return nil
	}
}

// dottedPath spells a JSON pointer as this server names fields in
// errors: "resources[0].mount_path".
func dottedPath(p jsontext.Pointer) string {
	var b strings.Builder
	for token := range p.Tokens() {
		if _, err := strconv.Atoi(token); err == nil {
			b.WriteString("[" + token + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(token)
	}
	if b.Len() == 0 {
		return "request body"
	}
	return b.String()
}

// describeDecodeError turns decoding errors into field-first messages.
// Type errors carry the full dotted path of the field (Go 1.20+), and so do
// unknown fields once unmarshalStrict has turned them into type errors.
func describeDecodeError(err error) *apiError {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Type == unknownFieldType {
			return invalidField(typeErr.Field, "unknown field")
		}
		if typeErr.Field == "" {
			return invalidField("request body", "must be a JSON object")
		}
		return invalidField(typeErr.Field, "must be %s", describeType(typeErr.Type))
	case errors.As(err, &syntaxErr):
		return invalidField("request body", "invalid JSON at offset %d", syntaxErr.Offset)
	case errors.Is(err, errTrailingData):
		return invalidField("request body", "unexpected data after the JSON value")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return invalidField("request body", "invalid JSON: unexpected end of input")
	}
	return invalidField("request body", "invalid JSON")
}

// unknownField marks the type errors that stand for unknown fields.
type unknownField struct{}

var unknownFieldType = reflect.TypeFor[unknownField]()

// jsonDescriber lets a union type say what it accepts in type errors.
type jsonDescriber interface {
	jsonDescription() string
}

func describeType(t reflect.Type) string {
	if t == nil {
		return "a valid value"
	}
	if d, ok := reflect.New(t).Interface().(jsonDescriber); ok {
		return d.jsonDescription()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return describeType(t.Elem())
	}
	return "a valid value"
}

// optional is a body field that distinguishes omitted, null and a value,
// which updates need ("omitted keeps, null clears").
type optional[T any] struct {
	Set   bool // the key was present
	Null  bool // its value was null
	Value T
}

func (o *optional[T]) UnmarshalJSON(data []byte) error {
	o.Set = true
	if string(data) == "null" {
		o.Null = true
		return nil
	}
	return unmarshalStrict(data, &o.Value)
}

// Present reports whether the field carries a non-null value.
func (o optional[T]) Present() bool { return o.Set && !o.Null }

// checkLength enforces a length in characters (not bytes).
func checkLength(field, s string, minLen, maxLen int) error {
	n := utf8.RuneCountInString(s)
	if n < minLen || n > maxLen {
		if minLen == 0 {
			return invalidField(field, "must be at most %d characters", maxLen)
		}
		return invalidField(field, "must be between %d and %d characters", minLen, maxLen)
	}
	return nil
}

// queryInt reads an integer query parameter within [minV, maxV], or def when
// absent.
func queryInt(q url.Values, name string, def, minV, maxV int) (int, error) {
	raw, ok := queryValue(q, name)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, invalidField(name, "must be an integer")
	}
	if n < minV || n > maxV {
		return 0, invalidField(name, "must be between %d and %d", minV, maxV)
	}
	return n, nil
}

// queryBool reads a boolean query parameter (false when absent).
func queryBool(q url.Values, name string) (bool, error) {
	raw, ok := queryValue(q, name)
	if !ok {
		return false, nil
	}
	switch raw {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, invalidField(name, "must be true or false")
}

// queryValue returns a single-valued query parameter: the first value when
// repeated (as url.Values.Get), and absent when empty.
func queryValue(q url.Values, name string) (string, bool) {
	v := q.Get(name)
	return v, v != ""
}

// quoteList renders values as `a`, `b` for messages.
func quoteList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = fmt.Sprintf("`%s`", v)
	}
	return strings.Join(quoted, ", ")
}
