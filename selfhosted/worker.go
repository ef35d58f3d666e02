package selfhosted

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/option"
)

// Errors of Run.
var (
	// ErrClosed: the Worker was closed; it cannot run again.
	ErrClosed = errors.New("selfhosted: worker closed")
	// ErrRunning: Run was called while the Worker already runs.
	ErrRunning = errors.New("selfhosted: worker already running")
)

// Worker serves the work queue of one self-hosted environment: it claims
// work items, runs each session's sandbox tools on this machine, and keeps
// the items' leases. Create it with New, start it with Run, stop it with
// Close. It is safe for concurrent use.
type Worker struct {
	client  *agentplatform.Client
	envID   string
	key     option.Option // the environment key, sent with every call
	cfg     config
	log     *slog.Logger
	tracer  trace.Tracer
	baseDir string
	ownDir  bool // baseDir is a temporary directory of ours

	mu       sync.Mutex
	running  bool
	closed   bool
	stopPoll context.CancelCauseFunc // ends the poll loop; nil until Run
	items    map[*item]struct{}      // being served; a work item lost and claimed again is a new item
	served   sync.WaitGroup          // one per item being served
	closeErr error
	closeMu  sync.Mutex // serializes Close
}

// New returns a Worker for the self-hosted environment environmentID,
// authorized by its environment key, which it sends with every call it
// makes (the key replaces the client's credentials for those calls only).
// It sends nothing yet.
func New(client *agentplatform.Client, environmentID, environmentKey string, opts ...Option) (*Worker, error) {
	switch {
	case client == nil:
		return nil, &apierror.ValidationError{Field: "client", Rule: "must not be nil"}
	case environmentID == "":
		return nil, &apierror.ValidationError{Field: "environment_id", Rule: "must not be empty"}
	case environmentKey == "":
		return nil, &apierror.ValidationError{Field: "environment_key", Rule: "must not be empty: the worker authorizes with the environment's key"}
	}
	cfg := defaults()
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	tp, log := cfg.tp, cfg.logger
	if p := pipeline.Of(client.Sessions); p != nil {
		ctp, clog, _ := p.Observability()
		if tp == nil {
			tp = ctp
		}
		if log == nil {
			log = clog
		}
	}
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.workerID == "" {
		cfg.workerID = defaultWorkerID()
	}
	w := &Worker{
		client: client, envID: environmentID, cfg: cfg,
		key:    option.WithAPIKey(environmentKey),
		log:    log.With("environment_id", environmentID, "worker_id", cfg.workerID),
		tracer: tp.Tracer(attr.SDKScope, trace.WithInstrumentationVersion(pipeline.Version)),
		items:  map[*item]struct{}{},
	}
	w.baseDir = cfg.dir
	if w.baseDir == "" {
		dir, err := os.MkdirTemp("", "agentplatform-worker-")
		if err != nil {
			return nil, fmt.Errorf("selfhosted: working directory: %w", err)
		}
		w.baseDir, w.ownDir = dir, true
	} else if st, err := os.Stat(w.baseDir); err != nil || !st.IsDir() {
		return nil, &apierror.ValidationError{Field: "dir", Rule: "must be an existing directory"}
	}
	return w, nil
}

func (c *config) validate() error {
	switch {
	case c.maxSessions < 1:
		return &apierror.ValidationError{Field: "max_sessions", Rule: "must be at least 1"}
	case c.leaseTTL < time.Second || c.leaseTTL > 10*time.Minute || c.leaseTTL%time.Second != 0:
		return &apierror.ValidationError{Field: "lease_ttl", Rule: "must be whole seconds from 1s to 10m"}
	case c.pollBlock < time.Millisecond || c.pollBlock > 999*time.Millisecond || c.pollBlock%time.Millisecond != 0:
		return &apierror.ValidationError{Field: "poll_block", Rule: "must be whole milliseconds from 1ms to 999ms"}
	case c.idleTimeout < 0:
		return &apierror.ValidationError{Field: "idle_timeout", Rule: "must not be negative"}
	case c.toolTimeout < 0:
		return &apierror.ValidationError{Field: "tool_timeout", Rule: "must not be negative"}
	case len(c.workerID) > 128:
		return &apierror.ValidationError{Field: "worker_id", Rule: "must be at most 128 characters"}
	}
	return nil
}

// Run polls the environment's work queue and serves what it claims, at
// most WithMaxSessions sessions at once, until ctx ends or Close is
// called. It then releases every item it holds (see Close) and returns:
// nil after Close, ctx's error when ctx ended, or the error that made
// polling impossible (a refused environment key, an unknown environment),
// once the items in hand are released.
func (w *Worker) Run(ctx context.Context) error {
	w.mu.Lock()
	switch {
	case w.closed:
		w.mu.Unlock()
		return ErrClosed
	case w.running:
		w.mu.Unlock()
		return ErrRunning
	}
	w.running = true
	pollCtx, stopPoll := context.WithCancelCause(ctx)
	w.stopPoll = stopPoll
	w.mu.Unlock()
	defer stopPoll(nil)

	w.log.Info("selfhosted: worker started", "max_sessions", w.cfg.maxSessions)
	err := w.poll(pollCtx, ctx)
	// Items outlive the poll loop only as long as Close lets them; when
	// ctx ended they are being cancelled already.
	w.served.Wait()
	w.mu.Lock()
	w.running = false
	closed := w.closed
	w.mu.Unlock()
	switch {
	case closed:
		err = nil
	case err == nil:
		err = ctx.Err()
	}
	w.log.Info("selfhosted: worker stopped")
	return err
}

// Close stops polling and releases the items the Worker holds: their
// running tools get until ctx ends to finish and have their results
// recorded, then they are cancelled; each item is then stopped, which
// hands a session whose calls still wait to another worker at once. Run
// returns after that. Close removes the temporary directory New made
// (not a WithDir one). Calling it again returns the first result.
func (w *Worker) Close(ctx context.Context) error {
	w.closeMu.Lock()
	defer w.closeMu.Unlock()
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return w.closeErr
	}
	w.closed = true
	if w.stopPoll != nil {
		w.stopPoll(ErrClosed)
	}
	items := make([]*item, 0, len(w.items))
	for it := range w.items {
		items = append(items, it)
	}
	w.mu.Unlock()

	var wg sync.WaitGroup
	for _, it := range items {
		wg.Go(func() { it.release(ctx) })
	}
	wg.Wait()
	w.served.Wait()
	if w.ownDir {
		w.closeErr = os.RemoveAll(w.baseDir)
	}
	return w.closeErr
}

// defaultWorkerID is the host name and a random suffix, so that two
// workers on one host (or hosts of one name) are told apart.
func defaultWorkerID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "worker"
	}
	if len(host) > 100 {
		host = host[:100]
	}
	return host + "-" + rand.Text()[:12]
}

// detached returns a context for the calls that must run after ctx
// ended (stopping an item), bounded by d.
func detached(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), d)
}
