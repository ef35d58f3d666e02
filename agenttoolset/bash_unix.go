//go:build unix

package agenttoolset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// orphanGrace bounds how long output is still read once a command's
// process group is gone: only a process that left the group (with setsid)
// can still hold the output pipe open, and it is not waited for.
const orphanGrace = time.Second

// runShell runs command in a process group of its own, and kills the whole
// group when the command ends, times out, is cancelled or the toolset is
// closed: no child the command started in the background survives it.
func (t *Toolset) runShell(ctx context.Context, command string, timeout time.Duration) (*shellRun, error) {
	if t.shell == "" {
		return nil, errors.New("no shell found: neither bash nor sh is on PATH")
	}
	// One pipe for stdout and stderr, read by us: exec's own copying
	// would make Wait wait for every background child holding the pipe.
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting the command: %v", err)
	}
	cmd := exec.Command(t.shell, "-c", command)
	cmd.Dir = t.dir
	cmd.Env = t.env
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return nil, fmt.Errorf("starting the command: %v", err)
	}
	pgid := cmd.Process.Pid // Setpgid: the shell leads a new group

	r := &shellRun{out: headTail{max: t.maxOutput}}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(&r.out, pr)
	}()
	waited := make(chan struct{})
	go func() {
		defer close(waited)
		_ = cmd.Wait() // the exit status is read from ProcessState
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-waited:
	case <-timer.C:
		r.stopped = fmt.Sprintf("timed out after %v", timeout)
	case <-ctx.Done():
		r.stopped = "cancelled"
	case <-t.closed:
		r.stopped = "the toolset was closed"
	}
	// Kill the group in every case: after a normal exit this ends the
	// background children the command left behind.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-waited
	_ = pr.SetReadDeadline(time.Now().Add(orphanGrace))
	<-copied
	pr.Close()
	r.exitCode = cmd.ProcessState.ExitCode()
	return r, nil
}
