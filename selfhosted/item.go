package selfhosted

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/agenttoolset"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/toolrunner"
	"github.com/agentplatform/agentplatform-go/tracing"
)

// spanWork is the INTERNAL span of one work item, from its claim until it
// is released: the parent of its tool calls' spans and of the requests made
// for it (docs/tracing.md).
const spanWork = "vendor.environment.work"

// Why an item's context ends, seen through context.Cause.
var (
	errStopRequested = errors.New("selfhosted: the API asked to stop the work item")
	errLeaseLost     = errors.New("selfhosted: the work item's lease was lost")
)

// item is one claimed work item: a session this Worker serves until the
// session ends or idles, the lease is lost, or the Worker stops.
type item struct {
	w         *Worker
	workID    string
	sessionID string
	log       *slog.Logger

	ctx    context.Context // Run's context with the item's span; cancelled to end the item
	cancel context.CancelCauseFunc
	span   trace.Span
	lost   atomic.Bool // the lease is gone: the item belongs to the queue or another worker

	mu        sync.Mutex
	runner    *toolrunner.Runner
	releasing bool
}

func (w *Worker) newItem(runCtx context.Context, work *environments.Work, log *slog.Logger) *item {
	ctx, span := w.tracer.Start(runCtx, spanWork, trace.WithSpanKind(trace.SpanKindInternal))
	if span.IsRecording() {
		span.SetAttributes(
			attr.GenAIProviderName.String(attr.ProviderVendor),
			tracing.EnvironmentID.String(w.envID),
			tracing.WorkID.String(work.ID),
			attr.SessionID.String(work.Data.ID),
			tracing.WorkerID.String(w.cfg.workerID),
		)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	return &item{w: w, workID: work.ID, sessionID: work.Data.ID, log: log, ctx: ctx, cancel: cancel, span: span}
}

// serve runs the item to its end, heartbeating meanwhile, then releases
// it: answers still owed are sent, and the item is stopped, unless its
// lease was lost (the item is someone else's now).
func (it *item) serve() {
	defer it.span.End()
	defer it.cancel(nil)
	it.log.Info("selfhosted: serving session")
	hbCtx, stopLease := context.WithCancel(it.ctx)
	leaseDone := make(chan struct{})
	go func() {
		defer close(leaseDone)
		it.keepLease(hbCtx)
	}()
	err := it.run()
	stopLease()
	<-leaseDone

	if it.lost.Load() {
		it.log.Warn("selfhosted: lease lost; the session is left to the worker that holds it now")
		it.span.SetStatus(codes.Unset, "")
		return
	}
	it.sendOwed(err)
	it.w.stopItem(it.ctx, it.workID, it.log)
	switch cause := context.Cause(it.ctx); {
	case err == nil:
		it.log.Info("selfhosted: session released")
		it.span.SetStatus(codes.Ok, "")
	case errors.Is(err, toolrunner.ErrClosed), errors.Is(cause, errStopRequested), it.ctx.Err() != nil:
		it.log.Info("selfhosted: session released", "reason", err.Error())
	default:
		it.log.Error("selfhosted: serving the session failed", "error", err.Error())
		it.span.SetStatus(codes.Error, err.Error())
		it.span.SetAttributes(attr.ErrorType.String("worker_error"))
	}
}

// run follows the session with a tool runner whose sandbox tools work in
// the session's own directory, until the session ends or idles, or the
// item is cancelled or released.
func (it *item) run() error {
	dir := filepath.Join(it.w.baseDir, it.sessionID)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	ts, err := agenttoolset.New(dir, it.w.cfg.toolsetOpts...)
	if err != nil {
		return err
	}
	defer ts.Close()
	opts := []toolrunner.Option{
		toolrunner.WithSandboxTools(ts.Tools()...),
		toolrunner.WithRequestOptions(it.w.key),
		toolrunner.WithLogger(it.log),
	}
	if d := it.w.cfg.idleTimeout; d > 0 {
		opts = append(opts, toolrunner.WithIdleTimeout(d))
	}
	if d := it.w.cfg.toolTimeout; d > 0 {
		opts = append(opts, toolrunner.WithToolTimeout(d))
	}
	if fn := it.w.cfg.confirm; fn != nil {
		opts = append(opts, toolrunner.WithConfirm(fn))
	}
	if tp := it.w.cfg.tp; tp != nil {
		opts = append(opts, toolrunner.WithTracerProvider(tp))
	}
	r, err := toolrunner.New(it.w.client.Sessions, it.w.cfg.tools, opts...)
	if err != nil {
		return err
	}
	it.mu.Lock()
	if it.releasing {
		it.mu.Unlock()
		return toolrunner.ErrClosed
	}
	it.runner = r
	it.mu.Unlock()
	return r.Run(it.ctx, it.sessionID)
}

// release is Close's part: the item's running tools get until ctx ends,
// then the item ends (serve stops it).
func (it *item) release(ctx context.Context) {
	it.mu.Lock()
	it.releasing = true
	r := it.runner
	it.mu.Unlock()
	if r == nil {
		it.cancel(ErrClosed)
		return
	}
	_ = r.Close(ctx) // Run returns ErrClosed; its error carries what is owed
}

// sendOwed sends the answers the runner had but could not get recorded
// before it stopped (its context or Close's ended first), so that no
// finished tool call is run again by the next worker. An answer recorded
// meanwhile gets a 409, which is fine.
func (it *item) sendOwed(err error) {
	var unsent *toolrunner.UnsentError
	if !errors.As(err, &unsent) || len(unsent.Answers) == 0 {
		return
	}
	ctx, cancel := detached(it.ctx, stopTimeout)
	defer cancel()
	for _, a := range unsent.Answers {
		_, err := it.w.client.Sessions.Events.Send(ctx, it.sessionID,
			sessions.SendParams{Events: []sessions.EventParam{a.Param()}}, it.w.key)
		if err != nil && status(err) != http.StatusConflict {
			it.log.Warn("selfhosted: an owed answer could not be sent; the next worker runs the call again",
				"call_id", a.CallID, "tool", a.Tool, "error", err.Error())
		}
	}
}

// safeSegment reports whether a session id from the API can name a
// directory under the Worker's: one plain path element.
func safeSegment(id string) bool {
	return id != "" && len(id) <= 128 && filepath.IsLocal(id) && !strings.ContainsAny(id, `/\:`) && id != "."
}
