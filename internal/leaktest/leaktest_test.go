package leaktest

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"
)

// blocked starts a goroutine that runs until release is called.
func blocked(t *testing.T) (release func()) {
	t.Helper()
	ch := make(chan struct{})
	started := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		close(started)
		<-ch
	}()
	<-started
	var once sync.Once
	release = func() { once.Do(func() { close(ch) }); <-done }
	t.Cleanup(release)
	return release
}

// onCheck runs check after each of Find's failed checks.
func onCheck(t *testing.T, check func()) {
	t.Helper()
	old := afterCheck
	afterCheck = check
	t.Cleanup(func() { afterCheck = old })
}

// A goroutine that is still running when Find gives up is reported.
func TestFindReportsLeak(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	blocked(t)
	old := patience
	patience = 0
	t.Cleanup(func() { patience = old })
	err := Find(ignore)
	if err == nil || !strings.Contains(err.Error(), "blocked") {
		t.Fatalf("Find = %v, want the blocked goroutine reported", err)
	}
}

// A goroutine that ends after a failed check is not a leak: Find checks
// again instead of reporting it.
func TestFindWaits(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	release := blocked(t)
	checks := 0
	onCheck(t, func() {
		checks++
		release()
	})
	if err := Find(ignore); err != nil {
		t.Fatalf("Find = %v, want nil once the goroutine ended", err)
	}
	if checks == 0 {
		t.Fatal("the first check passed: the goroutine was not running")
	}
}

type fakeM struct{ code int }

func (m fakeM) Run() int { return m.code }

func TestVerifyTestMain(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	var out bytes.Buffer
	var code int
	oldStderr, oldExit := stderr, exit
	stderr, exit = &out, func(c int) { code = c }
	t.Cleanup(func() { stderr, exit = oldStderr, oldExit })

	VerifyTestMain(fakeM{code: 0}, ignore)
	if code != 0 || out.Len() != 0 {
		t.Fatalf("no leak: exit %d, output %q", code, out.String())
	}
	VerifyTestMain(fakeM{code: 3}, ignore)
	if code != 3 {
		t.Fatalf("failed tests: exit %d, want 3", code)
	}

	release := blocked(t)
	onCheck(t, release)
	VerifyTestMain(fakeM{code: 0}, ignore)
	if code != 0 {
		t.Fatalf("a goroutine that ended in time: exit %d, output %q", code, out.String())
	}

	blocked(t)
	old := patience
	patience = 0
	t.Cleanup(func() { patience = old })
	VerifyTestMain(fakeM{code: 0}, ignore)
	if code != 1 || !strings.Contains(out.String(), "unexpected goroutines") {
		t.Fatalf("a leak: exit %d, output %q", code, out.String())
	}
}
