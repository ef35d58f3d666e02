package toolrunner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
)

// Errors a session's end reports (Run's result, WithOnSessionEnd), and
// that Add and Run return when they cannot start.
var (
	// ErrClosed: the Runner was closed.
	ErrClosed = errors.New("toolrunner: runner closed")
	// ErrRemoved: the session was removed from the Runner (Remove).
	ErrRemoved = errors.New("toolrunner: session removed")
	// ErrAlreadyRunning: the Runner already follows the session.
	ErrAlreadyRunning = errors.New("toolrunner: session already followed by this runner")
)

// Runner answers the custom tool calls of sessions with tools, and the
// sandbox tool calls of self-hosted environments (WithSandboxTools): one
// session with Run, or many with Add and Remove. It is safe for concurrent use.
// Create it with New; Close it when done.
type Runner struct {
	events *sessions.EventsService
	tools  map[string]tool.Tool
	// sandbox are the sandbox tools the runner runs (WithSandboxTools).
	sandbox map[agents.ToolName]tool.Tool
	cfg     config
	log     *slog.Logger
	// logContent allows tool inputs and results in debug logs: always
	// with the runner's own logger, only in content mode with the
	// client's, as the client logs request bodies.
	logContent bool
	// logPanics sends a tool's panic stack to log; without a logger it
	// goes where tool.Tool.Run sends it by default.
	logPanics bool
	tr        tracer
	slots     chan struct{} // the tool-call pool: one token per running tool

	mu        sync.Mutex
	closed    bool
	followers map[string]*follower
	running   sync.WaitGroup // one per follower
}

// New returns a Runner that answers calls of tools on the sessions of s
// (client.Sessions). Tool names must be unique within a Runner; tools
// must be built with tool.New or tool.NewRaw. Register the same tools on
// the agent with agents.FromTools.
func New(s *sessions.Service, tools []tool.Tool, opts ...Option) (*Runner, error) {
	if s == nil || s.Events == nil {
		return nil, &apierror.ValidationError{Field: "sessions", Rule: "must not be nil: pass client.Sessions"}
	}
	byName := make(map[string]tool.Tool, len(tools))
	index := make(map[string]int, len(tools))
	for i, t := range tools {
		field := "tools[" + strconv.Itoa(i) + "]"
		if t.Name() == "" {
			return nil, &apierror.ValidationError{Field: field, Rule: "is not a tool: build tools with tool.New or tool.NewRaw"}
		}
		if j, dup := index[t.Name()]; dup {
			return nil, &apierror.ValidationError{Field: field + ".name", Rule: fmt.Sprintf(
				"tool names must be unique within a runner: %q is also the name of tools[%d]", t.Name(), j)}

		}
		index[t.Name()] = i
		byName[t.Name()] = t
	}
	cfg := defaults()
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	sandbox, err := sandboxByName(cfg.sandboxTools)
	if err != nil {
		return nil, err
	}
	tp, log, content := settings(s, cfg)
	logPanics := log != nil
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runner{
		events:     s.Events,
		tools:      byName,
		sandbox:    sandbox,
		cfg:        cfg,
		log:        log,
		logContent: cfg.logger != nil || content,
		logPanics:  logPanics,
		tr:         newTracer(tp, content),
		slots:      make(chan struct{}, cfg.maxConcurrency),
		followers:  map[string]*follower{},
	}, nil
}

// sandboxToolNames are the tools a self-hosted environment routes to the
// client.
var sandboxToolNames = []agents.ToolName{agents.ToolBash, agents.ToolRead, agents.ToolWrite,
	agents.ToolEdit, agents.ToolGlob, agents.ToolGrep}

// sandboxByName checks the tools of WithSandboxTools and indexes them.
func sandboxByName(tools []tool.Tool) (map[agents.ToolName]tool.Tool, error) {
	if len(tools) == 0 {
		return nil, nil
	}
	byName := make(map[agents.ToolName]tool.Tool, len(tools))
	index := make(map[agents.ToolName]int, len(tools))
	for i, t := range tools {
		field := "sandbox_tools[" + strconv.Itoa(i) + "]"
		name := agents.ToolName(t.Name())
		switch {
		case name == "":
			return nil, &apierror.ValidationError{Field: field, Rule: "is not a tool: build tools with tool.New or tool.NewRaw"}
		case !slices.Contains(sandboxToolNames, name):
			return nil, &apierror.ValidationError{Field: field + ".name", Rule: fmt.Sprintf(
				"must be a sandbox tool (bash, read, write, edit, glob or grep), not %q", name)}
		}
		if j, dup := index[name]; dup {
			return nil, &apierror.ValidationError{Field: field + ".name", Rule: fmt.Sprintf(
				"sandbox tool names must be unique within a runner: %q is also the name of sandbox_tools[%d]", name, j)}
		}
		index[name] = i
		byName[name] = t
	}
	return byName, nil
}

// settings resolves the tracer provider (nil: the global one), logger
// (nil: none) and content mode: the runner's option when given, else the
// client's setting, else the default.
func settings(s *sessions.Service, cfg config) (trace.TracerProvider, *slog.Logger, bool) {
	tp, log := cfg.tracerProvider, cfg.logger
	content := contentFromEnv()
	p := pipeline.Of(s.Events)
	if p == nil {
		p = pipeline.Of(s)
	}
	if p != nil {
		ctp, clog, ccontent := p.Observability()
		if tp == nil {
			tp = ctp
		}
		if log == nil {
			log = clog
		}
		content = ccontent
	}
	if cfg.content != nil {
		content = *cfg.content
	}
	return tp, log, content
}

// Run follows one session and answers its calls until the session is
// terminated, deleted or archived (nil), it has sat idle for the idle
// timeout (nil, WithIdleTimeout), ctx ends (ctx's error; running tools are
// cancelled and answers not yet recorded are not sent), the session is
// removed (ErrRemoved) or the Runner is closed (ErrClosed). When Run stops
// following with calls still waiting on it (answers not recorded, tools
// cancelled), its error is an *UnsentError that lists them and wraps the
// reason. Tools still running when Run returns have been cancelled and
// have returned, except those that ignore cancellation. It starts by
// reconciling with the session's history (see "Exactly once" in the
// package documentation).
//
// A session that cannot be followed is an error: an unknown session
// (apierror.ErrNotFound), a credential or permission the API refuses.
// Failures that may pass (connections, 429, 5xx, an error event ending
// the stream once the stream's own reconnection gave up) are retried with
// backoff of up to 30 s, for as long as Run runs, and logged at warn; so
// is sending an answer (see "Calls" in the package documentation).
func (r *Runner) Run(ctx context.Context, sessionID string) error {
	f, err := r.start(ctx, sessionID)
	if err != nil {
		return err
	}
	<-f.done
	return f.err
}

// Add follows a session in the background, as Run does, until one of
// Run's stop conditions; the end is reported to WithOnSessionEnd. It
// returns at once: ErrClosed after Close, ErrAlreadyRunning when the
// session is followed already.
func (r *Runner) Add(sessionID string) error {
	_, err := r.start(context.Background(), sessionID)
	return err
}

// Remove stops following a session: no new call is started, and Remove
// waits, until ctx ends, for the tools already running to finish and
// their answers to be recorded. When ctx ends first, the tools still
// running are cancelled, the answers not yet recorded are not sent (the
// calls stay pending, for the session's next runner), and Remove returns
// ctx's error. The session's end is reported with ErrRemoved, wrapped in
// an *UnsentError that lists those calls when there are any. Removing a
// session that is not followed does nothing.
//
// Hand a session over to another runner only after Remove has returned
// (see the package documentation).
func (r *Runner) Remove(ctx context.Context, sessionID string) error {
	r.mu.Lock()
	f := r.followers[sessionID]
	r.mu.Unlock()
	if f == nil {
		return nil
	}
	f.stop(ErrRemoved)
	return f.drain(ctx, ErrRemoved)
}

// Close stops the Runner: every session stops being read, and Close waits,
// until ctx ends, for the tools already running to finish and their
// answers to be recorded. When ctx ends first, the tools still running
// are cancelled, the answers not yet recorded are not sent, and Close
// returns ctx's error. Every session ends with ErrClosed, wrapped in an
// *UnsentError that lists the session's calls left waiting when there are
// any. Close returns once no goroutine of the Runner is left,
// except those of tools that ignore their context's cancellation. Closing
// twice is harmless; Add and Run fail afterwards.
func (r *Runner) Close(ctx context.Context) error {
	r.mu.Lock()
	r.closed = true
	fs := make([]*follower, 0, len(r.followers))
	for _, f := range r.followers {
		fs = append(fs, f)
	}
	r.mu.Unlock()
	for _, f := range fs {
		f.stop(ErrClosed)
	}
	done := make(chan struct{})
	go func() {
		r.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	for _, f := range fs {
		f.abort(ErrClosed)
	}
	<-done
	return ctx.Err()
}

// start creates the follower of a session and starts its goroutine.
func (r *Runner) start(ctx context.Context, sessionID string) (*follower, error) {
	if sessionID == "" {
		return nil, &apierror.ValidationError{Field: "session_id", Rule: "must not be empty"}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if _, ok := r.followers[sessionID]; ok {
		return nil, fmt.Errorf("%w: %s", ErrAlreadyRunning, sessionID)
	}
	f := newFollower(r, ctx, sessionID)
	r.followers[sessionID] = f
	r.running.Add(1)
	go f.run()
	return f, nil
}

// forget drops f from the followed sessions.
func (r *Runner) forget(f *follower) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.followers[f.id] == f {
		delete(r.followers, f.id)
	}
}
