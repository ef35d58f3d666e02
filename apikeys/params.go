package apikeys

import (
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// Limits the SDK checks before sending (docs/auth-wire.md 5).
const (
	maxNameLength = 255
	maxListLimit  = 1000
)

// ListParams selects a page of keys, newest first. Deleted (archived) keys
// are listed unless Status excludes them.
type ListParams struct {
	AfterID  string // the page after this key id
	BeforeID string // the page before this key id; excludes AfterID
	Limit    int    // 1 to 1000; 0 means 20

	Status          Status // only keys with this status
	WorkspaceID     string // only keys scoped to this workspace (wrkspc_…)
	CreatedByUserID string // only keys created by this user (user_…)
}

// UpdateParams is the body of Update. Empty fields are left unchanged, and
// name and status change together or not at all.
type UpdateParams struct {
	Name string `json:"name,omitzero"` // 1 to 255 characters
	// Status moves the key; prefer Disable, Enable and Delete, which say
	// what they do.
	Status Status `json:"status,omitzero"`
}

func (p *UpdateParams) validate() error {
	if err := check.OptionalLength("name", p.Name, 1, maxNameLength); err != nil {
		return err
	}
	switch p.Status {
	case "", StatusActive, StatusInactive, StatusArchived:
		return nil
	}
	return &apierror.ValidationError{Field: "status", Rule: "must be one of active, inactive, archived"}
}
