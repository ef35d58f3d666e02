package wire

import (
	"bytes"
	stdjson "encoding/json"
	"errors"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Options are engine options for Marshal and Unmarshal (unions' decoders,
// from Union and Join).
type Options = json.Options

// base keeps encoding/json's spelling of nil slices and maps (null), so a
// null that was decoded is written back as null and [] as [].
var base = json.JoinOptions(json.FormatNilSliceAsNull(true), json.FormatNilMapAsNull(true))

// encode adds a fixed order for the members of maps (the unknown members
// kept in Extra), so that a value always encodes to the same bytes, as
// with encoding/json.
var encode = json.JoinOptions(base, json.Deterministic(true))

// Unmarshal decodes data into v, a pointer to a method-less defined type
// of the wire type (or any plain value).
func Unmarshal(data []byte, v any, opts ...Options) error {
	var err error
	switch len(opts) {
	case 0:
		err = json.Unmarshal(data, v, base)
	case 1:
		err = json.Unmarshal(data, v, base, opts[0])
	default:
		err = json.Unmarshal(data, v, append([]Options{base}, opts...)...)
	}
	if err != nil {
		return &Error{err: err}
	}
	return nil
}

// Error is a document that does not decode. It gives the engine's message
// (what is wrong, and where, as a JSON pointer) but does not unwrap to the
// engine's error types, which an application could otherwise match with
// errors.As and which will change when the engine moves into the standard
// library.
type Error struct{ err error }

func (e *Error) Error() string { return e.err.Error() }

// Nest returns err, the error of a part of a document decoded on its own
// (a union's variant), for the decoder of the whole document to return:
// the engine then puts the part's position in front of the path inside it
// ("/content/1" and "/citations/0/document_index"), instead of reporting
// the inner path alone.
func Nest(err error) error {
	if we, ok := err.(*Error); ok {
		err = we.err
	}
	if serr, ok := err.(*json.SemanticError); ok {
		return &json.SemanticError{Err: serr}
	}
	return err
}

// Marshal encodes v, a method-less defined type of the wire type (or any
// plain value).
func Marshal(v any, opts ...Options) ([]byte, error) {
	switch len(opts) {
	case 0:
		return json.Marshal(v, encode)
	case 1:
		return json.Marshal(v, encode, opts[0])
	}
	return json.Marshal(v, append([]Options{encode}, opts...)...)
}

// Join combines the decoders of several unions into one option.
func Join(us ...*json.Unmarshalers) Options {
	return json.WithUnmarshalers(json.JoinUnmarshalers(us...))
}

// Union returns the decoder of the union interface T: decode gets the
// object's "type" member and the object itself, which is only valid during
// the call (clone it to keep it, as an Unknown variant does). null decodes
// as a nil T.
func Union[T any](decode func(typ string, obj []byte) (T, error)) *json.Unmarshalers {
	return json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *T) error {
		if dec.PeekKind() == 'n' {
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			var zero T
			*v = zero
			return nil
		}
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if raw.Kind() != '{' {
			return errors.New("must be a JSON object")
		}
		typ, err := TypeOf(raw)
		if err != nil {
			return err
		}
		val, err := decode(typ, raw)
		if err != nil {
			return Nest(err)
		}
		*v = val
		return nil
	})
}

// ErrNoType is returned by TypeOf for an object without a string "type".
var ErrNoType = errors.New(`object has no "type"`)

// TypeOf returns the "type" member of obj, a valid JSON object (as a
// decoder's ReadValue returns it). It reads member names and skips values
// without decoding them; "type" is usually first.
func TypeOf(obj []byte) (string, error) {
	s := scanner{b: obj}
	if s.ws(); s.next() != '{' {
		return "", errors.New("must be a JSON object")
	}
	for {
		s.ws()
		switch s.peek() {
		case '}', 0:
			return "", ErrNoType
		case ',':
			s.i++
			continue
		}
		key, escaped := s.str()
		s.ws()
		s.i++ // ':'
		s.ws()
		if escaped {
			return typeSlow(obj)
		}
		if string(key) == "type" {
			if s.peek() != '"' {
				return "", ErrNoType
			}
			v, esc := s.str()
			if esc {
				return typeSlow(obj)
			}
			return string(v), nil
		}
		s.skip()
	}
}

// typeSlow handles escaped member names or values, which the API never
// sends but a hand-written document may.
func typeSlow(obj []byte) (string, error) {
	var probe struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(obj, &probe); err != nil {
		return "", err
	}
	if probe.Type == nil {
		return "", ErrNoType
	}
	return *probe.Type, nil
}

// scanner walks a document that is already known to be valid JSON.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) next() byte {
	c := s.peek()
	s.i++
	return c
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// str reads a string; escaped reports a backslash in it, in which case the
// returned bytes are not the decoded value.
func (s *scanner) str() ([]byte, bool) {
	s.i++ // opening quote
	start, escaped := s.i, false
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '\\':
			escaped = true
			s.i += 2
			continue
		case '"':
			v := s.b[start:s.i]
			s.i++
			return v, escaped
		}
		s.i++
	}
	return nil, escaped
}

// skip passes over one value.
func (s *scanner) skip() {
	depth := 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			s.str()
			if depth == 0 {
				return
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return
			}
			depth--
			if depth == 0 {
				s.i++
				return
			}
		case ',':
			if depth == 0 {
				return
			}
		}
		s.i++
	}
}

// MarshalVariant encodes v, the method-less copy of a union variant, with
// "type": typ as its first member: the MarshalJSON of every variant.
func MarshalVariant(typ string, v any) ([]byte, error) {
	body, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return WithType(typ, body)
}

// WithType returns body, an encoded JSON object, with "type": typ as its
// first member: how a union variant writes its discriminator, which is not
// a field of its struct.
func WithType(typ string, body []byte) ([]byte, error) {
	if len(body) < 2 || body[0] != '{' {
		return nil, errors.New("a union variant must encode as a JSON object")
	}
	t, err := json.Marshal(typ)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(t)+9)
	out = append(out, `{"type":`...)
	out = append(out, t...)
	if len(body) > 2 {
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}

// Variant decodes obj, a union variant's object, into v (the variant's
// method-less type) and removes the "type" member from its unknown members
// (extra), since the variant's MarshalJSON writes it again.
func Variant(obj []byte, v any, extra *map[string]stdjson.RawMessage, opts ...Options) error {
	if err := Unmarshal(obj, v, opts...); err != nil {
		return err
	}
	if *extra != nil {
		delete(*extra, "type")
		if len(*extra) == 0 {
			*extra = nil
		}
	}
	return nil
}

// Tagged encodes v, a request parameter, with encoding/json (as request
// parameters are written; its omitempty rules differ from the engine's)
// and puts "type": typ first.
func Tagged(typ string, v any) ([]byte, error) {
	body, err := stdjson.Marshal(v)
	if err != nil {
		return nil, err
	}
	return WithType(typ, bytes.TrimSpace(body))
}

// Unknown is how an Unknown variant encodes: its object as received, or
// {"type": typ} when it was made by hand without one.
func Unknown(typ string, obj stdjson.RawMessage) ([]byte, error) {
	if len(obj) == 0 {
		return WithType(typ, []byte("{}"))
	}
	return obj, nil
}
