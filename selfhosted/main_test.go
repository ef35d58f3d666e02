package selfhosted_test

import (
	"os"
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
)

// TestMain fails the package if a test leaves a goroutine behind. A fleet
// worker process (see fleet_test.go) skips the check: it is killed.
func TestMain(m *testing.M) {
	if os.Getenv(envFleetWorker) == "1" {
		os.Exit(m.Run())
	}
	leaktest.VerifyTestMain(m)
}
