package messages

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// jsonEqualUpToNulls reports whether two JSON documents are equal once the
// object members whose value is null are left out of both: the SDK writes
// a null it read as an absent member when its field is the zero value,
// and writes null for a nil field the wire left out.
func jsonEqualUpToNulls(a, b []byte) bool {
	var x, y any
	if !decodeNumbers(a, &x) || !decodeNumbers(b, &y) {
		return false
	}
	return cmp.Equal(dropNulls(x), dropNulls(y))
}

// jsonCoversUpToNulls reports whether document b has every member of a
// that is not null, with a value that covers a's, recursively: b may add
// members. It is the rule for a partial document, which a fuzzer writes
// but the API never sends (it sends every member): the SDK writes the
// members a left out with their zero values.
func jsonCoversUpToNulls(a, b []byte) bool {
	var x, y any
	if !decodeNumbers(a, &x) || !decodeNumbers(b, &y) {
		return false
	}
	return covers(dropNulls(x), dropNulls(y))
}

func covers(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		m, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range a {
			if w, ok := m[k]; !ok || !covers(v, w) {
				return false
			}
		}
		return true
	case []any:
		l, ok := b.([]any)
		if !ok || len(l) != len(a) {
			return false
		}
		for i := range a {
			if !covers(a[i], l[i]) {
				return false
			}
		}
		return true
	}
	return cmp.Equal(a, b)
}

func decodeNumbers(data []byte, v *any) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v) == nil
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}

// checkRoundTrip checks the round trip of a value decoded from wire, a
// document that may leave members out: it marshals to a document that
// covers the wire text up to nulls, and that decodes to an equal value.
func checkRoundTrip(t *testing.T, wire []byte, v any, decode func([]byte) (any, error)) {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T from %s does not marshal: %v", v, wire, err)
	}
	if !jsonCoversUpToNulls(wire, out) {
		t.Errorf("%T is not written as it was read:\n read %s\nwrote %s", v, wire, out)
	}
	again, err := decode(out)
	if err != nil {
		t.Fatalf("%s, the encoding of a %T, does not decode: %v", out, v, err)
	}
	if diff := cmp.Diff(v, again); diff != "" {
		t.Errorf("%s -> %s changed the value (-first +second):\n%s", wire, out, diff)
	}
}

// corpus reads the inputs of a fuzz target saved under testdata.
func corpus(t *testing.T, target string) [][]any {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) == 0 || lines[0] != "go test fuzz v1" {
			t.Fatalf("%s is not a fuzz corpus file", f)
		}
		var args []any
		for _, l := range lines[1:] {
			open := strings.IndexByte(l, '(')
			if open < 0 || !strings.HasSuffix(l, ")") {
				t.Fatalf("%s: cannot read %q", f, l)
			}
			kind, lit := l[:open], l[open+1:len(l)-1]
			switch kind {
			case "string", "[]byte":
				s, err := strconv.Unquote(lit)
				if err != nil {
					t.Fatalf("%s: %q: %v", f, l, err)
				}
				if kind == "string" {
					args = append(args, s)
				} else {
					args = append(args, []byte(s))
				}
			case "byte", "uint8":
				n, err := strconv.ParseUint(lit, 0, 8)
				if err != nil {
					if r, err2 := strconv.Unquote(lit); err2 == nil && len(r) == 1 {
						n, err = uint64(r[0]), nil
					}
				}
				if err != nil {
					t.Fatalf("%s: %q: %v", f, l, err)
				}
				args = append(args, uint8(n))
			default:
				t.Fatalf("%s: unexpected type in %q", f, l)
			}
		}
		out = append(out, args)
	}
	return out
}

// TestCorporaRoundTrip checks that each seed of the fuzz targets, and each
// input saved under testdata, that decodes is written back as the wire
// text, up to nulls, and decodes again to an equal value.
func TestCorporaRoundTrip(t *testing.T) {
	values := make([]struct {
		kind uint8
		data []byte
	}, 0, len(valueSeeds))
	for _, s := range valueSeeds {
		values = append(values, struct {
			kind uint8
			data []byte
		}{s.kind, []byte(s.data)})
	}
	for _, args := range corpus(t, "FuzzValueRoundTrip") {
		values = append(values, struct {
			kind uint8
			data []byte
		}{args[0].(uint8), args[1].([]byte)})
	}
	decoded := 0
	for _, v := range values {
		k := int(v.kind) % numKinds
		val, err := decodeKind(k, v.data)
		if err != nil {
			continue
		}
		decoded++
		checkRoundTrip(t, v.data, val, func(b []byte) (any, error) { return decodeKind(k, b) })
	}
	if decoded < len(valueSeeds)-5 {
		t.Errorf("only %d of %d values decode", decoded, len(values))
	}

	events := make([][2]any, 0, len(eventSeeds))
	for _, s := range eventSeeds {
		events = append(events, [2]any{s.typ, []byte(s.data)})
	}
	for _, args := range corpus(t, "FuzzStreamEventRoundTrip") {
		events = append(events, [2]any{args[0], args[1]})
	}
	seen := map[string]bool{}
	for _, e := range events {
		typ, data := e[0].(string), e[1].([]byte)
		ev, err := decodeEvent(typ, data)
		if err != nil {
			continue
		}
		seen[reflect.TypeOf(ev).Name()] = true
		checkRoundTrip(t, data, ev, func(b []byte) (any, error) { return decodeEvent(typ, b) })
	}
	for _, name := range []string{"MessageStartEvent", "ContentBlockStartEvent", "ContentBlockDeltaEvent",
		"ContentBlockStopEvent", "MessageDeltaEvent", "MessageStopEvent", "UnknownStreamEvent"} {
		if !seen[name] {
			t.Errorf("no %s among the seeds", name)
		}
	}
}
