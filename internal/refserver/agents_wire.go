package refserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"net/url"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"
)

// Wire helpers of the managed-agent families (docs/managed-agents-wire.md
// section 1): path-aware strict decoding of nested objects and unions, the
// validation messages of 1.4, metadata maps (1.5) and created_at filters
// (1.6). They carry an "ma" prefix because several engineers add files to
// this package at once; sessions and deployments are meant to reuse them.
//
// Error paths use dots and [i] indices ("tools[0].configs[2].name"), which
// encoding/json cannot produce for arrays: arrays of objects are therefore
// decoded as []json.RawMessage and each element is decoded with maDecode at
// its own path.

// betaManagedAgents is the vendor-beta value agents, environments, sessions
// and deployments require (docs/managed-agents-wire.md 1.1).
const betaManagedAgents = "managed-agents-2026-04-01"

// maBetas is the route beta list of every managed-agents endpoint.
var maBetas = []string{betaManagedAgents}

// maJoin appends a member name to a path: "" + "name" is "name",
// "tools[0]" + "name" is "tools[0].name".
func maJoin(path, member string) string {
	switch {
	case path == "":
		return member
	case member == "":
		return path
	}
	return path + "." + member
}

// maIndex appends an array index: "tools" + 2 is "tools[2]".
func maIndex(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// maDecode decodes the JSON object raw, found at path, strictly into dst
// (a struct of optional fields and raw messages). Unknown keys, wrong types
// and a value that is not an object are 400s naming the full path. An empty
// path means the request body itself.
func maDecode(path string, raw []byte, dst any) error {
	if path == "" {
		return decodeStrict(raw, dst)
	}
	if maKind(raw) != '{' {
		return invalidField(path, "must be an object")
	}
	err := unmarshalStrict(raw, dst)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := maJoin(path, te.Field)
		if te.Type == unknownFieldType {
			return invalidField(field, "unknown field")
		}
		return invalidField(field, "must be %s", describeType(te.Type))
	}
	return invalidField(path, "invalid JSON")
}

// maKind returns the first byte of a JSON value: '{', '[', '"', 'n', 't',
// 'f', or a digit or '-'. Zero for an empty value.
func maKind(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func maIsNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// maType reads the "type" discriminator of a union object at path. A
// missing or null type is "is required"; a non-string type is "must be a
// string".
func maType(path string, raw []byte) (string, error) {
	if maKind(raw) != '{' {
		return "", invalidField(path, "must be an object")
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return "", invalidField(path, "must be an object")
	}
	t, ok := probe["type"]
	if !ok || maIsNull(t) {
		return "", invalidField(maJoin(path, "type"), "is required")
	}
	var s string
	if err := json.Unmarshal(t, &s); err != nil {
		return "", invalidField(maJoin(path, "type"), "must be a string")
	}
	return s, nil
}

// maBadType is the 1.4 union discriminator message.
func maBadType(path string, allowed ...string) error {
	return invalidField(maJoin(path, "type"), "must be one of %s", quoteList(allowed))
}

// maArray checks that raw, found at path, is a JSON array and returns its
// elements.
func maArray(path string, raw []byte) ([]json.RawMessage, error) {
	if maKind(raw) != '[' {
		return nil, invalidField(path, "must be an array")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalidField(path, "must be an array")
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	return items, nil
}

// maCount checks an array length against [minN, maxN].
func maCount(path string, n, minN, maxN int) error {
	if n >= minN && n <= maxN {
		return nil
	}
	if minN == 0 {
		return invalidField(path, "must have at most %d items", maxN)
	}
	return invalidField(path, "must have between %d and %d items", minN, maxN)
}

// maStrings reads an array of strings, each element checked by check (nil:
// any string), with indexed paths.
func maStrings(path string, raw []byte, check func(path, s string) error) ([]string, error) {
	items, err := maArray(path, raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, item := range items {
		p := maIndex(path, i)
		if maKind(item) != '"' {
			if maIsNull(item) {
				return nil, invalidField(p, "must not be null")
			}
			return nil, invalidField(p, "must be a string")
		}
		if err := json.Unmarshal(item, &out[i]); err != nil {
			return nil, invalidField(p, "must be a string")
		}
		if check != nil {
			if err := check(p, out[i]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// maRequired reports a key that must be present and non-null.
func maRequired[T any](path string, o optional[T]) error {
	if !o.Set {
		return invalidField(path, "is required")
	}
	if o.Null {
		return invalidField(path, "must not be null")
	}
	return nil
}

// maNotNull reports a key that may be omitted but not sent as null.
func maNotNull[T any](path string, o optional[T]) error {
	if o.Set && o.Null {
		return invalidField(path, "must not be null")
	}
	return nil
}

// maInt32Min checks an integer against [minV, int32 max].
func maInt32Min(path string, v int64, minV int64) error {
	if v < minV {
		return invalidField(path, "must be at least %d", minV)
	}
	if v > 1<<31-1 {
		return invalidField(path, "must be between %d and %d", minV, 1<<31-1)
	}
	return nil
}

// maOneOf checks an enum value (1.4 message).
func maOneOf(path, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return invalidField(path, "must be one of %s", quoteList(allowed))
}

// Metadata maps (1.5): at most 16 pairs, keys 1-64 characters, values at
// most 512 characters.
const (
	maMetadataPairs = 16
	maMetadataKey   = 64
	maMetadataValue = 512
)

// maMetadataCreate reads a create request's metadata: omitted is {}, null
// is refused, every value must be a string.
func maMetadataCreate(o optional[map[string]json.RawMessage]) (map[string]string, error) {
	if err := maNotNull("metadata", o); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, k := range maSortedKeys(o.Value) {
		v, err := maMetadataValueOf(k, o.Value[k])
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, invalidField("metadata."+k, "must not be null")
		}
		out[k] = *v
	}
	return out, maCheckMetadata(out, o.Value)
}

// maMetadataPatch applies an update's metadata patch to cur and returns the
// result (cur is not modified): a string upserts, null deletes, and so does
// "" when emptyDeletes is set (environments). Omitted or null metadata keeps
// the map. The pair limit applies to the result.
func maMetadataPatch(cur map[string]string, o optional[map[string]json.RawMessage], emptyDeletes bool) (map[string]string, error) {
	out := maps.Clone(cur)
	if out == nil {
		out = map[string]string{}
	}
	if !o.Present() {
		return out, nil
	}
	for _, k := range maSortedKeys(o.Value) {
		v, err := maMetadataValueOf(k, o.Value[k])
		if err != nil {
			return nil, err
		}
		if v == nil || (emptyDeletes && *v == "") {
			delete(out, k)
			continue
		}
		out[k] = *v
	}
	return out, maCheckMetadata(out, o.Value)
}

func maMetadataValueOf(k string, raw json.RawMessage) (*string, error) {
	if maIsNull(raw) {
		return nil, nil
	}
	var v string
	if maKind(raw) != '"' || json.Unmarshal(raw, &v) != nil {
		return nil, invalidField("metadata."+k, "must be a string")
	}
	return &v, nil
}

// maCheckMetadata checks the keys sent and the resulting map.
func maCheckMetadata(result map[string]string, sent map[string]json.RawMessage) error {
	for _, k := range maSortedKeys(sent) {
		if n := utf8.RuneCountInString(k); n < 1 || n > maMetadataKey {
			return invalidField("metadata", "keys must be between 1 and %d characters", maMetadataKey)
		}
		if v, ok := result[k]; ok && utf8.RuneCountInString(v) > maMetadataValue {
			return invalidField("metadata."+k, "must be at most %d characters", maMetadataValue)
		}
	}
	if len(result) > maMetadataPairs {
		return invalidField("metadata", "must have at most %d pairs", maMetadataPairs)
	}
	return nil
}

func maSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// maCreatedRange is an inclusive created_at[gte]/created_at[lte] window;
// zero bounds are open.
type maCreatedRange struct{ gte, lte time.Time }

// maParseCreatedRange reads created_at[gte] and created_at[lte] (RFC 3339).
func maParseCreatedRange(q url.Values) (maCreatedRange, error) {
	var r maCreatedRange
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"created_at[gte]", &r.gte}, {"created_at[lte]", &r.lte}} {
		raw, ok := queryValue(q, p.name)
		if !ok {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			return r, invalidField(p.name, "must be an RFC 3339 timestamp")
		}
		*p.dst = t
	}
	return r, nil
}

func (r maCreatedRange) contains(t time.Time) bool {
	return (r.gte.IsZero() || !t.Before(r.gte)) && (r.lte.IsZero() || !t.After(r.lte))
}

// maStringPtr returns a pointer to a copy of s.
func maStringPtr(s string) *string { return &s }

// maCompact re-encodes JSON compactly (input_schema is echoed this way).
func maCompact(raw []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return json.RawMessage(bytes.Clone(raw))
	}
	return json.RawMessage(b.Bytes())
}
