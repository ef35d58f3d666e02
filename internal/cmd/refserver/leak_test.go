package main

import (
	"testing"

	"github.com/agentplatform/agentplatform-go/internal/leaktest"
)

// TestMain fails the package if the server leaves a goroutine behind after
// its context ends.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
