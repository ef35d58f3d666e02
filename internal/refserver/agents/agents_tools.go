package agents

import (
	"encoding/json"
	"regexp"
	"slices"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Tools, permission policies and MCP servers (docs/managed-agents-wire.md
// 3.4, 3.5).

const (
	maMaxTools       = 128
	maMaxMCPServers  = 20
	maMaxDomains     = 64
	agentToolsetType = "agent_toolset_20260401"
)

var (
	maToolTypes   = []string{agentToolsetType, "mcp_toolset", "custom"}
	maPolicyTypes = []string{"always_allow", "always_ask", "auto"}
	ToolsetTools  = []string{"bash", "edit", "read", "write", "glob", "grep", "web_fetch", "web_search"}

	customToolName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	plainHostname  = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$`)
	countryCode    = regexp.MustCompile(`^[A-Z]{2}$`)
)

// Tools is a validated pair of an agent's tools and mcp_servers lists,
// which are checked against each other (every mcp_toolset names a server,
// every server is used by a toolset). Agents store it; a session snapshot
// stores one too, and Update Session (docs/managed-agents-wire.md 6.5)
// replaces it with ParseTools.
type Tools struct {
	Tools      []Tool
	mcpServers []mcpServer
}

// Tool is one resolved entry of tools: exactly one pointer is set.
type Tool struct {
	Toolset *Toolset
	MCP     *MCPToolset
	Custom  *CustomTool
}

type policyJSON struct {
	Type string `json:"type"`
}

type ToolDefaults struct {
	Enabled bool
	Policy  string
}

type toolDefaultsJSON struct {
	Enabled          bool       `json:"enabled"`
	PermissionPolicy policyJSON `json:"permission_policy"`
}

func (d ToolDefaults) view() toolDefaultsJSON {
	return toolDefaultsJSON{Enabled: d.Enabled, PermissionPolicy: policyJSON{Type: d.Policy}}
}

type Toolset struct {
	Configs  []ToolsetConfig
	Defaults ToolDefaults
}

// ToolsetConfig is a resolved per-tool override of the agent toolset.
type ToolsetConfig struct {
	Name             string
	Enabled          bool
	Policy           string
	allowedDomains   []string // web_fetch, web_search; nil is null
	blockedDomains   []string
	maxContentTokens *int64      // web_fetch
	urlSources       *urlSources // web_fetch; nil is null
	userLocation     *userLocation
}

type userLocation struct {
	city, country, region, timezone *string
}

type userLocationJSON struct {
	Type     string  `json:"type"`
	City     *string `json:"city"`
	Country  *string `json:"country"`
	Region   *string `json:"region"`
	Timezone *string `json:"timezone"`
}

type toolConfigJSON struct {
	Type             string     `json:"type"`
	Name             string     `json:"name"`
	Enabled          bool       `json:"enabled"`
	PermissionPolicy policyJSON `json:"permission_policy"`
}

type webFetchConfigJSON struct {
	toolConfigJSON
	AllowedDomains   []string        `json:"allowed_domains"`
	BlockedDomains   []string        `json:"blocked_domains"`
	MaxContentTokens *int64          `json:"max_content_tokens"`
	URLSources       *urlSourcesJSON `json:"url_sources"`
}

type webSearchConfigJSON struct {
	toolConfigJSON
	AllowedDomains []string          `json:"allowed_domains"`
	BlockedDomains []string          `json:"blocked_domains"`
	UserLocation   *userLocationJSON `json:"user_location"`
}

func (c ToolsetConfig) view() any {
	base := toolConfigJSON{Type: c.Name, Name: c.Name, Enabled: c.Enabled, PermissionPolicy: policyJSON{Type: c.Policy}}
	switch c.Name {
	case "web_fetch":
		return webFetchConfigJSON{base, c.allowedDomains, c.blockedDomains, c.maxContentTokens, c.urlSources.view()}
	case "web_search":
		v := webSearchConfigJSON{toolConfigJSON: base, AllowedDomains: c.allowedDomains, BlockedDomains: c.blockedDomains}
		if l := c.userLocation; l != nil {
			v.UserLocation = &userLocationJSON{Type: "approximate", City: l.city, Country: l.country, Region: l.region, Timezone: l.timezone}
		}
		return v
	}
	return base
}

type agentToolsetJSON struct {
	Type          string           `json:"type"`
	Configs       []any            `json:"configs"`
	DefaultConfig toolDefaultsJSON `json:"default_config"`
}

type MCPToolset struct {
	ServerName string
	Configs    []MCPToolConfig
	Defaults   ToolDefaults
}

type MCPToolConfig struct {
	Name    string
	Enabled bool
	Policy  string
}

type mcpToolConfigJSON struct {
	Name             string     `json:"name"`
	Enabled          bool       `json:"enabled"`
	PermissionPolicy policyJSON `json:"permission_policy"`
}

type mcpToolsetJSON struct {
	Type          string              `json:"type"`
	MCPServerName string              `json:"mcp_server_name"`
	Configs       []mcpToolConfigJSON `json:"configs"`
	DefaultConfig toolDefaultsJSON    `json:"default_config"`
}

type CustomTool struct {
	Name, description string
	InputSchema       json.RawMessage // compact, as received
}

type customToolJSON struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type mcpServer struct {
	name, url string
}

type mcpServerJSON struct {
	Type string `json:"type"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

func (t Tool) view() any {
	switch {
	case t.Toolset != nil:
		configs := make([]any, len(t.Toolset.Configs))
		for i, c := range t.Toolset.Configs {
			configs[i] = c.view()
		}
		return agentToolsetJSON{Type: agentToolsetType, Configs: configs, DefaultConfig: t.Toolset.Defaults.view()}
	case t.MCP != nil:
		configs := make([]mcpToolConfigJSON, len(t.MCP.Configs))
		for i, c := range t.MCP.Configs {
			configs[i] = mcpToolConfigJSON{Name: c.Name, Enabled: c.Enabled, PermissionPolicy: policyJSON{Type: c.Policy}}
		}
		return mcpToolsetJSON{Type: "mcp_toolset", MCPServerName: t.MCP.ServerName, Configs: configs, DefaultConfig: t.MCP.Defaults.view()}
	default:
		return customToolJSON{Type: "custom", Name: t.Custom.Name, Description: t.Custom.description, InputSchema: t.Custom.InputSchema}
	}
}

// toolsJSON renders the tools list ([] when empty).
func (a Tools) toolsJSON() []any {
	out := make([]any, len(a.Tools))
	for i, t := range a.Tools {
		out[i] = t.view()
	}
	return out
}

// MCPServerURL is the url of the agent's MCP server with this name, for
// the engine to find the server's credential; false when there is none.
func (a Tools) MCPServerURL(name string) (string, bool) {
	for _, s := range a.mcpServers {
		if s.name == name {
			return s.url, true
		}
	}
	return "", false
}

// mcpServersJSON renders the mcp_servers list ([] when empty).
func (a Tools) mcpServersJSON() []mcpServerJSON {
	out := make([]mcpServerJSON, len(a.mcpServers))
	for i, s := range a.mcpServers {
		out[i] = mcpServerJSON{Type: "url", Name: s.name, URL: s.url}
	}
	return out
}

// ParseTools validates a request's tools and mcp_servers arrays the way
// an agent create does and returns the resulting pair. field prefixes every
// error path: "" for agent bodies ("tools[0].name"), "agent" for Update
// Session ("agent.tools[0].name"). A nil raw message keeps that list of
// base; the JSON null and [] clear it; an array replaces it. The
// cross-checks between the two lists apply to the result. Callers whose
// endpoint forbids null must reject it first.
func ParseTools(field string, tools, mcpServers json.RawMessage, base Tools) (Tools, error) {
	out := base
	if tools != nil {
		out.Tools = nil
		if !kit.IsNull(tools) {
			parsed, err := parseTools(kit.JoinPath(field, "tools"), tools)
			if err != nil {
				return Tools{}, err
			}
			out.Tools = parsed
		}
	}
	if mcpServers != nil {
		out.mcpServers = nil
		if !kit.IsNull(mcpServers) {
			parsed, err := parseMCPServers(kit.JoinPath(field, "mcp_servers"), mcpServers)
			if err != nil {
				return Tools{}, err
			}
			out.mcpServers = parsed
		}
	}
	servers := map[string]bool{}
	for _, s := range out.mcpServers {
		servers[s.name] = true
	}
	used := map[string]bool{}
	for i, t := range out.Tools {
		if t.MCP == nil {
			continue
		}
		if !servers[t.MCP.ServerName] {
			return Tools{}, kit.InvalidField(kit.JoinPath(kit.IndexPath(kit.JoinPath(field, "tools"), i), "mcp_server_name"),
				"no mcp_servers entry named `%s`", t.MCP.ServerName)
		}
		used[t.MCP.ServerName] = true
	}
	for i, s := range out.mcpServers {
		if !used[s.name] {
			return Tools{}, kit.InvalidField(kit.JoinPath(kit.IndexPath(kit.JoinPath(field, "mcp_servers"), i), "name"),
				"server `%s` is not referenced by any mcp_toolset", s.name)
		}
	}
	return out, nil
}

func parseTools(path string, raw json.RawMessage) ([]Tool, error) {
	items, err := kit.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	if err := kit.CheckCount(path, len(items), 0, maMaxTools); err != nil {
		return nil, err
	}
	out := make([]Tool, 0, len(items))
	toolsets, customs := map[string]bool{}, map[string]bool{}
	for i, item := range items {
		p := kit.IndexPath(path, i)
		typ, err := kit.TypeAt(p, item)
		if err != nil {
			return nil, err
		}
		var t Tool
		switch typ {
		case agentToolsetType:
			if toolsets[agentToolsetType] {
				return nil, kit.InvalidField(kit.JoinPath(p, "type"), "duplicate toolset `%s`", agentToolsetType)
			}
			toolsets[agentToolsetType] = true
			t.Toolset, err = parseAgentToolset(p, item)
		case "mcp_toolset":
			t.MCP, err = parseMCPToolset(p, item)
			if err == nil {
				if toolsets["mcp:"+t.MCP.ServerName] {
					return nil, kit.InvalidField(kit.JoinPath(p, "mcp_server_name"), "duplicate mcp_toolset `%s`", t.MCP.ServerName)
				}
				toolsets["mcp:"+t.MCP.ServerName] = true
			}
		case "custom":
			t.Custom, err = parseCustomTool(p, item)
			if err == nil {
				if customs[t.Custom.Name] {
					return nil, kit.InvalidField(kit.JoinPath(p, "name"), "duplicate custom tool `%s`", t.Custom.Name)
				}
				customs[t.Custom.Name] = true
			}
		default:
			return nil, kit.BadType(p, maToolTypes...)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if err := checkURLSourceClients(path, out); err != nil {
		return nil, err
	}
	return out, nil
}

type defaultConfigBody struct {
	Enabled          kit.Optional[bool]            `json:"enabled"`
	PermissionPolicy kit.Optional[json.RawMessage] `json:"permission_policy"`
}

// parseDefaults reads an optional default_config over the toolset's
// defaults (enabled true and defaultPolicy).
func parseDefaults(path string, o kit.Optional[json.RawMessage], defaultPolicy string) (ToolDefaults, error) {
	d := ToolDefaults{Enabled: true, Policy: defaultPolicy}
	if !o.Present() {
		return d, nil
	}
	var body defaultConfigBody
	if err := kit.DecodeAt(path, o.Value, &body); err != nil {
		return d, err
	}
	if body.Enabled.Present() {
		d.Enabled = body.Enabled.Value
	}
	if body.PermissionPolicy.Present() {
		policy, err := parsePermissionPolicy(kit.JoinPath(path, "permission_policy"), body.PermissionPolicy.Value)
		if err != nil {
			return d, err
		}
		d.Policy = policy
	}
	return d, nil
}

// parsePermissionPolicy reads {"type": always_allow | always_ask | auto}.
func parsePermissionPolicy(path string, raw json.RawMessage) (string, error) {
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return "", err
	}
	if !slices.Contains(maPolicyTypes, typ) {
		return "", kit.BadType(path, maPolicyTypes...)
	}
	var body struct {
		Type kit.Optional[string] `json:"type"`
	}
	return typ, kit.DecodeAt(path, raw, &body)
}
