package pagination_test

import (
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
)

// TestMain fails the package if a test or example leaves a goroutine
// behind.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
