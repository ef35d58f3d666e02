package refserver

import (
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// SetShutdownGraceForTest sets how long stop waits for in-flight requests
// until t ends. Tests do not run in parallel in this package.
func SetShutdownGraceForTest(t testing.TB, d time.Duration) {
	old := shutdownGrace
	shutdownGrace = d
	t.Cleanup(func() { shutdownGrace = old })
}

// SetConnTimeoutsForTest sets the read and idle timeouts of servers started
// until t ends.
func SetConnTimeoutsForTest(t testing.TB, read, idle time.Duration) {
	oldRead, oldIdle := readTimeout, idleTimeout
	readTimeout, idleTimeout = read, idle
	t.Cleanup(func() { readTimeout, idleTimeout = oldRead, oldIdle })
}

// SetStreamWriteTimeoutForTest sets how long a stream's write may block
// until t ends.
func SetStreamWriteTimeoutForTest(t testing.TB, d time.Duration) {
	old := kit.StreamWriteTimeout
	kit.StreamWriteTimeout = d
	t.Cleanup(func() { kit.StreamWriteTimeout = old })
}
