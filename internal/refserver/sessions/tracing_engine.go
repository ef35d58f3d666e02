package sessions

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/genai"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
)

// The engine's spans (docs/tracing.md), all INTERNAL, all built under
// Deps.Lock:
//
//   - vendor.session.turn: one per stay of a thread in running (a Hold
//     stays in running). It ends when the thread leaves running, with that
//     stay's stop reason: requires_action when it waits for the client (a
//     custom tool result, a confirmation), budget_reached at a budget
//     pause, else the reason its turn ended. When the thread runs again a
//     new span starts, parented by the request that made it run: the Send
//     Events that carried the last answer it waited for, the Update Session
//     that raised or removed the budget. A span's parent is that request
//     (ParentTurns), or the coordinator's turn for a child thread's first
//     stay, or none (a turn started outside a request: a scheduled
//     deployment). OK when it ends, ERROR with the error.type of the
//     session.error that ended it (exhausted or terminal; a retried one
//     does not), unset when interrupted (archiving a running session
//     interrupts it) or abandoned (another thread's terminal error).
//   - vendor.model_request: one per model request, under its turn.
//   - vendor.tool_use <tool>, vendor.mcp_tool_use <tool>: one per tool the
//     server runs (agent toolset and MCP; not the client-run ones), under
//     the turn.

// turnSpan is a thread's vendor.session.turn span.
type turnSpan struct {
	span    trace.Span
	ctx     context.Context
	errType string // the session.error that ends the turn
	asked   bool   // a model request started in this stay
	// Where the turn's events start (content mode) in the session log and
	// the thread's own log; task is a child's input when it starts fresh.
	fromEvents, fromLog int
	task                string
}

// startTurnSpan starts th's turn span as it enters running; from is the
// thread whose turn spawned it, nil for a stay started by a request or
// outside one.
func (e *engine) startTurnSpan(th, from *thread) {
	t := e.s.trace
	if t == nil {
		return
	}
	e.endTurnSpan(th, "", true) // never open here; a leak would be worse
	ctx := context.Background()
	if from != nil && from.span != nil {
		ctx = from.span.ctx
	} else if t.TurnParent() != nil {
		ctx = trace.ContextWithSpan(ctx, t.TurnParent())
	}
	ctx, span := t.Tracer().Start(ctx, "vendor.session.turn", trace.WithSpanKind(trace.SpanKindInternal))
	// Its input is what reached the thread since its previous stay took
	// its input; a child's first stay has its task instead.
	ts := &turnSpan{span: span, ctx: ctx, fromEvents: th.inputFrom, fromLog: len(th.log)}
	if th.child && th.turn.pc == 0 {
		ts.task = th.turn.task // sent on the coordinator's log
		ts.fromEvents = len(e.x.events)
	}
	th.span = ts
	if !span.IsRecording() {
		return
	}
	v := e.agentOf(th)
	attrs := []attribute.KeyValue{
		attr.GenAIProviderName.String(attr.ProviderVendor),
		attr.GenAIOperationName.String("invoke_agent"),
		attr.GenAIAgentName.String(th.name),
		attr.GenAIRequestModel.String(e.modelOf(th).ID),
		attr.SessionID.String(e.x.id),
		attr.GenAIConversationID.String(th.id),
	}
	if !(th.child && th.name == advisorAgentName) { // the advisor is no agent of its own
		attrs = append(attrs, attr.GenAIAgentID.String(v.Agent.ID))
	}
	if v.Description != nil && *v.Description != "" {
		attrs = append(attrs, attr.GenAIAgentDescription.String(*v.Description))
	}
	span.SetAttributes(attrs...)
}

// endTurnSpan ends th's turn span, if any: stop is its stop reason ("" for
// none), cancelled leaves the status unset unless a session.error ended it.
func (e *engine) endTurnSpan(th *thread, stop string, cancelled bool) {
	ts := th.span
	if ts == nil {
		return
	}
	th.span = nil
	if ts.asked || stop != "budget_reached" {
		// Taken: a stay paused before asking the model leaves its input
		// to the next one.
		th.inputFrom = len(e.x.events)
	}
	if ts.span.IsRecording() {
		var attrs []attribute.KeyValue
		if stop != "" {
			attrs = append(attrs, attr.SessionTurnStopReason.String(stop))
		}
		if e.s.trace.ContentOn() {
			attrs = append(attrs, e.turnContent(th, ts)...)
		}
		ts.span.SetAttributes(attrs...)
	}
	spans.End(ts.span, spans.Outcome{ErrType: ts.errType, Unset: cancelled})
}

// endTurnSpans ends the spans of the turns that can never continue (a
// deleted session's held turns), status unset. A waiting turn has none.
func (e *engine) endTurnSpans() {
	for _, th := range e.threads {
		e.endTurnSpan(th, "", true)
	}
}

// sessionError records the session.error of a failed model request: it
// ends the turn unless the server retries it.
func (ts *turnSpan) sessionError(typ, retry string) {
	if ts != nil && retry != "retrying" {
		ts.errType = typ
	}
}

// modelSpan is a model request's vendor.model_request span.
type modelSpan struct {
	span      trace.Span
	errType   string
	cancelled bool
}

func (e *engine) startModelSpan(th *thread) *modelSpan {
	t := e.s.trace
	if t == nil {
		return nil
	}
	ctx := context.Background()
	if th.span != nil {
		ctx = th.span.ctx
		th.span.asked = true
	}
	_, span := t.Tracer().Start(ctx, "vendor.model_request", trace.WithSpanKind(trace.SpanKindInternal))
	if span.IsRecording() {
		span.SetAttributes(
			attr.GenAIProviderName.String(attr.ProviderVendor),
			attr.GenAIOperationName.String("chat"),
			attr.GenAIRequestModel.String(e.modelOf(th).ID),
		)
	}
	return &modelSpan{span: span}
}

// fail marks the request failed with errType; cancel marks it cut short by
// an interrupt. end ends it with its usage.
func (ms *modelSpan) fail(errType string) {
	if ms != nil {
		ms.errType = errType
	}
}

func (ms *modelSpan) cancel() {
	if ms != nil {
		ms.cancelled = true
	}
}

func (ms *modelSpan) end(u tokenCount) {
	if ms == nil {
		return
	}
	if ms.span.IsRecording() {
		ms.span.SetAttributes(
			attr.UsageInputTokens.Int64(u.input+u.cacheCreation+u.cacheRead),
			attr.UsageOutputTokens.Int64(u.output),
			attr.UsageCacheWrite.Int64(u.cacheCreation),
			attr.UsageCacheRead.Int64(u.cacheRead),
		)
	}
	spans.End(ms.span, spans.Outcome{ErrType: ms.errType, Unset: ms.cancelled})
}

// toolSpan records a tool the server runs for th: failed when its output
// is an error.
func (e *engine) toolSpan(th *thread, c *toolCall) {
	t := e.s.trace
	if t == nil {
		return
	}
	ctx := context.Background()
	if th.span != nil {
		ctx = th.span.ctx
	}
	name := "vendor.tool_use " + c.name
	if c.kind == toolMCP {
		name = "vendor.mcp_tool_use " + c.name
	}
	_, span := t.Tracer().Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal))
	if span.IsRecording() {
		span.SetAttributes(spans.ToolAttrs(c.name, c.id)...)
		if t.ContentOn() {
			result := []any{}
			if c.output.text != "" {
				result = genai.Parts(c.output.text, spans.AgentContent)
			}
			var ca spans.Content
			ca.Add(attr.GenAIToolCallArguments, messages.GenaiTree(messages.OrEmpty(e.toolInput(th, c))))
			ca.Add(attr.GenAIToolCallResult, result)
			span.SetAttributes(ca.KVs()...)
		}
	}
	var o spans.Outcome
	if c.output.isError {
		o.ErrType = spans.ToolErrorType
	}
	spans.End(span, o)
}

// toolInput is the input of c, read from its tool-use event, the latest of
// th's log with that id (recorded in the request that just ended).
func (e *engine) toolInput(th *thread, c *toolCall) *messages.JSON {
	log := e.x.events
	if th.child {
		log = th.log
	}
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].id == c.id {
			if n, err := messages.ParseJSON(log[i].raw); err == nil {
				return n.Get("input")
			}
			break
		}
	}
	return nil
}

// turnContent is the turn's content (package spans, content mode), read from the
// session's events: the agent's system prompt; as input, what reached the
// thread since its previous turn ended (user and system messages, an
// outcome's description, child reports, tool answers; for a child thread,
// the task it was given); as output, one assistant message per model
// request (its messages and tool calls; thinking is not shown on
// managed-agent spans) and one tool message per result of a tool the
// server ran.
func (e *engine) turnContent(th *thread, ts *turnSpan) []attribute.KeyValue {
	var ca spans.Content
	if sys := e.agentOf(th).System; sys != nil && *sys != "" {
		ca.Add(attr.GenAISystemInstructions, genai.SystemInstructions(*sys, spans.AgentContent))
	}
	tr := transcript{out: []any{}}
	if ts.task != "" {
		tr.input("user", ts.task)
	}
	if th.child {
		// Its answers are on the session log, its own events on its log.
		tr.scan(e.x.events[ts.fromEvents:], th.id, true, false)
		tr.scan(th.log[ts.fromLog:], "", false, true)
	} else {
		tr.scan(e.x.events[ts.fromEvents:], "", true, true)
	}
	tr.close()
	ca.Add(attr.GenAIInputMessages, genai.InputMessages(tr.in, spans.AgentContent))
	ca.Add(attr.GenAIOutputMessages, tr.out)
	return ca.KVs()
}

// transcript builds a turn's messages from its events, as Messages content
// that internal/genai maps: the input as {role, content} messages; the
// output as GenAI messages, each assistant message mapped when it closes.
type transcript struct {
	in, out []any
	blocks  []any // the open assistant message's content
	call    bool  // it holds a tool call
}

// scan reads events of one thread (thread: its session_thread_id, "" for
// the primary; "" with a thread's own log, which holds nothing else).
func (tr *transcript) scan(events []*sessionEvent, thread string, user, agent bool) {
	for _, ev := range events {
		side, ok := transcriptTypes[ev.typ]
		if !ok || side == sideUser && !user || side == sideAgent && !agent {
			continue
		}
		v, err := genai.Parse(ev.raw)
		n, _ := v.(genai.Object)
		if err != nil || n.String("session_thread_id") != thread {
			continue
		}
		switch ev.typ {
		case eventUserMessage, "agent.thread_message_received":
			tr.input("user", n.Get("content"))
		case eventSystemMessage:
			tr.input("system", n.Get("content"))
		case eventDefineOutcome:
			tr.input("user", n.String("description"))
		case eventCustomResult:
			tr.input("tool", []any{eventBlock(n, "tool_result", "tool_use_id", "custom_tool_use_id", "content", "content")})
		case eventToolResult:
			tr.input("tool", []any{eventBlock(n, "tool_result", "tool_use_id", "tool_use_id", "content", "content")})
		case "span.model_request_start":
			tr.close()
		case "agent.message":
			content, _ := n.Get("content").([]any)
			tr.assistant(false, content...)
		case "agent.tool_use", "agent.custom_tool_use":
			tr.assistant(true, eventBlock(n, "tool_use", "id", "id", "name", "name", "input", "input"))
		case "agent.mcp_tool_use":
			tr.assistant(true, eventBlock(n, "mcp_tool_use", "id", "id", "name", "name", "input", "input", "server_name", "mcp_server_name"))
		case "agent.tool_result":
			tr.toolResult(eventBlock(n, "tool_result", "tool_use_id", "tool_use_id", "content", "content"))
		case "agent.mcp_tool_result":
			tr.toolResult(eventBlock(n, "mcp_tool_result", "tool_use_id", "mcp_tool_use_id", "content", "content"))
		}
	}
}

// eventBlock is the content block an event stands for: type typ, then
// pairs of its key and the event's key that holds the value.
func eventBlock(ev genai.Object, typ string, keys ...string) genai.Object {
	b := genai.Object{{Key: "type", Value: typ}}
	for i := 0; i+1 < len(keys); i += 2 {
		b = append(b, genai.Member{Key: keys[i], Value: ev.Get(keys[i+1])})
	}
	return b
}

// transcriptTypes are the events a transcript reads: the input a thread
// receives, and what its agent does.
var transcriptTypes = map[string]uint8{
	eventUserMessage: sideUser, eventSystemMessage: sideUser, eventCustomResult: sideUser, eventToolResult: sideUser,
	eventDefineOutcome: sideUser, "agent.thread_message_received": sideUser,
	"span.model_request_start": sideAgent, "agent.message": sideAgent, "agent.tool_use": sideAgent,
	"agent.custom_tool_use": sideAgent, "agent.mcp_tool_use": sideAgent, "agent.tool_result": sideAgent,
	"agent.mcp_tool_result": sideAgent,
}

const (
	sideUser uint8 = iota + 1
	sideAgent
)

func (tr *transcript) input(role string, content any) {
	tr.in = append(tr.in, genai.Object{{Key: "role", Value: role}, {Key: "content", Value: content}})
}

func (tr *transcript) assistant(call bool, blocks ...any) {
	tr.blocks = append(tr.blocks, blocks...)
	tr.call = tr.call || call
}

// toolResult ends the open assistant message and adds a tool message with
// the result block b.
func (tr *transcript) toolResult(b genai.Object) {
	tr.close()
	msg := genai.Object{{Key: "role", Value: "tool"}, {Key: "content", Value: []any{b}}}
	tr.out = append(tr.out, genai.InputMessages([]any{msg}, spans.AgentContent)...)
}

// close ends the open assistant message: its finish reason is tool_call
// when it holds a tool call, else stop. A message none of whose blocks
// shows (thinking alone) is left out.
func (tr *transcript) close() {
	if len(tr.blocks) == 0 {
		return
	}
	stop := "end_turn"
	if tr.call {
		stop = "tool_use"
	}
	msg := genai.OutputMessages("assistant", tr.blocks, genai.FinishReason(stop), spans.AgentContent)
	if parts, _ := msg[0].(genai.Object).Get("parts").([]any); len(parts) > 0 {
		tr.out = append(tr.out, msg...)
	}
	tr.blocks, tr.call = nil, false
}
