package kit

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

// DecodeStrict decodes a JSON object body into dst the way the platform
// reads bodies: unknown fields, wrong types, invalid JSON and trailing data
// are all 400 invalid_request_error naming the field. An empty body reads as
// {} so that required fields are reported by name.
func DecodeStrict(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	if err := checkDuplicateNames(body); err != nil {
		return err
	}
	if err := UnmarshalStrict(body, dst); err != nil {
		return DescribeDecodeError(err)
	}
	return nil
}

// UnmarshalStrict is json.Unmarshal with unknown fields rejected and
// nothing allowed after the value. Custom UnmarshalJSON methods (Optional,
// unions) use it too, so nested objects are as strict as the top level.
func UnmarshalStrict(data []byte, dst any) error {
	if err := checkExactNames(data, reflect.TypeOf(dst)); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			// encoding/json reports an unknown field by name only. As a
			// type error it gains its path: every decoder it passes
			// through on the way out (Optional nests them) prefixes its
			// own field names.
			if unquoted, uerr := strconv.Unquote(name); uerr == nil {
				name = unquoted
			}
			return &json.UnmarshalTypeError{Field: name, Type: UnknownFieldType}
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return ErrTrailingData
	}
	return nil
}

// ErrTrailingData is the error of a value followed by more data.
var ErrTrailingData = errors.New("data after the JSON value")

// checkDuplicateNames refuses an object that names a member twice, which
// encoding/json would read as its last value: the platform's documented
// choice is to refuse, as Messages does. Anything else wrong with the
// body is left to the decoder's own messages.
func checkDuplicateNames(body []byte) *APIError {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	for {
		_, err := dec.ReadToken()
		if err == nil {
			continue
		}
		var serr *jsontext.SyntacticError
		if errors.As(err, &serr) && errors.Is(serr.Err, jsontext.ErrDuplicateName) {
			return InvalidField(dottedPath(serr.JSONPointer), "duplicate field")
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

// DescribeDecodeError turns decoding errors into field-first messages.
// Type errors carry the full dotted path of the field (Go 1.20+), and so do
// unknown fields once UnmarshalStrict has turned them into type errors.
func DescribeDecodeError(err error) *APIError {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Type == UnknownFieldType {
			return InvalidField(typeErr.Field, "unknown field")
		}
		if typeErr.Field == "" {
			return InvalidField("request body", "must be a JSON object")
		}
		return InvalidField(typeErr.Field, "must be %s", DescribeType(typeErr.Type))
	case errors.As(err, &syntaxErr):
		return InvalidField("request body", "invalid JSON at offset %d", syntaxErr.Offset)
	case errors.Is(err, ErrTrailingData):
		return InvalidField("request body", "unexpected data after the JSON value")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return InvalidField("request body", "invalid JSON: unexpected end of input")
	}
	return InvalidField("request body", "invalid JSON")
}

// unknownField marks the type errors that stand for unknown fields.
type unknownField struct{}

// UnknownFieldType marks the type errors that stand for unknown fields.
var UnknownFieldType = reflect.TypeFor[unknownField]()

// JSONDescriber lets a union type say what it accepts in type errors.
type JSONDescriber interface {
	JSONDescription() string
}

// DescribeType says what a value of t is, for "must be ..." messages.
func DescribeType(t reflect.Type) string {
	if t == nil {
		return "a valid value"
	}
	if d, ok := reflect.New(t).Interface().(JSONDescriber); ok {
		return d.JSONDescription()
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
		return DescribeType(t.Elem())
	}
	return "a valid value"
}

// Optional is a body field that distinguishes omitted, null and a value,
// which updates need ("omitted keeps, null clears").
type Optional[T any] struct {
	Set   bool // the key was present
	Null  bool // its value was null
	Value T
}

func (o *Optional[T]) UnmarshalJSON(data []byte) error {
	o.Set = true
	if string(data) == "null" {
		o.Null = true
		return nil
	}
	return UnmarshalStrict(data, &o.Value)
}

// Present reports whether the field carries a non-null value.
func (o Optional[T]) Present() bool { return o.Set && !o.Null }

// CheckLength enforces a length in characters (not bytes).
func CheckLength(field, s string, minLen, maxLen int) error {
	n := utf8.RuneCountInString(s)
	if n < minLen || n > maxLen {
		if minLen == 0 {
			return InvalidField(field, "must be at most %d characters", maxLen)
		}
		return InvalidField(field, "must be between %d and %d characters", minLen, maxLen)
	}
	return nil
}

// QueryInt reads an integer query parameter within [minV, maxV], or def when
// absent.
func QueryInt(q url.Values, name string, def, minV, maxV int) (int, error) {
	raw, ok := QueryValue(q, name)
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, InvalidField(name, "must be an integer")
	}
	if n < minV || n > maxV {
		return 0, InvalidField(name, "must be between %d and %d", minV, maxV)
	}
	return n, nil
}

// QueryBool reads a boolean query parameter (false when absent).
func QueryBool(q url.Values, name string) (bool, error) {
	raw, ok := QueryValue(q, name)
	if !ok {
		return false, nil
	}
	switch raw {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, InvalidField(name, "must be true or false")
}

// QueryValue returns a single-valued query parameter: the first value when
// repeated (as url.Values.Get), and absent when empty.
func QueryValue(q url.Values, name string) (string, bool) {
	v := q.Get(name)
	return v, v != ""
}

// QuoteList renders values as `a`, `b` for messages.
func QuoteList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = fmt.Sprintf("`%s`", v)
	}
	return strings.Join(quoted, ", ")
}
