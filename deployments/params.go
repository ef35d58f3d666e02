package deployments

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// CreateParams is the body of Create (docs/managed-agents-wire.md 8.2).
// Agent, EnvironmentID, InitialEvents and Name are required.
type CreateParams struct {
	// Agent is agents.AgentID (its latest version, pinned now) or
	// agents.AgentReference. The agent must not be archived; archiving it
	// later archives the deployment.
	Agent         agents.AgentRef `json:"agent"`
	EnvironmentID string          `json:"environment_id"` // 1 to 128 characters
	// InitialEvents, 1 to 50, are sent to every session a run creates:
	// sessions.UserMessageParam, DefineOutcomeParam, SystemMessageParam.
	InitialEvents []sessions.EventParam `json:"initial_events"`
	Name          string                `json:"name"` // 1 to 256 characters
	// Budget is copied onto each session; nil leaves them uncapped. The
	// agent's model must have a public list price.
	Budget      *sessions.Budget `json:"budget,omitempty"`
	Description string           `json:"description,omitzero"` // at most 2048 characters
	// Metadata: at most 16 pairs, keys 1 to 64 characters, values at most
	// 512 characters.
	Metadata map[string]string `json:"metadata,omitzero"`
	// Resources, at most 500, are mounted into each session.
	Resources []sessions.ResourceParam `json:"resources,omitzero"`
	// Schedule makes the deployment fire by itself; nil runs it only by
	// hand.
	Schedule *ScheduleParam `json:"schedule,omitempty"`
	VaultIDs []string       `json:"vault_ids,omitzero"` // at most 50
}

// ScheduleParam is a cron schedule (type "cron"). Both fields are required.
type ScheduleParam struct {
	// Expression is a 5-field POSIX cron expression, 1 to 256 characters:
	// minute hour day-of-month month day-of-week (0-7, 0 and 7 Sunday).
	// Seconds, years, L, W, #, ? and @daily-style shortcuts are refused.
	Expression string `json:"expression"`
	// Timezone is an IANA identifier such as "America/New_York"; the
	// expression is read in its wall-clock time.
	Timezone string `json:"timezone"`
}

// MarshalJSON writes the schedule with its type, "cron", first.
func (s ScheduleParam) MarshalJSON() ([]byte, error) {
	type plain ScheduleParam
	body, err := json.Marshal(plain(s))
	if err != nil {
		return nil, err
	}
	return wire.WithType("cron", body)
}

// UpdateParams is the body of Update. Unset fields keep their value; an
// update changes neither Status nor PausedReason.
type UpdateParams struct {
	// Agent re-pins the agent when not nil (agents.AgentID pins its
	// latest version).
	Agent         agents.AgentRef `json:"agent,omitempty"`
	EnvironmentID string          `json:"environment_id,omitzero"`
	// InitialEvents replaces the events when not nil; it must then hold 1
	// to 50.
	InitialEvents []sessions.EventParam `json:"initial_events,omitzero"`
	Name          string                `json:"name,omitzero"`
	// Description: param.Null or param.Value("") clears it.
	Description param.Nullable[string] `json:"description,omitzero"`
	// Budget: param.Value replaces it, param.Null removes it; sessions
	// created afterwards follow.
	Budget param.Nullable[sessions.Budget] `json:"budget,omitzero"`
	// Metadata is a patch: a key set to a string is upserted, a key set to
	// nil is deleted, keys not named are kept.
	Metadata map[string]*string `json:"metadata,omitzero"`
	// Resources replaces the whole list, tokens included; param.Null or
	// an empty list clears it.
	Resources param.Nullable[[]sessions.ResourceParam] `json:"resources,omitzero"`
	// Schedule replaces the schedule; param.Null removes it, leaving a
	// deployment that runs only by hand.
	Schedule param.Nullable[ScheduleParam] `json:"schedule,omitzero"`
	// VaultIDs replaces the list; param.Null or an empty list clears it.
	VaultIDs param.Nullable[[]string] `json:"vault_ids,omitzero"`
}

// ListParams selects a page of deployments, newest first. Zero fields do
// not filter.
type ListParams struct {
	Page    string // cursor from a previous page's NextPage; "" for the first page
	Limit   int    // 1 to 100; 0 means 20
	AgentID string // deployments of this agent
	// CreatedAtGTE and CreatedAtLTE bound the creation time, inclusive.
	CreatedAtGTE, CreatedAtLTE time.Time
	// Status keeps deployments in this status; it cannot be combined with
	// IncludeArchived.
	Status Status
	// IncludeArchived also lists archived deployments.
	IncludeArchived bool
}

// RunListParams selects a page of runs, newest first. Zero fields do not
// filter.
type RunListParams struct {
	Page  string // cursor from a previous page's NextPage; "" for the first page
	Limit int    // 1 to 1000; 0 means 20
	// DeploymentID keeps the runs of one deployment (an unknown id gives
	// an empty page).
	DeploymentID string
	// CreatedAtGT, CreatedAtGTE, CreatedAtLT and CreatedAtLTE bound the
	// creation time (GT and LT exclusive, GTE and LTE inclusive).
	CreatedAtGT, CreatedAtGTE, CreatedAtLT, CreatedAtLTE time.Time
	// HasError, when not nil, keeps failed runs (true) or runs that
	// created a session (false).
	HasError *bool
	// TriggerType keeps runs of one trigger: TriggerSchedule or
	// TriggerManual.
	TriggerType Trigger
}
