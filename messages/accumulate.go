package messages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Accumulator builds the Message a stream describes, by the rules of
// docs/messages-wire.md 5.9, so that it equals the response Create gives
// for the same request. MessageStream uses one; use your own to accumulate
// events you read or filter yourself. The zero value is ready. It is not
// safe for concurrent use.
type Accumulator struct {
	msg     Message
	blocks  []blockState // one per content block, by index
	started bool
	done    bool
}

// blockState is what a block accumulates until its stop.
type blockState struct {
	buf       []byte // text, thinking, or tool input fragments
	signature string
	open      bool
}

// ErrEventOrder reports an event the stream grammar does not allow there
// (docs/messages-wire.md 5.3): a delta for a block that was not started, a
// block started out of order, anything before message_start; or, in a chat
// completion stream, a tool call index out of order.
var ErrEventOrder = errors.New("agentplatform: message stream: event out of order")

// InputError reports a tool call whose streamed input does not parse to a
// JSON object at its content_block_stop. Raw is the concatenated input.
type InputError struct {
	Index int    // the block's index in the content
	Raw   string // the input as received
	Err   error  // the parse failure
}

func (e *InputError) Error() string {
	raw := e.Raw
	if len(raw) > 200 {
		raw = raw[:200] + "…"
	}
	return fmt.Sprintf("agentplatform: message stream: content block %d: tool input is not a JSON object: %v (received %q)", e.Index, e.Err, raw)
}

func (e *InputError) Unwrap() error { return e.Err }

func orderError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrEventOrder}, args...)...)
}

// Add applies ev to the message. An error means the stream is broken; the
// message keeps what was applied before it.
func (a *Accumulator) Add(ev StreamEvent) error {
	if a.done {
		return nil // nothing may follow message_stop; ignore stragglers
	}
	if _, ok := ev.(MessageStartEvent); !ok && !a.started {
		if _, unknown := ev.(UnknownStreamEvent); unknown {
			return nil
		}
		return orderError("%T before message_start", ev)
	}
	switch ev := ev.(type) {
	case MessageStartEvent:
		if a.started {
			return orderError("a second message_start")
		}
		a.started = true
		a.msg = ev.Message
		if a.msg.Content == nil {
			a.msg.Content = []ContentBlock{}
		}
		a.blocks = make([]blockState, len(a.msg.Content), max(len(a.msg.Content), 4))
	case ContentBlockStartEvent:
		if ev.Index != len(a.msg.Content) {
			return orderError("content_block_start for block %d, expected %d", ev.Index, len(a.msg.Content))
		}
		a.msg.Content = append(a.msg.Content, ev.ContentBlock)
		st := blockState{open: true}
		switch b := ev.ContentBlock.(type) {
		case TextBlock:
			st.buf = append(st.buf, b.Text...)
		case ThinkingBlock:
			st.buf = append(st.buf, b.Thinking...)
			st.signature = b.Signature
		case FallbackBlock:
			a.msg.Model = b.To.Model // docs/messages-wire.md 5.9 step 7
		}
		a.blocks = append(a.blocks, st)
	case ContentBlockDeltaEvent:
		return a.delta(ev)
	case ContentBlockStopEvent:
		st, err := a.open(ev.Index, "content_block_stop")
		if err != nil {
			return err
		}
		return a.finish(ev.Index, st)
	case MessageDeltaEvent:
		a.msg.StopReason = ev.Delta.StopReason
		a.msg.StopSequence = ev.Delta.StopSequence
		a.msg.StopDetails = ev.Delta.StopDetails
		a.msg.Container = ev.Delta.Container
		applyUsage(&a.msg.Usage, &ev.Usage)
	case MessageStopEvent:
		for i := range a.blocks {
			if a.blocks[i].open {
				if err := a.finish(i, &a.blocks[i]); err != nil {
					return err
				}
			}
		}
		a.done = true
	}
	return nil
}

// open returns the state of a started, unfinished block.
func (a *Accumulator) open(i int, event string) (*blockState, error) {
	if i < 0 || i >= len(a.blocks) {
		return nil, orderError("%s for block %d, which was not started", event, i)
	}
	st := &a.blocks[i]
	if !st.open {
		return nil, orderError("%s for block %d, which was already stopped", event, i)
	}
	return st, nil
}

func (a *Accumulator) delta(ev ContentBlockDeltaEvent) error {
	st, err := a.open(ev.Index, "content_block_delta")
	if err != nil {
		return err
	}
	block := a.msg.Content[ev.Index]
	mismatch := func(kind string) error {
		return orderError("%s for block %d, a %s block", kind, ev.Index, blockKind(block))
	}
	switch d := ev.Delta.(type) {
	case TextDelta:
		if _, ok := block.(TextBlock); !ok {
			return mismatch("text_delta")
		}
		st.buf = append(st.buf, d.Text...)
	case InputJSONDelta:
		switch block.(type) {
		case ToolUseBlock, ServerToolUseBlock, MCPToolUseBlock:
		default:
			return mismatch("input_json_delta")
		}
		st.buf = append(st.buf, d.PartialJSON...)
	case ThinkingDelta:
		if _, ok := block.(ThinkingBlock); !ok {
			return mismatch("thinking_delta")
		}
		st.buf = append(st.buf, d.Thinking...)
	case SignatureDelta:
		if _, ok := block.(ThinkingBlock); !ok {
			return mismatch("signature_delta")
		}
		st.signature = d.Signature
	case CitationsDelta:
		t, ok := block.(TextBlock)
		if !ok {
			return mismatch("citations_delta")
		}
		t.Citations = append(t.Citations, d.Citation)
		a.msg.Content[ev.Index] = t
	}
	return nil // an UnknownDelta is the caller's to read; it changes nothing here
}

// finish closes block i: the accumulated text becomes the block's, and a
// tool call's fragments become its input.
func (a *Accumulator) finish(i int, st *blockState) error {
	st.open = false
	b, err := a.materialize(i, st, true)
	if err != nil {
		return err
	}
	a.msg.Content[i] = b
	st.buf = nil
	return nil
}

// materialize returns block i with what it has accumulated. For a tool
// call, final parses the input; otherwise the input stays as started.
func (a *Accumulator) materialize(i int, st *blockState, final bool) (ContentBlock, error) {
	switch b := a.msg.Content[i].(type) {
	case TextBlock:
		b.Text = string(st.buf)
		return b, nil
	case ThinkingBlock:
		b.Thinking, b.Signature = string(st.buf), st.signature
		return b, nil
	case ToolUseBlock:
		if final {
			in, err := toolInput(i, b.Input, st.buf)
			b.Input = in
			return b, err
		}
	case ServerToolUseBlock:
		if final {
			in, err := toolInput(i, b.Input, st.buf)
			b.Input = in
			return b, err
		}
	case MCPToolUseBlock:
		if final {
			in, err := toolInput(i, b.Input, st.buf)
			b.Input = in
			return b, err
		}
	}
	return a.msg.Content[i], nil
}

// toolInput is a tool call's input at its stop (docs/messages-wire.md 5.5):
// the fragments' concatenation, which must be one JSON object; no
// fragments, or only empty ones, mean the input of content_block_start, {}
// for a call without arguments.
func toolInput(i int, started json.RawMessage, buf []byte) (json.RawMessage, error) {
	if len(bytes.TrimSpace(buf)) == 0 {
		if len(started) == 0 {
			return emptyObject, nil
		}
		return started, nil
	}
	var err error
	switch {
	case !json.Valid(buf):
		var v any
		err = json.Unmarshal(buf, &v) // for the decoder's description of the fault
	case bytes.TrimSpace(buf)[0] != '{':
		err = errNotObject
	default:
		return json.RawMessage(slices.Clone(buf)), nil
	}
	return started, &InputError{Index: i, Raw: string(buf), Err: err}
}

// applyUsage replaces each usage value the delta carries
// (docs/messages-wire.md 5.6: they are cumulative).
func applyUsage(u *Usage, d *MessageDeltaUsage) {
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&u.InputTokens, d.InputTokens)
	set(&u.CacheCreationInputTokens, d.CacheCreationInputTokens)
	set(&u.CacheReadInputTokens, d.CacheReadInputTokens)
	set(&u.OutputTokens, d.OutputTokens)
	if d.OutputTokensDetails != nil {
		u.OutputTokensDetails = d.OutputTokensDetails
	}
	if d.ServerToolUse != nil {
		u.ServerToolUse = d.ServerToolUse
	}
	if d.Iterations != nil {
		u.Iterations = d.Iterations
	}
}

// Message returns the message as accumulated so far, or nil before
// message_start. After MessageStopEvent it is the final message. Before,
// it is partial: open text and thinking blocks hold what has arrived, and
// an unfinished tool call holds the input of its start. The returned
// message is the caller's; later events do not change it.
func (a *Accumulator) Message() *Message {
	if !a.started {
		return nil
	}
	m := a.msg
	m.Content = slices.Clone(a.msg.Content)
	for i := range a.blocks {
		if a.blocks[i].open {
			m.Content[i], _ = a.materialize(i, &a.blocks[i], false)
		}
	}
	return &m
}

// Done reports whether MessageStopEvent was applied.
func (a *Accumulator) Done() bool { return a.done }

// blockKind names a block's type for messages.
func blockKind(b ContentBlock) string {
	switch b := b.(type) {
	case TextBlock:
		return "text"
	case ThinkingBlock:
		return "thinking"
	case ToolUseBlock:
		return "tool_use"
	case ServerToolUseBlock:
		return "server_tool_use"
	case MCPToolUseBlock:
		return "mcp_tool_use"
	case UnknownBlock:
		return b.Type
	}
	return fmt.Sprintf("%T", b)
}
