package workspaces

// CreateParams is the body of Create.
type CreateParams struct {
	Name string `json:"name"` // required, 1 to 255 characters
	// DataResidency defaults to workspace_geo "us", allowed_inference_geos
	// "unrestricted" and default_inference_geo "global".
	DataResidency *DataResidencyParams `json:"data_residency,omitempty"`
	DisplayColor  string               `json:"display_color,omitzero"` // "#RRGGBB"; assigned when empty
	// ExternalKeyID attaches a customer-managed encryption key configuration
	// (write-once).
	ExternalKeyID string `json:"external_key_id,omitzero"`
	// Tags: at most 50; keys of 1 to 128 characters that do not begin with
	// "vendor"; values of at most 256 characters.
	Tags map[string]string `json:"tags,omitzero"`
	// UserProfileID attaches a user profile ("uprof_…"); every inference
	// request through the workspace must then name it. Write-once: it
	// cannot be replaced or removed later.
	UserProfileID string `json:"user_profile_id,omitzero"`
}

// DataResidencyParams sets data residency at creation. Empty fields take the
// defaults. DefaultInferenceGeo must be one of AllowedInferenceGeos unless
// those are unrestricted.
type DataResidencyParams struct {
	AllowedInferenceGeos AllowedGeos `json:"allowed_inference_geos,omitzero"`
	DefaultInferenceGeo  Geo         `json:"default_inference_geo,omitzero"`
	WorkspaceGeo         Geo         `json:"workspace_geo,omitzero"`
}

// UpdateParams is the body of Update. Empty fields are left unchanged.
type UpdateParams struct {
	Name          string                     `json:"name,omitzero"`
	DataResidency *DataResidencyUpdateParams `json:"data_residency,omitempty"`
	DisplayColor  string                     `json:"display_color,omitzero"`
	// ExternalKeyID can be set once; setting a different key later is refused.
	ExternalKeyID string `json:"external_key_id,omitzero"`
	// Tags, when not nil, replaces every tag; an empty non-nil map removes them all.
	Tags map[string]string `json:"tags,omitzero"`
	// UserProfileID attaches a user profile ("uprof_…") to a workspace that
	// has none; the same id again changes nothing, and a different one is
	// refused. The default workspace cannot have one.
	UserProfileID string `json:"user_profile_id,omitzero"`
}

// DataResidencyUpdateParams changes where inference may run. The
// workspace_geo is fixed at creation and cannot be updated.
type DataResidencyUpdateParams struct {
	AllowedInferenceGeos AllowedGeos `json:"allowed_inference_geos,omitzero"`
	DefaultInferenceGeo  Geo         `json:"default_inference_geo,omitzero"`
}

// ListParams selects a page of workspaces.
type ListParams struct {
	AfterID         string // the page after this workspace id
	BeforeID        string // the page before this workspace id; excludes AfterID
	Limit           int    // 1 to 1000; 0 means 20
	IncludeArchived bool   // also list archived workspaces
	IncludeDefault  bool   // also list the organization's default workspace
	// IDs keeps only these workspaces (`wrkspc_…`, at most 100, none
	// twice). IncludeArchived and IncludeDefault still apply, and ids the
	// caller cannot list are left out rather than refused.
	IDs []string
}
