package messages

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"

	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tool"
)

// StreamTools is RunTools with every model call streamed: range over
// Events to see each turn as it arrives (text deltas, each tool call as
// its block completes, the turn's whole message, the tool results), while
// the loop runs the tools and sends their results back, until the model
// stops or loop.MaxIterations is reached. Nothing is sent before Events
// is ranged over (or Result called).
//
// The tools, their spans and the loop's end follow RunTools: the same
// tools are added to params.Tools, a tool's error or panic (whose stack
// goes only to the log) or a call of a tool not in tools is an is_error
// result, and the loop ends with ErrMaxIterations (wrapped), an API error,
// or the context's error, promptly, even during a tool call. A tool starts
// as soon as its tool_use block is complete, while the rest of the message
// still streams in, at most loop.MaxParallel at once, in the order of the
// calls; the results are sent once the message has ended, in that order.
// When the message ends without asking for tools after all (max_tokens,
// say), the tools it started are cancelled and their results dropped.
//
// Leaving the range early, or Close, cancels the running tools and the
// stream and lets the connection go; the loop does not wait for a tool
// that ignores its context.
func (s *Service) StreamTools(ctx context.Context, params MessageParams, tools []tool.Tool, loop ToolLoop, opts ...option.Option) *ToolStream {
	return &ToolStream{s: s, ctx: ctx, params: params, tools: tools, loop: loop, opts: opts}
}

// ToolStreamEvent is one event of a ToolStream: exactly one of Event,
// ToolUse, Message and Result is set.
type ToolStreamEvent struct {
	// Iteration is the model call the event belongs to, from 1.
	Iteration int
	// Event is an event of the call's stream, as MessageStream.Events
	// yields it.
	Event StreamEvent
	// ToolUse is a client tool call whose block has just completed. Its
	// tool, if the loop has it, has been started.
	ToolUse *ToolUseBlock
	// Message is the call's whole message, once its stream has ended.
	Message *Message
	// Result is a tool's result, yielded for each call in the order of
	// the calls once all have returned, just before they are sent.
	Result *ToolResultBlock
}

// ToolStream is a running StreamTools loop. Range over Events once, then
// read Result; Close it when done (closing twice, or after the loop
// ended, is harmless). Events and Result are for one goroutine; Close may
// be called from any.
type ToolStream struct {
	s      *Service
	ctx    context.Context
	params MessageParams
	tools  []tool.Tool
	loop   ToolLoop
	opts   []option.Option

	mu      sync.Mutex
	started bool
	closed  bool
	cancel  context.CancelFunc // the loop's, while Events runs

	res *ToolLoopResult
	err error
}

// errToolStreamLeft is the reason Result gives after the range was left
// early or the loop closed.
var errToolStreamLeft = fmt.Errorf("agentplatform: tool loop: %w", ErrIncomplete)

// Events runs the loop and yields its events, in order. It ends without an
// error when a message does not ask for tools; otherwise with the reason
// the loop stopped (an *apierror.Error, an error wrapping
// ErrMaxIterations or the context's error, a stream's error as
// MessageStream.Events yields it), or quietly after Close. Events can be
// ranged over only once.
func (ts *ToolStream) Events() iter.Seq2[ToolStreamEvent, error] {
	return func(yield func(ToolStreamEvent, error) bool) {
		ts.mu.Lock()
		if ts.started {
			closed := ts.closed
			ts.mu.Unlock()
			if !closed {
				yield(ToolStreamEvent{}, errors.New("agentplatform: tool stream events were already read"))
			}
			return
		}
		ts.started = true
		if ts.closed {
			ts.err = errToolStreamLeft
			ts.mu.Unlock()
			return
		}
		ctx, cancel := context.WithCancel(ts.ctx)
		ts.cancel = cancel
		ts.mu.Unlock()
		defer cancel()

		left := false
		err := ts.run(ctx, func(ev ToolStreamEvent) bool {
			if !yield(ev, nil) {
				left = true
				return false
			}
			return true
		})
		ts.mu.Lock()
		closed := ts.closed
		ts.mu.Unlock()
		switch {
		case left, err != nil && closed:
			ts.err = errToolStreamLeft
		case err != nil:
			ts.err = err
			yield(ToolStreamEvent{}, err)
		}
	}
}

// run is the loop. It returns nil when send returned false: the caller
// left.
func (ts *ToolStream) run(ctx context.Context, send func(ToolStreamEvent) bool) error {
	params := ts.params
	r, err := ts.s.newToolRunner(&params, ts.tools, ts.loop, ts.opts)
	if err != nil {
		return err
	}
	res := &ToolLoopResult{Messages: slices.Clone(params.Messages)}
	ts.res = res
	toolCtx := r.toolContext(ctx)
	for {
		params.Messages = res.Messages
		turn := r.newTurn(toolCtx)
		msg, ok, err := ts.stream(ctx, params, turn, res.Iterations+1, send)
		if !ok || err != nil {
			turn.stop()
			return err
		}
		res.Iterations++
		res.Message = msg
		res.Messages = append(res.Messages, msg.Param())
		if !send(ToolStreamEvent{Iteration: res.Iterations, Message: msg}) {
			turn.stop()
			return nil
		}
		calls := msg.ToolUses()
		if msg.StopReason != StopToolUse || len(calls) == 0 {
			turn.stop()
			return nil
		}
		for _, call := range calls {
			if !turn.started(call.ID) { // a block the stream never stopped on its own
				turn.start(call)
			}
		}
		results, err := turn.wait(ctx)
		if err != nil {
			return err
		}
		for _, b := range results {
			tr := b.(ToolResultBlock)
			if !send(ToolStreamEvent{Iteration: res.Iterations, Result: &tr}) {
				return nil
			}
		}
		res.Messages = append(res.Messages, UserBlocks(results...))
		if err := r.checkIterations(res); err != nil {
			return err
		}
	}
}

// stream makes model call n and sends its events, starting each tool call
// on turn as its block completes. It returns the message once the stream
// ended, or ok false when the caller left.
func (ts *ToolStream) stream(ctx context.Context, params MessageParams, turn *toolTurn, n int, send func(ToolStreamEvent) bool) (_ *Message, ok bool, _ error) {
	st, err := ts.s.Stream(ctx, params, ts.opts...)
	if err != nil {
		return nil, true, err
	}
	defer st.Close()
	for ev, err := range st.Events() {
		if err != nil {
			return nil, true, err
		}
		if !send(ToolStreamEvent{Iteration: n, Event: ev}) {
			return nil, false, nil
		}
		stop, isStop := ev.(ContentBlockStopEvent)
		if !isStop {
			continue
		}
		call, isCall := st.acc.msg.Content[stop.Index].(ToolUseBlock)
		if !isCall {
			continue
		}
		turn.start(call)
		if !send(ToolStreamEvent{Iteration: n, ToolUse: &call}) {
			return nil, false, nil
		}
	}
	msg, err := st.Message()
	return msg, true, err
}

// Result is where the loop ended, with Events' error: the result so far
// and the reason it stopped early, or an error wrapping ErrIncomplete when
// the range was left early or the stream closed. Call it after the range
// over Events ended; called first, it runs the loop to its end. The
// result is nil when the loop could not start (a tool named twice).
func (ts *ToolStream) Result() (*ToolLoopResult, error) {
	ts.mu.Lock()
	started := ts.started
	ts.mu.Unlock()
	if !started {
		for range ts.Events() {
		}
	}
	return ts.res, ts.err
}

// Close stops the loop: a range over Events, even one blocked in another
// goroutine, ends promptly without an error, the running tools see their
// context cancelled, and the connection is released. It is safe to call
// from any goroutine, more than once.
func (ts *ToolStream) Close() error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.closed = true
	if ts.cancel != nil {
		ts.cancel()
	}
	return nil
}
