package toolrunner

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/toolpanic"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
)

// call is one dispatched call: a custom or sandbox tool to run, or a
// confirmation to decide.
type call struct {
	sessionID, id, threadID, name string
	input                         json.RawMessage
	tool                          tool.Tool       // a custom or sandbox tool call
	sandbox                       bool            // a sandbox tool call: answered with user.tool_result
	confirm                       *ConfirmRequest // a confirmation
	received                      time.Time       // when its event arrived
	seq                           uint64          // its dispatch order in the session

	ctx    context.Context // cancelled when the call stops waiting, or the runner stops
	cancel context.CancelCauseFunc
	state  atomic.Int32
	// finish ends the call's accounting (its entry in calls, its context,
	// the follower's WaitGroup), once, by whoever settles the call.
	finish func()
}

// callRef names a dispatched call. A sandbox call that asks has two under
// one event id: its confirmation, then, once allowed, its run; each is
// answered by its own event.
type callRef struct {
	id      string
	confirm bool
}

func (c *call) ref() callRef { return callRef{id: c.id, confirm: c.confirm != nil} }

// A call's states. Exactly one party moves it out of stateRunning: the
// call's goroutine when the tool returns, or the watcher on a timeout or
// when the runner stops. Cancelling a call (an interrupt, an answer seen on
// the stream) tells a running tool to stop, and ends the retries of an
// answer being sent.
const (
	stateWaiting   int32 = iota // for a slot
	stateRunning                // the tool or the confirm function
	stateAnswering              // the answer is being sent
	stateAbandoned              // the runner stopped: nothing is sent
)

// outcome is how a tool call ended.
type outcome uint8

const (
	outcomeDone      outcome = iota // the tool returned
	outcomeTimeout                  // the tool timeout passed
	outcomeCancelled                // the tool returned after its call was closed or answered elsewhere
	outcomeAbandoned                // the runner stopped: nothing is sent
)

func (f *follower) newCall(id, threadID, name string, input json.RawMessage, received time.Time) *call {
	ctx, cancel := context.WithCancelCause(f.hardCtx)
	return &call{sessionID: f.id, id: id, threadID: threadID, name: name, input: input,
		received: received, ctx: ctx, cancel: cancel}
}

// track registers a call and starts its goroutine, unless it was
// dispatched already.
func (f *follower) track(c *call, run func(*call)) {
	ref := c.ref()
	if _, dup := f.seen[ref]; dup {
		f.log.Debug("toolrunner: call already dispatched", "call_id", c.id)
		c.cancel(nil)
		return
	}
	f.seen[ref] = struct{}{}
	c.seq = f.dispatched
	f.dispatched++
	f.mu.Lock()
	f.calls[ref] = c
	f.mu.Unlock()
	f.wg.Add(1)
	var once sync.Once
	c.finish = func() {
		once.Do(func() {
			f.mu.Lock()
			delete(f.calls, ref)
			f.mu.Unlock()
			c.cancel(nil)
			f.wg.Done()
		})
	}
	go run(c)
}

// dispatchTool starts a custom tool call of a registered tool; calls of
// other tools are left to other consumers.
func (f *follower) dispatchTool(ev *sessions.AgentCustomToolUseEvent, received time.Time) {
	t, ok := f.r.tools[ev.Name]
	if !ok {
		f.log.Debug("toolrunner: custom tool not registered; left to other consumers", "call_id", ev.ID, "tool", ev.Name)
		return
	}
	c := f.newCall(ev.ID, ev.ThreadID, ev.Name, ev.Input, received)
	c.tool = t
	f.track(c, f.runTool)
}

// dispatchSandbox starts a sandbox tool call the runner runs: one whose
// policy allowed it, or whose confirmation allowed it.
func (f *follower) dispatchSandbox(ev *sessions.AgentToolUseEvent, t tool.Tool, received time.Time) {
	c := f.newCall(ev.ID, ev.ThreadID, string(ev.Name), ev.Input, received)
	c.tool, c.sandbox = t, true
	f.track(c, f.runTool)
}

// dispatchConfirm starts deciding a confirmation.
func (f *follower) dispatchConfirm(req ConfirmRequest, received time.Time) {
	c := f.newCall(req.ToolUseID, req.ThreadID, req.Name, req.Input, received)
	c.confirm = &req
	f.track(c, f.runConfirm)
}

// debug reports whether debug logging is on, so that the hot path builds
// no log arguments otherwise.
func (f *follower) debug() bool { return f.log.Enabled(context.Background(), slog.LevelDebug) }

// content returns kv, log attributes holding tool inputs or results, when
// the runner may log content, else nothing.
func (f *follower) content(kv ...any) []any {
	if f.r.logContent {
		return kv
	}
	return nil
}

// toolDeadline sets a running tool's timeout (WithToolTimeout). A variable
// only so that a test can decide which calls time out (export_test.go).
var toolDeadline = context.WithDeadlineCause

// runTool runs a tool call, in the pool, on the call's own goroutine, then
// sends its result. The tool holds its pool slot until it returns, so a
// tool that ignores its context still counts against the bound. When the
// tool overstays (its timeout passes, or the runner stops), a watcher
// settles the call without waiting for it: it sends the timeout result, or
// abandons the call.
func (f *follower) runTool(c *call) {
	select {
	case f.r.slots <- struct{}{}:
	case <-c.ctx.Done():
		f.notStarted(c)
		return
	}
	if c.ctx.Err() != nil { // both were ready
		<-f.r.slots
		f.notStarted(c)
		return
	}
	c.state.Store(stateRunning)
	if f.debug() {
		f.log.Debug("toolrunner: running tool", append([]any{"call_id", c.id, "tool", c.name},
			f.content("input", string(c.input))...)...)
	}
	ctx, span := f.r.tr.start(withCall(c.ctx, c.sessionID, c.id), c)
	returned := make(chan struct{})
	stopDeadline := context.CancelFunc(func() {})
	var deadline time.Time
	if d := f.r.cfg.toolTimeout; d > 0 {
		deadline = time.Now().Add(d)
		ctx, stopDeadline = toolDeadline(ctx, deadline, errToolTimeout)
	}
	stopWatch := context.AfterFunc(ctx, func() { f.watch(c, ctx, span, deadline, returned) })
	res := invoke(ctx, c.tool, c.name, c.input)
	late := ctx.Err() != nil // it returned after its context ended, maybe because it did
	close(returned)
	<-f.r.slots
	stopWatch()
	timedOut := errors.Is(context.Cause(ctx), errToolTimeout)
	stopDeadline()
	if !c.state.CompareAndSwap(stateRunning, stateAnswering) {
		return // the watcher settled the call
	}
	o := outcomeDone
	switch {
	case late && f.hardCtx.Err() != nil:
		// The runner stopped: what a cancelled tool returns is no answer.
		f.abandon(c, span)
		return
	case timedOut:
		res, o = f.timeoutResult(c), outcomeTimeout
	case c.ctx.Err() != nil && f.hardCtx.Err() == nil:
		o = outcomeCancelled
	}
	// A result the tool returned before the runner stopped is an answer
	// owed: send reports it in the session's end error.
	f.answerTool(c, span, res, o)
}

// notStarted settles a call closed, or whose runner stopped, while it
// waited for a slot.
func (f *follower) notStarted(c *call) {
	f.log.Debug("toolrunner: call closed before it started", "call_id", c.id, "reason", context.Cause(c.ctx).Error())
	f.leaveUnanswered(c)
	c.finish()
}

// watch runs when a running tool's context ends before it returned: it
// settles the call on a timeout or when the runner stops. On an interrupt
// (or an answer from elsewhere) the tool was told; the watcher then waits
// for it to return, or for its timeout, or for the runner to stop.
func (f *follower) watch(c *call, ctx context.Context, span trace.Span, deadline time.Time, returned <-chan struct{}) {
	timeout := func() {
		if c.state.CompareAndSwap(stateRunning, stateAnswering) {
			f.answerTool(c, span, f.timeoutResult(c), outcomeTimeout)
		}
	}
	switch {
	case f.hardCtx.Err() != nil:
	case errors.Is(context.Cause(ctx), errToolTimeout):
		timeout()
		return
	default:
		var expire <-chan time.Time
		if !deadline.IsZero() {
			t := time.NewTimer(time.Until(deadline))
			defer t.Stop()
			expire = t.C
		}
		select {
		case <-returned:
			return
		case <-expire:
			timeout()
			return
		case <-f.hardCtx.Done():
		}
	}
	if c.state.CompareAndSwap(stateRunning, stateAbandoned) {
		f.abandon(c, span)
	}
}

func (f *follower) timeoutResult(c *call) tool.Result {
	return tool.Errorf("tool %s timed out after %s", c.name, f.r.cfg.toolTimeout)
}

// abandon settles a call the runner stopped before it had an answer:
// nothing is sent, and the call stays pending for the session's next
// runner.
func (f *follower) abandon(c *call, span trace.Span) {
	f.r.tr.end(span, c, tool.Result{}, outcomeAbandoned)
	f.log.Debug("toolrunner: call cancelled; no result sent", "call_id", c.id, "reason", context.Cause(c.ctx).Error())
	f.leaveUnanswered(c)
	c.finish()
}

// leaveUnanswered notes, for the session's end error, a call cancelled
// without an answer while the session still waits for it.
func (f *follower) leaveUnanswered(c *call) {
	if f.sendState(c) == sendStopped {
		f.left.unansweredCall(c)
	}
}

// answerTool ends the call's span and sends its result. A result the API
// refuses as invalid (a block it does not take, say) is replaced by an
// error result the model can read, rather than leave the call pending
// forever; when that is refused too, the call is given up.
func (f *follower) answerTool(c *call, span trace.Span, res tool.Result, o outcome) {
	defer c.finish()
	f.r.tr.end(span, c, res, o)
	switch o {
	case outcomeTimeout:
		f.log.Warn("toolrunner: tool timed out", "call_id", c.id, "tool", c.name, "timeout", f.r.cfg.toolTimeout)
	case outcomeCancelled:
		f.log.Debug("toolrunner: tool returned after its call was closed", "call_id", c.id, "reason", context.Cause(c.ctx).Error())
	}
	if f.debug() {
		f.log.Debug("toolrunner: tool returned", append([]any{"call_id", c.id, "tool", c.name, "is_error", res.IsError},
			f.content("result", res.TextContent())...)...)
	}
	// The request that sends the result is a child of the call's span, and
	// survives the call's cancellation: a late answer gets its 409.
	sctx := trace.ContextWithSpan(f.hardCtx, span)
	a := UnsentAnswer{CallID: c.id, Tool: c.name, Result: res, Sandbox: c.sandbox}
	err := f.send(sctx, c, a)
	if !refused(err) {
		return
	}
	f.log.Error("toolrunner: the API refused the tool's result; sending an error result instead",
		"call_id", c.id, "tool", c.name, "error", err.Error())
	a.Result = tool.Errorf("The result of tool %s was refused by the API: %s", c.name, err.Error())
	if err := f.send(sctx, c, a); refused(err) {
		f.log.Error("toolrunner: the API refused the error result too; the call is given up",
			"call_id", c.id, "tool", c.name, "error", err.Error())
	}
}

// invoke runs one call. tool.Tool.Run turns errors and panics into error
// results; this guard covers anything it does not (a zero tool.Tool). The
// result names the panic, never its stack, which goes to the log.
func invoke(ctx context.Context, t tool.Tool, name string, input json.RawMessage) (res tool.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = tool.Errorf("%s", toolpanic.Result(name, p))
			toolpanic.Report(ctx, name, p, debug.Stack())
		}
	}()
	return t.Run(ctx, input)
}

// runConfirm asks the application and sends its decision, unless the call
// stopped waiting meanwhile. A confirm function that ignores its context
// is not waited for once the runner stops: the call is then abandoned.
func (f *follower) runConfirm(c *call) {
	c.state.Store(stateRunning)
	stop := context.AfterFunc(f.hardCtx, func() {
		if c.state.CompareAndSwap(stateRunning, stateAbandoned) {
			f.log.Debug("toolrunner: confirmation cancelled; not sent", "tool_use_id", c.id)
			f.leaveUnanswered(c)
			c.finish()
		}
	})
	if f.debug() {
		f.log.Debug("toolrunner: asking for a confirmation", append([]any{"tool_use_id", c.id, "tool", c.name},
			f.content("input", string(c.input))...)...)
	}
	d := decide(c.ctx, f.r.cfg.confirm, *c.confirm, f.log)
	late := c.ctx.Err() != nil // decided after the call stopped waiting, maybe because it did
	stop()
	if !c.state.CompareAndSwap(stateRunning, stateAnswering) {
		return // abandoned
	}
	defer c.finish()
	if late {
		f.log.Debug("toolrunner: confirmation no longer needed; not sent", "tool_use_id", c.id, "reason", context.Cause(c.ctx).Error())
		f.leaveUnanswered(c)
		return
	}
	f.log.Debug("toolrunner: confirmation decided", "tool_use_id", c.id, "tool", c.name, "allow", d.Allow)
	if err := f.send(f.hardCtx, c, UnsentAnswer{CallID: c.id, Tool: c.name, Decision: &d}); refused(err) {
		f.log.Error("toolrunner: the API refused the confirmation; the call is given up",
			"tool_use_id", c.id, "tool", c.name, "error", err.Error())
	}
}

// resultParam is the answer carrying a tool's result: a
// user.tool_result for a sandbox tool, else a user.custom_tool_result.
func resultParam(id string, res tool.Result, sandbox bool) sessions.EventParam {
	if sandbox {
		return sessions.ToolResultParam{ToolUseID: id, Content: resultBlocks(res), IsError: res.IsError}
	}
	return sessions.CustomToolResultParam{CustomToolUseID: id, Content: resultBlocks(res), IsError: res.IsError}
}

// resultBlocks are the content blocks of a tool's result. Empty text
// blocks are left out (the API refuses them); images are sent as base64
// image blocks.
func resultBlocks(res tool.Result) []sessions.ContentBlockParam {
	var blocks []sessions.ContentBlockParam
	for _, b := range res.Content {
		switch b := b.(type) {
		case tool.TextBlock:
			if b.Text != "" {
				blocks = append(blocks, sessions.TextBlockParam{Text: b.Text})
			}
		case tool.ImageBlock:
			blocks = append(blocks, imageBlock(b))
		}
	}
	return blocks
}

// imageBlock is an image content block (docs/session-events-wire.md 1.3),
// which the sessions package has no type for.
func imageBlock(b tool.ImageBlock) sessions.ContentBlockParam {
	raw, err := json.Marshal(map[string]any{"type": "image", "source": map[string]any{
		"type": "base64", "media_type": b.MediaType, "data": base64.StdEncoding.EncodeToString(b.Data)}})
	if err != nil { // cannot happen: strings only
		return sessions.TextBlockParam{Text: fmt.Sprintf("[image: %v]", err)}
	}
	return sessions.UnknownContentBlockParam{Type: "image", JSON: raw}
}
