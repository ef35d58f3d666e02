package environments

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// Environment is where sessions run (type "environment").
type Environment struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
	// Description is "" when unset (null on the wire). The API keeps a
	// description updated to "" as "", which reads the same here.
	Description string `json:"description"`
	Config      Config `json:"config"`
	// Scope is "organization" for API organizations.
	Scope      Scope             `json:"scope"`
	Metadata   map[string]string `json:"metadata"`
	ArchivedAt time.Time         `json:"archived_at,omitzero"` // zero while active
	CreatedAt  time.Time         `json:"created_at"`
	UpdatedAt  time.Time         `json:"updated_at"`
}

// Archived reports whether the environment has been archived: new sessions
// and deployments cannot use it.
func (e *Environment) Archived() bool { return !e.ArchivedAt.IsZero() }

// UnmarshalJSON decodes the config union.
func (e *Environment) UnmarshalJSON(data []byte) error {
	type plain Environment
	var w struct {
		plain
		Config json.RawMessage `json:"config"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Environment(w.plain)
	cfg, err := decodeConfig(w.Config)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	e.Config = cfg
	return nil
}

// Scope is who can use an environment. Unknown values are kept.
type Scope string

const (
	ScopeOrganization Scope = "organization"
	ScopeAccount      Scope = "account" // refused for API organizations
)

// Config is an environment's configuration: CloudConfig, SelfHostedConfig,
// or UnknownConfig (a type newer than this SDK, kept intact). The type is
// fixed at creation.
type Config interface{ isConfig() }

// CloudConfig runs sessions in a platform-hosted container (type "cloud").
// In a request nil fields are not sent: on create they take the defaults
// (unrestricted networking, no packages), on update they keep the stored
// value.
type CloudConfig struct {
	Networking Networking `json:"networking,omitempty"`
	Packages   *Packages  `json:"packages,omitempty"`
}

// SelfHostedConfig runs sessions on the client's own infrastructure (type
// "self_hosted"): the client executes sandbox tools and answers with
// user.tool_result. Self-hosted environments cannot mount resources.
type SelfHostedConfig struct{}

// UnknownConfig is a config type this SDK does not know.
type UnknownConfig struct{ union.Raw }

func (CloudConfig) isConfig()      {}
func (SelfHostedConfig) isConfig() {}
func (UnknownConfig) isConfig()    {}

func (c CloudConfig) MarshalJSON() ([]byte, error) {
	type plain CloudConfig
	return union.Marshal("cloud", plain(c))
}

func (c *CloudConfig) UnmarshalJSON(data []byte) error {
	var w struct {
		Networking json.RawMessage `json:"networking"`
		Packages   *Packages       `json:"packages"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	n, err := decodeNetworking(w.Networking)
	*c = CloudConfig{Networking: n, Packages: w.Packages}
	return err
}

func (SelfHostedConfig) MarshalJSON() ([]byte, error) {
	return union.Marshal("self_hosted", struct{}{})
}

func decodeConfig(data []byte) (Config, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "cloud":
		var c CloudConfig
		return c, json.Unmarshal(data, &c)
	case "self_hosted":
		return SelfHostedConfig{}, nil
	}
	return UnknownConfig{union.NewRaw(typ, data)}, nil
}

// Networking is a cloud environment's network access:
// UnrestrictedNetworking, LimitedNetworking or UnknownNetworking.
type Networking interface{ isNetworking() }

// UnrestrictedNetworking allows any outbound traffic (type "unrestricted").
type UnrestrictedNetworking struct{}

// LimitedNetworking allows only the listed hosts, plus MCP servers and
// package registries when enabled (type "limited"). In a request nil
// fields are not sent: on create they default to empty and false; on an
// update of a limited environment they keep the stored value. A response
// sets every field.
type LimitedNetworking struct {
	AllowedHosts []string `json:"allowed_hosts,omitzero"` // at most 100 hostnames
	// AllowMCPServers lets the agent reach its MCP servers.
	AllowMCPServers *bool `json:"allow_mcp_servers,omitempty"`
	// AllowPackageManagers lets package managers reach their registries;
	// it must be true when the environment lists packages.
	AllowPackageManagers *bool `json:"allow_package_managers,omitempty"`
}

// UnknownNetworking is a networking type this SDK does not know.
type UnknownNetworking struct{ union.Raw }

func (UnrestrictedNetworking) isNetworking() {}
func (LimitedNetworking) isNetworking()      {}
func (UnknownNetworking) isNetworking()      {}

func (UnrestrictedNetworking) MarshalJSON() ([]byte, error) {
	return union.Marshal("unrestricted", struct{}{})
}

func (n LimitedNetworking) MarshalJSON() ([]byte, error) {
	type plain LimitedNetworking
	return union.Marshal("limited", plain(n))
}

func decodeNetworking(data []byte) (Networking, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "unrestricted":
		return UnrestrictedNetworking{}, nil
	case "limited":
		var n LimitedNetworking
		return n, json.Unmarshal(data, &n)
	}
	return UnknownNetworking{union.NewRaw(typ, data)}, nil
}

// Packages lists packages installed in a cloud environment, per package
// manager: specs such as "pandas" or "pandas==2.2.0", each 1 to 256
// characters, at most 100 per manager. In a request a nil list is not sent
// (on update: kept) and an empty non-nil list clears it; responses list
// every manager.
type Packages struct {
	Apt   []string `json:"apt,omitzero"`
	Cargo []string `json:"cargo,omitzero"`
	Gem   []string `json:"gem,omitzero"`
	Go    []string `json:"go,omitzero"`
	Npm   []string `json:"npm,omitzero"`
	Pip   []string `json:"pip,omitzero"`
}

func (p Packages) MarshalJSON() ([]byte, error) {
	type plain Packages
	return union.Marshal("packages", plain(p))
}

func (p *Packages) lists() []struct {
	name string
	list []string
} {
	return []struct {
		name string
		list []string
	}{{"apt", p.Apt}, {"cargo", p.Cargo}, {"gem", p.Gem}, {"go", p.Go}, {"npm", p.Npm}, {"pip", p.Pip}}
}
