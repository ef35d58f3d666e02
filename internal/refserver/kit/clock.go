package kit

import (
	"sync"
	"time"
)

// Clock is the server's source of time. Every timestamp the server writes
// (created_at, archived_at, the request log) and every expiry it checks (API
// keys, idempotency records) reads it, so a test that injects a ManualClock
// controls all of them.
type Clock interface {
	Now() time.Time
}

// SystemClock is the default Clock: the time of the machine.
type SystemClock struct{}

func (SystemClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that moves when told to: frozen (NewManualClock)
// or also with real time (NewRunningClock). It is safe for concurrent use.
type ManualClock struct {
	mu       sync.Mutex
	now      time.Time // the reading at started (running) or always (frozen)
	started  time.Time // zero for a frozen clock; carries the monotonic reading
	watchers []func()
}

// NewManualClock returns a ManualClock that reads t until it is advanced.
func NewManualClock(t time.Time) *ManualClock {
	return &ManualClock{now: t}
}

// NewRunningClock returns a ManualClock that also follows real time: it
// reads t plus the real time elapsed since the call, plus every Advance.
// It lets a test skip ahead (expire a key, reach a schedule's next fire)
// on a server whose clock otherwise behaves like the system's.
//
// A server treats it as any ManualClock: what falls due as real time
// passes is done on the next request or the next move of the clock, not by
// a background ticker (an Advance(0) catches up), and a wait on the server
// clock (the delay directive) is woken only by a move of the clock.
func NewRunningClock(t time.Time) *ManualClock {
	return &ManualClock{now: t, started: time.Now()}
}

// running reports whether the clock also follows real time.
func (c *ManualClock) running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.started.IsZero()
}

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started.IsZero() {
		return c.now
	}
	return c.now.Add(time.Since(c.started))
}

// Advance moves the clock forward by d (backward when d is negative). A
// server using the clock then does what fell due meanwhile (scheduled
// deployments fire) before Advance returns.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	c.notify()
}

// Set moves the clock to t, with the same effect as Advance. A running
// clock goes on from t.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	if !c.started.IsZero() {
		c.started = time.Now()
	}
	c.mu.Unlock()
	c.notify()
}

// watch registers fn to run after every move of the clock.
func (c *ManualClock) watch(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watchers = append(c.watchers, fn)
}

// notify runs the watchers without holding the clock's lock: they read the
// clock.
func (c *ManualClock) notify() {
	c.mu.Lock()
	watchers := c.watchers
	c.mu.Unlock()
	for _, fn := range watchers {
		fn()
	}
}

// TimestampLayout is RFC 3339 in UTC with exactly six fractional digits, the
// form the platform writes (2026-11-25T21:56:21.123456Z).
const TimestampLayout = "2006-01-02T15:04:05.000000Z"

// Timestamp is a time that marshals in TimestampLayout. Nullable timestamps
// are *timestamp, which marshal as null when nil (null keys are sent, not
// left out).
type Timestamp time.Time

func (t Timestamp) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(TimestampLayout)+2)
	b = append(b, '"')
	b = time.Time(t).UTC().AppendFormat(b, TimestampLayout)
	return append(b, '"'), nil
}

// OptionalTimestamp converts a possibly zero time into a nullable timestamp.
func OptionalTimestamp(t time.Time) *Timestamp {
	if t.IsZero() {
		return nil
	}
	ts := Timestamp(t)
	return &ts
}

// OnMove registers fn to run after every move of c (Advance, Set): the
// server does then what fell due. It is a function, not a method, so that
// it stays out of the ManualClock API tests see.
func OnMove(c *ManualClock, fn func()) { c.watch(fn) }
