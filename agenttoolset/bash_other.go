//go:build !unix

package agenttoolset

import (
	"context"
	"fmt"
	"runtime"
	"time"
)

// runShell refuses: process groups, which keep commands and their
// children under control, are implemented for Unix systems only.
func (t *Toolset) runShell(context.Context, string, time.Duration) (*shellRun, error) {
	return nil, fmt.Errorf("bash is not supported on %s", runtime.GOOS)
}
