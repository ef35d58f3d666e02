package messages

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Diagnostics explains why the prompt cache could not reuse the prefix of
// an earlier request the caller named (docs/messages-wire.md 4.1). A
// message carries it only when the request asked for it and a divergence
// was found; otherwise Message.Diagnostics is nil. In a stream it arrives
// with message_start.
type Diagnostics struct {
	// CacheMissReason is nil while the diagnosis is still pending: the
	// response was written before the comparison finished.
	CacheMissReason *CacheMissReason `json:"cache_miss_reason"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CacheMissReason is why the cached prefix was not reused. Type is one of
// the CacheMiss constants; unknown values are kept.
type CacheMissReason struct {
	Type string `json:"type"`
	// CacheMissedInputTokens approximates the input tokens that would have
	// been read from the cache; 0 for the types that do not carry it.
	CacheMissedInputTokens int `json:"cache_missed_input_tokens,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// The cache miss reasons. The first four carry CacheMissedInputTokens.
const (
	CacheMissModelChanged            = "model_changed"    // model or speed differ
	CacheMissSystemChanged           = "system_changed"   // system differs
	CacheMissToolsChanged            = "tools_changed"    // tools added, removed or reordered
	CacheMissMessagesChanged         = "messages_changed" // an earlier message changed, not only appended ones
	CacheMissPreviousMessageNotFound = "previous_message_not_found"
	CacheMissUnavailable             = "unavailable" // no diagnosis; the request ran normally
)

// DiagnosticsParams opts a request in to cache-miss diagnostics
// (MessageParams.Diagnostics). The platform remembers the prompt of each
// request that carried it, under the id of its response, for a while.
type DiagnosticsParams struct {
	// PreviousMessageID is the id ("msg_…") of this conversation's previous
	// response, whose request also carried Diagnostics. nil sends null: on
	// the first turn, to opt in with nothing to compare yet.
	PreviousMessageID *string `json:"previous_message_id"`
}

type (
	plainDiagnostics     Diagnostics
	plainCacheMissReason CacheMissReason
)

func (d Diagnostics) MarshalJSON() ([]byte, error) { return wire.Marshal(plainDiagnostics(d)) }
func (d *Diagnostics) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainDiagnostics)(d), &d.Extra)
}

func (r CacheMissReason) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCacheMissReason(r)) }
func (r *CacheMissReason) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainCacheMissReason)(r), &r.Extra)
}
