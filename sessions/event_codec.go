package sessions

import "github.com/agentplatform/agentplatform-go/internal/wire"

// The JSON methods of the event types: each marshals to its wire object,
// "type" first, and decodes one through a method-less copy of its type, so
// that struct tags do the work and unknown members land in Extra.

type plainUserMessageEvent UserMessageEvent

// Type returns EventUserMessage.
func (*UserMessageEvent) Type() EventType { return EventUserMessage }

// MarshalJSON writes the event's wire object, "type" first.
func (e UserMessageEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventUserMessage), plainUserMessageEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *UserMessageEvent) UnmarshalJSON(data []byte) error {
	*e = UserMessageEvent{}
	return decodeVariant(data, (*plainUserMessageEvent)(e), unions)
}

type plainInterruptEvent InterruptEvent

// Type returns EventInterrupt.
func (*InterruptEvent) Type() EventType { return EventInterrupt }

// MarshalJSON writes the event's wire object, "type" first.
func (e InterruptEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventInterrupt), plainInterruptEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *InterruptEvent) UnmarshalJSON(data []byte) error {
	*e = InterruptEvent{}
	return decodeVariant(data, (*plainInterruptEvent)(e), unions)
}

type plainToolConfirmationEvent ToolConfirmationEvent

// Type returns EventToolConfirmation.
func (*ToolConfirmationEvent) Type() EventType { return EventToolConfirmation }

// MarshalJSON writes the event's wire object, "type" first.
func (e ToolConfirmationEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventToolConfirmation), plainToolConfirmationEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *ToolConfirmationEvent) UnmarshalJSON(data []byte) error {
	*e = ToolConfirmationEvent{}
	return decodeVariant(data, (*plainToolConfirmationEvent)(e), unions)
}

type plainCustomToolResultEvent CustomToolResultEvent

// Type returns EventCustomToolResult.
func (*CustomToolResultEvent) Type() EventType { return EventCustomToolResult }

// MarshalJSON writes the event's wire object, "type" first.
func (e CustomToolResultEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventCustomToolResult), plainCustomToolResultEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *CustomToolResultEvent) UnmarshalJSON(data []byte) error {
	*e = CustomToolResultEvent{}
	return decodeVariant(data, (*plainCustomToolResultEvent)(e), unions)
}

type plainToolResultEvent ToolResultEvent

// Type returns EventToolResult.
func (*ToolResultEvent) Type() EventType { return EventToolResult }

// MarshalJSON writes the event's wire object, "type" first.
func (e ToolResultEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventToolResult), plainToolResultEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *ToolResultEvent) UnmarshalJSON(data []byte) error {
	*e = ToolResultEvent{}
	return decodeVariant(data, (*plainToolResultEvent)(e), unions)
}

type plainDefineOutcomeEvent DefineOutcomeEvent

// Type returns EventDefineOutcome.
func (*DefineOutcomeEvent) Type() EventType { return EventDefineOutcome }

// MarshalJSON writes the event's wire object, "type" first.
func (e DefineOutcomeEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventDefineOutcome), plainDefineOutcomeEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *DefineOutcomeEvent) UnmarshalJSON(data []byte) error {
	*e = DefineOutcomeEvent{}
	return decodeVariant(data, (*plainDefineOutcomeEvent)(e), unions)
}

type plainSystemMessageEvent SystemMessageEvent

// Type returns EventSystemMessage.
func (*SystemMessageEvent) Type() EventType { return EventSystemMessage }

// MarshalJSON writes the event's wire object, "type" first.
func (e SystemMessageEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSystemMessage), plainSystemMessageEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SystemMessageEvent) UnmarshalJSON(data []byte) error {
	*e = SystemMessageEvent{}
	return decodeVariant(data, (*plainSystemMessageEvent)(e), unions)
}

type plainAgentMessageEvent AgentMessageEvent

// Type returns EventAgentMessage.
func (*AgentMessageEvent) Type() EventType { return EventAgentMessage }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentMessageEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentMessage), plainAgentMessageEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentMessageEvent) UnmarshalJSON(data []byte) error {
	*e = AgentMessageEvent{}
	return decodeVariant(data, (*plainAgentMessageEvent)(e), unions)
}

type plainAgentThinkingEvent AgentThinkingEvent

// Type returns EventAgentThinking.
func (*AgentThinkingEvent) Type() EventType { return EventAgentThinking }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentThinkingEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentThinking), plainAgentThinkingEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentThinkingEvent) UnmarshalJSON(data []byte) error {
	*e = AgentThinkingEvent{}
	return decodeVariant(data, (*plainAgentThinkingEvent)(e), unions)
}

type plainAgentToolUseEvent AgentToolUseEvent

// Type returns EventAgentToolUse.
func (*AgentToolUseEvent) Type() EventType { return EventAgentToolUse }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentToolUseEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentToolUse), plainAgentToolUseEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentToolUseEvent) UnmarshalJSON(data []byte) error {
	*e = AgentToolUseEvent{}
	return decodeVariant(data, (*plainAgentToolUseEvent)(e), unions)
}

type plainAgentCustomToolUseEvent AgentCustomToolUseEvent

// Type returns EventAgentCustomToolUse.
func (*AgentCustomToolUseEvent) Type() EventType { return EventAgentCustomToolUse }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentCustomToolUseEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentCustomToolUse), plainAgentCustomToolUseEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentCustomToolUseEvent) UnmarshalJSON(data []byte) error {
	*e = AgentCustomToolUseEvent{}
	return decodeVariant(data, (*plainAgentCustomToolUseEvent)(e), unions)
}

type plainAgentMCPToolUseEvent AgentMCPToolUseEvent

// Type returns EventAgentMCPToolUse.
func (*AgentMCPToolUseEvent) Type() EventType { return EventAgentMCPToolUse }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentMCPToolUseEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentMCPToolUse), plainAgentMCPToolUseEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentMCPToolUseEvent) UnmarshalJSON(data []byte) error {
	*e = AgentMCPToolUseEvent{}
	return decodeVariant(data, (*plainAgentMCPToolUseEvent)(e), unions)
}

type plainAgentToolResultEvent AgentToolResultEvent

// Type returns EventAgentToolResult.
func (*AgentToolResultEvent) Type() EventType { return EventAgentToolResult }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentToolResultEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentToolResult), plainAgentToolResultEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentToolResultEvent) UnmarshalJSON(data []byte) error {
	*e = AgentToolResultEvent{}
	return decodeVariant(data, (*plainAgentToolResultEvent)(e), unions)
}

type plainAgentMCPToolResultEvent AgentMCPToolResultEvent

// Type returns EventAgentMCPToolResult.
func (*AgentMCPToolResultEvent) Type() EventType { return EventAgentMCPToolResult }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentMCPToolResultEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentMCPToolResult), plainAgentMCPToolResultEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentMCPToolResultEvent) UnmarshalJSON(data []byte) error {
	*e = AgentMCPToolResultEvent{}
	return decodeVariant(data, (*plainAgentMCPToolResultEvent)(e), unions)
}

type plainAgentThreadMessageSentEvent AgentThreadMessageSentEvent

// Type returns EventAgentThreadMessageSent.
func (*AgentThreadMessageSentEvent) Type() EventType { return EventAgentThreadMessageSent }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentThreadMessageSentEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentThreadMessageSent), plainAgentThreadMessageSentEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentThreadMessageSentEvent) UnmarshalJSON(data []byte) error {
	*e = AgentThreadMessageSentEvent{}
	return decodeVariant(data, (*plainAgentThreadMessageSentEvent)(e), unions)
}

type plainAgentThreadMessageReceivedEvent AgentThreadMessageReceivedEvent

// Type returns EventAgentThreadMessageReceived.
func (*AgentThreadMessageReceivedEvent) Type() EventType { return EventAgentThreadMessageReceived }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentThreadMessageReceivedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentThreadMessageReceived), plainAgentThreadMessageReceivedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentThreadMessageReceivedEvent) UnmarshalJSON(data []byte) error {
	*e = AgentThreadMessageReceivedEvent{}
	return decodeVariant(data, (*plainAgentThreadMessageReceivedEvent)(e), unions)
}

type plainAgentThreadContextCompactedEvent AgentThreadContextCompactedEvent

// Type returns EventAgentThreadContextCompacted.
func (*AgentThreadContextCompactedEvent) Type() EventType { return EventAgentThreadContextCompacted }

// MarshalJSON writes the event's wire object, "type" first.
func (e AgentThreadContextCompactedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventAgentThreadContextCompacted), plainAgentThreadContextCompactedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *AgentThreadContextCompactedEvent) UnmarshalJSON(data []byte) error {
	*e = AgentThreadContextCompactedEvent{}
	return decodeVariant(data, (*plainAgentThreadContextCompactedEvent)(e), unions)
}

type plainSessionStatusRunningEvent SessionStatusRunningEvent

// Type returns EventSessionStatusRunning.
func (*SessionStatusRunningEvent) Type() EventType { return EventSessionStatusRunning }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionStatusRunningEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionStatusRunning), plainSessionStatusRunningEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionStatusRunningEvent) UnmarshalJSON(data []byte) error {
	*e = SessionStatusRunningEvent{}
	return decodeVariant(data, (*plainSessionStatusRunningEvent)(e), unions)
}

type plainSessionStatusIdleEvent SessionStatusIdleEvent

// Type returns EventSessionStatusIdle.
func (*SessionStatusIdleEvent) Type() EventType { return EventSessionStatusIdle }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionStatusIdleEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionStatusIdle), plainSessionStatusIdleEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionStatusIdleEvent) UnmarshalJSON(data []byte) error {
	*e = SessionStatusIdleEvent{}
	return decodeVariant(data, (*plainSessionStatusIdleEvent)(e), unions)
}

type plainSessionStatusRescheduledEvent SessionStatusRescheduledEvent

// Type returns EventSessionStatusRescheduled.
func (*SessionStatusRescheduledEvent) Type() EventType { return EventSessionStatusRescheduled }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionStatusRescheduledEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionStatusRescheduled), plainSessionStatusRescheduledEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionStatusRescheduledEvent) UnmarshalJSON(data []byte) error {
	*e = SessionStatusRescheduledEvent{}
	return decodeVariant(data, (*plainSessionStatusRescheduledEvent)(e), unions)
}

type plainSessionStatusTerminatedEvent SessionStatusTerminatedEvent

// Type returns EventSessionStatusTerminated.
func (*SessionStatusTerminatedEvent) Type() EventType { return EventSessionStatusTerminated }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionStatusTerminatedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionStatusTerminated), plainSessionStatusTerminatedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionStatusTerminatedEvent) UnmarshalJSON(data []byte) error {
	*e = SessionStatusTerminatedEvent{}
	return decodeVariant(data, (*plainSessionStatusTerminatedEvent)(e), unions)
}

type plainSessionThreadCreatedEvent SessionThreadCreatedEvent

// Type returns EventSessionThreadCreated.
func (*SessionThreadCreatedEvent) Type() EventType { return EventSessionThreadCreated }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionThreadCreatedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionThreadCreated), plainSessionThreadCreatedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionThreadCreatedEvent) UnmarshalJSON(data []byte) error {
	*e = SessionThreadCreatedEvent{}
	return decodeVariant(data, (*plainSessionThreadCreatedEvent)(e), unions)
}

type plainSessionThreadStatusRunningEvent SessionThreadStatusRunningEvent

// Type returns EventSessionThreadStatusRunning.
func (*SessionThreadStatusRunningEvent) Type() EventType { return EventSessionThreadStatusRunning }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionThreadStatusRunningEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionThreadStatusRunning), plainSessionThreadStatusRunningEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionThreadStatusRunningEvent) UnmarshalJSON(data []byte) error {
	*e = SessionThreadStatusRunningEvent{}
	return decodeVariant(data, (*plainSessionThreadStatusRunningEvent)(e), unions)
}

type plainSessionThreadStatusIdleEvent SessionThreadStatusIdleEvent

// Type returns EventSessionThreadStatusIdle.
func (*SessionThreadStatusIdleEvent) Type() EventType { return EventSessionThreadStatusIdle }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionThreadStatusIdleEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionThreadStatusIdle), plainSessionThreadStatusIdleEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionThreadStatusIdleEvent) UnmarshalJSON(data []byte) error {
	*e = SessionThreadStatusIdleEvent{}
	return decodeVariant(data, (*plainSessionThreadStatusIdleEvent)(e), unions)
}

type plainSessionThreadStatusRescheduledEvent SessionThreadStatusRescheduledEvent

// Type returns EventSessionThreadStatusRescheduled.
func (*SessionThreadStatusRescheduledEvent) Type() EventType {
	return EventSessionThreadStatusRescheduled
}

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionThreadStatusRescheduledEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionThreadStatusRescheduled), plainSessionThreadStatusRescheduledEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionThreadStatusRescheduledEvent) UnmarshalJSON(data []byte) error {
	*e = SessionThreadStatusRescheduledEvent{}
	return decodeVariant(data, (*plainSessionThreadStatusRescheduledEvent)(e), unions)
}

type plainSessionThreadStatusTerminatedEvent SessionThreadStatusTerminatedEvent

// Type returns EventSessionThreadStatusTerminated.
func (*SessionThreadStatusTerminatedEvent) Type() EventType {
	return EventSessionThreadStatusTerminated
}

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionThreadStatusTerminatedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionThreadStatusTerminated), plainSessionThreadStatusTerminatedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionThreadStatusTerminatedEvent) UnmarshalJSON(data []byte) error {
	*e = SessionThreadStatusTerminatedEvent{}
	return decodeVariant(data, (*plainSessionThreadStatusTerminatedEvent)(e), unions)
}

type plainSessionErrorEvent SessionErrorEvent

// Type returns EventSessionError.
func (*SessionErrorEvent) Type() EventType { return EventSessionError }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionErrorEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionError), plainSessionErrorEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionErrorEvent) UnmarshalJSON(data []byte) error {
	*e = SessionErrorEvent{}
	return decodeVariant(data, (*plainSessionErrorEvent)(e), unions)
}

type plainSessionUpdatedEvent SessionUpdatedEvent

// Type returns EventSessionUpdated.
func (*SessionUpdatedEvent) Type() EventType { return EventSessionUpdated }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionUpdatedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionUpdated), plainSessionUpdatedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionUpdatedEvent) UnmarshalJSON(data []byte) error {
	*e = SessionUpdatedEvent{}
	return decodeVariant(data, (*plainSessionUpdatedEvent)(e), unions)
}

type plainSessionUsageEvent SessionUsageEvent

// Type returns EventSessionUsage.
func (*SessionUsageEvent) Type() EventType { return EventSessionUsage }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionUsageEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionUsage), plainSessionUsageEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionUsageEvent) UnmarshalJSON(data []byte) error {
	*e = SessionUsageEvent{}
	return decodeVariant(data, (*plainSessionUsageEvent)(e), unions)
}

type plainSessionDeletedEvent SessionDeletedEvent

// Type returns EventSessionDeleted.
func (*SessionDeletedEvent) Type() EventType { return EventSessionDeleted }

// MarshalJSON writes the event's wire object, "type" first.
func (e SessionDeletedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSessionDeleted), plainSessionDeletedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SessionDeletedEvent) UnmarshalJSON(data []byte) error {
	*e = SessionDeletedEvent{}
	return decodeVariant(data, (*plainSessionDeletedEvent)(e), unions)
}

type plainSpanModelRequestStartEvent SpanModelRequestStartEvent

// Type returns EventSpanModelRequestStart.
func (*SpanModelRequestStartEvent) Type() EventType { return EventSpanModelRequestStart }

// MarshalJSON writes the event's wire object, "type" first.
func (e SpanModelRequestStartEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSpanModelRequestStart), plainSpanModelRequestStartEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SpanModelRequestStartEvent) UnmarshalJSON(data []byte) error {
	*e = SpanModelRequestStartEvent{}
	return decodeVariant(data, (*plainSpanModelRequestStartEvent)(e), unions)
}

type plainSpanModelRequestEndEvent SpanModelRequestEndEvent

// Type returns EventSpanModelRequestEnd.
func (*SpanModelRequestEndEvent) Type() EventType { return EventSpanModelRequestEnd }

// MarshalJSON writes the event's wire object, "type" first.
func (e SpanModelRequestEndEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSpanModelRequestEnd), plainSpanModelRequestEndEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SpanModelRequestEndEvent) UnmarshalJSON(data []byte) error {
	*e = SpanModelRequestEndEvent{}
	return decodeVariant(data, (*plainSpanModelRequestEndEvent)(e), unions)
}

type plainSpanOutcomeEvaluationStartEvent SpanOutcomeEvaluationStartEvent

// Type returns EventSpanOutcomeEvaluationStart.
func (*SpanOutcomeEvaluationStartEvent) Type() EventType { return EventSpanOutcomeEvaluationStart }

// MarshalJSON writes the event's wire object, "type" first.
func (e SpanOutcomeEvaluationStartEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSpanOutcomeEvaluationStart), plainSpanOutcomeEvaluationStartEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SpanOutcomeEvaluationStartEvent) UnmarshalJSON(data []byte) error {
	*e = SpanOutcomeEvaluationStartEvent{}
	return decodeVariant(data, (*plainSpanOutcomeEvaluationStartEvent)(e), unions)
}

type plainSpanOutcomeEvaluationOngoingEvent SpanOutcomeEvaluationOngoingEvent

// Type returns EventSpanOutcomeEvaluationOngoing.
func (*SpanOutcomeEvaluationOngoingEvent) Type() EventType { return EventSpanOutcomeEvaluationOngoing }

// MarshalJSON writes the event's wire object, "type" first.
func (e SpanOutcomeEvaluationOngoingEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSpanOutcomeEvaluationOngoing), plainSpanOutcomeEvaluationOngoingEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SpanOutcomeEvaluationOngoingEvent) UnmarshalJSON(data []byte) error {
	*e = SpanOutcomeEvaluationOngoingEvent{}
	return decodeVariant(data, (*plainSpanOutcomeEvaluationOngoingEvent)(e), unions)
}

type plainSpanOutcomeEvaluationEndEvent SpanOutcomeEvaluationEndEvent

// Type returns EventSpanOutcomeEvaluationEnd.
func (*SpanOutcomeEvaluationEndEvent) Type() EventType { return EventSpanOutcomeEvaluationEnd }

// MarshalJSON writes the event's wire object, "type" first.
func (e SpanOutcomeEvaluationEndEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventSpanOutcomeEvaluationEnd), plainSpanOutcomeEvaluationEndEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *SpanOutcomeEvaluationEndEvent) UnmarshalJSON(data []byte) error {
	*e = SpanOutcomeEvaluationEndEvent{}
	return decodeVariant(data, (*plainSpanOutcomeEvaluationEndEvent)(e), unions)
}

type plainEventStart EventStart

// Type returns EventPreviewStart.
func (*EventStart) Type() EventType { return EventPreviewStart }

// MarshalJSON writes the event's wire object, "type" first.
func (e EventStart) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventPreviewStart), plainEventStart(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *EventStart) UnmarshalJSON(data []byte) error {
	*e = EventStart{}
	return decodeVariant(data, (*plainEventStart)(e), unions)
}

type plainEventDelta EventDelta

// Type returns EventPreviewDelta.
func (*EventDelta) Type() EventType { return EventPreviewDelta }

// MarshalJSON writes the event's wire object, "type" first.
func (e EventDelta) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventPreviewDelta), plainEventDelta(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *EventDelta) UnmarshalJSON(data []byte) error {
	*e = EventDelta{}
	return decodeVariant(data, (*plainEventDelta)(e), unions)
}
