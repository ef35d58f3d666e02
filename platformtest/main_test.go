package platformtest_test

import (
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
)

// TestMain fails the package if a test leaves a goroutine behind: Close
// must end the server, its connections and the clock's ticker.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
