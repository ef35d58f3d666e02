package refserver

import (
	"testing"
	"time"
)

// SetShutdownGraceForTest sets how long stop waits for in-flight requests
// until t ends. Tests do not run in parallel in this package.
func SetShutdownGraceForTest(t testing.TB, d time.Duration) {
	old := shutdownGrace
	shutdownGrace = d
	t.Cleanup(func() { shutdownGrace = old })
}
