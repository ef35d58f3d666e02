package memorystores

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/wiretest"
)

// roundTrip checks decode → encode → decode: what decodes encodes, and
// decodes again to an equal value.
func roundTrip[T any](t *testing.T, data []byte) {
	wiretest.RoundTrip(t, data, wiretest.Decode[T], false)
}

// seeds adds the documents of testdata/<dir> to f's corpus.
func seeds(f *testing.F, dir string) {
	for _, doc := range wiretest.Documents(f, filepath.Join("testdata", dir)) {
		f.Add(doc)
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
