package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"net/http"
	"sync/atomic"

	"github.com/agentplatform/agentplatform-go/internal/apierr"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/stream"
	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/option"
)

var chatSource = stream.Source{Method: http.MethodPost, Path: "/v1/chat/completions"}

// Stream runs a chat completion as a data-only event stream
// (docs/messages-wire.md 9.4): POST /v1/chat/completions with "stream":
// true. Unless params.StreamOptions says otherwise it asks for the usage
// chunk. Range over Chunks, or call Completion to read the whole stream;
// Close it when done. As with messages.Service.Stream, a stream whose ctx ends
// before it is read ends there: its span ends, unset, and its connection is
// released.
func (s *Service) Stream(ctx context.Context, params CompletionParams, opts ...option.Option) (*CompletionStream, error) {
	if err := params.validate(); err != nil {
		return nil, err
	}
	req := pipeline.NewRequest(http.MethodPost, "/v1/chat/completions")
	req.Body = chatBody{p: &params, stream: true}
	sctx, cancel := context.WithCancel(ctx)
	resp, span, err := pipeline.Stream(sctx, s.p, req, opts)
	if err != nil {
		cancel()
		return nil, err
	}
	tb := pipeline.NewTracedBody(sctx, resp.Body, span)
	return &CompletionStream{ctx: ctx, cancel: cancel, body: tb, traced: tb, header: resp.Header}, nil
}

// CompletionChunk is one chunk of a streamed completion (object
// "chat.completion.chunk"). The usage chunk has no choices.
type CompletionChunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []ChunkChoice `json:"choices"`
	Usage   *Usage        `json:"usage"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ChunkChoice is the change a chunk makes to the answer.
type ChunkChoice struct {
	Index        int          `json:"index"`
	Delta        Delta        `json:"delta"`
	FinishReason FinishReason `json:"finish_reason,omitzero"` // "" until the end
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Delta is what a chunk adds: the role (first chunk), text, or tool
// call pieces.
type Delta struct {
	Role      Role            `json:"role,omitzero"`
	Content   string          `json:"content,omitzero"`
	Refusal   string          `json:"refusal,omitzero"`
	ToolCalls []ToolCallDelta `json:"tool_calls,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolCallDelta is a piece of tool call Index: the first names it (ID,
// Type, Function.Name), the following ones add to Function.Arguments.
type ToolCallDelta struct {
	Index    int          `json:"index"`
	ID       string       `json:"id,omitzero"`
	Type     string       `json:"type,omitzero"`
	Function FunctionCall `json:"function"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CompletionStream is an open streamed completion. Range over Chunks
// once, or call Completion; Close it when done. Chunks and Completion are
// for one goroutine; Close may be called from any.
type CompletionStream struct {
	ctx    context.Context
	cancel context.CancelFunc
	body   io.ReadCloser
	traced *pipeline.TracedBody // body, when it is traced
	header http.Header

	acc     Accumulator
	err     error
	done    bool // [DONE] arrived
	started atomic.Bool
	closed  atomic.Bool
}

// Chunks yields the chunks in order, each applied to the stream's
// accumulator first. It ends after [DONE] without an error; with an
// *apierror.Error for a mid-stream error frame (docs/messages-wire.md 9.5;
// its request id is the response header's); with an error wrapping
// io.ErrUnexpectedEOF when the body ends before [DONE]; with the context's
// error when ctx ends; and quietly after Close.
func (s *CompletionStream) Chunks() iter.Seq2[*CompletionChunk, error] {
	return func(yield func(*CompletionChunk, error) bool) {
		if !s.started.CompareAndSwap(false, true) {
			if !s.closed.Load() {
				yield(nil, errors.New("agentplatform: chat completion chunks were already read"))
			}
			return
		}
		defer func() {
			s.end()
			s.body.Close()
			s.cancel()
		}()
		for data, err := range stream.ReadData(s.body, stream.DefaultMaxEventSize, chatSource) {
			if err != nil {
				s.fail(err, yield)
				return
			}
			chunk := new(CompletionChunk)
			if err := chunk.UnmarshalJSON(data); err != nil {
				s.fail(&stream.DecodeError{Type: "chat.completion.chunk", Err: err}, yield)
				return
			}
			if e, ok := chunk.Extra["error"]; ok && string(e) != "null" { // an error frame
				s.fail(apierr.FromStreamEvent(chatSource.Method, chatSource.Path, data), yield)
				return
			}
			if err := s.acc.Add(chunk); err != nil {
				s.fail(err, yield)
				return
			}
			if !yield(chunk, nil) {
				return
			}
		}
		s.done = s.err == nil && !s.closed.Load()
	}
}

// end records how the stream ended on its span, before the body's Close
// ends the span: a stream that reached [DONE] is complete.
func (s *CompletionStream) end() {
	if s.traced == nil {
		return
	}
	switch {
	case s.done:
		s.traced.Finish()
	case s.err == nil:
		s.traced.Abandon() // closed, or the loop left: unset
	}
	if span := s.traced.Span(); span.Recording() {
		if c := s.acc.Completion(); c != nil {
			chatResult(span, c)
		}
	}
}

func (s *CompletionStream) fail(err error, yield func(*CompletionChunk, error) bool) {
	err = stream.Ended(s.ctx, s.closed.Load(), chatSource, s.header, err)
	if err == nil {
		return
	}
	if s.traced != nil {
		s.traced.Fail(err) // the stream's span ends in ERROR (unset if the caller cancelled)
	}
	s.err = err
	yield(nil, err)
}

// Completion reads what is left of the stream, if Chunks was not ranged
// over, and returns the completion the chunks add up to, in the shape
// Create returns. If the stream ended early it returns what was
// accumulated together with the reason (messages.ErrIncomplete when the stream was
// closed or the loop left before [DONE]).
func (s *CompletionStream) Completion() (*Completion, error) {
	if !s.started.Load() {
		for range s.Chunks() {
		}
	}
	c := s.acc.Completion()
	switch {
	case s.err != nil:
		return c, s.err
	case !s.done:
		return c, messages.ErrIncomplete
	}
	return c, nil
}

// Header is the stream response's headers.
func (s *CompletionStream) Header() http.Header { return s.header }

// Close ends the stream: a range over Chunks, even one blocked in another
// goroutine, ends promptly without an error, and the connection is
// released. It is safe to call from any goroutine, more than once.
func (s *CompletionStream) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.cancel()
	if s.started.CompareAndSwap(false, true) {
		s.body.Close()
	}
	return nil
}

// Accumulator adds chunks up to a Completion: text and tool call
// arguments are concatenated, tool calls gathered by index, and the usage
// chunk's usage kept. The zero value is ready.
type Accumulator struct {
	c       Completion
	started bool
	content []byte
	calls   []ToolCall
	args    [][]byte
}

// Add applies a chunk. A tool call index that skips ahead of the calls
// seen so far (or is negative) is an error wrapping messages.ErrEventOrder.
func (a *Accumulator) Add(chunk *CompletionChunk) error {
	if !a.started {
		a.started = true
		a.c = Completion{ID: chunk.ID, Object: "chat.completion", Created: chunk.Created, Model: chunk.Model,
			Choices: []Choice{{Message: Message{Role: RoleAssistant}}}}
	}
	if chunk.Usage != nil {
		a.c.Usage = chunk.Usage
	}
	for _, ch := range chunk.Choices {
		if ch.Index != 0 {
			continue // the platform sends exactly one choice
		}
		choice := &a.c.Choices[0]
		if ch.Delta.Role != "" {
			choice.Message.Role = ch.Delta.Role
		}
		a.content = append(a.content, ch.Delta.Content...)
		choice.Message.Refusal += ch.Delta.Refusal
		for _, tc := range ch.Delta.ToolCalls {
			if tc.Index < 0 || tc.Index > len(a.calls) {
				return fmt.Errorf("%w: tool call %d after %d calls", messages.ErrEventOrder, tc.Index, len(a.calls))
			}
			if tc.Index == len(a.calls) {
				a.calls = append(a.calls, ToolCall{})
				a.args = append(a.args, nil)
			}
			call := &a.calls[tc.Index]
			if tc.ID != "" {
				call.ID = tc.ID
			}
			if tc.Type != "" {
				call.Type = tc.Type
			}
			if tc.Function.Name != "" {
				call.Function.Name = tc.Function.Name
			}
			a.args[tc.Index] = append(a.args[tc.Index], tc.Function.Arguments...)
		}
		if ch.FinishReason != "" {
			choice.FinishReason = ch.FinishReason
		}
		for k, v := range ch.Extra { // members this SDK does not know, such as logprobs
			if choice.Extra == nil {
				choice.Extra = make(map[string]json.RawMessage, len(ch.Extra))
			}
			choice.Extra[k] = v
		}
	}
	return nil
}

// Completion returns the completion so far, or nil before the first chunk.
func (a *Accumulator) Completion() *Completion {
	if !a.started {
		return nil
	}
	c := a.c
	c.Choices = []Choice{a.c.Choices[0]}
	c.Choices[0].Extra = maps.Clone(c.Choices[0].Extra)
	msg := &c.Choices[0].Message
	msg.Content = string(a.content)
	if len(a.calls) > 0 {
		msg.ToolCalls = make([]ToolCall, len(a.calls))
		for i, call := range a.calls {
			call.Function.Arguments = string(a.args[i])
			msg.ToolCalls[i] = call
		}
	}
	return &c
}

type (
	plainCompletionChunk CompletionChunk
	plainChunkChoice     ChunkChoice
	plainDelta           Delta
	plainToolCallDelta   ToolCallDelta
)

func (c CompletionChunk) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCompletionChunk(c)) }
func (c *CompletionChunk) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainCompletionChunk)(c), &c.Extra)
}

func (c ChunkChoice) MarshalJSON() ([]byte, error) { return wire.Marshal(plainChunkChoice(c)) }
func (c *ChunkChoice) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainChunkChoice)(c), &c.Extra)
}

func (d Delta) MarshalJSON() ([]byte, error) { return wire.Marshal(plainDelta(d)) }
func (d *Delta) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainDelta)(d), &d.Extra)
}

func (d ToolCallDelta) MarshalJSON() ([]byte, error) { return wire.Marshal(plainToolCallDelta(d)) }
func (d *ToolCallDelta) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainToolCallDelta)(d), &d.Extra)
}
