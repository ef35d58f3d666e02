package environments

import (
	"regexp"
	"strconv"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// Local validation: every rule of docs/managed-agents-wire.md section 5
// that needs no stored state, named by its wire path. Config and
// networking types and the scope value are the server's to judge.

// Limits of docs/managed-agents-wire.md section 5.
const (
	maxName        = 256
	maxDescription = 1024
	maxHosts       = 100
	maxPackages    = 100
	maxPackageSpec = 256
	maxListLimit   = 1000
	maxHostname    = 253
)

// hostname is a plain hostname: dot-separated labels of letters, digits
// and inner hyphens; no scheme, port, path or wildcard.
var hostname = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$`)

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
				return &apierror.ValidationError{Field: field, Rule: "must have at most " + strconv.Itoa(maxPackages) + " items"}
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
	for i, h := range limited.AllowedHosts {
		if !hostname.MatchString(h) || len(h) > maxHostname {
			return &apierror.ValidationError{Field: "config.networking.allowed_hosts[" + strconv.Itoa(i) + "]", Rule: "must be a hostname"}
		}
	}
	if len(limited.AllowedHosts) > maxHosts {
		return &apierror.ValidationError{Field: "config.networking.allowed_hosts", Rule: "must have at most " + strconv.Itoa(maxHosts) + " items"}
	}
	allowPkg := limited.AllowPackageManagers
	refused := allowPkg != nil && !*allowPkg || allowPkg == nil && creating
	if hasPackages && refused {
		return &apierror.ValidationError{Field: "config.networking.allow_package_managers", Rule: "must be true when packages are specified"}
	}
	return nil
}
