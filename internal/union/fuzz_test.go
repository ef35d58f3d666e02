package union

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzUnion checks the plumbing every union decoder is built on:
//
//   - Type accepts only JSON, and Marshal's output always carries the type
//     it was given, as valid JSON, with the variant's members unchanged;
//   - DecodeSlice accepts only JSON arrays (or null) and hands each element
//     to the decoder byte for byte, in order;
//   - a Raw writes back exactly the bytes it was made from, and owns them.
func FuzzUnion(f *testing.F) {
	for _, seed := range []struct{ typ, data string }{
		{"vendor", `{"type":"vendor","skill_id":"xlsx","version":"latest"}`},
		{"custom", `{"a":1,"type":"custom"}`},
		{"self", `{}`},
		{"agent_toolset_20260401", `{"type":"agent_toolset_20260401","default_config":{"enabled":true,"permission_policy":{"type":"always_allow"}},"configs":[]}`},
		{"x", `[{"type":"a"},{"type":"b","n":[1,2]}, {"type":"c"} ]`},
		{"", `null`},
		{"future.type", `[{"x":1}]`},
		{"a\"b\\c", `{"type":null}`},
		{"\u2028<&>", `{"Type":"folded"}`},
		{"\x7f\x00", `{"type":"x","type":"y"}`},
		{"\xff", `{"type":"x"`},
		{"é", `"string"`},
	} {
		f.Add(seed.typ, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, typ string, data []byte) {
		valid := json.Valid(data)

		if _, err := Type(data); err == nil && !valid {
			t.Fatalf("Type accepted invalid JSON %q", data)
		}

		// Marshal: any variant encoding as an object gets the type first.
		var members map[string]any
		if json.Unmarshal(data, &members) == nil && members != nil && !hasTypeKey(members) {
			out, err := Marshal(typ, members)
			if err != nil {
				t.Fatalf("Marshal(%q, %s): %v", typ, data, err)
			}
			if !json.Valid(out) {
				t.Fatalf("Marshal(%q, %s) wrote invalid JSON %q", typ, data, out)
			}
			got, err := Type(out)
			if err != nil || got != asJSON(typ) {
				t.Fatalf("Marshal(%q, …) reads back as type %q (%v)", typ, got, err)
			}
			var back map[string]any
			if err := json.Unmarshal(out, &back); err != nil {
				t.Fatal(err)
			}
			delete(back, "type")
			if diff := cmp.Diff(members, back, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("Marshal changed the members (-want +got):\n%s", diff)
			}
		}

		// DecodeSlice hands over each element as it is.
		var elems []json.RawMessage
		wantErr := json.Unmarshal(data, &elems) != nil
		got, err := DecodeSlice(data, func(b []byte) (Raw, error) { return NewRaw("", b), nil })
		switch {
		case wantErr != (err != nil):
			t.Fatalf("DecodeSlice error %v, encoding/json error %v, for %q", err, wantErr, data)
		case err == nil && len(got) != len(elems):
			t.Fatalf("DecodeSlice gave %d elements, want %d", len(got), len(elems))
		case err == nil && (got == nil) != (elems == nil):
			t.Fatalf("DecodeSlice: nil %v, want nil %v", got == nil, elems == nil)
		}
		for i := range got {
			if !bytes.Equal(got[i].JSON, elems[i]) {
				t.Fatalf("element %d is %q, want %q", i, got[i].JSON, elems[i])
			}
		}

		// A Raw keeps its own copy and writes it back unchanged.
		if len(data) > 0 {
			raw := NewRaw(typ, data)
			keep := bytes.Clone(data)
			data[0] ^= 0xff
			out, err := raw.MarshalJSON()
			data[0] ^= 0xff
			if err != nil || !bytes.Equal(out, keep) {
				t.Fatalf("Raw wrote %q (%v), want %q", out, err, keep)
			}
		}
		// An empty Raw (built by hand) still writes a valid object.
		if out, err := (Raw{Type: typ}).MarshalJSON(); err != nil || !json.Valid(out) {
			t.Fatalf("empty Raw of type %q wrote %q (%v)", typ, out, err)
		}
	})
}

// hasTypeKey reports a member that encoding/json would read as "type".
func hasTypeKey(m map[string]any) bool {
	for k := range m {
		if strings.EqualFold(k, "type") {
			return true
		}
	}
	return false
}

// asJSON is s as it reads back from JSON: invalid UTF-8 becomes U+FFFD.
func asJSON(s string) string {
	b, _ := json.Marshal(s)
	var back string
	_ = json.Unmarshal(b, &back)
	return back
}
