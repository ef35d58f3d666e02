package mcptool_test

import (
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
)

// TestMain fails the package if a test or example leaves a goroutine
// behind (an MCP session not closed, a call not ended).
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
