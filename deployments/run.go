package deployments

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/union"
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
	SessionID      string         `json:"session_id"` // "" when the run failed
	Error          *RunError      `json:"error"`      // nil when the run created a session
	CreatedAt      time.Time      `json:"created_at"`
}

// Failed reports whether the run failed to create a session.
func (r *Run) Failed() bool { return r.Error != nil }

// UnmarshalJSON decodes the trigger context into its variant.
func (r *Run) UnmarshalJSON(data []byte) error {
	type plain Run
	var w struct {
		plain
		TriggerContext json.RawMessage `json:"trigger_context"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*r = Run(w.plain)
	var err error
	if r.TriggerContext, err = decodeTriggerContext(w.TriggerContext); err != nil {
		return fmt.Errorf("trigger_context: %w", err)
	}
	return nil
}

// RunError is why a run created no session.
type RunError struct {
	Type    RunErrorType `json:"type"`
	Message string       `json:"message"` // names the object and its state
}

func (e *RunError) Error() string { return string(e.Type) + ": " + e.Message }

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

// Trigger types, for RunListParams.TriggerType.
const (
	TriggerSchedule = "schedule"
	TriggerManual   = "manual"
)

// ScheduleTrigger means the schedule fired (type "schedule").
type ScheduleTrigger struct {
	// ScheduledAt is the occurrence that fired, in UTC. On the day clocks
	// spring forward, a wall-clock time that does not exist fires at the
	// first instant after the jump.
	ScheduledAt time.Time `json:"scheduled_at"`
}

// ManualTrigger means Service.Run was called (type "manual").
type ManualTrigger struct{}

// UnknownTrigger is a trigger this SDK does not know, kept as received.
type UnknownTrigger struct{ union.Raw }

func (ScheduleTrigger) isTriggerContext() {}
func (ManualTrigger) isTriggerContext()   {}
func (UnknownTrigger) isTriggerContext()  {}

func (t ScheduleTrigger) MarshalJSON() ([]byte, error) {
	type plain ScheduleTrigger
	return union.Marshal(TriggerSchedule, plain(t))
}

func (ManualTrigger) MarshalJSON() ([]byte, error) { return union.Marshal(TriggerManual, struct{}{}) }

func decodeTriggerContext(data []byte) (TriggerContext, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case TriggerSchedule:
		var t ScheduleTrigger
		return t, json.Unmarshal(data, &t)
	case TriggerManual:
		return ManualTrigger{}, nil
	}
	return UnknownTrigger{union.NewRaw(typ, data)}, nil
}
