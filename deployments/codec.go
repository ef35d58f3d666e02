package deployments

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// unions decodes every interface-typed field of this package's wire types:
// its own unions and the sessions ones a deployment echoes back (initial
// events, a repository's checkout).
var unions = wire.Join(
	wire.Union(decodePausedReason),
	wire.Union(decodeTriggerContext),
	wire.Union(decodeResourceConfig),
	wire.Union(func(_ string, obj []byte) (sessions.EventParam, error) {
		return sessions.DecodeEventParam(obj)
	}),
	checkoutUnion,
)

// checkouts decodes a repository's checkout alone: decodeResourceConfig
// cannot use unions, which refers to it.
var (
	checkoutUnion = wire.Union(func(_ string, obj []byte) (sessions.Checkout, error) {
		return sessions.DecodeCheckout(obj)
	})
	checkouts = wire.Join(checkoutUnion)
)

// unknownJSON is how an Unknown variant writes itself: the object it was
// decoded from, or, when built by hand without one, an object holding only
// its type.
func unknownJSON(typ string, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return wire.WithType(typ, []byte("{}"))
	}
	return raw, nil
}

// named prefixes a variant's decode error with its type: the engine adds
// where the variant is, the variant's error says what in it is wrong.
func named(typ string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", typ, err)
}

// clone copies a union object, which a decoder may reuse once the variant
// is returned.
func clone(obj []byte) json.RawMessage { return bytes.Clone(obj) }
