package deployments

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Deployment binds an agent to an environment, credentials and initial
// events, and starts sessions from them: by hand (Service.RunNow) or on a
// cron schedule (type "deployment"). Nullable fields of the wire read as
// their zero value: Description "", Budget, Schedule and PausedReason nil,
// ArchivedAt the zero time.
type Deployment struct {
	Type        string `json:"type"`
	ID          string `json:"id"` // "depl_…"
	Name        string `json:"name"`
	Description string `json:"description,omitzero"`
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
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Archived reports whether the deployment has been archived.
func (d *Deployment) Archived() bool { return !d.ArchivedAt.IsZero() }

type plainDeployment Deployment

// MarshalJSON writes the deployment as the API does.
func (d Deployment) MarshalJSON() ([]byte, error) { return wire.Marshal(plainDeployment(d)) }

// UnmarshalJSON decodes the deployment, its union fields into their
// variants.
func (d *Deployment) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainDeployment)(d), unions)
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
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainSchedule Schedule

// MarshalJSON writes the schedule as the API does.
func (s Schedule) MarshalJSON() ([]byte, error) { return wire.Marshal(plainSchedule(s)) }

// UnmarshalJSON decodes the schedule, keeping unknown members.
func (s *Schedule) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainSchedule)(s))
}
