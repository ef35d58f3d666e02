// Package uniontest checks, for fuzz targets, the properties every union
// decoder of the SDK promises:
//
//   - it never panics (the fuzzing engine reports that);
//   - input that is not JSON is an error, never a value;
//   - a type it does not know decodes to the Unknown variant, which keeps
//     the "type" and the whole object byte for byte;
//   - a value it decodes marshals, and the result decodes again to an equal
//     value, whose encoding is the same bytes (the encoding is stable).
//
// Equal means equal up to what JSON does not carry: a nil and an empty slice
// or map, a raw JSON value and its compacted, HTML-escaped form (which is
// what json.Marshal writes for it), and a nil raw object and {} (the SDK's
// variants send a missing raw object as {}).
//
//	func FuzzDecodeTool(f *testing.F) {
//		for _, s := range seeds {
//			f.Add([]byte(s))
//		}
//		f.Fuzz(uniontest.Decoder[Tool]{Decode: decodeTool}.Check)
//	}
package uniontest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// Decoder describes one union decoder under test.
type Decoder[T any] struct {
	// Decode is the decoder.
	Decode func([]byte) (T, error)
	// Unknown returns the discriminator and the raw JSON of v when v is
	// the union's Unknown variant. nil means RawOf: a variant that embeds
	// a union.Raw is the Unknown one.
	Unknown func(v any) (typ string, raw []byte, ok bool)
	// EmptyIsAbsent says that Decode reads empty input (a key that was
	// not sent; white space alone is nothing either) as the zero value
	// without error, by design.
	EmptyIsAbsent bool
	// Equal adds to the comparison of the round trip, for values a type
	// documents as the same (a field whose "" is sent as its default).
	Equal cmp.Options
}

// Check decodes data and checks the properties of the package comment. Its
// signature fits testing.F.Fuzz.
func (d Decoder[T]) Check(t *testing.T, data []byte) {
	t.Helper()
	v, err := d.Decode(data)
	if err != nil {
		return
	}
	if !json.Valid(data) && !(d.EmptyIsAbsent && len(bytes.Trim(data, " \t\r\n")) == 0) {
		t.Fatalf("invalid JSON decoded without error, as %#v\n%q", v, data)
	}
	unknown := d.Unknown
	if unknown == nil {
		unknown = RawOf
	}
	if typ, raw, ok := unknown(v); ok {
		want, err := union.Type(data)
		if err != nil {
			t.Fatalf("unknown variant for input without a type (%v): %q", err, data)
		}
		if typ != want {
			t.Fatalf("unknown variant has type %q, the input %q", typ, want)
		}
		if !bytes.Equal(raw, data) {
			t.Fatalf("unknown variant changed the raw JSON:\n got %q\nwant %q", raw, data)
		}
	}
	RoundTrip(t, v, d.Decode, d.Equal...)
}

// RoundTrip checks that v marshals, that the JSON decodes back to a value
// equal to v (by Equal and opts), and that this value marshals to the same
// bytes.
func RoundTrip[T any](t *testing.T, v T, decode func([]byte) (T, error), opts ...cmp.Option) {
	t.Helper()
	b1, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("decoded value does not marshal: %v\n%#v", err, v)
	}
	back, err := decode(b1)
	if err != nil {
		t.Fatalf("re-encoded value does not decode: %v\n%s", err, b1)
	}
	if diff := cmp.Diff(v, back, Equal, cmp.Options(opts)); diff != "" {
		t.Fatalf("round trip through %s changed the value (-decoded +re-decoded):\n%s", b1, diff)
	}
	b2, err := json.Marshal(back)
	if err != nil {
		t.Fatalf("re-decoded value does not marshal: %v", err)
	}
	if !bytes.Equal(b1, b2) {
		t.Fatalf("encoding is not stable:\n first %s\nsecond %s", b1, b2)
	}
}

// Equal compares decoded values as the package comment describes.
var Equal = cmp.Options{
	cmpopts.EquateEmpty(),
	cmp.Comparer(func(a, b json.RawMessage) bool {
		return bytes.Equal(normalize(a), normalize(b))
	}),
}

// normalize returns raw as json.Marshal writes it, and {} for nothing.
func normalize(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return []byte("{}")
	}
	out, err := json.Marshal(raw)
	if err != nil {
		return raw // not JSON: compared as it is
	}
	return out
}

var rawType = reflect.TypeFor[union.Raw]()

// RawOf returns the union.Raw that v (a struct or a pointer to one) embeds.
func RawOf(v any) (typ string, raw []byte, ok bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return "", nil, false
	}
	for i := range rv.NumField() {
		if f := rv.Type().Field(i); f.Anonymous && f.Type == rawType {
			r := rv.Field(i).Interface().(union.Raw)
			return r.Type, r.JSON, true
		}
	}
	return "", nil, false
}
