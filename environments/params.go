package environments

import "github.com/agentplatform/agentplatform-go/param"

// CreateParams is the body of Create. Name is required.
type CreateParams struct {
	Name        string `json:"name"`                 // 1 to 256 characters
	Description string `json:"description,omitzero"` // at most 1024 characters
	// Config: nil means CloudConfig with unrestricted networking and no
	// packages.
	Config Config `json:"config,omitempty"`
	// Metadata: at most 16 pairs, keys 1 to 64 characters, values at most
	// 512 characters.
	Metadata map[string]string `json:"metadata,omitzero"`
	Scope    Scope             `json:"scope,omitzero"` // "" means organization
}

// UpdateParams is the body of Update. Unset fields keep their value.
type UpdateParams struct {
	Name string `json:"name,omitzero"`
	// Description: param.Null clears it; param.Value("") stores "".
	Description param.Nullable[string] `json:"description,omitzero"`
	// Config is merged into the stored config (see CloudConfig,
	// LimitedNetworking, Packages). Its type cannot change.
	Config Config `json:"config,omitempty"`
	// Metadata is a patch: a key set to a string is upserted, a key set
	// to nil (or to "") is deleted, keys not named are kept.
	Metadata map[string]*string `json:"metadata,omitzero"`
	Scope    Scope              `json:"scope,omitzero"`
}

// ListParams selects a page of environments, newest first.
type ListParams struct {
	Page            string // cursor from a previous page's NextPage; "" for the first page
	Limit           int    // 1 to 1000; 0 means 20
	IncludeArchived bool   // also list archived environments
}
