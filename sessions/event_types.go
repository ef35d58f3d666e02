package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Event is anything a session's event stream delivers: a persisted event
// (PersistedEvent: every type of the catalogue in
// docs/session-events-wire.md section 4, and UnknownEvent for a type newer
// than this SDK) or a preview of one (EventStart, EventDelta). Switch on
// the concrete type, always a pointer:
//
//	switch ev := ev.(type) {
//	case *sessions.AgentMessageEvent:
//		fmt.Println(sessions.Text(ev.Content))
//	case *sessions.SessionStatusIdleEvent:
//		if ra, ok := ev.StopReason.(sessions.StopRequiresAction); ok { … ra.EventIDs … }
//	case *sessions.UnknownEvent:
//		log.Printf("%s: %s", ev.Type(), ev.JSON)
//	}
type Event interface {
	// Type is the event's type as on the wire, e.g. "agent.message".
	Type() string
	isEvent()
}

// PersistedEvent is an event the session records: every Event but the
// previews. List and Send return only these.
type PersistedEvent interface {
	Event
	// ID is the event's "sevt_…" id, unique within the session.
	ID() string
	// ProcessedAt is when the server recorded the event; the zero time
	// when it has not yet (null: a sent event queued behind earlier work).
	ProcessedAt() time.Time
	// ThreadID is the "sthr_…" thread the event concerns
	// (session_thread_id): a child thread for cross-posted tool calls,
	// routed answers and thread lifecycle events, "" for the primary thread
	// and for session-wide events.
	ThreadID() string
}

// EventMeta holds the keys every persisted event carries. It is embedded
// in each event type, which gets ID, ProcessedAt and ThreadID from it.
type EventMeta struct {
	EventID          string    // id
	EventProcessedAt time.Time // processed_at; zero when null
	SessionThreadID  string    // session_thread_id; "" when null or absent
}

func (m *EventMeta) ID() string             { return m.EventID }
func (m *EventMeta) ProcessedAt() time.Time { return m.EventProcessedAt }
func (m *EventMeta) ThreadID() string       { return m.SessionThreadID }
func (*EventMeta) isEvent()                 {}

// decodeField reads the common keys and skips any other.
func (m *EventMeta) decodeField(r *jsonReader, key string) {
	switch key {
	case "id":
		m.EventID = r.str()
	case "processed_at":
		m.EventProcessedAt = r.timestamp()
	case "session_thread_id":
		m.SessionThreadID = r.str()
	default:
		r.skip()
	}
}

// Event types (docs/session-events-wire.md 4.1), besides EventUserMessage,
// EventDefineOutcome and EventSystemMessage.
const (
	EventInterrupt        = "user.interrupt"
	EventToolConfirmation = "user.tool_confirmation"
	EventCustomToolResult = "user.custom_tool_result"
	EventToolResult       = "user.tool_result"

	EventAgentMessage                = "agent.message"
	EventAgentThinking               = "agent.thinking"
	EventAgentToolUse                = "agent.tool_use"
	EventAgentCustomToolUse          = "agent.custom_tool_use"
	EventAgentMCPToolUse             = "agent.mcp_tool_use"
	EventAgentToolResult             = "agent.tool_result"
	EventAgentMCPToolResult          = "agent.mcp_tool_result"
	EventAgentThreadMessageSent      = "agent.thread_message_sent"
	EventAgentThreadMessageReceived  = "agent.thread_message_received"
	EventAgentThreadContextCompacted = "agent.thread_context_compacted"

	EventSessionStatusRunning           = "session.status_running"
	EventSessionStatusIdle              = "session.status_idle"
	EventSessionStatusRescheduled       = "session.status_rescheduled"
	EventSessionStatusTerminated        = "session.status_terminated"
	EventSessionThreadCreated           = "session.thread_created"
	EventSessionThreadStatusRunning     = "session.thread_status_running"
	EventSessionThreadStatusIdle        = "session.thread_status_idle"
	EventSessionThreadStatusRescheduled = "session.thread_status_rescheduled"
	EventSessionThreadStatusTerminated  = "session.thread_status_terminated"
	EventSessionError                   = "session.error"
	EventSessionUpdated                 = "session.updated"
	EventSessionUsage                   = "session.usage"
	EventSessionDeleted                 = "session.deleted"

	EventSpanModelRequestStart        = "span.model_request_start"
	EventSpanModelRequestEnd          = "span.model_request_end"
	EventSpanOutcomeEvaluationStart   = "span.outcome_evaluation_start"
	EventSpanOutcomeEvaluationOngoing = "span.outcome_evaluation_ongoing"
	EventSpanOutcomeEvaluationEnd     = "span.outcome_evaluation_end"

	// Previews, on the stream only (docs/session-events-wire.md 5).
	EventPreviewStart = "event_start"
	EventPreviewDelta = "event_delta"
)

// UnknownEvent is an event of a type this SDK does not know (the
// workflow_run.* family, or anything newer). Its common keys are decoded,
// so that it has an ID like any persisted event; JSON is the whole object
// as received.
type UnknownEvent struct {
	EventMeta
	EventType string
	JSON      json.RawMessage
}

func (e *UnknownEvent) Type() string { return e.EventType }

// MarshalJSON writes the event back as received.
func (e *UnknownEvent) MarshalJSON() ([]byte, error) { return e.JSON, nil }

// DecodeEvent decodes one event object, as List, Send and the stream
// deliver it (a stored event, a webhook payload), by its "type".
func DecodeEvent(data []byte) (Event, error) {
	r := jsonReader{s: string(data)}
	if r.peek() != '{' {
		return nil, errors.New("sessions: an event must be a JSON object")
	}
	typ := r.typeOf()
	if typ == "" {
		return nil, errors.New(`sessions: event has no "type"`)
	}
	ev := r.event(typ)
	if err := r.end(); err != nil {
		return nil, fmt.Errorf("sessions: decoding %q event: %w", typ, err)
	}
	return ev, nil
}

// streamDecoder is the decoder of one stream: typ is the SSE event name,
// which equals the object's type, so the data is read once, straight into
// the event's type. data is copied once: the strings of the event are
// substrings of that copy. The reader is reused from event to event (a
// stream decodes on one goroutine), which saves an allocation per event:
// the decoders' dynamic calls would otherwise move it to the heap.
type streamDecoder struct{ r jsonReader }

func (d *streamDecoder) decode(typ string, data []byte) (Event, error) {
	d.r = jsonReader{s: string(data)}
	ev := d.r.event(typ)
	err := d.r.end()
	d.r.s = ""
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// fieldDecoder is an event type that reads its own keys.
type fieldDecoder interface {
	Event
	decodeField(r *jsonReader, key string)
}

func decodeAs[T any, P interface {
	*T
	fieldDecoder
}](r *jsonReader) Event {
	e := P(new(T))
	r.object(func(key string) { e.decodeField(r, key) })
	return e
}

// event decodes the object the reader is on as an event of type typ.
func (r *jsonReader) event(typ string) Event {
	if r.peek() != '{' {
		r.fail("an event must be an object")
		return nil
	}
	switch typ {
	case EventUserMessage:
		return decodeAs[UserMessageEvent](r)
	case EventInterrupt:
		return decodeAs[InterruptEvent](r)
	case EventToolConfirmation:
		return decodeAs[ToolConfirmationEvent](r)
	case EventCustomToolResult:
		return decodeAs[CustomToolResultEvent](r)
	case EventToolResult:
		return decodeAs[ToolResultEvent](r)
	case EventDefineOutcome:
		return decodeAs[DefineOutcomeEvent](r)
	case EventSystemMessage:
		return decodeAs[SystemMessageEvent](r)

	case EventAgentMessage:
		return decodeAs[AgentMessageEvent](r)
	case EventAgentThinking:
		return decodeAs[AgentThinkingEvent](r)
	case EventAgentToolUse:
		return decodeAs[AgentToolUseEvent](r)
	case EventAgentCustomToolUse:
		return decodeAs[AgentCustomToolUseEvent](r)
	case EventAgentMCPToolUse:
		return decodeAs[AgentMCPToolUseEvent](r)
	case EventAgentToolResult:
		return decodeAs[AgentToolResultEvent](r)
	case EventAgentMCPToolResult:
		return decodeAs[AgentMCPToolResultEvent](r)
	case EventAgentThreadMessageSent:
		return decodeAs[AgentThreadMessageSentEvent](r)
	case EventAgentThreadMessageReceived:
		return decodeAs[AgentThreadMessageReceivedEvent](r)
	case EventAgentThreadContextCompacted:
		return decodeAs[AgentThreadContextCompactedEvent](r)

	case EventSessionStatusRunning:
		return decodeAs[SessionStatusRunningEvent](r)
	case EventSessionStatusIdle:
		return decodeAs[SessionStatusIdleEvent](r)
	case EventSessionStatusRescheduled:
		return decodeAs[SessionStatusRescheduledEvent](r)
	case EventSessionStatusTerminated:
		return decodeAs[SessionStatusTerminatedEvent](r)
	case EventSessionThreadCreated:
		return decodeAs[SessionThreadCreatedEvent](r)
	case EventSessionThreadStatusRunning:
		return decodeAs[SessionThreadStatusRunningEvent](r)
	case EventSessionThreadStatusIdle:
		return decodeAs[SessionThreadStatusIdleEvent](r)
	case EventSessionThreadStatusRescheduled:
		return decodeAs[SessionThreadStatusRescheduledEvent](r)
	case EventSessionThreadStatusTerminated:
		return decodeAs[SessionThreadStatusTerminatedEvent](r)
	case EventSessionError:
		return decodeAs[SessionErrorEvent](r)
	case EventSessionUpdated:
		return decodeAs[SessionUpdatedEvent](r)
	case EventSessionUsage:
		return decodeAs[SessionUsageEvent](r)
	case EventSessionDeleted:
		return decodeAs[SessionDeletedEvent](r)

	case EventSpanModelRequestStart:
		return decodeAs[SpanModelRequestStartEvent](r)
	case EventSpanModelRequestEnd:
		return decodeAs[SpanModelRequestEndEvent](r)
	case EventSpanOutcomeEvaluationStart:
		return decodeAs[SpanOutcomeEvaluationStartEvent](r)
	case EventSpanOutcomeEvaluationOngoing:
		return decodeAs[SpanOutcomeEvaluationOngoingEvent](r)
	case EventSpanOutcomeEvaluationEnd:
		return decodeAs[SpanOutcomeEvaluationEndEvent](r)

	case EventPreviewStart:
		return decodeAs[EventStart](r)
	case EventPreviewDelta:
		return decodeAs[EventDelta](r)
	}
	e := &UnknownEvent{EventType: typ}
	r.peek()
	start := r.i
	r.object(func(key string) { e.decodeField(r, key) })
	if r.err == nil {
		e.JSON = json.RawMessage(r.s[start:r.i])
	}
	return e
}
