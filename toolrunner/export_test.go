package toolrunner

import "time"

// WithObserver sees each answer the API accepted: when its call's event
// was received, and when Send returned. For the benchmarks.
func WithObserver(fn func(sessionID, callID string, received, accepted time.Time)) Option {
	return func(c *config) { c.observe = fn }
}
