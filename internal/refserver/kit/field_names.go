package kit

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// Member names are matched exactly. encoding/json folds case ("NAME" fills
// name) and its unknown-field check only sees names that fold onto no
// field, so before decoding, UnmarshalStrict walks the document beside the
// destination type and refuses any member a struct does not declare
// verbatim. It stops at types that decode themselves (json.Unmarshaler):
// those that decode strictly call UnmarshalStrict on their part, which
// walks it in turn.

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// checkExactNames reports the first member of data that t (or a type
// nested in it) does not name exactly, as the unknown-field type error
// UnmarshalStrict returns. Anything else wrong is left to the decoder.
func checkExactNames(data []byte, t reflect.Type) error {
	if t == nil {
		return nil
	}
	w := nameWalker{dec: jsontext.NewDecoder(bytes.NewReader(data))}
	if path, ok := w.value(t, nil); !ok && path != nil {
		return &json.UnmarshalTypeError{Field: strings.Join(path, "."), Type: UnknownFieldType}
	}
	return nil
}

type nameWalker struct {
	dec *jsontext.Decoder
}

// value reads one value whose destination is t. It returns ok false when it
// must stop: with the path of an inexact name, or with a nil path when the
// document is malformed (the decoder will say how).
func (w nameWalker) value(t reflect.Type, path []string) ([]string, bool) {
	for t.Kind() == reflect.Pointer && !reflect.PointerTo(t).Implements(unmarshalerType) && !t.Implements(unmarshalerType) {
		t = t.Elem()
	}
	if t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil, w.dec.SkipValue() == nil
	}
	switch w.dec.PeekKind() {
	case '{':
		return w.object(t, path)
	case '[':
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return nil, w.dec.SkipValue() == nil
		}
		if _, err := w.dec.ReadToken(); err != nil {
			return nil, false
		}
		for w.dec.PeekKind() != ']' {
			if p, ok := w.value(t.Elem(), path); !ok {
				return p, false
			}
		}
		_, err := w.dec.ReadToken()
		return nil, err == nil
	}
	return nil, w.dec.SkipValue() == nil
}

func (w nameWalker) object(t reflect.Type, path []string) ([]string, bool) {
	var fields map[string]reflect.Type
	switch t.Kind() {
	case reflect.Struct:
		fields = exactFieldNames(t)
	case reflect.Map:
	default:
		return nil, w.dec.SkipValue() == nil
	}
	if _, err := w.dec.ReadToken(); err != nil {
		return nil, false
	}
	for w.dec.PeekKind() != '}' {
		tok, err := w.dec.ReadToken()
		if err != nil {
			return nil, false
		}
		name := tok.String()
		elem := t
		if fields != nil {
			ft, ok := fields[name]
			if !ok {
				return append(path, name), false
			}
			elem = ft
		} else {
			elem = t.Elem()
		}
		if p, ok := w.value(elem, append(path, name)); !ok {
			return p, false
		}
	}
	_, err := w.dec.ReadToken()
	return nil, err == nil
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// exactFieldNames maps the JSON names encoding/json gives t's fields (embedded
// structs' fields promoted) to their types.
func exactFieldNames(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(t) {
		tag, tagged := f.Tag.Lookup("json")
		tagName, _, _ := strings.Cut(tag, ",")
		embedded := f.Anonymous && tagName == "" && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct)
		if !f.IsExported() || embedded || tagged && tag == "-" {
			continue
		}
		name := f.Name
		if tagName != "" {
			name = tagName
		}
		if _, dup := m[name]; !dup {
			m[name] = f.Type
		}
	}
	fieldCache.Store(t, m)
	return m
}
