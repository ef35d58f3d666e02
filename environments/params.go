package environments

import (
	"strconv"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/param"
)

// Limits of docs/managed-agents-wire.md section 5.
const (
	maxName        = 256
	maxDescription = 1024
	maxHosts       = 100
	maxPackages    = 100
	maxPackageSpec = 256
	maxListLimit   = 1000
)

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

func (p *CreateParams) validate() error {
	if err := check.Length("name", p.Name, 1, maxName); err != nil {
		return err
	}
	if err := check.Length("description", p.Description, 0, maxDescription); err != nil {
		return err
	}
	if err := validateConfig(p.Config, true); err != nil {
		return err
	}
	return check.Metadata(p.Metadata)
}

func (p *UpdateParams) validate() error {
	if err := check.OptionalLength("name", p.Name, 1, maxName); err != nil {
		return err
	}
	if v, ok := p.Description.Get(); ok {
		if err := check.Length("description", v, 0, maxDescription); err != nil {
			return err
		}
	}
	if err := validateConfig(p.Config, false); err != nil {
		return err
	}
	return check.MetadataPatch(p.Metadata)
}

// validateConfig checks a request config. The packages rule of limited
// networking needs the whole config, which an update merges with the
// stored one: there it is checked only when the request itself decides it.
func validateConfig(c Config, creating bool) error {
	cloud, ok := c.(CloudConfig)
	if !ok {
		return nil
	}
	hasPackages := false
	if p := cloud.Packages; p != nil {
		for _, l := range p.lists() {
			field := "config.packages." + l.name
			if len(l.list) > maxPackages {
				return apierror.Invalid(field, "must have at most "+strconv.Itoa(maxPackages)+" items")
			}
			for i, spec := range l.list {
				if err := check.Length(field+"["+strconv.Itoa(i)+"]", spec, 1, maxPackageSpec); err != nil {
					return err
				}
			}
			hasPackages = hasPackages || len(l.list) > 0
		}
	}
	limited, ok := cloud.Networking.(LimitedNetworking)
	if !ok {
		return nil
	}
	if len(limited.AllowedHosts) > maxHosts {
		return apierror.Invalid("config.networking.allowed_hosts", "must have at most "+strconv.Itoa(maxHosts)+" items")
	}
	for i, h := range limited.AllowedHosts {
		if h == "" {
			return apierror.Invalid("config.networking.allowed_hosts["+strconv.Itoa(i)+"]", "must be a hostname")
		}
	}
	allowPkg := limited.AllowPackageManagers
	refused := allowPkg != nil && !*allowPkg || allowPkg == nil && creating
	if hasPackages && refused {
		return apierror.Invalid("config.networking.allow_package_managers", "must be true when packages are specified")
	}
	return nil
}
