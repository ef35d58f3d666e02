package main

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if the server leaves a goroutine behind after
// its context ends.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
