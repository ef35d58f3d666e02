package agents

import (
	"encoding/json"
	"net/url"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Request parsing of each tool kind (docs/managed-agents-wire.md 3.4,
// 3.5): the agent toolset and its per-tool configs, MCP toolsets, custom
// tools and MCP servers.

type agentToolsetBody struct {
	Type          kit.Optional[string]            `json:"type"`
	DefaultConfig kit.Optional[json.RawMessage]   `json:"default_config"`
	Configs       kit.Optional[[]json.RawMessage] `json:"configs"`
}

type toolsetConfigBody struct {
	Name             kit.Optional[string]          `json:"name"`
	Type             kit.Optional[string]          `json:"type"`
	Enabled          kit.Optional[bool]            `json:"enabled"`
	PermissionPolicy kit.Optional[json.RawMessage] `json:"permission_policy"`
	AllowedDomains   kit.Optional[json.RawMessage] `json:"allowed_domains"`
	BlockedDomains   kit.Optional[json.RawMessage] `json:"blocked_domains"`
	MaxContentTokens kit.Optional[int64]           `json:"max_content_tokens"`
	UserLocation     kit.Optional[json.RawMessage] `json:"user_location"`
	URLSources       kit.Optional[json.RawMessage] `json:"url_sources"`
}

func parseAgentToolset(path string, raw json.RawMessage) (*Toolset, error) {
	var body agentToolsetBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	defaults, err := parseDefaults(kit.JoinPath(path, "default_config"), body.DefaultConfig, "always_allow")
	if err != nil {
		return nil, err
	}
	ts := &Toolset{Defaults: defaults, Configs: []ToolsetConfig{}}
	cpath := kit.JoinPath(path, "configs")
	if err := kit.NotNull(cpath, body.Configs); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, item := range body.Configs.Value {
		c, err := parseToolsetConfig(kit.IndexPath(cpath, i), item, defaults)
		if err != nil {
			return nil, err
		}
		if seen[c.Name] {
			return nil, kit.InvalidField(kit.JoinPath(kit.IndexPath(cpath, i), "name"), "duplicate tool `%s`", c.Name)
		}
		seen[c.Name] = true
		ts.Configs = append(ts.Configs, c)
	}
	return ts, nil
}

func parseToolsetConfig(path string, raw json.RawMessage, defaults ToolDefaults) (ToolsetConfig, error) {
	var body toolsetConfigBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return ToolsetConfig{}, err
	}
	namePath := kit.JoinPath(path, "name")
	if err := kit.Required(namePath, body.Name); err != nil {
		return ToolsetConfig{}, err
	}
	name := body.Name.Value
	if err := kit.OneOf(namePath, name, ToolsetTools...); err != nil {
		return ToolsetConfig{}, err
	}
	if err := kit.NotNull(kit.JoinPath(path, "type"), body.Type); err != nil {
		return ToolsetConfig{}, err
	}
	if body.Type.Set && body.Type.Value != name {
		return ToolsetConfig{}, kit.InvalidField(kit.JoinPath(path, "type"), "must be `%s`, the same as name", name)
	}
	// Web-only fields on another tool are unknown fields of that tool.
	web := name == "web_fetch" || name == "web_search"
	for _, f := range []struct {
		key     string
		set     bool
		applies bool
	}{
		{"allowed_domains", body.AllowedDomains.Set, web},
		{"blocked_domains", body.BlockedDomains.Set, web},
		{"max_content_tokens", body.MaxContentTokens.Set, name == "web_fetch"},
		{"user_location", body.UserLocation.Set, name == "web_search"},
		{"url_sources", body.URLSources.Set, name == "web_fetch"},
	} {
		if f.set && !f.applies {
			return ToolsetConfig{}, kit.InvalidField(kit.JoinPath(path, f.key), "unknown field")
		}
	}
	c := ToolsetConfig{Name: name, Enabled: defaults.Enabled, Policy: defaults.Policy}
	if body.Enabled.Present() {
		c.Enabled = body.Enabled.Value
	}
	if body.PermissionPolicy.Present() {
		policy, err := parsePermissionPolicy(kit.JoinPath(path, "permission_policy"), body.PermissionPolicy.Value)
		if err != nil {
			return c, err
		}
		c.Policy = policy
	}
	var err error
	if c.allowedDomains, err = parseDomains(kit.JoinPath(path, "allowed_domains"), body.AllowedDomains); err != nil {
		return c, err
	}
	if c.blockedDomains, err = parseDomains(kit.JoinPath(path, "blocked_domains"), body.BlockedDomains); err != nil {
		return c, err
	}
	if c.allowedDomains != nil && c.blockedDomains != nil {
		return c, kit.InvalidField(kit.JoinPath(path, "blocked_domains"), "cannot be combined with allowed_domains")
	}
	if body.MaxContentTokens.Present() {
		if err := kit.Int32Min(kit.JoinPath(path, "max_content_tokens"), body.MaxContentTokens.Value, 1); err != nil {
			return c, err
		}
		v := body.MaxContentTokens.Value
		c.maxContentTokens = &v
	}
	if body.URLSources.Present() {
		if c.urlSources, err = parseURLSources(kit.JoinPath(path, "url_sources"), body.URLSources.Value); err != nil {
			return c, err
		}
	}
	if body.UserLocation.Present() {
		loc, err := parseUserLocation(kit.JoinPath(path, "user_location"), body.UserLocation.Value)
		if err != nil {
			return c, err
		}
		c.userLocation = loc
	}
	return c, nil
}

// parseDomains reads allowed_domains / blocked_domains: omitted is nil;
// otherwise 1 to 64 plain hostnames (an empty list is refused: omit it).
func parseDomains(path string, o kit.Optional[json.RawMessage]) ([]string, error) {
	if !o.Set {
		return nil, nil
	}
	if o.Null {
		return nil, kit.InvalidField(path, "must not be null")
	}
	domains, err := kit.StringsAt(path, o.Value, func(p, s string) error {
		if !plainHostname.MatchString(s) || len(s) > 253 {
			return kit.InvalidField(p, "must be a plain hostname")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return domains, kit.CheckCount(path, len(domains), 1, maMaxDomains)
}

type userLocationBody struct {
	Type     kit.Optional[string] `json:"type"`
	City     kit.Optional[string] `json:"city"`
	Country  kit.Optional[string] `json:"country"`
	Region   kit.Optional[string] `json:"region"`
	Timezone kit.Optional[string] `json:"timezone"`
}

func parseUserLocation(path string, raw json.RawMessage) (*userLocation, error) {
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return nil, err
	}
	if typ != "approximate" {
		return nil, kit.BadType(path, "approximate")
	}
	var body userLocationBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	loc := &userLocation{}
	for _, f := range []struct {
		key string
		o   kit.Optional[string]
		dst **string
	}{
		{"city", body.City, &loc.city},
		{"country", body.Country, &loc.country},
		{"region", body.Region, &loc.region},
		{"timezone", body.Timezone, &loc.timezone},
	} {
		if !f.o.Present() {
			continue
		}
		p := kit.JoinPath(path, f.key)
		if f.key == "country" {
			if !countryCode.MatchString(f.o.Value) {
				return nil, kit.InvalidField(p, "must be 2 uppercase letters")
			}
		} else if err := kit.CheckLength(p, f.o.Value, 1, 255); err != nil {
			return nil, err
		}
		*f.dst = kit.StringPtr(f.o.Value)
	}
	return loc, nil
}

type mcpToolsetBody struct {
	Type          kit.Optional[string]            `json:"type"`
	MCPServerName kit.Optional[string]            `json:"mcp_server_name"`
	DefaultConfig kit.Optional[json.RawMessage]   `json:"default_config"`
	Configs       kit.Optional[[]json.RawMessage] `json:"configs"`
}

type mcpToolConfigBody struct {
	Name             kit.Optional[string]          `json:"name"`
	Enabled          kit.Optional[bool]            `json:"enabled"`
	PermissionPolicy kit.Optional[json.RawMessage] `json:"permission_policy"`
}

func parseMCPToolset(path string, raw json.RawMessage) (*MCPToolset, error) {
	var body mcpToolsetBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	np := kit.JoinPath(path, "mcp_server_name")
	if err := kit.Required(np, body.MCPServerName); err != nil {
		return nil, err
	}
	if err := kit.CheckLength(np, body.MCPServerName.Value, 1, 255); err != nil {
		return nil, err
	}
	defaults, err := parseDefaults(kit.JoinPath(path, "default_config"), body.DefaultConfig, "always_ask")
	if err != nil {
		return nil, err
	}
	ts := &MCPToolset{ServerName: body.MCPServerName.Value, Defaults: defaults, Configs: []MCPToolConfig{}}
	cpath := kit.JoinPath(path, "configs")
	if err := kit.NotNull(cpath, body.Configs); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, item := range body.Configs.Value {
		p := kit.IndexPath(cpath, i)
		var cb mcpToolConfigBody
		if err := kit.DecodeAt(p, item, &cb); err != nil {
			return nil, err
		}
		if err := kit.Required(kit.JoinPath(p, "name"), cb.Name); err != nil {
			return nil, err
		}
		if err := kit.CheckLength(kit.JoinPath(p, "name"), cb.Name.Value, 1, 128); err != nil {
			return nil, err
		}
		if seen[cb.Name.Value] {
			return nil, kit.InvalidField(kit.JoinPath(p, "name"), "duplicate tool `%s`", cb.Name.Value)
		}
		seen[cb.Name.Value] = true
		c := MCPToolConfig{Name: cb.Name.Value, Enabled: defaults.Enabled, Policy: defaults.Policy}
		if cb.Enabled.Present() {
			c.Enabled = cb.Enabled.Value
		}
		if cb.PermissionPolicy.Present() {
			if c.Policy, err = parsePermissionPolicy(kit.JoinPath(p, "permission_policy"), cb.PermissionPolicy.Value); err != nil {
				return nil, err
			}
		}
		ts.Configs = append(ts.Configs, c)
	}
	return ts, nil
}

type customToolBody struct {
	Type        kit.Optional[string]          `json:"type"`
	Name        kit.Optional[string]          `json:"name"`
	Description kit.Optional[string]          `json:"description"`
	InputSchema kit.Optional[json.RawMessage] `json:"input_schema"`
}

func parseCustomTool(path string, raw json.RawMessage) (*CustomTool, error) {
	var body customToolBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	np := kit.JoinPath(path, "name")
	if err := kit.Required(np, body.Name); err != nil {
		return nil, err
	}
	if err := kit.CheckLength(np, body.Name.Value, 1, 128); err != nil {
		return nil, err
	}
	if !customToolName.MatchString(body.Name.Value) {
		return nil, kit.InvalidField(np, "must contain only letters, digits, underscores and hyphens")
	}
	dp := kit.JoinPath(path, "description")
	if err := kit.Required(dp, body.Description); err != nil {
		return nil, err
	}
	if err := kit.CheckLength(dp, body.Description.Value, 1, 1024); err != nil {
		return nil, err
	}
	sp := kit.JoinPath(path, "input_schema")
	if err := kit.Required(sp, body.InputSchema); err != nil {
		return nil, err
	}
	if err := checkInputSchema(sp, body.InputSchema.Value); err != nil {
		return nil, err
	}
	return &CustomTool{Name: body.Name.Value, description: body.Description.Value, InputSchema: kit.CompactJSON(body.InputSchema.Value)}, nil
}

// checkInputSchema checks the members docs/managed-agents-wire.md 3.5 names
// for a custom tool's input_schema; other JSON Schema keys are kept as they
// are.
func checkInputSchema(path string, raw json.RawMessage) error {
	if kit.JSONKind(raw) != '{' {
		return kit.InvalidField(path, "must be an object")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return kit.InvalidField(path, "must be an object")
	}
	t, ok := members["type"]
	if !ok || kit.IsNull(t) {
		return kit.InvalidField(kit.JoinPath(path, "type"), "is required")
	}
	var typ string
	if kit.JSONKind(t) != '"' || json.Unmarshal(t, &typ) != nil {
		return kit.InvalidField(kit.JoinPath(path, "type"), "must be a string")
	}
	if typ != "object" {
		return kit.InvalidField(kit.JoinPath(path, "type"), "must be one of `object`")
	}
	if p, ok := members["properties"]; ok && !kit.IsNull(p) && kit.JSONKind(p) != '{' {
		return kit.InvalidField(kit.JoinPath(path, "properties"), "must be an object")
	}
	if r, ok := members["required"]; ok && !kit.IsNull(r) {
		if _, err := kit.StringsAt(kit.JoinPath(path, "required"), r, nil); err != nil {
			return err
		}
	}
	return nil
}

type mcpServerBody struct {
	Type kit.Optional[string] `json:"type"`
	Name kit.Optional[string] `json:"name"`
	URL  kit.Optional[string] `json:"url"`
}

func parseMCPServers(path string, raw json.RawMessage) ([]mcpServer, error) {
	items, err := kit.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	if err := kit.CheckCount(path, len(items), 0, maMaxMCPServers); err != nil {
		return nil, err
	}
	out := make([]mcpServer, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		p := kit.IndexPath(path, i)
		typ, err := kit.TypeAt(p, item)
		if err != nil {
			return nil, err
		}
		if typ != "url" {
			return nil, kit.BadType(p, "url")
		}
		var body mcpServerBody
		if err := kit.DecodeAt(p, item, &body); err != nil {
			return nil, err
		}
		np, up := kit.JoinPath(p, "name"), kit.JoinPath(p, "url")
		if err := kit.Required(np, body.Name); err != nil {
			return nil, err
		}
		if err := kit.CheckLength(np, body.Name.Value, 1, 255); err != nil {
			return nil, err
		}
		if seen[body.Name.Value] {
			return nil, kit.InvalidField(np, "duplicate mcp server `%s`", body.Name.Value)
		}
		seen[body.Name.Value] = true
		if err := kit.Required(up, body.URL); err != nil {
			return nil, err
		}
		if err := kit.CheckLength(up, body.URL.Value, 1, 2048); err != nil {
			return nil, err
		}
		u, perr := url.Parse(body.URL.Value)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, kit.InvalidField(up, "must be an absolute http or https URL")
		}
		out = append(out, mcpServer{name: body.Name.Value, url: body.URL.Value})
	}
	return out, nil
}
