package auth_test

import (
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
)

// TestMain fails the package if a test leaves a goroutine behind: a source
// must not outlive Close, and an exchange must not outlive its request.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
