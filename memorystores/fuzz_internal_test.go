package memorystores

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sameJSON compares raw members (Extra, Unknown variants) by value: a
// round trip writes them compacted.
var sameJSON = cmp.Comparer(func(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	dx, dy := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	dx.UseNumber()
	dy.UseNumber()
	return dx.Decode(&x) == nil && dy.Decode(&y) == nil && reflect.DeepEqual(x, y)
})

// roundTrip checks decode → encode → decode: what decodes encodes, and
// decodes again to an equal value. (The bytes may differ: unknown members
// are not written in a fixed order.)
func roundTrip[T any](t *testing.T, data []byte) {
	var v T
	if json.Unmarshal(data, &v) != nil {
		return
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("decoded %s, cannot encode it: %v", data, err)
	}
	var again T
	if err := json.Unmarshal(out, &again); err != nil {
		t.Fatalf("%s encodes as %s, which does not decode: %v", data, out, err)
	}
	if diff := cmp.Diff(v, again, sameJSON); diff != "" {
		t.Fatalf("%s encodes as %s, which decodes differently (-first +again):\n%s", data, out, diff)
	}
}

// seeds adds the documents of testdata/<dir> to f's corpus.
func seeds(f *testing.F, dir string) {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds in testdata/%s: %v", dir, err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzMemoryVersionRoundTrip checks a version and its actor unions (who
// wrote or redacted it): whatever decodes survives decode → encode →
// decode unchanged.
func FuzzMemoryVersionRoundTrip(f *testing.F) {
	seeds(f, "version")
	f.Fuzz(roundTrip[MemoryVersion])
}

// FuzzMemoryListRoundTrip checks a listing page and its item union
// likewise.
func FuzzMemoryListRoundTrip(f *testing.F) {
	seeds(f, "list")
	f.Fuzz(roundTrip[memoryPage])
}

// TestCorporaRoundTrip checks every document of the fuzz corpora against
// the round trip, and that together they hold every variant, those the
// reference server cannot produce included.
func TestCorporaRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	note := func(v any) {
		if v != nil {
			seen[reflect.TypeOf(v).String()] = true
		}
	}
	for dir, check := range map[string]func([]byte){
		"version": func(b []byte) {
			roundTrip[MemoryVersion](t, b)
			var v MemoryVersion
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			note(v.CreatedBy)
			note(v.RedactedBy)
		},
		"list": func(b []byte) {
			roundTrip[memoryPage](t, b)
			var p memoryPage
			if err := json.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			for _, item := range p.Data {
				note(item)
			}
		},
		"store":  func(b []byte) { roundTrip[MemoryStore](t, b) },
		"memory": func(b []byte) { roundTrip[Memory](t, b) },
	} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no documents in testdata/%s: %v", dir, err)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			check(b)
		}
	}
	for _, v := range []any{&APIActor{}, &SessionActor{}, &UserActor{}, &UnknownActor{}, &Memory{}, &MemoryPrefix{}, &UnknownListItem{}} {
		if !seen[reflect.TypeOf(v).String()] {
			t.Errorf("the corpora hold no %T", v)
		}
	}
}
