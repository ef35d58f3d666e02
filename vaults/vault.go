package vaults

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Vault is a named set of credentials (type "vault").
type Vault struct {
	Type        string            `json:"type"`
	ID          string            `json:"id"` // "vlt_…"
	DisplayName string            `json:"display_name"`
	Metadata    map[string]string `json:"metadata"`
	CreatedAt   time.Time         `json:"created_at"`
	UpdatedAt   time.Time         `json:"updated_at"`
	// ArchivedAt is zero while the vault is active. Archiving is one-way
	// and archives the vault's credentials too.
	ArchivedAt time.Time `json:"archived_at,omitzero"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type plainVault Vault

// MarshalJSON writes the vault as the API does.
func (v Vault) MarshalJSON() ([]byte, error) { return wire.Marshal(plainVault(v)) }

// UnmarshalJSON decodes the vault, keeping unknown members.
func (v *Vault) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainVault)(v)) }

// Archived reports whether the vault has been archived.
func (v *Vault) Archived() bool { return !v.ArchivedAt.IsZero() }

// CreateParams is the body of Create.
type CreateParams struct {
	DisplayName string `json:"display_name"` // required; 1 to 255 characters
	// Metadata: at most 16 pairs, keys of 1 to 64 characters, values of at
	// most 512 characters.
	Metadata map[string]string `json:"metadata,omitzero"`
}

func (p *CreateParams) validate() error {
	if err := check.Length("display_name", p.DisplayName, 1, maxDisplayName); err != nil {
		return err
	}
	return check.Metadata(p.Metadata)
}

// UpdateParams is the body of Update. Zero fields are left unchanged.
type UpdateParams struct {
	DisplayName string `json:"display_name,omitzero"` // "" keeps it
	// Metadata is a patch: a key with a value is set, a key with nil is
	// deleted, keys not named are kept.
	Metadata map[string]*string `json:"metadata,omitzero"`
}

func (p *UpdateParams) validate() error {
	if err := check.OptionalLength("display_name", p.DisplayName, 1, maxDisplayName); err != nil {
		return err
	}
	return check.MetadataPatch(p.Metadata)
}

// ListParams selects a page of vaults or of a vault's credentials.
type ListParams struct {
	Page  string // cursor from a previous page's NextPage; "" for the first page
	Limit int    // 1 to 100; 0 means 20
	// IncludeArchived also lists archived ones.
	IncludeArchived bool
}

const (
	maxDisplayName = 255
	maxListLimit   = 100
)
