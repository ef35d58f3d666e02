package agenttoolset

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/tool"
)

// BashInput is the input of the bash tool.
type BashInput struct {
	Command   string  `json:"command,omitempty" jsonschema:"the command to run with bash -c in the working directory; required unless restart is true"`
	Restart   bool    `json:"restart,omitempty" jsonschema:"restart the shell; every command already runs in a fresh shell, so this only succeeds"`
	TimeoutMS float64 `json:"timeout_ms,omitempty" jsonschema:"how long the command may run, in milliseconds (at most 10 minutes); 0 or absent means the default"`
}

func (t *Toolset) bashTool() tool.Tool {
	return tool.Must(tool.New("bash",
		"Run a shell command with bash -c in the working directory and return its combined stdout and stderr and its exit status. Each command runs in a fresh shell, with a minimal environment; background processes are killed when the command ends.",
		t.bash))
}

func (t *Toolset) bash(ctx context.Context, in BashInput) (tool.Result, error) {
	if in.TimeoutMS < 0 {
		return tool.Result{}, fmt.Errorf("timeout_ms must be 0 or more, got %v", in.TimeoutMS)
	}
	if in.Command == "" {
		if in.Restart {
			return tool.Text("restarted: every command runs in a fresh shell, so there was no state to reset"), nil
		}
		return tool.Result{}, errors.New("command must not be empty (it may be omitted only when restart is true)")
	}
	timeout := t.timeout(in.TimeoutMS)
	if err := t.begin(); err != nil {
		return tool.Result{}, err
	}
	defer t.running.Done()
	r, err := t.runShell(ctx, in.Command, timeout)
	if err != nil {
		return tool.Result{}, err
	}
	text := r.out.String()
	if text == "" {
		text = "(no output)"
	}
	switch {
	case r.stopped != "":
		return tool.Errorf("%s\n[%s: the command and its child processes were killed]", text, r.stopped), nil
	case r.exitCode != 0:
		return tool.Errorf("%s\n[exit status %d]", text, r.exitCode), nil
	}
	return tool.Text(text), nil
}

// timeout is how long a command may run when its call asks for ms
// milliseconds: the toolset's default for 0, and never more than
// MaxBashTimeout nor less than a millisecond.
func (t *Toolset) timeout(ms float64) time.Duration {
	switch {
	case ms <= 0:
		return t.bashTimeout
	case ms >= float64(MaxBashTimeout/time.Millisecond):
		return MaxBashTimeout
	}
	return max(time.Duration(ms*float64(time.Millisecond)), time.Millisecond)
}

// shellRun is the outcome of one command.
type shellRun struct {
	out      headTail
	exitCode int    // -1 when killed by a signal
	stopped  string // why the toolset killed it, or ""
}

// headTail keeps the first and the last bytes of an output over its cap,
// the parts that usually matter (what ran, how it ended), and counts what
// it drops in between.
type headTail struct {
	max        int
	head, tail []byte
	total      int64
}

func (h *headTail) Write(p []byte) (int, error) {
	n := len(p)
	h.total += int64(n)
	headMax := h.max / 2
	if k := min(headMax-len(h.head), len(p)); k > 0 {
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	tailMax := h.max - headMax
	if len(p) >= tailMax {
		h.tail = append(h.tail[:0], p[len(p)-tailMax:]...)
		return n, nil
	}
	h.tail = append(h.tail, p...)
	if extra := len(h.tail) - tailMax; extra > 0 {
		h.tail = h.tail[:copy(h.tail, h.tail[extra:])]
	}
	return n, nil
}

func (h *headTail) String() string {
	var s string
	if cut := h.total - int64(len(h.head)+len(h.tail)); cut > 0 {
		s = fmt.Sprintf("%s\n[... %d bytes of output cut here ...]\n%s", h.head, cut, h.tail)
	} else {
		s = string(h.head) + string(h.tail)
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
