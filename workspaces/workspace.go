package workspaces

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Workspace is a workspace of the organization (type "workspace").
type Workspace struct {
	Type       string    `json:"type"`
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	ArchivedAt time.Time `json:"archived_at,omitzero"` // zero while active
	CreatedAt  time.Time `json:"created_at"`
	// CompartmentID identifies the workspace's encryption compartment.
	CompartmentID string        `json:"compartment_id"`
	DataResidency DataResidency `json:"data_residency"`
	DisplayColor  string        `json:"display_color"` // "#RRGGBB"
	// ExternalKeyID is the customer-managed encryption key configuration, or
	// "" when none is attached. Once attached it cannot be detached or replaced.
	ExternalKeyID string            `json:"external_key_id,omitzero"`
	Tags          map[string]string `json:"tags"`
	// UserProfileID is the user profile attached to the workspace, or ""
	// when it has none. Every inference request through a workspace with a
	// user profile must name that profile.
	UserProfileID string `json:"user_profile_id,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Archived reports whether the workspace has been archived.
func (w *Workspace) Archived() bool { return !w.ArchivedAt.IsZero() }

type (
	plainWorkspace     Workspace
	plainDataResidency DataResidency
)

// MarshalJSON writes the workspace as the API sends it, Extra included.
func (w Workspace) MarshalJSON() ([]byte, error) { return wire.Marshal(plainWorkspace(w)) }

// UnmarshalJSON reads a workspace, keeping unknown members in Extra.
func (w *Workspace) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainWorkspace)(w))
}

// MarshalJSON writes the data residency as the API sends it, Extra included.
func (d DataResidency) MarshalJSON() ([]byte, error) { return wire.Marshal(plainDataResidency(d)) }

// UnmarshalJSON reads a data residency, keeping unknown members in Extra.
func (d *DataResidency) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainDataResidency)(d))
}

// Geo is a geography for inference or storage. Values not listed here are
// kept as received.
type Geo string

const (
	GeoGlobal Geo = "global"
	GeoUS     Geo = "us"
)

// DataResidency is where a workspace's inference runs and its data rests.
type DataResidency struct {
	AllowedInferenceGeos AllowedGeos `json:"allowed_inference_geos"`
	DefaultInferenceGeo  Geo         `json:"default_inference_geo"`
	WorkspaceGeo         Geo         `json:"workspace_geo"` // fixed at creation
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AllowedGeos is either "unrestricted" or a list of geos. The zero value means
// "not set" in a request.
type AllowedGeos struct {
	Unrestricted bool
	Geos         []Geo
}

// UnrestrictedGeos allows inference in every geo.
func UnrestrictedGeos() AllowedGeos { return AllowedGeos{Unrestricted: true} }

// OnlyGeos allows inference only in geos.
func OnlyGeos(geos ...Geo) AllowedGeos { return AllowedGeos{Geos: geos} }

// IsZero reports whether a is unset, so that omitzero leaves it out.
func (a AllowedGeos) IsZero() bool { return !a.Unrestricted && a.Geos == nil }

const unrestricted = "unrestricted"

// MarshalJSON writes "unrestricted" or the list.
func (a AllowedGeos) MarshalJSON() ([]byte, error) {
	if a.Unrestricted {
		return json.Marshal(unrestricted)
	}
	if a.Geos == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(a.Geos)
}

// UnmarshalJSON reads "unrestricted" or a list.
func (a *AllowedGeos) UnmarshalJSON(data []byte) error {
	*a = AllowedGeos{}
	if string(data) == "null" {
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		if s == unrestricted {
			a.Unrestricted = true
			return nil
		}
		a.Geos = []Geo{Geo(s)} // a single geo as a bare string: keep it rather than fail
		return nil
	}
	return json.Unmarshal(data, &a.Geos)
}
