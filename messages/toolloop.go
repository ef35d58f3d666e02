package messages

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/genai"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/toolpanic"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tool"
)

// ToolLoop configures RunTools. The zero value uses the defaults.
type ToolLoop struct {
	// MaxIterations bounds the model calls (default 10). When the last
	// one still asks for tools, RunTools runs them, so that the returned
	// conversation can be continued, and returns ErrMaxIterations.
	MaxIterations int
	// MaxParallel bounds the tool calls of one turn that run at once
	// (default 8).
	MaxParallel int
}

// Defaults of ToolLoop, as its fields document them.
const (
	defaultMaxIterations = 10
	defaultMaxParallel   = 8
)

// ErrMaxIterations is returned, wrapped, with the result when the model
// still asked for tools after ToolLoop.MaxIterations calls.
var ErrMaxIterations = errors.New("agentplatform: tool loop: maximum iterations reached")

// ToolLoopResult is where a tool loop ended.
type ToolLoopResult struct {
	// Message is the model's last message: its final answer, unless the
	// loop stopped early.
	Message *Message
	// Messages is the whole conversation: the request's messages, then
	// each assistant message and the user message of tool results that
	// answered it. Append a user message and pass it back as
	// MessageParams.Messages to go on.
	Messages []MessageParam
	// Iterations is the number of model calls made.
	Iterations int
}

// RunTools runs a conversation in which the model calls client tools:
// POST /v1/messages, repeated.
//
// The definitions of tools are added to params.Tools (a definition of the
// same name already there is kept). Each turn, every tool_use block of the
// model's message is run, in parallel up to loop.MaxParallel, with ctx; the
// results go back in one user message of tool_result blocks, in the order
// of the calls. A tool's error or panic becomes an is_error result that the
// model reads (tool.Tool.Run), as does a call of a tool that is not in
// tools. A panic's result names only the tool and the panic's value; its
// stack goes to the client's logger (option.WithLogger, or the call's
// opts), at error level, or to slog.Default without one. The loop ends
// when a message's stop_reason is not tool_use (an answer, max_tokens,
// pause_turn, a refusal, …): the result then holds that message and the
// whole conversation.
//
// It ends early with the result so far and an error: the API's error;
// ErrMaxIterations (wrapped) after loop.MaxIterations calls; or the
// context's error, promptly, when ctx ends, even during a tool call (the
// running tools see ctx cancelled; RunTools does not wait for one that
// ignores it).
func (s *Service) RunTools(ctx context.Context, params MessageParams, tools []tool.Tool, loop ToolLoop, opts ...option.Option) (*ToolLoopResult, error) {
	r, err := s.newToolRunner(&params, tools, loop, opts)
	if err != nil {
		return nil, err
	}
	res := &ToolLoopResult{Messages: slices.Clone(params.Messages)}
	toolCtx := r.toolContext(ctx)
	for {
		params.Messages = res.Messages
		msg, err := s.Create(ctx, params, opts...)
		if err != nil {
			return res, err
		}
		res.Iterations++
		res.Message = msg
		res.Messages = append(res.Messages, msg.Param())
		calls := msg.ToolUses()
		if msg.StopReason != StopToolUse || len(calls) == 0 {
			return res, nil
		}
		turn := r.newTurn(toolCtx)
		for _, call := range calls {
			turn.start(call)
		}
		results, err := turn.wait(ctx)
		if err != nil {
			return res, err
		}
		res.Messages = append(res.Messages, UserBlocks(results...))
		if err := r.checkIterations(res); err != nil {
			return res, err
		}
	}
}

// toolRunner is what RunTools and StreamTools share: the tools by name,
// the limits, and how a call runs and is traced.
type toolRunner struct {
	byName   map[string]tool.Tool
	maxIter  int
	parallel int
	tr       toolTracer
	logger   *slog.Logger // for tool panics; nil: slog.Default
}

// newToolRunner checks the tools, applies the defaults of loop, and adds
// the tools' definitions to params.Tools (one already there of the same
// name is kept; the caller's slice is never written to).
func (s *Service) newToolRunner(params *MessageParams, tools []tool.Tool, loop ToolLoop, opts []option.Option) (*toolRunner, error) {
	r := &toolRunner{
		byName:   make(map[string]tool.Tool, len(tools)),
		maxIter:  loop.MaxIterations,
		parallel: loop.MaxParallel,
		tr:       s.toolTracer(opts),
	}
	if r.maxIter <= 0 {
		r.maxIter = defaultMaxIterations
	}
	if r.parallel <= 0 {
		r.parallel = defaultMaxParallel
	}
	params.Tools = slices.Clip(params.Tools)
	for _, t := range tools {
		if _, dup := r.byName[t.Name()]; dup {
			return nil, invalid("tools", "tool names must be unique: "+strconv.Quote(t.Name())+" is repeated")
		}
		r.byName[t.Name()] = t
		if !slices.ContainsFunc(params.Tools, func(d Tool) bool { c, ok := d.(CustomTool); return ok && c.Name == t.Name() }) {
			params.Tools = append(params.Tools, FromTool(t))
		}
	}
	_, r.logger, _ = s.p.Observability(opts...)
	return r, nil
}

// toolContext is ctx with the handler that logs a tool's panic, stack
// included, to the loop's logger.
func (r *toolRunner) toolContext(ctx context.Context) context.Context {
	if r.logger == nil {
		return ctx
	}
	logger := r.logger
	return toolpanic.WithHandler(ctx, func(ctx context.Context, name string, v any, stack []byte) {
		logger.ErrorContext(ctx, "agentplatform: tool loop: tool panicked", toolpanic.Attrs(name, v, stack)...)
	})
}

// checkIterations returns ErrMaxIterations, wrapped, once res has used up
// the model calls the loop allows.
func (r *toolRunner) checkIterations(res *ToolLoopResult) error {
	if res.Iterations >= r.maxIter {
		return fmt.Errorf("%w (%d)", ErrMaxIterations, r.maxIter)
	}
	return nil
}

// toolTurn runs the tool calls of one model message: each starts when
// start is called, at most parallel at once, in the order of the calls,
// and wait returns the results in that order. The calls see ctx; stop
// cancels those still running.
type toolTurn struct {
	r     *toolRunner
	ctx   context.Context
	stop  context.CancelFunc
	sem   chan struct{}
	prev  chan struct{} // closed once the previous call holds its place or gave up
	wg    sync.WaitGroup
	calls []*pendingCall
}

// pendingCall is one call of a turn and, once it returned, its result.
type pendingCall struct {
	call   ToolUseBlock
	result ContentBlock
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (r *toolRunner) newTurn(ctx context.Context) *toolTurn {
	ctx, stop := context.WithCancel(ctx)
	return &toolTurn{r: r, ctx: ctx, stop: stop, sem: make(chan struct{}, r.parallel), prev: closedChan}
}

// start runs call in its own goroutine once the calls started before it
// hold their places; a call of a tool that is not in the loop's tools
// gets its error result at once. start itself never blocks.
func (t *toolTurn) start(call ToolUseBlock) {
	p := &pendingCall{call: call}
	t.calls = append(t.calls, p)
	tl, ok := t.r.byName[call.Name]
	if !ok {
		p.result = ToolResult(call.ID, tool.Errorf("tool %q does not exist; the available tools are: %s", call.Name, toolNames(t.r.byName)))
		return
	}
	prev, mine := t.prev, make(chan struct{})
	t.prev = mine
	t.wg.Go(func() {
		select {
		case <-prev:
		case <-t.ctx.Done():
			close(mine)
			return
		}
		select {
		case t.sem <- struct{}{}:
			close(mine)
		case <-t.ctx.Done():
			close(mine)
			return
		}
		defer func() { <-t.sem }()
		p.result = t.r.tr.run(t.ctx, tl, call)
	})
}

// started reports whether a call of that tool use ID was started.
func (t *toolTurn) started(id string) bool {
	return slices.ContainsFunc(t.calls, func(p *pendingCall) bool { return p.call.ID == id })
}

// wait returns the results of the calls, in order, once all returned, or
// the context's error as soon as ctx or the turn's context ends (the
// running tools see it cancelled; wait does not wait for one that
// ignores it).
func (t *toolTurn) wait(ctx context.Context) ([]ContentBlock, error) {
	defer t.stop()
	done := make(chan struct{})
	go func() {
		t.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	case <-t.ctx.Done():
	}
	if err := cmp.Or(ctx.Err(), t.ctx.Err()); err != nil {
		return nil, fmt.Errorf("agentplatform: tool loop: %w", err)
	}
	results := make([]ContentBlock, len(t.calls))
	for i, p := range t.calls {
		results[i] = p.result
	}
	return results, nil
}

// toolTracer starts the span of a client tool call: the loop's options
// choose the tracer provider and content mode, as for its model calls.
type toolTracer func(ctx context.Context, name string) (context.Context, pipeline.Span)

func (s *Service) toolTracer(opts []option.Option) toolTracer {
	return func(ctx context.Context, name string) (context.Context, pipeline.Span) {
		return s.p.StartInternal(ctx, name, opts)
	}
}

// run runs one call in its vendor.custom_tool_use span (docs/tracing.md),
// the parent of any span the tool starts, and returns its tool_result
// block. The span is ERROR (tool_error) when the result is an error, unset
// when ctx ended first.
func (tr toolTracer) run(ctx context.Context, t tool.Tool, call ToolUseBlock) ContentBlock {
	ctx, span := tr(ctx, spanCustomToolUse+call.Name)
	if span.Recording() {
		span.SetAttributes(
			attr.GenAIOperationName.String(opExecuteTool),
			attr.GenAIToolName.String(call.Name),
			attr.GenAIToolCallID.String(call.ID),
			attr.GenAIToolType.String(toolFunction),
		)
	}
	res := runTool(ctx, t, call)
	block := ToolResult(call.ID, res)
	if span.ContentCapture() {
		var c content
		c.set(attr.GenAIToolCallArguments, rawTree(call.Input))
		if obj, ok := wireTree(block).(genai.Object); ok {
			c.set(attr.GenAIToolCallResult, genai.ToolResponse(obj, genai.Options{}))
		}
		c.record(span)
	}
	switch {
	case ctx.Err() != nil:
		span.EndUnsetAt(time.Time{})
	case res.IsError:
		span.Finish(toolErrorType, time.Time{})
	default:
		span.Finish("", time.Time{})
	}
	return block
}

// runTool runs one call. tool.Tool.Run already turns panics into error
// results; this guard covers a zero tool.Tool, whose use would otherwise
// crash the process from a goroutine. As there, the result names the
// panic, and its stack goes to the log.
func runTool(ctx context.Context, t tool.Tool, call ToolUseBlock) (res tool.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = tool.Errorf("%s", toolpanic.Result(call.Name, p))
			toolpanic.Report(ctx, call.Name, p, debug.Stack())
		}
	}()
	return t.Run(ctx, call.Input)
}

func toolNames(byName map[string]tool.Tool) string {
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	if len(names) == 0 {
		return "(none)"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// ToolResult turns a tool's result into the tool_result block that answers
// the tool use toolUseID, as RunTools does: for a loop of your own.
// Text and images are kept; empty text blocks are left out (the API
// refuses them), and a result with no content is an empty result.
//
//	for _, call := range msg.ToolUses() {
//		results = append(results, messages.ToolResult(call.ID, lookup.Run(ctx, call.Input)))
//	}
//	params.Messages = append(params.Messages, msg.Param(), messages.UserBlocks(results...))
func ToolResult(toolUseID string, r tool.Result) ToolResultBlock {
	var blocks Blocks
	for _, b := range r.Content {
		switch b := b.(type) {
		case tool.TextBlock:
			if b.Text != "" {
				blocks = append(blocks, TextBlock{Text: b.Text})
			}
		case tool.ImageBlock:
			blocks = append(blocks, ImageBlock{Source: Base64Source{MediaType: b.MediaType, Data: base64.StdEncoding.EncodeToString(b.Data)}})
		}
	}
	out := ToolResultBlock{ToolUseID: toolUseID, IsError: r.IsError}
	if len(blocks) > 0 {
		out.Content = blocks
	}
	return out
}
