// Package leaktest is goleak with patience, for the repository's tests.
//
// goleak gives goroutines about half a second to end before it reports
// them. On a loaded machine the goroutines of a closed connection or a
// stopped server can take longer than that to be scheduled and return, so
// a check made with goleak alone can fail with no leak at all. The
// functions here retry goleak's own check until it passes or Patience has
// gone by: a real leak still fails, only later.
package leaktest

import (
	"fmt"
	"io"
	"os"
	"time"

	"go.uber.org/goleak"
)

// Patience is how long goroutines are given to end before they are
// reported as leaked.
const Patience = 30 * time.Second

// poll is the pause between two checks.
const poll = 10 * time.Millisecond

// patience and afterCheck are replaced by this package's own tests.
var (
	patience   = Patience
	afterCheck = func() {}
)

// Find is goleak.Find retried until it finds no unexpected goroutine or
// Patience has gone by; it returns the last check's error.
func Find(opts ...goleak.Option) error {
	deadline := time.Now().Add(patience)
	for {
		err := goleak.Find(opts...)
		if err == nil || !time.Now().Before(deadline) {
			return err
		}
		afterCheck()
		time.Sleep(poll)
	}
}

// VerifyNone is goleak.VerifyNone with patience: it marks t as failed if
// unexpected goroutines are still running after Patience.
func VerifyNone(t goleak.TestingT, opts ...goleak.Option) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if err := Find(opts...); err != nil {
		t.Error(err)
	}
}

// stderr and exit are replaced by this package's own tests.
var (
	stderr io.Writer = os.Stderr
	exit             = os.Exit
)

// VerifyTestMain is goleak.VerifyTestMain with patience: it runs the
// tests and, if they passed, fails the run when unexpected goroutines are
// still running after Patience. Use it as a package's TestMain:
//
//	func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }
func VerifyTestMain(m goleak.TestingM, opts ...goleak.Option) {
	code := m.Run()
	if code == 0 {
		if err := Find(opts...); err != nil {
			fmt.Fprintf(stderr, "goleak: errors on successful test run: %v\n", err)
			code = 1
		}
	}
	exit(code)
}
