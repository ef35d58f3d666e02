package platformtest

import (
	"time"
)

// The server's clock. Everything the server dates or times out reads it:
// created_at and the other timestamps, event processed_at, the expiry of
// access tokens, keys and idempotency records, and deployment schedules.
// It only moves forward, so what a test observes stays consistent.
//
// By default it reads the real time plus whatever Advance added; with
// WithStartTime it stands still between Advance calls.

// Now returns the server's current time.
func (s *Server) Now() time.Time { return s.clock.Now() }

// Advance moves the server's clock forward by d and returns once the server
// has done what fell due meanwhile: each occurrence of an active
// deployment's schedule fires (dated its scheduled time, oldest first), and
// tokens and idempotency keys past their expiry stop working. Advance(0)
// only catches up. A negative d panics: the clock never goes back.
func (s *Server) Advance(d time.Duration) {
	if d < 0 {
		panic("platformtest: Advance: negative duration " + d.String())
	}
	s.clock.Advance(d)
}
