// Package wiretest checks, in tests, the JSON rules of the SDK's wire
// types (see internal/wire): what a type decodes from the API's JSON it
// encodes back, so that decoding again gives an equal value, and the
// encoding is the JSON received except that a member whose value is null
// may be left out.
package wiretest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Equal compares decoded values: raw JSON (kept unknown members, Unknown
// variants) is compared as JSON, since encoding/json writes it compact and
// HTML-escaped; an empty raw value is {}, which an Unknown variant without
// JSON writes.
var Equal = cmp.Options{
	cmp.Transformer("json", func(r json.RawMessage) any {
		if len(r) == 0 {
			return map[string]any{}
		}
		v, err := parse(r)
		if err != nil {
			return string(r)
		}
		return v
	}),
}

// RoundTrip decodes data with decode and checks the rule of the package
// comment; exact adds the comparison of the encoding with data, which
// holds for what the API sends (a hand-written document may use another
// spelling, such as a bare string where the API sends an object). ok is
// false, and nothing is checked, when data does not decode.
func RoundTrip[T any](t testing.TB, data []byte, decode func([]byte) (T, error), exact bool) (v T, ok bool) {
	t.Helper()
	v, err := decode(data)
	if err != nil {
		return v, false
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T decoded from %s does not encode: %v", v, data, err)
	}
	again, err := decode(out)
	if err != nil {
		t.Fatalf("%T does not decode its own encoding %s: %v", v, out, err)
	}
	if d := cmp.Diff(v, again, Equal); d != "" {
		t.Fatalf("%T changed in a round trip through %s (-first +second):\n%s", v, out, d)
	}
	if exact {
		if err := SameJSON(data, out); err != nil {
			t.Fatalf("%T encodes other JSON than it decoded: %v\n in: %s\nout: %s", v, err, data, out)
		}
	}
	return v, true
}

// SameJSON reports how out differs from in as JSON, where a member of in
// whose value is null may be absent from out, and a timestamp may be
// spelled otherwise for the same instant (Go trims the trailing zeros of a
// fraction of a second).
func SameJSON(in, out []byte) error {
	a, err := parse(in)
	if err != nil {
		return err
	}
	b, err := parse(out)
	if err != nil {
		return err
	}
	return same("", a, b)
}

func parse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func same(path string, a, b any) error {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: an object became %v", orRoot(path), b)
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok {
				if av == nil {
					continue
				}
				return fmt.Errorf("%s/%s: missing", path, k)
			}
			if err := same(path+"/"+k, av, bv); err != nil {
				return err
			}
		}
		for k := range bm {
			if _, ok := a[k]; !ok {
				return fmt.Errorf("%s/%s: added", path, k)
			}
		}
		return nil
	case []any:
		bs, ok := b.([]any)
		if !ok || len(bs) != len(a) {
			return fmt.Errorf("%s: an array of %d became %v", orRoot(path), len(a), b)
		}
		for i := range a {
			if err := same(path+"/"+strconv.Itoa(i), a[i], bs[i]); err != nil {
				return err
			}
		}
		return nil
	case json.Number:
		if bn, ok := b.(json.Number); ok {
			af, _ := a.Float64()
			bf, _ := bn.Float64()
			if af == bf {
				return nil
			}
		}
	case string:
		if a == b {
			return nil
		}
		// A timestamp is written as Go writes it (RFC 3339, trailing zeros
		// of the fraction trimmed), which names the same instant.
		if bs, ok := b.(string); ok {
			at, errA := time.Parse(time.RFC3339Nano, a)
			bt, errB := time.Parse(time.RFC3339Nano, bs)
			if errA == nil && errB == nil && at.Equal(bt) {
				return nil
			}
		}
	default:
		if reflect.DeepEqual(a, b) {
			return nil
		}
	}
	return fmt.Errorf("%s: %v became %v", orRoot(path), a, b)
}

func orRoot(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

// Corpus returns the []byte and string arguments of the fuzz corpus files
// under dir (testdata/fuzz/<Target>), for seeding another target or a
// property test; a missing dir gives none.
func Corpus(tb testing.TB, dir string) [][]byte {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for line := range strings.Lines(string(data)) {
			line = strings.TrimSpace(line)
			for _, prefix := range []string{"[]byte(", "string("} {
				if arg, ok := strings.CutPrefix(line, prefix); ok {
					s, err := strconv.Unquote(strings.TrimSuffix(arg, ")"))
					if err != nil {
						tb.Fatalf("%s: %v", f, err)
					}
					out = append(out, []byte(s))
				}
			}
		}
	}
	return out
}

// Methods checks the package in dir (its non-test files): every exported
// struct type with an Extra field has MarshalJSON on the value and
// UnmarshalJSON on the pointer, which the JSON convention requires, since
// encoding/json would otherwise write Extra as a member. It returns the
// types it found, so that a test can also check them by reflection.
func Methods(t testing.TB, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	withExtra := map[string]bool{}
	marshal := map[string]bool{}   // value receivers
	unmarshal := map[string]bool{} // pointer receivers
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() {
						continue
					}
					if st, ok := ts.Type.(*ast.StructType); ok && hasField(st, "Extra") {
						withExtra[ts.Name.Name] = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 {
					continue
				}
				switch r := d.Recv.List[0].Type.(type) {
				case *ast.Ident:
					if d.Name.Name == "MarshalJSON" {
						marshal[r.Name] = true
					}
				case *ast.StarExpr:
					if id, ok := r.X.(*ast.Ident); ok && d.Name.Name == "UnmarshalJSON" {
						unmarshal[id.Name] = true
					}
				}
			}
		}
	}
	var names []string
	for name := range withExtra {
		names = append(names, name)
		if !marshal[name] {
			t.Errorf("%s has Extra but no MarshalJSON on its value", name)
		}
		if !unmarshal[name] {
			t.Errorf("%s has Extra but no UnmarshalJSON on its pointer", name)
		}
	}
	slices.Sort(names)
	return names
}

func hasField(st *ast.StructType, name string) bool {
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.Name == name {
				return true
			}
		}
	}
	return false
}

// Implements checks by reflection that each value's type implements
// json.Marshaler and its pointer json.Unmarshaler, and that the values
// cover names (from Methods), so that no type is left out.
func Implements(t testing.TB, names []string, values ...any) {
	t.Helper()
	var covered []string
	marshaler := reflect.TypeFor[json.Marshaler]()
	unmarshaler := reflect.TypeFor[json.Unmarshaler]()
	for _, v := range values {
		typ := reflect.TypeOf(v)
		covered = append(covered, typ.Name())
		if !typ.Implements(marshaler) {
			t.Errorf("%s does not implement json.Marshaler", typ)
		}
		if !reflect.PointerTo(typ).Implements(unmarshaler) {
			t.Errorf("*%s does not implement json.Unmarshaler", typ)
		}
	}
	for _, name := range names {
		if !slices.Contains(covered, name) {
			t.Errorf("%s has an Extra field but is not checked", name)
		}
	}
}

// Seen records in seen the name of every named struct, slice or string
// type met in v, walking fields, pointers, slices, maps and interfaces:
// which wire types and union variants a set of values covers.
func Seen(v any, seen map[string]bool) { walk(reflect.ValueOf(v), seen) }

func walk(v reflect.Value, seen map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), seen)
		}
	case reflect.Struct:
		if v.Type().Name() != "" {
			seen[v.Type().Name()] = true
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), seen)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().PkgPath() != "" && v.Type().Name() != "" {
			seen[v.Type().Name()] = true
		}
		for i := range v.Len() {
			walk(v.Index(i), seen)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walk(it.Value(), seen)
		}
	case reflect.String:
		if v.Type().PkgPath() != "" {
			seen[v.Type().Name()] = true
		}
	}
}

// Decode is json.Unmarshal into a new T, for RoundTrip.
func Decode[T any](data []byte) (T, error) {
	var v T
	err := json.Unmarshal(data, &v)
	return v, err
}

// Documents returns the JSON documents of dir (its *.json files), which
// must hold at least one: the seeds of a fuzz target.
func Documents(tb testing.TB, dir string) [][]byte {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no documents in %s: %v", dir, err)
	}
	out := make([][]byte, 0, len(files))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}
