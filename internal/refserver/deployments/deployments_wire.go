package deployments

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The deployment object on the wire (docs/managed-agents-wire.md 8.1). It
// depends on the time it is rendered at: upcoming_runs_at are the
// fire times after now.

type runErrorTypeJSON struct {
	Type string `json:"type"`
}

type pausedReasonJSON struct {
	Type  string            `json:"type"`
	Error *runErrorTypeJSON `json:"error,omitempty"` // the error variant only
}

func (r *pausedReason) view() *pausedReasonJSON {
	if r == nil {
		return nil
	}
	out := &pausedReasonJSON{Type: r.typ}
	if r.typ == "error" {
		out.Error = &runErrorTypeJSON{Type: r.errorType}
	}
	return out
}

type deploymentJSON struct {
	Type          string            `json:"type"`
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	Description   *string           `json:"description"`
	Agent         any               `json:"agent"`
	EnvironmentID string            `json:"environment_id"`
	InitialEvents []json.RawMessage `json:"initial_events"`
	Resources     []any             `json:"resources"`
	VaultIDs      []string          `json:"vault_ids"`
	Budget        any               `json:"budget"`
	Schedule      *scheduleJSON     `json:"schedule"`
	Status        string            `json:"status"`
	PausedReason  *pausedReasonJSON `json:"paused_reason"`
	Metadata      map[string]string `json:"metadata"`
	ArchivedAt    *kit.Timestamp    `json:"archived_at"`
	CreatedAt     kit.Timestamp     `json:"created_at"`
	UpdatedAt     kit.Timestamp     `json:"updated_at"`
}

func (d *deployment) view(now time.Time) deploymentJSON {
	events := make([]json.RawMessage, len(d.initialEvents.Stored))
	copy(events, d.initialEvents.Stored)
	resources := make([]any, len(d.resources.Configs))
	copy(resources, d.resources.Configs)
	var budget any
	if d.budget != nil {
		budget = d.budget.View
	}
	return deploymentJSON{
		Type:          "deployment",
		ID:            d.id,
		Name:          d.name,
		Description:   d.description,
		Agent:         d.agent.Reference,
		EnvironmentID: d.environmentID,
		InitialEvents: events,
		Resources:     resources,
		VaultIDs:      d.vaultIDs,
		Budget:        budget,
		Schedule:      d.scheduleView(now),
		Status:        d.status,
		PausedReason:  d.pausedReason.view(),
		Metadata:      d.metadata,
		ArchivedAt:    kit.OptionalTimestamp(d.archivedAt),
		CreatedAt:     kit.Timestamp(d.createdAt),
		UpdatedAt:     kit.Timestamp(d.updatedAt),
	}
}
