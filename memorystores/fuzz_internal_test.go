package memorystores

import (
	"encoding/json"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/union/uniontest"
)

// unknownRaw is the Unknown variant of the actor and listing-item unions,
// which keep Type and JSON fields of their own rather than a union.Raw.
func unknownRaw(v any) (string, []byte, bool) {
	switch u := v.(type) {
	case *UnknownActor:
		return u.Type, u.JSON, true
	case *UnknownListItem:
		return u.Type, u.JSON, true
	}
	return "", nil, false
}

func memoryVersion(data []byte) (MemoryVersion, error) {
	var v MemoryVersion
	err := json.Unmarshal(data, &v)
	return v, err
}

// unionChecks are the union decoders of the package and the version that
// holds actors, by the kind byte of FuzzDecodeUnion.
var unionChecks = []func(*testing.T, []byte){
	uniontest.Decoder[Actor]{Decode: decodeActor, Unknown: unknownRaw, EmptyIsAbsent: true}.Check,
	uniontest.Decoder[ListItem]{Decode: decodeListItem, Unknown: unknownRaw}.Check,
	uniontest.Decoder[MemoryVersion]{Decode: memoryVersion}.Check,
}

// FuzzDecodeUnion checks the actor union (who wrote or redacted a
// version), the listing-item union, and MemoryVersion: no panic, no value
// from invalid JSON, unknown types kept byte for byte, and a stable round
// trip through json.Marshal (see uniontest).
func FuzzDecodeUnion(f *testing.F) {
	const (
		actor = iota
		listItem
		version
	)
	for _, seed := range []struct {
		kind uint8
		data string
	}{
		// As docs/managed-agents-wire.md and TestUnknownVariantsAreKept show them.
		{actor, `{"type":"api_actor","api_key_id":"apikey_011CZkZ1"}`},
		{actor, `{"type":"session_actor","session_id":"sesn_011CZkZAtmR3yMPDzynEDxu7"}`},
		{actor, `{"type":"user_actor","user_id":"user_1"}`},
		{actor, `{"type":"agent_actor","agent_id":"agent_1"}`},
		{actor, `null`},
		{listItem, `{"type":"memory_prefix","path":"/a/"}`},
		{listItem, `{"type":"memory_link","path":"/b","target":"/a/x"}`},
		{listItem, `{"type":"memory","id":"mem_1","memory_store_id":"memstore_1","path":"/c","content":null,"content_sha256":"x","content_size_bytes":0,"memory_version_id":"memver_1","created_at":"2026-03-15T10:00:00Z","updated_at":"2026-03-15T10:00:00Z"}`},
		{listItem, `{"type":"memory","id":"mem_2","path":"/d","content":"","content_sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","content_size_bytes":0}`},
		{version, `{"type":"memory_version","id":"memver_1","memory_store_id":"memstore_1","memory_id":"mem_1","operation":"merged","path":null,"content":null,"content_sha256":null,"content_size_bytes":null,` +
			`"created_by":{"type":"agent_actor","agent_id":"agent_1"},"redacted_at":"2026-03-15T11:00:00Z","redacted_by":{"type":"user_actor","user_id":"user_1"},"created_at":"2026-03-15T10:00:00Z"}`},
		{version, `{"type":"memory_version","id":"memver_2","memory_store_id":"memstore_1","memory_id":"mem_1","operation":"created","path":"/notes.md","content":"hi","content_sha256":"x","content_size_bytes":2,` +
			`"created_by":{"type":"api_actor","api_key_id":"apikey_1"},"redacted_at":null,"redacted_by":null,"created_at":"2026-03-15T10:00:00Z"}`},
	} {
		f.Add(seed.kind, []byte(seed.data))
	}
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		unionChecks[int(kind)%len(unionChecks)](t, data)
	})
}
