package environments

import (
	"encoding/json"
	"time"
)

// Environment is where sessions run (type "environment").
type Environment struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
	// Description is "" when unset (null on the wire). The API keeps a
	// description updated to "" as "", which reads the same here; either
	// is left out when the environment is encoded.
	Description string `json:"description,omitzero"`
	Config      Config `json:"config"`
	// Scope is "organization" for API organizations.
	Scope      Scope             `json:"scope"`
	Metadata   map[string]string `json:"metadata"`
	ArchivedAt time.Time         `json:"archived_at,omitzero"` // zero while active
	CreatedAt  time.Time         `json:"created_at"`
	UpdatedAt  time.Time         `json:"updated_at"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Archived reports whether the environment has been archived: new sessions
// and deployments cannot use it.
func (e *Environment) Archived() bool { return !e.ArchivedAt.IsZero() }

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
	Networking Networking `json:"networking,omitzero"`
	Packages   *Packages  `json:"packages,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SelfHostedConfig runs sessions on the client's own infrastructure (type
// "self_hosted"): the client executes sandbox tools and answers with
// user.tool_result. Self-hosted environments cannot mount resources.
type SelfHostedConfig struct {
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownConfig is a config type this SDK does not know, kept as received.
type UnknownConfig struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (CloudConfig) isConfig()      {}
func (SelfHostedConfig) isConfig() {}
func (UnknownConfig) isConfig()    {}

// Networking is a cloud environment's network access:
// UnrestrictedNetworking, LimitedNetworking or UnknownNetworking.
type Networking interface{ isNetworking() }

// UnrestrictedNetworking allows any outbound traffic (type "unrestricted").
type UnrestrictedNetworking struct {
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// LimitedNetworking allows only the listed hosts, plus MCP servers and
// package registries when enabled (type "limited"). In a request nil
// fields are not sent: on create they default to empty and false; on an
// update of a limited environment they keep the stored value. A response
// sets every field.
type LimitedNetworking struct {
	AllowedHosts []string `json:"allowed_hosts,omitzero"` // at most 100 hostnames
	// AllowMCPServers lets the agent reach its MCP servers.
	AllowMCPServers *bool `json:"allow_mcp_servers,omitzero"`
	// AllowPackageManagers lets package managers reach their registries;
	// it must be true when the environment lists packages.
	AllowPackageManagers *bool `json:"allow_package_managers,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownNetworking is a networking type this SDK does not know, kept as
// received.
type UnknownNetworking struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (UnrestrictedNetworking) isNetworking() {}
func (LimitedNetworking) isNetworking()      {}
func (UnknownNetworking) isNetworking()      {}

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
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
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
