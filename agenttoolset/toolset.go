package agenttoolset

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/tool"
)

// Defaults and limits of the options.
const (
	DefaultMaxFileSize = 256 << 10        // bytes read or edited at once, and written
	DefaultMaxOutput   = 30_000           // bytes of bash, glob and grep output
	DefaultBashTimeout = 2 * time.Minute  // per command, unless the call sets timeout_ms
	MaxBashTimeout     = 10 * time.Minute // the most a call's timeout_ms can ask for
)

// Toolset holds the tools confined to one directory. It is safe for
// concurrent use; Close it when the session ends.
type Toolset struct {
	dir  string   // absolute and clean
	alt  string   // dir with its symbolic links resolved, when that differs
	root *os.Root // every file access goes through it

	maxFileSize int64
	maxOutput   int
	bashTimeout time.Duration
	env         []string // the whole environment of bash commands
	shell       string   // path of bash, or of sh when there is no bash
	tools       []tool.Tool

	mu       sync.Mutex
	closed   chan struct{} // closed by Close: running commands are killed
	isClosed bool
	running  sync.WaitGroup // bash commands in flight
}

// Option configures a Toolset.
type Option func(*config) error

type config struct {
	maxFileSize int64
	maxOutput   int
	bashTimeout time.Duration
	env         []string
}

// WithMaxFileSize caps, in bytes, the files read and edit load and the
// content write accepts (default DefaultMaxFileSize). It must be positive.
func WithMaxFileSize(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("agenttoolset: WithMaxFileSize: must be positive, got %d", n)
		}
		c.maxFileSize = n
		return nil
	}
}

// WithMaxOutput caps, in bytes, the output bash, glob and grep return
// (default DefaultMaxOutput); output over the cap is cut, and the result
// says how much. It must be at least 100.
func WithMaxOutput(n int) Option {
	return func(c *config) error {
		if n < 100 {
			return fmt.Errorf("agenttoolset: WithMaxOutput: must be at least 100 bytes, got %d", n)
		}
		c.maxOutput = n
		return nil
	}
}

// WithBashTimeout sets how long a bash command may run when the call does
// not say (default DefaultBashTimeout). It must be positive and at most
// MaxBashTimeout.
func WithBashTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 || d > MaxBashTimeout {
			return fmt.Errorf("agenttoolset: WithBashTimeout: must be between 0 (excluded) and %v, got %v", MaxBashTimeout, d)
		}
		c.bashTimeout = d
		return nil
	}
}

// WithEnv adds environment variables, each "NAME=value", to those bash
// commands see. They are added after the defaults, so they may replace
// PATH, LANG or TERM. The worker's own environment is never passed on:
// list here exactly what commands need.
func WithEnv(kv ...string) Option {
	return func(c *config) error {
		for i, e := range kv {
			name, _, ok := strings.Cut(e, "=")
			if !ok || name == "" || strings.ContainsAny(name, "\x00") {
				// Only the name is shown: the value may be a secret.
				return fmt.Errorf("agenttoolset: WithEnv: entry %d (name %q) must have the form NAME=value", i, name)
			}
		}
		c.env = append(c.env, kv...)
		return nil
	}
}

// New returns the toolset confined to dir, which must be an existing
// directory. It is opened once, with os.OpenRoot: renaming or replacing
// dir afterwards does not move the toolset.
func New(dir string, opts ...Option) (*Toolset, error) {
	cfg := config{maxFileSize: DefaultMaxFileSize, maxOutput: DefaultMaxOutput, bashTimeout: DefaultBashTimeout}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	if dir == "" {
		return nil, errors.New("agenttoolset: dir must not be empty")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("agenttoolset: dir: %w", err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("agenttoolset: dir: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("agenttoolset: dir %s must be a directory", abs)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("agenttoolset: dir: %w", err)
	}
	t := &Toolset{
		dir:         abs,
		root:        root,
		maxFileSize: cfg.maxFileSize,
		maxOutput:   cfg.maxOutput,
		bashTimeout: cfg.bashTimeout,
		closed:      make(chan struct{}),
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		t.alt = real
	}
	t.shell, _ = exec.LookPath("bash")
	if t.shell == "" {
		t.shell, _ = exec.LookPath("sh")
	}
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	t.env = append([]string{"PATH=" + path, "HOME=" + abs, "LANG=C.UTF-8", "TERM=dumb"}, cfg.env...)
	t.tools = []tool.Tool{t.bashTool(), t.readTool(), t.writeTool(), t.editTool(), t.globTool(), t.grepTool()}
	return t, nil
}

// Dir is the absolute path of the toolset's directory.
func (t *Toolset) Dir() string { return t.dir }

// Tools returns bash, read, write, edit, glob and grep, in that order, in
// a new slice the caller may change.
func (t *Toolset) Tools() []tool.Tool { return slices.Clone(t.tools) }

// Close kills the process groups of the bash commands still running, waits
// for them to end, and closes the directory. Later calls of any tool fail.
// Close is idempotent.
func (t *Toolset) Close() error {
	t.mu.Lock()
	if t.isClosed {
		t.mu.Unlock()
		return nil
	}
	t.isClosed = true
	close(t.closed)
	t.mu.Unlock()
	t.running.Wait()
	return t.root.Close()
}

// errClosed is what every tool returns after Close.
var errClosed = errors.New("the toolset is closed")

// begin registers a bash command in flight, unless the toolset is closed.
func (t *Toolset) begin() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.isClosed {
		return errClosed
	}
	t.running.Add(1)
	return nil
}

func (t *Toolset) isClosedNow() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.isClosed
}
