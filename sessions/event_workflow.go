package sessions

import "encoding/json"

// The workflow_run.* events (docs/session-events-wire.md 4.16): a
// workflow run is background work the session's agent starts, following a
// plan of phases. The platform sends them; the reference server has no
// workflow engine and never does, so they are decoded from recorded JSON.

// Workflow run event types, usable in the types and event_deltas filters
// like any other EventType.
const (
	EventWorkflowRunCreated       EventType = "workflow_run.created"
	EventWorkflowRunStatusRunning EventType = "workflow_run.status_running"
	EventWorkflowRunStatusIdle    EventType = "workflow_run.status_idle"
	EventWorkflowRunStatusEnded   EventType = "workflow_run.status_ended"
	EventWorkflowRunPhaseStarted  EventType = "workflow_run.phase_started"
	EventWorkflowRunPhaseEnded    EventType = "workflow_run.phase_ended"
	EventWorkflowRunError         EventType = "workflow_run.error"
)

// WorkflowRunCreatedEvent says a run was created; it comes once per run,
// before the run's other events.
type WorkflowRunCreatedEvent struct {
	EventMeta
	// WorkflowRunID identifies the run on all of its events.
	WorkflowRunID string `json:"workflow_run_id"`
	// Name is the one the agent gave the run, or one the server assigned.
	Name string `json:"name"`
	// Description is the agent's, as written; "" when null.
	Description string `json:"description,omitzero"`
	// Phases are the phases the run's plan declares, in order; may be empty.
	Phases []WorkflowRunPhase `json:"phases"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunPhase is a phase a run's plan declares.
type WorkflowRunPhase struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitzero"` // "" when null
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunStatusRunningEvent says the run started or resumed.
type WorkflowRunStatusRunningEvent struct {
	EventMeta
	WorkflowRunID string `json:"workflow_run_id"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunStatusIdleEvent says the run went idle, whatever the cause.
type WorkflowRunStatusIdleEvent struct {
	EventMeta
	WorkflowRunID string `json:"workflow_run_id"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunStatusEndedEvent says the run ended; it is the run's last
// event.
type WorkflowRunStatusEndedEvent struct {
	EventMeta
	WorkflowRunID string            `json:"workflow_run_id"`
	Result        WorkflowRunResult `json:"result"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunResult is how a run ended. The wire value is a union on
// "type" whose only member beside it is the error of
// WorkflowRunResultError, so it is one struct, as PermissionPolicy is in
// package agents.
type WorkflowRunResult struct {
	Type WorkflowRunResultType `json:"type"`
	// Error is set for WorkflowRunResultError only; a
	// workflow_run.error event with the same error comes before.
	Error *WorkflowRunError `json:"error,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunResultType is a run's result. Unknown values are kept.
type WorkflowRunResultType string

const (
	// WorkflowRunResultCompleted: the plan finished (which does not say
	// that its work succeeded).
	WorkflowRunResultCompleted WorkflowRunResultType = "completed"
	// WorkflowRunResultStopped: the agent stopped the run.
	WorkflowRunResultStopped WorkflowRunResultType = "stopped"
	// WorkflowRunResultError: the run failed or reached its time limit.
	WorkflowRunResultError WorkflowRunResultType = "error"
)

// WorkflowRunPhaseStartedEvent says the run's plan entered a phase.
type WorkflowRunPhaseStartedEvent struct {
	EventMeta
	WorkflowRunID string `json:"workflow_run_id"`
	// WorkflowRunPhaseID is an ID of the Phases of the run's created event.
	WorkflowRunPhaseID string `json:"workflow_run_phase_id"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunPhaseEndedEvent says the plan left a phase, or the run's end
// closed it; one for every phase started, before the run's ended event.
type WorkflowRunPhaseEndedEvent struct {
	EventMeta
	WorkflowRunID      string `json:"workflow_run_id"`
	WorkflowRunPhaseID string `json:"workflow_run_phase_id"`
	// PhaseStartedID is the ID of the WorkflowRunPhaseStartedEvent that
	// opened the phase.
	PhaseStartedID string `json:"phase_started_id"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunErrorEvent says a run met an error, or that an error kept a
// run from being created (WorkflowRunID "", null on the wire).
type WorkflowRunErrorEvent struct {
	EventMeta
	WorkflowRunID string           `json:"workflow_run_id,omitzero"`
	Error         WorkflowRunError `json:"error"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunError is why a run did not finish or was not created. Its
// kinds differ only in Type, so it is one struct.
type WorkflowRunError struct {
	Type    WorkflowRunErrorType `json:"type"`
	Message string               `json:"message"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// WorkflowRunErrorType is the kind of a WorkflowRunError. Unknown values
// are kept.
type WorkflowRunErrorType string

const (
	WorkflowRunTimeoutError         WorkflowRunErrorType = "timeout_error"
	WorkflowRunProgramError         WorkflowRunErrorType = "program_error"
	WorkflowRunThreadLimitError     WorkflowRunErrorType = "thread_limit_error"
	WorkflowRunMaxWorkflowRunsError WorkflowRunErrorType = "max_workflow_runs_error"
	WorkflowRunUnknownError         WorkflowRunErrorType = "unknown_error"
)

// decodeWorkflowRunEvent decodes a workflow_run.* event; ok is false for
// any other type.
func decodeWorkflowRunEvent(typ EventType, obj []byte) (ev Event, ok bool, err error) {
	switch typ {
	case EventWorkflowRunCreated:
		p, err := newVariant[plainWorkflowRunCreatedEvent](obj, unions)
		return (*WorkflowRunCreatedEvent)(p), true, err
	case EventWorkflowRunStatusRunning:
		p, err := newVariant[plainWorkflowRunStatusRunningEvent](obj, unions)
		return (*WorkflowRunStatusRunningEvent)(p), true, err
	case EventWorkflowRunStatusIdle:
		p, err := newVariant[plainWorkflowRunStatusIdleEvent](obj, unions)
		return (*WorkflowRunStatusIdleEvent)(p), true, err
	case EventWorkflowRunStatusEnded:
		p, err := newVariant[plainWorkflowRunStatusEndedEvent](obj, unions)
		return (*WorkflowRunStatusEndedEvent)(p), true, err
	case EventWorkflowRunPhaseStarted:
		p, err := newVariant[plainWorkflowRunPhaseStartedEvent](obj, unions)
		return (*WorkflowRunPhaseStartedEvent)(p), true, err
	case EventWorkflowRunPhaseEnded:
		p, err := newVariant[plainWorkflowRunPhaseEndedEvent](obj, unions)
		return (*WorkflowRunPhaseEndedEvent)(p), true, err
	case EventWorkflowRunError:
		p, err := newVariant[plainWorkflowRunErrorEvent](obj, unions)
		return (*WorkflowRunErrorEvent)(p), true, err
	}
	return nil, false, nil
}
