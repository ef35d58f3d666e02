package deployments

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/union"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Deployment binds an agent to an environment, credentials and initial
// events, and starts sessions from them: by hand (Service.Run) or on a cron
// schedule (type "deployment"). Nullable fields of the wire read as their
// zero value: Description "", Budget, Schedule and PausedReason nil,
// ArchivedAt the zero time.
type Deployment struct {
	Type        string `json:"type"`
	ID          string `json:"id"` // "depl_…"
	Name        string `json:"name"`
	Description string `json:"description"`
	// Agent is the agent version every run uses, pinned when the
	// deployment was created or last updated.
	Agent         agents.AgentReference `json:"agent"`
	EnvironmentID string                `json:"environment_id"`
	// InitialEvents are sent to each session a run creates. Events of a
	// type newer than this SDK are kept as sessions.UnknownEventParam.
	InitialEvents []sessions.EventParam `json:"initial_events"`
	// Resources are the resources each session gets, as configured.
	Resources []ResourceConfig `json:"resources"`
	VaultIDs  []string         `json:"vault_ids"`
	// Budget is copied onto each session; nil means uncapped.
	Budget *sessions.Budget `json:"budget"`
	// Schedule is nil for a deployment that runs only by hand.
	Schedule *Schedule `json:"schedule"`
	Status   Status    `json:"status"`
	// PausedReason is set exactly when Status is StatusPaused.
	PausedReason PausedReason      `json:"paused_reason"`
	Metadata     map[string]string `json:"metadata"`
	// ArchivedAt is zero until the deployment is archived, which is final:
	// its schedule stops and it can no longer run.
	ArchivedAt time.Time `json:"archived_at,omitzero"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// Archived reports whether the deployment has been archived.
func (d *Deployment) Archived() bool { return !d.ArchivedAt.IsZero() }

// UnmarshalJSON decodes the union fields into their variants.
func (d *Deployment) UnmarshalJSON(data []byte) error {
	type plain Deployment
	var w struct {
		plain
		InitialEvents json.RawMessage `json:"initial_events"`
		Resources     json.RawMessage `json:"resources"`
		PausedReason  json.RawMessage `json:"paused_reason"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*d = Deployment(w.plain)
	var err error
	if d.InitialEvents, err = decodeList(w.InitialEvents, sessions.DecodeEventParam); err != nil {
		return fmt.Errorf("initial_events: %w", err)
	}
	if d.Resources, err = decodeList(w.Resources, decodeResourceConfig); err != nil {
		return fmt.Errorf("resources: %w", err)
	}
	if d.PausedReason, err = decodePausedReason(w.PausedReason); err != nil {
		return fmt.Errorf("paused_reason: %w", err)
	}
	return nil
}

// decodeList decodes a union array; a missing key decodes as nil.
func decodeList[T any](data []byte, decode func([]byte) (T, error)) ([]T, error) {
	if len(data) == 0 {
		return nil, nil
	}
	return union.DecodeSlice(data, decode)
}

// Status is a deployment's status. Values this SDK does not know are kept
// as they are.
type Status string

const (
	// StatusActive: the schedule fires. Archived deployments report it
	// too; check Archived.
	StatusActive Status = "active"
	// StatusPaused: scheduled fires are suppressed; runs by hand still
	// work. See PausedReason.
	StatusPaused Status = "paused"
)

// Schedule is when a deployment fires by itself (type "cron").
type Schedule struct {
	Type       string `json:"type"`       // "cron"
	Expression string `json:"expression"` // 5-field POSIX cron
	Timezone   string `json:"timezone"`   // IANA; the expression is read in its wall-clock time
	// LastRunAt is the time of the latest run, scheduled or by hand; zero
	// before the first.
	LastRunAt time.Time `json:"last_run_at,omitzero"`
	// UpcomingRunsAt holds the next fire times (UTC), also while paused;
	// empty once archived.
	UpcomingRunsAt []time.Time `json:"upcoming_runs_at"`
}

// PausedReason says why a deployment is paused: ManualPause, ErrorPause, or
// UnknownPausedReason.
type PausedReason interface{ isPausedReason() }

// ManualPause means Service.Pause was called (type "manual").
type ManualPause struct{}

// ErrorPause means a scheduled fire failed in a way that needs attention,
// and the deployment paused itself (type "error"). Fix the cause, then
// Unpause.
type ErrorPause struct {
	// ErrorType is the error type of the failed run, such as
	// RunErrorEnvironmentArchived.
	ErrorType RunErrorType
}

// UnknownPausedReason is a reason this SDK does not know, kept as received.
type UnknownPausedReason struct{ union.Raw }

func (ManualPause) isPausedReason()         {}
func (ErrorPause) isPausedReason()          {}
func (UnknownPausedReason) isPausedReason() {}

func (ManualPause) MarshalJSON() ([]byte, error) { return union.Marshal("manual", struct{}{}) }

// errorRef is the wire form of ErrorPause's error: {"type": …}.
type errorRef struct {
	Type RunErrorType `json:"type"`
}

func (p ErrorPause) MarshalJSON() ([]byte, error) {
	return union.Marshal("error", struct {
		Error errorRef `json:"error"`
	}{errorRef{p.ErrorType}})
}

func decodePausedReason(data []byte) (PausedReason, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "manual":
		return ManualPause{}, nil
	case "error":
		var w struct {
			Error errorRef `json:"error"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, err
		}
		return ErrorPause{ErrorType: w.Error.Type}, nil
	}
	return UnknownPausedReason{union.NewRaw(typ, data)}, nil
}
