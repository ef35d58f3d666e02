package refserver_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: Start's
// server, fault delays and dropped connections must all end.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
