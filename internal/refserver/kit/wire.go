package kit

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
// (1.6). Agents, environments, sessions and deployments share them.
//
// Error paths use dots and [i] indices ("tools[0].configs[2].name"), which
// encoding/json cannot produce for arrays: arrays of objects are therefore
// decoded as []json.RawMessage and each element is decoded with DecodeAt at
// its own path.

// BetaManagedAgents is the vendor-beta value agents, environments, sessions
// and deployments require (docs/managed-agents-wire.md 1.1).
const BetaManagedAgents = "managed-agents-2026-04-01"

// ManagedAgentsBetas is the route beta list of every managed-agents endpoint.
var ManagedAgentsBetas = []string{BetaManagedAgents}

// JoinPath appends a member name to a path: "" + "name" is "name",
// "tools[0]" + "name" is "tools[0].name".
func JoinPath(path, member string) string {
	switch {
	case path == "":
		return member
	case member == "":
		return path
	}
	return path + "." + member
}

// IndexPath appends an array index: "tools" + 2 is "tools[2]".
func IndexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// DecodeAt decodes the JSON object raw, found at path, strictly into dst
// (a struct of Optional fields and raw messages). Unknown keys, wrong types
// and a value that is not an object are 400s naming the full path. An empty
// path means the request body itself.
func DecodeAt(path string, raw []byte, dst any) error {
	if path == "" {
		return DecodeStrict(raw, dst)
	}
	if JSONKind(raw) != '{' {
		return InvalidField(path, "must be an object")
	}
	err := UnmarshalStrict(raw, dst)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := JoinPath(path, te.Field)
		if te.Type == UnknownFieldType {
			return InvalidField(field, "unknown field")
		}
		return InvalidField(field, "must be %s", DescribeType(te.Type))
	}
	return InvalidField(path, "invalid JSON")
}

// JSONKind returns the first byte of a JSON value: '{', '[', '"', 'n', 't',
// 'f', or a digit or '-'. Zero for an empty value.
func JSONKind(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

func IsNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// TypeAt reads the "type" discriminator of a union object at path. A
// missing or null type is "is required"; a non-string type is "must be a
// string".
func TypeAt(path string, raw []byte) (string, error) {
	if JSONKind(raw) != '{' {
		return "", InvalidField(path, "must be an object")
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return "", InvalidField(path, "must be an object")
	}
	t, ok := probe["type"]
	if !ok || IsNull(t) {
		return "", InvalidField(JoinPath(path, "type"), "is required")
	}
	var s string
	if err := json.Unmarshal(t, &s); err != nil {
		return "", InvalidField(JoinPath(path, "type"), "must be a string")
	}
	return s, nil
}

// BadType is the 1.4 union discriminator message.
func BadType(path string, allowed ...string) error {
	return InvalidField(JoinPath(path, "type"), "must be one of %s", QuoteList(allowed))
}

// ArrayAt checks that raw, found at path, is a JSON array and returns its
// elements.
func ArrayAt(path string, raw []byte) ([]json.RawMessage, error) {
	if JSONKind(raw) != '[' {
		return nil, InvalidField(path, "must be an array")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, InvalidField(path, "must be an array")
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	return items, nil
}

// CheckCount checks an array length against [minN, maxN].
func CheckCount(path string, n, minN, maxN int) error {
	if n >= minN && n <= maxN {
		return nil
	}
	if minN == 0 {
		return InvalidField(path, "must have at most %d items", maxN)
	}
	return InvalidField(path, "must have between %d and %d items", minN, maxN)
}

// StringsAt reads an array of strings, each element checked by check (nil:
// any string), with indexed paths.
func StringsAt(path string, raw []byte, check func(path, s string) error) ([]string, error) {
	items, err := ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, item := range items {
		p := IndexPath(path, i)
		if JSONKind(item) != '"' {
			if IsNull(item) {
				return nil, InvalidField(p, "must not be null")
			}
			return nil, InvalidField(p, "must be a string")
		}
		if err := json.Unmarshal(item, &out[i]); err != nil {
			return nil, InvalidField(p, "must be a string")
		}
		if check != nil {
			if err := check(p, out[i]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Required reports a key that must be present and non-null.
func Required[T any](path string, o Optional[T]) error {
	if !o.Set {
		return InvalidField(path, "is required")
	}
	if o.Null {
		return InvalidField(path, "must not be null")
	}
	return nil
}

// NotNull reports a key that may be omitted but not sent as null.
func NotNull[T any](path string, o Optional[T]) error {
	if o.Set && o.Null {
		return InvalidField(path, "must not be null")
	}
	return nil
}

// Int32Min checks an integer against [minV, int32 max].
func Int32Min(path string, v int64, minV int64) error {
	if v < minV {
		return InvalidField(path, "must be at least %d", minV)
	}
	if v > 1<<31-1 {
		return InvalidField(path, "must be between %d and %d", minV, 1<<31-1)
	}
	return nil
}

// OneOf checks an enum value (1.4 message).
func OneOf(path, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return InvalidField(path, "must be one of %s", QuoteList(allowed))
}

// Metadata maps (1.5): at most 16 pairs, keys 1-64 characters, values at
// most 512 characters.
const (
	metadataPairs = 16
	metadataKey   = 64
	metadataValue = 512
)

// MetadataCreate reads a create request's metadata: omitted is {}, null
// is refused, every value must be a string.
func MetadataCreate(o Optional[map[string]json.RawMessage]) (map[string]string, error) {
	if err := NotNull("metadata", o); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, k := range SortedKeys(o.Value) {
		v, err := metadataValueOf(k, o.Value[k])
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, InvalidField("metadata."+k, "must not be null")
		}
		out[k] = *v
	}
	return out, checkMetadata(out, o.Value)
}

// MetadataPatch applies an update's metadata patch to cur and returns the
// result (cur is not modified): a string upserts, null deletes, and so does
// "" when emptyDeletes is set (environments). Omitted or null metadata keeps
// the map. The pair limit applies to the result.
func MetadataPatch(cur map[string]string, o Optional[map[string]json.RawMessage], emptyDeletes bool) (map[string]string, error) {
	out := maps.Clone(cur)
	if out == nil {
		out = map[string]string{}
	}
	if !o.Present() {
		return out, nil
	}
	for _, k := range SortedKeys(o.Value) {
		v, err := metadataValueOf(k, o.Value[k])
		if err != nil {
			return nil, err
		}
		if v == nil || (emptyDeletes && *v == "") {
			delete(out, k)
			continue
		}
		out[k] = *v
	}
	return out, checkMetadata(out, o.Value)
}

func metadataValueOf(k string, raw json.RawMessage) (*string, error) {
	if IsNull(raw) {
		return nil, nil
	}
	var v string
	if JSONKind(raw) != '"' || json.Unmarshal(raw, &v) != nil {
		return nil, InvalidField("metadata."+k, "must be a string")
	}
	return &v, nil
}

// checkMetadata checks the keys sent and the resulting map.
func checkMetadata(result map[string]string, sent map[string]json.RawMessage) error {
	for _, k := range SortedKeys(sent) {
		if n := utf8.RuneCountInString(k); n < 1 || n > metadataKey {
			return InvalidField("metadata", "keys must be between 1 and %d characters", metadataKey)
		}
		if v, ok := result[k]; ok && utf8.RuneCountInString(v) > metadataValue {
			return InvalidField("metadata."+k, "must be at most %d characters", metadataValue)
		}
	}
	if len(result) > metadataPairs {
		return InvalidField("metadata", "must have at most %d pairs", metadataPairs)
	}
	return nil
}

func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CreatedRange is an inclusive created_at[gte]/created_at[lte] window;
// zero bounds are open.
type CreatedRange struct{ gte, lte time.Time }

// ParseCreatedRange reads created_at[gte] and created_at[lte] (RFC 3339).
func ParseCreatedRange(q url.Values) (CreatedRange, error) {
	var r CreatedRange
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"created_at[gte]", &r.gte}, {"created_at[lte]", &r.lte}} {
		raw, ok := QueryValue(q, p.name)
		if !ok {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, raw)
		if err != nil {
			return r, InvalidField(p.name, "must be an RFC 3339 timestamp")
		}
		*p.dst = t
	}
	return r, nil
}

func (r CreatedRange) Contains(t time.Time) bool {
	return (r.gte.IsZero() || !t.Before(r.gte)) && (r.lte.IsZero() || !t.After(r.lte))
}

// StringPtr returns a pointer to a copy of s.
func StringPtr(s string) *string { return &s }

// CompactJSON re-encodes JSON compactly (input_schema is echoed this way).
func CompactJSON(raw []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return json.RawMessage(bytes.Clone(raw))
	}
	return json.RawMessage(b.Bytes())
}

// ClearableString applies an optional nullable string with a maximum
// length: omitted keeps cur; null and "" clear it (stored as null).
func ClearableString(path string, o Optional[string], cur *string, maxLen int) (*string, error) {
	if !o.Set {
		return cur, nil
	}
	if o.Null || o.Value == "" {
		return nil, nil
	}
	if err := CheckLength(path, o.Value, 0, maxLen); err != nil {
		return nil, err
	}
	return StringPtr(o.Value), nil
}

// RawOrNil turns an optional raw member into the convention of the
// parsers that merge over a stored value (agents.ParseTools): nil when
// omitted, the JSON null when null.
func RawOrNil(o Optional[json.RawMessage]) json.RawMessage {
	switch {
	case !o.Set:
		return nil
	case o.Null:
		return json.RawMessage("null")
	}
	return o.Value
}

// SameJSON reports whether a and b have the same wire form: how an update
// tells that it changes nothing.
func SameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
