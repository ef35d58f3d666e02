package refserver

import (
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Clock is the server's source of time. Every timestamp the server writes
// (created_at, archived_at, the request log) and every expiry it checks (API
// keys, idempotency records) reads it, so a test that injects a ManualClock
// controls all of them.
type Clock = kit.Clock

// ManualClock is a Clock that moves when told to: frozen (NewManualClock)
// or also with real time (NewRunningClock). It is safe for concurrent use.
type ManualClock = kit.ManualClock

// NewManualClock returns a ManualClock that reads t until it is advanced.
func NewManualClock(t time.Time) *ManualClock { return kit.NewManualClock(t) }

// NewRunningClock returns a ManualClock that also follows real time: it
// reads t plus the real time elapsed since the call, plus every Advance.
// It lets a test skip ahead (expire a key, reach a schedule's next fire)
// on a server whose clock otherwise behaves like the system's.
//
// A server treats it as any ManualClock: what falls due as real time
// passes is done on the next request or the next move of the clock, not by
// a background ticker (an Advance(0) catches up), and a wait on the server
// clock (the delay directive) is woken only by a move of the clock.
func NewRunningClock(t time.Time) *ManualClock { return kit.NewRunningClock(t) }

// IDSource makes identifiers. It receives a prefix such as "wrkspc_" and
// returns the whole id. The server asks it for every id it assigns, request
// ids included, so a deterministic source makes whole responses reproducible.
type IDSource = kit.IDSource

// RandomIDs returns the default IDSource: prefix + "01" + 22 random base62
// characters from crypto/rand.
func RandomIDs() IDSource { return kit.RandomIDs() }

// SequentialIDs returns a deterministic IDSource: prefix + "01" + a base62
// counter zero-padded to 22 characters, one counter per prefix, starting at 1.
// It is safe for concurrent use.
func SequentialIDs() IDSource { return kit.SequentialIDs() }
