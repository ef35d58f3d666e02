package selfhosted

import (
	"context"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

// Defaults of the options.
const (
	// DefaultMaxSessions bounds the work items (sessions) a Worker serves
	// at once (WithMaxSessions).
	DefaultMaxSessions = 16
	// DefaultLeaseTTL is the lease a Worker asks for (WithLeaseTTL); it
	// heartbeats every third of it.
	DefaultLeaseTTL = 30 * time.Second
	// DefaultIdleTimeout is how long a session may sit idle before its
	// Worker releases it (WithIdleTimeout).
	DefaultIdleTimeout = time.Minute
	// DefaultPollBlock is how long one poll waits for work (WithPollBlock):
	// the longest the API allows.
	DefaultPollBlock = 999 * time.Millisecond
)

// Option configures a Worker.
type Option func(*config)

type config struct {
	dir         string
	tools       []tool.Tool
	toolsetOpts []agenttoolset.Option
	maxSessions int
	workerID    string
	idleTimeout time.Duration
	leaseTTL    time.Duration
	pollBlock   time.Duration
	toolTimeout time.Duration
	confirm     func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision
	logger      *slog.Logger
	tp          trace.TracerProvider
}

func defaults() config {
	return config{
		maxSessions: DefaultMaxSessions,
		idleTimeout: DefaultIdleTimeout,
		leaseTTL:    DefaultLeaseTTL,
		pollBlock:   DefaultPollBlock,
	}
}

// WithDir sets the directory under which each session gets its working
// directory, <dir>/<session id>, which its file tools are confined to. It
// must exist. Without it the Worker makes a temporary directory and
// removes it when it is closed.
func WithDir(dir string) Option { return func(c *config) { c.dir = dir } }

// WithTools adds the application's custom tools: the Worker answers the
// sessions' calls of them (agent.custom_tool_use) as toolrunner does.
func WithTools(tools ...tool.Tool) Option {
	return func(c *config) { c.tools = append(c.tools, tools...) }
}

// WithToolset configures the agent toolset each session gets (output and
// file size caps, the bash timeout, bash's environment).
func WithToolset(opts ...agenttoolset.Option) Option {
	return func(c *config) { c.toolsetOpts = append(c.toolsetOpts, opts...) }
}

// WithMaxSessions bounds the sessions served at once (default
// DefaultMaxSessions); the Worker polls for more only below it.
func WithMaxSessions(n int) Option { return func(c *config) { c.maxSessions = n } }

// WithWorkerID names the Worker to the API (the vendor-worker-id header,
// counted in the queue's workers_polling). Default: the host name and a
// random suffix.
func WithWorkerID(id string) Option { return func(c *config) { c.workerID = id } }

// WithIdleTimeout sets how long a session may sit idle, its turn ended,
// before the Worker releases it (stops its work item) to serve others
// (default DefaultIdleTimeout); 0 keeps every session until it ends or the
// Worker stops. The session's next turn queues a new work item, so nothing
// waits on a released session.
func WithIdleTimeout(d time.Duration) Option { return func(c *config) { c.idleTimeout = d } }

// WithLeaseTTL sets the lease the Worker asks for on each work item, in
// whole seconds from 1 s to 10 min (default DefaultLeaseTTL). A worker
// that dies holds its items this long before another can take them.
func WithLeaseTTL(d time.Duration) Option { return func(c *config) { c.leaseTTL = d } }

// WithPollBlock sets how long one poll waits for work, 1 ms to 999 ms
// (default DefaultPollBlock).
func WithPollBlock(d time.Duration) Option { return func(c *config) { c.pollBlock = d } }

// WithToolTimeout bounds one tool call (toolrunner.WithToolTimeout).
func WithToolTimeout(d time.Duration) Option { return func(c *config) { c.toolTimeout = d } }

// WithConfirm answers the confirmations of tool calls whose permission
// policy asks (toolrunner.WithConfirm). Without it such calls wait for the
// application to confirm them elsewhere.
func WithConfirm(fn func(context.Context, toolrunner.ConfirmRequest) toolrunner.Decision) Option {
	return func(c *config) { c.confirm = fn }
}

// WithLogger sets the logger; default: the client's (option.WithLogger),
// else none.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithTracerProvider sets the tracer provider; default: the client's, else
// the global one.
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }
