package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// EventType is the "type" of an event, as on the wire. Values this SDK does
// not know are kept as they are (UnknownEvent).
type EventType string

// Event types (docs/session-events-wire.md 4.1).
const (
	EventUserMessage      EventType = "user.message"
	EventInterrupt        EventType = "user.interrupt"
	EventToolConfirmation EventType = "user.tool_confirmation"
	EventCustomToolResult EventType = "user.custom_tool_result"
	EventToolResult       EventType = "user.tool_result"
	EventDefineOutcome    EventType = "user.define_outcome"
	EventSystemMessage    EventType = "system.message"

	EventAgentMessage                EventType = "agent.message"
	EventAgentThinking               EventType = "agent.thinking"
	EventAgentToolUse                EventType = "agent.tool_use"
	EventAgentCustomToolUse          EventType = "agent.custom_tool_use"
	EventAgentMCPToolUse             EventType = "agent.mcp_tool_use"
	EventAgentToolResult             EventType = "agent.tool_result"
	EventAgentMCPToolResult          EventType = "agent.mcp_tool_result"
	EventAgentThreadMessageSent      EventType = "agent.thread_message_sent"
	EventAgentThreadMessageReceived  EventType = "agent.thread_message_received"
	EventAgentThreadContextCompacted EventType = "agent.thread_context_compacted"

	EventSessionStatusRunning           EventType = "session.status_running"
	EventSessionStatusIdle              EventType = "session.status_idle"
	EventSessionStatusRescheduled       EventType = "session.status_rescheduled"
	EventSessionStatusTerminated        EventType = "session.status_terminated"
	EventSessionThreadCreated           EventType = "session.thread_created"
	EventSessionThreadStatusRunning     EventType = "session.thread_status_running"
	EventSessionThreadStatusIdle        EventType = "session.thread_status_idle"
	EventSessionThreadStatusRescheduled EventType = "session.thread_status_rescheduled"
	EventSessionThreadStatusTerminated  EventType = "session.thread_status_terminated"
	EventSessionError                   EventType = "session.error"
	EventSessionUpdated                 EventType = "session.updated"
	EventSessionUsage                   EventType = "session.usage"
	EventSessionDeleted                 EventType = "session.deleted"

	EventSpanModelRequestStart        EventType = "span.model_request_start"
	EventSpanModelRequestEnd          EventType = "span.model_request_end"
	EventSpanOutcomeEvaluationStart   EventType = "span.outcome_evaluation_start"
	EventSpanOutcomeEvaluationOngoing EventType = "span.outcome_evaluation_ongoing"
	EventSpanOutcomeEvaluationEnd     EventType = "span.outcome_evaluation_end"

	// Previews, on the stream only (docs/session-events-wire.md 5).
	EventPreviewStart EventType = "event_start"
	EventPreviewDelta EventType = "event_delta"
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
//
// Every event marshals to its wire JSON ("type" first) with encoding/json,
// and DecodeEvent reads that back.
type Event interface {
	// Type is the event's type as on the wire, e.g. EventAgentMessage.
	Type() EventType
	isEvent()
}

// PersistedEvent is an event the session records: every Event but the
// previews. List and Send return only these.
type PersistedEvent interface {
	Event
	// Meta returns the keys every recorded event carries.
	Meta() *EventMeta
}

// EventMeta holds the keys every persisted event carries. It is embedded
// in each event type, whose ID, ProcessedAt and ThreadID are these.
type EventMeta struct {
	// ID is the event's "sevt_…" id, unique within the session.
	ID string `json:"id"`
	// ProcessedAt is when the server recorded the event; the zero time
	// when it has not yet (null: a sent event queued behind earlier work).
	ProcessedAt time.Time `json:"processed_at,omitzero"`
	// ThreadID is the "sthr_…" thread the event concerns
	// (session_thread_id): a child thread for cross-posted tool calls,
	// routed answers and thread lifecycle events, "" for the primary thread
	// and for session-wide events (null or absent on the wire).
	ThreadID string `json:"session_thread_id,omitzero"`
}

// Meta returns m: through the embedding, every persisted event's keys.
func (m *EventMeta) Meta() *EventMeta { return m }
func (*EventMeta) isEvent()           {}

// UnknownEvent is an event of a type this SDK does not know (anything
// newer than it). Its common keys are decoded,
// so that it has an ID like any persisted event; JSON is the whole object
// as received (compact, as json.Marshal writes it), and what it marshals
// to.
type UnknownEvent struct {
	EventMeta
	EventType EventType
	JSON      json.RawMessage
}

// Type returns the event's type as received.
func (e *UnknownEvent) Type() EventType { return e.EventType }

// MarshalJSON writes the event back as received.
func (e UnknownEvent) MarshalJSON() ([]byte, error) {
	if len(e.JSON) == 0 {
		return unknownJSON(string(e.EventType), nil)
	}
	return e.JSON, nil
}

// UnmarshalJSON keeps data whole and decodes the common keys from it.
func (e *UnknownEvent) UnmarshalJSON(data []byte) error {
	*e = UnknownEvent{}
	if err := wire.Unmarshal(data, &e.EventMeta); err != nil {
		return err
	}
	data = bytes.TrimSpace(data)
	typ, err := wire.TypeOf(data)
	if err != nil {
		return err
	}
	e.EventType, e.JSON = EventType(typ), canonical(data)
	return nil
}

// decodeEventAs decodes obj, an event object whose type is typ, into a
// new event of that type; UnknownEvent for a type this SDK does not know.
func decodeEventAs(typ EventType, obj []byte) (Event, error) {
	switch typ {
	case EventUserMessage:
		p, err := newVariant[plainUserMessageEvent](obj, unions)
		return (*UserMessageEvent)(p), err
	case EventInterrupt:
		p, err := newVariant[plainInterruptEvent](obj, unions)
		return (*InterruptEvent)(p), err
	case EventToolConfirmation:
		p, err := newVariant[plainToolConfirmationEvent](obj, unions)
		return (*ToolConfirmationEvent)(p), err
	case EventCustomToolResult:
		p, err := newVariant[plainCustomToolResultEvent](obj, unions)
		return (*CustomToolResultEvent)(p), err
	case EventToolResult:
		p, err := newVariant[plainToolResultEvent](obj, unions)
		return (*ToolResultEvent)(p), err
	case EventDefineOutcome:
		p, err := newVariant[plainDefineOutcomeEvent](obj, unions)
		return (*DefineOutcomeEvent)(p), err
	case EventSystemMessage:
		p, err := newVariant[plainSystemMessageEvent](obj, unions)
		return (*SystemMessageEvent)(p), err
	case EventAgentMessage:
		p, err := newVariant[plainAgentMessageEvent](obj, unions)
		return (*AgentMessageEvent)(p), err
	case EventAgentThinking:
		p, err := newVariant[plainAgentThinkingEvent](obj, unions)
		return (*AgentThinkingEvent)(p), err
	case EventAgentToolUse:
		p, err := newVariant[plainAgentToolUseEvent](obj, unions)
		return (*AgentToolUseEvent)(p), err
	case EventAgentCustomToolUse:
		p, err := newVariant[plainAgentCustomToolUseEvent](obj, unions)
		return (*AgentCustomToolUseEvent)(p), err
	case EventAgentMCPToolUse:
		p, err := newVariant[plainAgentMCPToolUseEvent](obj, unions)
		return (*AgentMCPToolUseEvent)(p), err
	case EventAgentToolResult:
		p, err := newVariant[plainAgentToolResultEvent](obj, unions)
		return (*AgentToolResultEvent)(p), err
	case EventAgentMCPToolResult:
		p, err := newVariant[plainAgentMCPToolResultEvent](obj, unions)
		return (*AgentMCPToolResultEvent)(p), err
	case EventAgentThreadMessageSent:
		p, err := newVariant[plainAgentThreadMessageSentEvent](obj, unions)
		return (*AgentThreadMessageSentEvent)(p), err
	case EventAgentThreadMessageReceived:
		p, err := newVariant[plainAgentThreadMessageReceivedEvent](obj, unions)
		return (*AgentThreadMessageReceivedEvent)(p), err
	case EventAgentThreadContextCompacted:
		p, err := newVariant[plainAgentThreadContextCompactedEvent](obj, unions)
		return (*AgentThreadContextCompactedEvent)(p), err
	case EventSessionStatusRunning:
		p, err := newVariant[plainSessionStatusRunningEvent](obj, unions)
		return (*SessionStatusRunningEvent)(p), err
	case EventSessionStatusIdle:
		p, err := newVariant[plainSessionStatusIdleEvent](obj, unions)
		return (*SessionStatusIdleEvent)(p), err
	case EventSessionStatusRescheduled:
		p, err := newVariant[plainSessionStatusRescheduledEvent](obj, unions)
		return (*SessionStatusRescheduledEvent)(p), err
	case EventSessionStatusTerminated:
		p, err := newVariant[plainSessionStatusTerminatedEvent](obj, unions)
		return (*SessionStatusTerminatedEvent)(p), err
	case EventSessionThreadCreated:
		p, err := newVariant[plainSessionThreadCreatedEvent](obj, unions)
		return (*SessionThreadCreatedEvent)(p), err
	case EventSessionThreadStatusRunning:
		p, err := newVariant[plainSessionThreadStatusRunningEvent](obj, unions)
		return (*SessionThreadStatusRunningEvent)(p), err
	case EventSessionThreadStatusIdle:
		p, err := newVariant[plainSessionThreadStatusIdleEvent](obj, unions)
		return (*SessionThreadStatusIdleEvent)(p), err
	case EventSessionThreadStatusRescheduled:
		p, err := newVariant[plainSessionThreadStatusRescheduledEvent](obj, unions)
		return (*SessionThreadStatusRescheduledEvent)(p), err
	case EventSessionThreadStatusTerminated:
		p, err := newVariant[plainSessionThreadStatusTerminatedEvent](obj, unions)
		return (*SessionThreadStatusTerminatedEvent)(p), err
	case EventSessionError:
		p, err := newVariant[plainSessionErrorEvent](obj, unions)
		return (*SessionErrorEvent)(p), err
	case EventSessionUpdated:
		p, err := newVariant[plainSessionUpdatedEvent](obj, unions)
		return (*SessionUpdatedEvent)(p), err
	case EventSessionUsage:
		p, err := newVariant[plainSessionUsageEvent](obj, unions)
		return (*SessionUsageEvent)(p), err
	case EventSessionDeleted:
		p, err := newVariant[plainSessionDeletedEvent](obj, unions)
		return (*SessionDeletedEvent)(p), err
	case EventSpanModelRequestStart:
		p, err := newVariant[plainSpanModelRequestStartEvent](obj, unions)
		return (*SpanModelRequestStartEvent)(p), err
	case EventSpanModelRequestEnd:
		p, err := newVariant[plainSpanModelRequestEndEvent](obj, unions)
		return (*SpanModelRequestEndEvent)(p), err
	case EventSpanOutcomeEvaluationStart:
		p, err := newVariant[plainSpanOutcomeEvaluationStartEvent](obj, unions)
		return (*SpanOutcomeEvaluationStartEvent)(p), err
	case EventSpanOutcomeEvaluationOngoing:
		p, err := newVariant[plainSpanOutcomeEvaluationOngoingEvent](obj, unions)
		return (*SpanOutcomeEvaluationOngoingEvent)(p), err
	case EventSpanOutcomeEvaluationEnd:
		p, err := newVariant[plainSpanOutcomeEvaluationEndEvent](obj, unions)
		return (*SpanOutcomeEvaluationEndEvent)(p), err
	case EventPreviewStart:
		p, err := newVariant[plainEventStart](obj, unions)
		return (*EventStart)(p), err
	case EventPreviewDelta:
		p, err := newVariant[plainEventDelta](obj, unions)
		return (*EventDelta)(p), err
	}
	if ev, ok, err := decodeWorkflowRunEvent(typ, obj); ok {
		return ev, err
	}
	e := new(UnknownEvent)
	if err := e.UnmarshalJSON(obj); err != nil {
		return nil, err
	}
	return e, nil
}

// DecodeEvent decodes one event object, as List, Send and the stream
// deliver it (a stored event, a webhook payload), by its "type". It reads
// back what json.Marshal writes for any Event.
func DecodeEvent(data []byte) (Event, error) {
	data = bytes.TrimSpace(data)
	if !isObject(data) {
		return nil, fmt.Errorf("sessions: %w", errNotObject)
	}
	typ, err := wire.TypeOf(data)
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	ev, err := decodeEventAs(EventType(typ), data)
	if err != nil {
		return nil, fmt.Errorf("sessions: decoding %q event: %w", typ, err)
	}
	return ev, nil
}

// streamDecoder is the decoder of one stream: typ is the SSE event name,
// which equals the object's type, so the data is decoded straight into the
// event's type, without looking for its "type" first.
type streamDecoder struct{}

func (streamDecoder) decode(typ string, data []byte) (Event, error) {
	if ev, ok := shortcut(EventType(typ), data); ok {
		return ev, nil
	}
	if i := bytes.IndexFunc(data, func(r rune) bool { return r != ' ' && r != '\t' && r != '\r' && r != '\n' }); i < 0 || data[i] != '{' {
		return nil, errNotObject
	}
	return decodeEventAs(EventType(typ), data)
}

var errNotObject = errors.New("an event must be a JSON object")
