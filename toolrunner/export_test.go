package toolrunner

import (
	"context"
	"sync"
	"testing"
	"time"
)

// WithObserver sees each answer the API accepted: when its call's event
// was received, and when Send returned. For the benchmarks.
func WithObserver(fn func(sessionID, callID string, received, accepted time.Time)) Option {
	return func(c *config) { c.observe = fn }
}

// IdleTimers stands in for the idle timeout's countdowns (WithIdleTimeout)
// until the test ends: they never elapse by themselves, whatever the
// duration; the test sees whether one is counting down (Armed) and makes
// it elapse (Fire). Tests do not run in parallel in this package.
type IdleTimers struct {
	mu     sync.Mutex
	timers []*manualTimer
}

type manualTimer struct {
	m     *IdleTimers
	f     func()
	armed bool
}

// ManualIdleTimers replaces the idle timeout's countdowns until tb ends.
// Call it before the runner starts.
func ManualIdleTimers(tb testing.TB) *IdleTimers {
	m := &IdleTimers{}
	old := newIdleTimer
	newIdleTimer = func(_ time.Duration, f func()) idleTimer {
		m.mu.Lock()
		defer m.mu.Unlock()
		t := &manualTimer{m: m, f: f, armed: true}
		m.timers = append(m.timers, t)
		return t
	}
	tb.Cleanup(func() { newIdleTimer = old })
	return m
}

func (t *manualTimer) Reset(time.Duration) bool {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	was := t.armed
	t.armed = true
	return was
}

func (t *manualTimer) Stop() bool {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	was := t.armed
	t.armed = false
	return was
}

// Armed reports whether an idle timeout is counting down.
func (m *IdleTimers) Armed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, t := range m.timers {
		if t.armed {
			return true
		}
	}
	return false
}

// Fire makes every countdown under way elapse, as a *time.Timer's would,
// and reports whether there was one.
func (m *IdleTimers) Fire() bool {
	m.mu.Lock()
	var due []func()
	for _, t := range m.timers {
		if t.armed {
			t.armed = false
			due = append(due, t.f)
		}
	}
	m.mu.Unlock()
	for _, f := range due {
		f()
	}
	return len(due) > 0
}

// ToolTimeouts stands in for the tools' timeouts (WithToolTimeout) until
// the test ends: a call's timeout passes only when the test calls Expire
// with its CallID, whatever the duration. Tests do not run in parallel in
// this package.
type ToolTimeouts struct {
	mu     sync.Mutex
	expire map[string]func()
}

// ManualToolTimeouts replaces the tools' timeouts until tb ends. Call it
// before the runner starts.
func ManualToolTimeouts(tb testing.TB) *ToolTimeouts {
	m := &ToolTimeouts{expire: map[string]func(){}}
	old := toolDeadline
	toolDeadline = func(parent context.Context, _ time.Time, cause error) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancelCause(parent)
		m.mu.Lock()
		m.expire[CallID(parent)] = func() { cancel(cause) }
		m.mu.Unlock()
		return ctx, func() { cancel(context.Canceled) }
	}
	tb.Cleanup(func() { toolDeadline = old })
	return m
}

// Expire makes the timeout of the call with this CallID pass, and reports
// whether the call has one.
func (m *ToolTimeouts) Expire(callID string) bool {
	m.mu.Lock()
	expire, ok := m.expire[callID]
	m.mu.Unlock()
	if ok {
		expire()
	}
	return ok
}
