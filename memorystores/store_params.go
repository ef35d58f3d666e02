package memorystores

import (
	"time"

	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/param"
)

// CreateParams is the body of Create.
type CreateParams struct {
	Name string `json:"name"` // required; 1 to 255 characters, no control characters
	// Description is at most 1024 characters; "" leaves it unset.
	Description string `json:"description,omitzero"`
	// Metadata: at most 16 pairs, keys of 1 to 64 characters, values of at
	// most 512 characters.
	Metadata map[string]string `json:"metadata,omitzero"`
}

func (p *CreateParams) validate() error {
	if err := checkName(p.Name); err != nil {
		return err
	}
	if err := checkDescription(p.Description); err != nil {
		return err
	}
	return check.Metadata(p.Metadata)
}

// UpdateParams is the body of Update. Zero fields are left unchanged.
type UpdateParams struct {
	Name string `json:"name,omitzero"` // "" keeps the name
	// Description: omitted keeps it; param.Null or param.Value("") clears
	// it; any other value replaces it.
	Description param.Nullable[string] `json:"description,omitzero"`
	// Metadata is a patch: a key with a value is set, a key with nil is
	// deleted, keys not named are kept. The 16-pair limit applies to the
	// result, which only the server can check.
	Metadata map[string]*string `json:"metadata,omitzero"`
}

func (p *UpdateParams) validate() error {
	if p.Name != "" {
		if err := checkName(p.Name); err != nil {
			return err
		}
	}
	if d, ok := p.Description.Get(); ok {
		if err := checkDescription(d); err != nil {
			return err
		}
	}
	return check.MetadataPatch(p.Metadata)
}

// ListParams selects a page of memory stores.
type ListParams struct {
	Page  string // cursor from a previous page's NextPage; "" for the first page
	Limit int    // 1 to 100; 0 means 20
	// IncludeArchived also lists archived stores.
	IncludeArchived bool
	// CreatedAtGTE and CreatedAtLTE keep stores created at or after, and at
	// or before, these times (both inclusive); zero means no bound.
	CreatedAtGTE time.Time
	CreatedAtLTE time.Time
}
