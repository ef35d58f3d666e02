package deployments

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Run is the record of one execution of a deployment (type
// "deployment_run"): whether it created a session. It is append-only and
// does not follow the session afterwards. Exactly one of SessionID and
// Error is set.
type Run struct {
	Type         string                `json:"type"`
	ID           string                `json:"id"` // "drun_…"
	DeploymentID string                `json:"deployment_id"`
	Agent        agents.AgentReference `json:"agent"` // the agent version the run used
	// TriggerContext says what started the run: ScheduleTrigger or
	// ManualTrigger.
	TriggerContext TriggerContext `json:"trigger_context"`
	SessionID      string         `json:"session_id,omitzero"` // "" when the run failed
	Error          *RunError      `json:"error"`               // nil when the run created a session
	CreatedAt      time.Time      `json:"created_at"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Failed reports whether the run failed to create a session.
func (r *Run) Failed() bool { return r.Error != nil }

type plainRun Run

// MarshalJSON writes the run as the API does.
func (r Run) MarshalJSON() ([]byte, error) { return wire.Marshal(plainRun(r)) }

// UnmarshalJSON decodes the run, its trigger context into its variant.
func (r *Run) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainRun)(r), unions)
}

// RunError is why a run created no session.
type RunError struct {
	Type RunErrorType `json:"type"`
	// Message names the object and its state; "" in an ErrorPause.
	Message string `json:"message,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

func (e *RunError) Error() string { return string(e.Type) + ": " + e.Message }

type plainRunError RunError

// MarshalJSON writes the error as the API does.
func (e RunError) MarshalJSON() ([]byte, error) { return wire.Marshal(plainRunError(e)) }

// UnmarshalJSON decodes the error, keeping unknown members.
func (e *RunError) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainRunError)(e))
}

// RunErrorType is the kind of a run failure. Values this SDK does not know
// are kept as they are. Most failures of a scheduled run pause the
// deployment (PausedReason ErrorPause); failures of a run by hand never do.
type RunErrorType string

const (
	RunErrorEnvironmentArchived     RunErrorType = "environment_archived_error"
	RunErrorEnvironmentNotFound     RunErrorType = "environment_not_found_error"
	RunErrorAgentArchived           RunErrorType = "agent_archived_error"
	RunErrorVaultNotFound           RunErrorType = "vault_not_found_error"
	RunErrorVaultArchived           RunErrorType = "vault_archived_error"
	RunErrorFileNotFound            RunErrorType = "file_not_found_error"
	RunErrorMemoryStoreArchived     RunErrorType = "memory_store_archived_error"
	RunErrorSkillNotFound           RunErrorType = "skill_not_found_error"
	RunErrorSessionResourceNotFound RunErrorType = "session_resource_not_found_error"
	RunErrorWorkspaceArchived       RunErrorType = "workspace_archived_error"
	RunErrorOrganizationDisabled    RunErrorType = "organization_disabled_error"
	RunErrorSessionRateLimited      RunErrorType = "session_rate_limited_error" // does not pause
	RunErrorSessionCreationRejected RunErrorType = "session_creation_rejected_error"
	RunErrorSelfHostedResources     RunErrorType = "self_hosted_resources_unsupported_error"
	RunErrorMCPEgressBlocked        RunErrorType = "mcp_egress_blocked_error"
	RunErrorUnknown                 RunErrorType = "unknown_error"
)

// TriggerContext is what started a run: ScheduleTrigger, ManualTrigger, or
// UnknownTrigger.
type TriggerContext interface{ isTriggerContext() }

// Trigger is the kind of a TriggerContext, the filter of
// RunListParams.TriggerType. Values this SDK does not know are sent as
// given.
type Trigger string

const (
	TriggerSchedule Trigger = "schedule" // ScheduleTrigger
	TriggerManual   Trigger = "manual"   // ManualTrigger
)

// ScheduleTrigger means the schedule fired (type "schedule").
type ScheduleTrigger struct {
	// ScheduledAt is the occurrence that fired, in UTC. On the day clocks
	// spring forward, a wall-clock time that does not exist fires at the
	// first instant after the jump.
	ScheduledAt time.Time `json:"scheduled_at"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ManualTrigger means Service.RunNow was called (type "manual").
type ManualTrigger struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownTrigger is a trigger this SDK does not know, kept as received.
type UnknownTrigger struct {
	Type string          // the trigger's "type"
	JSON json.RawMessage // the whole object
}

func (ScheduleTrigger) isTriggerContext() {}
func (ManualTrigger) isTriggerContext()   {}
func (UnknownTrigger) isTriggerContext()  {}

type (
	plainScheduleTrigger ScheduleTrigger
	plainManualTrigger   ManualTrigger
)

// MarshalJSON writes the trigger with its type first.
func (t ScheduleTrigger) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainScheduleTrigger(t))
	if err != nil {
		return nil, err
	}
	return wire.WithType(string(TriggerSchedule), body)
}

// MarshalJSON writes the trigger with its type first.
func (t ManualTrigger) MarshalJSON() ([]byte, error) {
	body, err := wire.Marshal(plainManualTrigger(t))
	if err != nil {
		return nil, err
	}
	return wire.WithType(string(TriggerManual), body)
}

// MarshalJSON writes the object back as it was received.
func (u UnknownTrigger) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

// UnmarshalJSON decodes the trigger's members; its "type" is not read.
func (t *ScheduleTrigger) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainScheduleTrigger)(t), &t.Extra)
}

// UnmarshalJSON decodes the trigger's members; its "type" is not read.
func (t *ManualTrigger) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainManualTrigger)(t), &t.Extra)
}

func decodeTriggerContext(typ string, obj []byte) (TriggerContext, error) {
	switch Trigger(typ) {
	case TriggerSchedule:
		var t ScheduleTrigger
		err := t.UnmarshalJSON(obj)
		return t, named(typ, err)
	case TriggerManual:
		var t ManualTrigger
		err := t.UnmarshalJSON(obj)
		return t, named(typ, err)
	}
	return UnknownTrigger{Type: typ, JSON: clone(obj)}, nil
}
