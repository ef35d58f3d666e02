package platformtest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: Close
// must end the server, its connections and the clock's ticker.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
