package genai

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// A tree is decoded JSON: Object, []any, string, json.Number, bool or nil.
// Objects keep their members' order, so that "type" stays first.

// Object is a JSON object whose members keep their order.
type Object []Member

// Member is one member of an Object.
type Member struct {
	Key   string
	Value any
}

// Get returns the value of key, or nil. When a key repeats, the last one
// counts, as encoding/json and the reference server's parser read it.
func (o Object) Get(key string) any {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].Value
		}
	}
	return nil
}

// String returns the value of key when it is a string, else "".
func (o Object) String(key string) string {
	s, _ := o.Get(key).(string)
	return s
}

// Has reports whether o has key.
func (o Object) Has(key string) bool {
	for _, m := range o {
		if m.Key == key {
			return true
		}
	}
	return false
}

// Parse decodes one JSON value into a tree.
func Parse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("genai: data after the JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	switch d {
	case '{':
		o := Object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, Member{Key: k.(string), Value: v})
		}
		_, err := dec.Token()
		return o, err
	case '[':
		a := []any{}
		for dec.More() {
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return nil, errors.New("genai: unexpected delimiter")
}
