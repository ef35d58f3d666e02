//go:build unix

package agenttoolset_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
	"github.com/agentplatform/agentplatform-go/tool"
)

func TestBashRunsInTheDirectory(t *testing.T) {
	ts, dir := newToolset(t)
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, real+"\n", ok(t, run(t, ts, "bash", map[string]any{"command": "pwd -P"})))
	assert.Equal(t, "out\nerr\n", ok(t, run(t, ts, "bash", map[string]any{"command": "echo out; echo err >&2"})))
	assert.Equal(t, "(no output)", ok(t, run(t, ts, "bash", map[string]any{"command": "true"})))
	ok(t, run(t, ts, "bash", map[string]any{"command": "echo made > made.txt"}))
	assert.Equal(t, "made\n", readFile(t, filepath.Join(dir, "made.txt")))
}

func TestBashExitStatus(t *testing.T) {
	ts, _ := newToolset(t)
	assert.Equal(t, "partial\n\n[exit status 3]", fails(t, run(t, ts, "bash", map[string]any{"command": "echo partial; exit 3"})))
	assert.Equal(t, "(no output)\n[exit status 1]", fails(t, run(t, ts, "bash", map[string]any{"command": "false"})))
}

func TestBashInput(t *testing.T) {
	ts, _ := newToolset(t)
	assert.Contains(t, ok(t, run(t, ts, "bash", map[string]any{"restart": true})), "no state to reset")
	assert.Equal(t, "x\n", ok(t, run(t, ts, "bash", map[string]any{"restart": true, "command": "echo x"})))
	assert.Contains(t, fails(t, run(t, ts, "bash", map[string]any{})),
		"command must not be empty (it may be omitted only when restart is true)")
	assert.Contains(t, fails(t, run(t, ts, "bash", map[string]any{"command": "true", "timeout_ms": -1})),
		"timeout_ms must be 0 or more")
}

// Each command runs in a fresh shell: nothing carries over.
func TestBashFreshShellEachCall(t *testing.T) {
	ts, _ := newToolset(t)
	ok(t, run(t, ts, "bash", map[string]any{"command": "export KEEP=1; cd /"}))
	assert.Equal(t, "[]\n", ok(t, run(t, ts, "bash", map[string]any{"command": `echo "[$KEEP]"`})))
}

func TestBashEnvironmentIsNotInherited(t *testing.T) {
	t.Setenv("VENDOR_API_KEY", "sk-must-not-leak")
	ts, dir := newToolset(t, agenttoolset.WithEnv("EXTRA=1", "TERM=xterm"))
	out := ok(t, run(t, ts, "bash", map[string]any{"command": "env"}))
	assert.NotContains(t, out, "VENDOR_API_KEY")
	assert.NotContains(t, out, "sk-must-not-leak")
	for _, want := range []string{"HOME=" + dir + "\n", "LANG=C.UTF-8\n", "EXTRA=1\n", "PATH=", "TERM=xterm\n"} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "TERM=dumb", "WithEnv replaces a default")
}

func TestBashOutputKeepsHeadAndTail(t *testing.T) {
	ts, _ := newToolset(t, agenttoolset.WithMaxOutput(200))
	out := ok(t, run(t, ts, "bash", map[string]any{"command": "seq 1 10000"}))
	assert.True(t, strings.HasPrefix(out, "1\n2\n3\n"), out)
	assert.True(t, strings.HasSuffix(out, "9999\n10000\n"), out)
	// seq 1 10000 prints 48894 bytes, of which 200 are kept.
	assert.Contains(t, out, "\n[... 48694 bytes of output cut here ...]\n")
}

// The command sleeps far longer than its timeout, so it times out however
// fast or slow the machine is.
func TestBashTimeout(t *testing.T) {
	ts, _ := newToolset(t)
	msg := fails(t, run(t, ts, "bash", map[string]any{"command": "echo started; sleep 1000", "timeout_ms": 50}))
	assert.Equal(t, "started\n\n[timed out after 50ms: the command and its child processes were killed]", msg)

	ts, _ = newToolset(t, agenttoolset.WithBashTimeout(time.Millisecond))
	assert.Contains(t, fails(t, run(t, ts, "bash", map[string]any{"command": "sleep 1000"})), "timed out after 1ms")
}

// backgroundChild starts, with the bash tool, a command that leaves a
// background child, `sleep 1000`, then runs tail. It returns once the
// child runs, with the child's pid, the read end of a FIFO only the child
// holds open for writing (it reaches EOF when the child is gone), and the
// channel of the tool's result.
func backgroundChild(t *testing.T, ctx context.Context, ts *agenttoolset.Toolset, dir, tail string) (int, *os.File, <-chan tool.Result) {
	t.Helper()
	for _, name := range []string{"ready.fifo", "hold.fifo", "go.fifo"} {
		require.NoError(t, syscall.Mkfifo(filepath.Join(dir, name), 0o600))
	}
	result := make(chan tool.Result, 1)
	go func() {
		result <- runCtx(t, ctx, ts, "bash", map[string]any{
			"command": "sleep 1000 > hold.fifo & echo $! > ready.fifo; " + tail,
		})
	}()
	ready, err := os.Open(filepath.Join(dir, "ready.fifo")) // blocks until the shell writes
	require.NoError(t, err)
	defer ready.Close()
	require.NoError(t, ready.SetReadDeadline(time.Now().Add(waitTimeout)))
	b, err := io.ReadAll(ready)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	hold, err := os.Open(filepath.Join(dir, "hold.fifo")) // blocks until the child opens it
	require.NoError(t, err)
	t.Cleanup(func() { hold.Close() })
	return pid, hold, result
}

// childGone waits for the child's end: EOF on the FIFO it held.
func childGone(t *testing.T, hold *os.File, pid int) {
	t.Helper()
	require.NoError(t, hold.SetReadDeadline(time.Now().Add(waitTimeout)))
	_, err := io.ReadAll(hold)
	require.NoError(t, err, "the background child %d is still running", pid)
}

func TestBashCancelKillsTheProcessGroup(t *testing.T) {
	ts, dir := newToolset(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pid, hold, result := backgroundChild(t, ctx, ts, dir, "wait")
	cancel()
	childGone(t, hold, pid)
	assert.Contains(t, fails(t, <-result), "[cancelled: the command and its child processes were killed]")
}

func TestBashCloseKillsTheProcessGroup(t *testing.T) {
	dir := t.TempDir()
	ts, err := agenttoolset.New(dir)
	require.NoError(t, err)
	pid, hold, result := backgroundChild(t, context.Background(), ts, dir, "wait")
	require.NoError(t, ts.Close())
	childGone(t, hold, pid)
	assert.Contains(t, fails(t, <-result), "[the toolset was closed: the command and its child processes were killed]")
}

func TestBashBackgroundChildEndsWithTheCommand(t *testing.T) {
	ts, dir := newToolset(t)
	pid, hold, result := backgroundChild(t, context.Background(), ts, dir, "read x < go.fifo; echo done")
	release, err := os.OpenFile(filepath.Join(dir, "go.fifo"), os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = release.WriteString("go\n")
	require.NoError(t, err)
	require.NoError(t, release.Close())
	assert.Equal(t, "done\n", ok(t, <-result))
	childGone(t, hold, pid)
}
