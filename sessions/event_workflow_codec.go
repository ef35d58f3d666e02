package sessions

import "github.com/agentplatform/agentplatform-go/internal/wire"

// The JSON methods of the workflow_run.* events and their parts, as in
// event_codec.go.

type plainWorkflowRunCreatedEvent WorkflowRunCreatedEvent

// Type returns EventWorkflowRunCreated.
func (*WorkflowRunCreatedEvent) Type() EventType { return EventWorkflowRunCreated }

// MarshalJSON writes the event's wire object, "type" first.
func (e WorkflowRunCreatedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventWorkflowRunCreated), plainWorkflowRunCreatedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *WorkflowRunCreatedEvent) UnmarshalJSON(data []byte) error {
	*e = WorkflowRunCreatedEvent{}
	return decodeVariant(data, (*plainWorkflowRunCreatedEvent)(e), unions)
}

type plainWorkflowRunStatusRunningEvent WorkflowRunStatusRunningEvent

// Type returns EventWorkflowRunStatusRunning.
func (*WorkflowRunStatusRunningEvent) Type() EventType { return EventWorkflowRunStatusRunning }

// MarshalJSON writes the event's wire object, "type" first.
func (e WorkflowRunStatusRunningEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventWorkflowRunStatusRunning), plainWorkflowRunStatusRunningEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *WorkflowRunStatusRunningEvent) UnmarshalJSON(data []byte) error {
	*e = WorkflowRunStatusRunningEvent{}
	return decodeVariant(data, (*plainWorkflowRunStatusRunningEvent)(e), unions)
}

type plainWorkflowRunStatusIdleEvent WorkflowRunStatusIdleEvent

// Type returns EventWorkflowRunStatusIdle.
func (*WorkflowRunStatusIdleEvent) Type() EventType { return EventWorkflowRunStatusIdle }

// MarshalJSON writes the event's wire object, "type" first.
func (e WorkflowRunStatusIdleEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventWorkflowRunStatusIdle), plainWorkflowRunStatusIdleEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *WorkflowRunStatusIdleEvent) UnmarshalJSON(data []byte) error {
	*e = WorkflowRunStatusIdleEvent{}
	return decodeVariant(data, (*plainWorkflowRunStatusIdleEvent)(e), unions)
}

type plainWorkflowRunStatusEndedEvent WorkflowRunStatusEndedEvent

// Type returns EventWorkflowRunStatusEnded.
func (*WorkflowRunStatusEndedEvent) Type() EventType { return EventWorkflowRunStatusEnded }

// MarshalJSON writes the event's wire object, "type" first.
func (e WorkflowRunStatusEndedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventWorkflowRunStatusEnded), plainWorkflowRunStatusEndedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *WorkflowRunStatusEndedEvent) UnmarshalJSON(data []byte) error {
	*e = WorkflowRunStatusEndedEvent{}
	return decodeVariant(data, (*plainWorkflowRunStatusEndedEvent)(e), unions)
}

type plainWorkflowRunPhaseStartedEvent WorkflowRunPhaseStartedEvent

// Type returns EventWorkflowRunPhaseStarted.
func (*WorkflowRunPhaseStartedEvent) Type() EventType { return EventWorkflowRunPhaseStarted }

// MarshalJSON writes the event's wire object, "type" first.
func (e WorkflowRunPhaseStartedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventWorkflowRunPhaseStarted), plainWorkflowRunPhaseStartedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *WorkflowRunPhaseStartedEvent) UnmarshalJSON(data []byte) error {
	*e = WorkflowRunPhaseStartedEvent{}
	return decodeVariant(data, (*plainWorkflowRunPhaseStartedEvent)(e), unions)
}

type plainWorkflowRunPhaseEndedEvent WorkflowRunPhaseEndedEvent

// Type returns EventWorkflowRunPhaseEnded.
func (*WorkflowRunPhaseEndedEvent) Type() EventType { return EventWorkflowRunPhaseEnded }

// MarshalJSON writes the event's wire object, "type" first.
func (e WorkflowRunPhaseEndedEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventWorkflowRunPhaseEnded), plainWorkflowRunPhaseEndedEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *WorkflowRunPhaseEndedEvent) UnmarshalJSON(data []byte) error {
	*e = WorkflowRunPhaseEndedEvent{}
	return decodeVariant(data, (*plainWorkflowRunPhaseEndedEvent)(e), unions)
}

type plainWorkflowRunErrorEvent WorkflowRunErrorEvent

// Type returns EventWorkflowRunError.
func (*WorkflowRunErrorEvent) Type() EventType { return EventWorkflowRunError }

// MarshalJSON writes the event's wire object, "type" first.
func (e WorkflowRunErrorEvent) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(string(EventWorkflowRunError), plainWorkflowRunErrorEvent(e))
}

// UnmarshalJSON decodes the event's wire object; "type" is not kept.
func (e *WorkflowRunErrorEvent) UnmarshalJSON(data []byte) error {
	*e = WorkflowRunErrorEvent{}
	return decodeVariant(data, (*plainWorkflowRunErrorEvent)(e), unions)
}

type plainWorkflowRunPhase WorkflowRunPhase

// MarshalJSON writes the object with its unknown members.
func (v WorkflowRunPhase) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainWorkflowRunPhase(v))
}

// UnmarshalJSON reads the object; unknown members land in Extra.
func (v *WorkflowRunPhase) UnmarshalJSON(data []byte) error {
	*v = WorkflowRunPhase{}
	return wire.Unmarshal(data, (*plainWorkflowRunPhase)(v), unions)
}

type plainWorkflowRunResult WorkflowRunResult

// MarshalJSON writes the object with its unknown members.
func (v WorkflowRunResult) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainWorkflowRunResult(v))
}

// UnmarshalJSON reads the object; unknown members land in Extra.
func (v *WorkflowRunResult) UnmarshalJSON(data []byte) error {
	*v = WorkflowRunResult{}
	return wire.Unmarshal(data, (*plainWorkflowRunResult)(v), unions)
}

type plainWorkflowRunError WorkflowRunError

// MarshalJSON writes the object with its unknown members.
func (v WorkflowRunError) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainWorkflowRunError(v))
}

// UnmarshalJSON reads the object; unknown members land in Extra.
func (v *WorkflowRunError) UnmarshalJSON(data []byte) error {
	*v = WorkflowRunError{}
	return wire.Unmarshal(data, (*plainWorkflowRunError)(v), unions)
}
