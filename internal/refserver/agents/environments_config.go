package agents

import (
	"encoding/json"
	"slices"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Environment config (docs/managed-agents-wire.md 5.1, 5.2, 5.4): the
// union cloud | self_hosted, cloud networking unrestricted | limited, and
// the package lists.

const (
	envCloud      = "cloud"
	envSelfHosted = "self_hosted"
	netOpen       = "unrestricted"
	netLimited    = "limited"

	maxEnvHosts    = 100 // **choice** (docs/managed-agents-wire.md 5.2)
	maxEnvPackages = 100 // per manager, **choice**
)

// packageManagers are the package lists, in wire order.
var packageManagers = []string{"apt", "cargo", "gem", "go", "npm", "pip"}

type envConfig struct {
	typ        string // envCloud or envSelfHosted
	networking envNetworking
	packages   [6][]string // by packageManagers index; never nil
}

type envNetworking struct {
	typ          string // netOpen or netLimited
	allowedHosts []string
	allowMCP     bool
	allowPkg     bool
}

func emptyPackages() [6][]string {
	var p [6][]string
	for i := range p {
		p[i] = []string{}
	}
	return p
}

func defaultEnvConfig() envConfig {
	return envConfig{typ: envCloud, networking: envNetworking{typ: netOpen}, packages: emptyPackages()}
}

func defaultLimited() envNetworking { return envNetworking{typ: netLimited, allowedHosts: []string{}} }

type limitedJSON struct {
	Type                 string   `json:"type"`
	AllowedHosts         []string `json:"allowed_hosts"`
	AllowMCPServers      bool     `json:"allow_mcp_servers"`
	AllowPackageManagers bool     `json:"allow_package_managers"`
}

type packagesJSON struct {
	Type  string   `json:"type"`
	Apt   []string `json:"apt"`
	Cargo []string `json:"cargo"`
	Gem   []string `json:"gem"`
	Go    []string `json:"go"`
	Npm   []string `json:"npm"`
	Pip   []string `json:"pip"`
}

type cloudConfigJSON struct {
	Type       string       `json:"type"`
	Networking any          `json:"networking"`
	Packages   packagesJSON `json:"packages"`
}

func (c envConfig) view() any {
	if c.typ == envSelfHosted {
		return toggleJSON{Type: envSelfHosted}
	}
	var net any = toggleJSON{Type: netOpen}
	if n := c.networking; n.typ == netLimited {
		net = limitedJSON{Type: netLimited, AllowedHosts: n.allowedHosts, AllowMCPServers: n.allowMCP, AllowPackageManagers: n.allowPkg}
	}
	p := c.packages
	return cloudConfigJSON{Type: envCloud, Networking: net,
		Packages: packagesJSON{Type: "packages", Apt: p[0], Cargo: p[1], Gem: p[2], Go: p[3], Npm: p[4], Pip: p[5]}}
}

func (c envConfig) hasPackages() bool {
	for _, list := range c.packages {
		if len(list) > 0 {
			return true
		}
	}
	return false
}

type cloudConfigBody struct {
	Type       kit.Optional[string]          `json:"type"`
	Networking kit.Optional[json.RawMessage] `json:"networking"`
	Packages   kit.Optional[json.RawMessage] `json:"packages"`
}

type limitedBody struct {
	Type                 kit.Optional[string]          `json:"type"`
	AllowedHosts         kit.Optional[json.RawMessage] `json:"allowed_hosts"`
	AllowMCPServers      kit.Optional[bool]            `json:"allow_mcp_servers"`
	AllowPackageManagers kit.Optional[bool]            `json:"allow_package_managers"`
}

type packagesBody struct {
	Type  kit.Optional[string]          `json:"type"`
	Apt   kit.Optional[json.RawMessage] `json:"apt"`
	Cargo kit.Optional[json.RawMessage] `json:"cargo"`
	Gem   kit.Optional[json.RawMessage] `json:"gem"`
	Go    kit.Optional[json.RawMessage] `json:"go"`
	Npm   kit.Optional[json.RawMessage] `json:"npm"`
	Pip   kit.Optional[json.RawMessage] `json:"pip"`
}

// parseEnvConfig reads a non-null config at path over cur. On create cur is
// the default; on update the object is merged into cur: within cloud an
// omitted networking or packages keeps cur's, within limited omitted fields
// keep cur's, a networking of another type replaces (omitted fields take
// defaults), and within packages an omitted list keeps cur's (null clears
// it). The type cannot change on update.
func parseEnvConfig(path string, raw json.RawMessage, cur envConfig, creating bool) (envConfig, error) {
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return cur, err
	}
	if typ != envCloud && typ != envSelfHosted {
		return cur, kit.BadType(path, envCloud, envSelfHosted)
	}
	if !creating && typ != cur.typ {
		return cur, kit.InvalidField(kit.JoinPath(path, "type"), "cannot change the environment type")
	}
	if typ == envSelfHosted {
		var body struct {
			Type kit.Optional[string] `json:"type"`
		}
		return envConfig{typ: envSelfHosted}, kit.DecodeAt(path, raw, &body)
	}
	base := cur
	if base.typ != envCloud {
		base = defaultEnvConfig()
	}
	var body cloudConfigBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return cur, err
	}
	out := base
	if body.Networking.Set {
		out.networking = envNetworking{typ: netOpen}
		if body.Networking.Present() {
			if out.networking, err = parseNetworking(kit.JoinPath(path, "networking"), body.Networking.Value, base.networking); err != nil {
				return cur, err
			}
		}
	}
	if body.Packages.Set {
		out.packages = emptyPackages()
		if body.Packages.Present() {
			if out.packages, err = parsePackages(kit.JoinPath(path, "packages"), body.Packages.Value, base.packages); err != nil {
				return cur, err
			}
		}
	}
	if out.networking.typ == netLimited && !out.networking.allowPkg && out.hasPackages() {
		return cur, kit.InvalidField(kit.JoinPath(path, "networking.allow_package_managers"), "must be true when packages are specified")
	}
	return out, nil
}

func parseNetworking(path string, raw json.RawMessage, cur envNetworking) (envNetworking, error) {
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return cur, err
	}
	switch typ {
	case netOpen:
		var body struct {
			Type kit.Optional[string] `json:"type"`
		}
		return envNetworking{typ: netOpen}, kit.DecodeAt(path, raw, &body)
	case netLimited:
	default:
		return cur, kit.BadType(path, netOpen, netLimited)
	}
	var body limitedBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return cur, err
	}
	n := cur
	if n.typ != netLimited {
		n = defaultLimited()
	}
	if body.AllowedHosts.Set {
		n.allowedHosts = []string{}
		if body.AllowedHosts.Present() {
			hp := kit.JoinPath(path, "allowed_hosts")
			hosts, err := kit.StringsAt(hp, body.AllowedHosts.Value, func(p, s string) error {
				if !plainHostname.MatchString(s) || len(s) > 253 {
					return kit.InvalidField(p, "must be a hostname")
				}
				return nil
			})
			if err != nil {
				return cur, err
			}
			if err := kit.CheckCount(hp, len(hosts), 0, maxEnvHosts); err != nil {
				return cur, err
			}
			n.allowedHosts = hosts
		}
	}
	if body.AllowMCPServers.Set {
		n.allowMCP = body.AllowMCPServers.Present() && body.AllowMCPServers.Value
	}
	if body.AllowPackageManagers.Set {
		n.allowPkg = body.AllowPackageManagers.Present() && body.AllowPackageManagers.Value
	}
	return n, nil
}

func parsePackages(path string, raw json.RawMessage, cur [6][]string) ([6][]string, error) {
	var body packagesBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return cur, err
	}
	if err := kit.NotNull(kit.JoinPath(path, "type"), body.Type); err != nil {
		return cur, err
	}
	if body.Type.Set && body.Type.Value != "packages" {
		return cur, kit.BadType(path, "packages")
	}
	out := cur
	for i, o := range []kit.Optional[json.RawMessage]{body.Apt, body.Cargo, body.Gem, body.Go, body.Npm, body.Pip} {
		if !o.Set {
			continue
		}
		out[i] = []string{}
		if !o.Present() {
			continue
		}
		lp := kit.JoinPath(path, packageManagers[i])
		list, err := kit.StringsAt(lp, o.Value, func(p, s string) error { return kit.CheckLength(p, s, 1, 256) })
		if err != nil {
			return cur, err
		}
		if err := kit.CheckCount(lp, len(list), 0, maxEnvPackages); err != nil {
			return cur, err
		}
		out[i] = slices.Clip(list)
	}
	return out, nil
}
