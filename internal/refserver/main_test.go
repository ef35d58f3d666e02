package refserver_test

import (
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
)

// TestMain fails the package if a test leaves a goroutine behind: Start's
// server, fault delays and dropped connections must all end.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
