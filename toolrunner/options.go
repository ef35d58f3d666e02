package toolrunner

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
)

// Defaults of the options.
const (
	// DefaultToolTimeout bounds one tool call (WithToolTimeout).
	DefaultToolTimeout = 5 * time.Minute
	// DefaultMaxConcurrency bounds the tool calls that run at once, across
	// all the sessions of a Runner (WithMaxConcurrency).
	DefaultMaxConcurrency = 64
)

// EnvCaptureContent is the environment variable that, set to true, turns
// content mode on when neither WithContentCapture nor the client's
// option.WithContentCapture is given (the OpenTelemetry GenAI convention).
const EnvCaptureContent = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"

// Option configures a Runner.
type Option func(*config)

type config struct {
	toolTimeout    time.Duration
	maxConcurrency int
	idleTimeout    time.Duration
	confirm        func(context.Context, ConfirmRequest) Decision
	onSessionEnd   func(sessionID string, err error)
	tracerProvider trace.TracerProvider // nil: the client's
	content        *bool                // nil: the client's
	logger         *slog.Logger         // nil: the client's
	observeEvent   func(sessionID string, ev sessions.Event)
	sandboxTools   []tool.Tool     // checked by New
	requestOpts    []option.Option // before the runner's own, on every call

	// observe, when set, sees each answer the API accepted: when its call
	// event was received and when Send returned. Set by tests only
	// (export_test.go).
	observe func(sessionID, callID string, received, accepted time.Time)
}

func defaults() config {
	return config{
		toolTimeout:    DefaultToolTimeout,
		maxConcurrency: DefaultMaxConcurrency,
	}
}

// contentFromEnv is content mode when neither the runner nor the client
// says.
func contentFromEnv() bool {
	on, _ := strconv.ParseBool(os.Getenv(EnvCaptureContent))
	return on
}

// WithToolTimeout bounds each tool call: the tool's context has this
// deadline, and when it passes the runner answers the call with an error
// result ("tool … timed out after …") without waiting further for the
// tool. The default is DefaultToolTimeout; 0 or less means no timeout.
func WithToolTimeout(d time.Duration) Option {
	return func(c *config) { c.toolTimeout = d }
}

// WithMaxConcurrency bounds how many tool calls run at once, across all
// the sessions of the Runner (default DefaultMaxConcurrency). Calls beyond
// it wait for a slot; reading the sessions' events never waits for one.
// Values below 1 keep the default.
func WithMaxConcurrency(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.maxConcurrency = n
		}
	}
}

// WithIdleTimeout stops following a session once it has been idle for d
// after a turn ended (a session.status_idle whose stop reason is end_turn,
// retries_exhausted, budget_reached or refusal) with no new turn and no
// tool call since; a runner that starts on such a session counts from its
// start. Run then returns nil. 0, the default, means never.
func WithIdleTimeout(d time.Duration) Option {
	return func(c *config) { c.idleTimeout = d }
}

// WithConfirm makes the runner answer the confirmations of built-in and MCP
// tool calls (agent.tool_use and agent.mcp_tool_use with
// evaluated_permission ask: the policy always_ask, or an auto policy that
// could not judge the call) with fn's Decision. fn runs on its own
// goroutine, outside the tool-call concurrency bound, and may wait (on a
// person, say) until ctx ends: ctx is cancelled when the call is no longer
// waiting (an interrupt, another answer) and when the runner stops. A panic
// in fn denies the call. Without this option such calls are left to the
// application. A sandbox call of the runner's (WithSandboxTools) that fn
// allows is then run by the runner.
func WithConfirm(fn func(ctx context.Context, req ConfirmRequest) Decision) Option {
	return func(c *config) { c.confirm = fn }
}

// WithOnSessionEnd is how a session's end is reported: fn is called once
// for every session the Runner stops following, whether it came from Add
// or from Run, after its tool calls have finished, with the error Run
// returns for it (nil when the session ended or sat idle, ErrRemoved,
// ErrClosed, the context's error, or the failure that stopped it). fn runs
// on the session's goroutine; it must not call Close, and it should return
// promptly.
func WithOnSessionEnd(fn func(sessionID string, err error)) Option {
	return func(c *config) { c.onSessionEnd = fn }
}

// WithTracerProvider sends the runner's spans (one vendor.custom_tool_use
// or vendor.tool_use span per tool call, docs/tracing.md) to tp. The
// default is the client's provider (option.WithTracerProvider), so that
// the request that sends an answer, which the client traces, is a child of
// its call's span; when the client has none either, the global provider,
// as otel.GetTracerProvider returns it when New is called. nil keeps the
// default.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tracerProvider = tp }
}

// WithContentCapture turns content mode on or off: the tool call's
// arguments and result on its span (gen_ai.tool.call.arguments,
// gen_ai.tool.call.result). The default is the client's content mode
// (option.WithContentCapture), which itself defaults to the environment
// variable OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, off when
// unset.
func WithContentCapture(on bool) Option {
	return func(c *config) { c.content = &on }
}

// WithLogger logs what the runner does through l: calls dispatched and
// answered at debug level, answers the API refused as final (409) at info,
// retries and reconnections at warn, failures and a tool's panic (with its
// stack) at error. Tool inputs and results are logged only at debug level.
//
// The default is the client's logger (option.WithLogger); logging through
// it, the runner follows the client's rule for content: tool inputs and
// results are logged, at debug level, only in content mode. Without
// either, logging is off. nil keeps the default; to keep the client's
// logger but silence the runner, pass slog.New(slog.DiscardHandler).
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithEventObserver hands fn every event the runner reads from a
// session's stream, for an application that also watches its sessions:
// one stream per session serves both, instead of a stream of the
// application's own next to the runner's.
//
// fn sees the events recorded after the newest one in the session's
// history when the runner started following it (where its reconciliation
// left off; earlier events, including the pending calls reconciliation
// found, are in the history: EventsService.List), until the runner stops
// following: in order, each once, with no gap, across dropped connections
// and reopened streams, as the runner's stream delivers them. It sees
// each event before the runner acts on it, and the session's last events
// (session.status_terminated, session.deleted) before its end is reported
// to WithOnSessionEnd. Events that cannot be decoded are skipped (and
// logged), as the runner skips them.
//
// fn runs on the session's reader goroutine, one event at a time per
// session, sessions in parallel. It must return promptly: while it runs,
// the session's events wait (tool calls already dispatched go on). It must
// not call Close or Remove (they would wait for it).
func WithEventObserver(fn func(sessionID string, ev sessions.Event)) Option {
	return func(c *config) { c.observeEvent = fn }
}

// WithSandboxTools makes the runner run the sandbox tools of sessions on
// self-hosted environments: the agent toolset's bash, read, write, edit,
// glob and grep, which such an environment routes to the client. Each
// agent.tool_use of one of these tools is run with the tool of that name
// and answered with user.tool_result, as custom tool calls are (see
// "Self-hosted environments" in the package documentation). A call whose
// policy asks is run once a user.tool_confirmation allows it, whoever sent
// it (WithConfirm, or the application); a denied call is not run. Calls of
// the sandbox tools not given here are left to other consumers.
//
// Each tool's name must be one of the six; New reports any other. Use it
// only for sessions on self-hosted environments: elsewhere the server runs
// these tools itself and refuses a client's result.
func WithSandboxTools(tools ...tool.Tool) Option {
	return func(c *config) { c.sandboxTools = append(c.sandboxTools, tools...) }
}

// WithRequestOptions applies opts to every API call the runner makes for
// its sessions: reading their history, following their streams, sending
// answers. A worker for self-hosted environments authorizes with its
// environment's key this way (option.WithAPIKey). They apply after the
// client's options, so they override them; the runner's own per-call
// options (an answer's Idempotency-Key) come last.
func WithRequestOptions(opts ...option.Option) Option {
	return func(c *config) { c.requestOpts = append(c.requestOpts, opts...) }
}
