package agents

import (
	"encoding/json"
	"net/url"
)

// Request parsing of each tool kind (docs/managed-agents-wire.md 3.4,
// 3.5): the agent toolset and its per-tool configs, MCP toolsets, custom
// tools and MCP servers.

type agentToolsetBody struct {
	Type          optional[string]            `json:"type"`
	DefaultConfig optional[json.RawMessage]   `json:"default_config"`
	Configs       optional[[]json.RawMessage] `json:"configs"`
}

type toolsetConfigBody struct {
	Name             optional[string]          `json:"name"`
	Type             optional[string]          `json:"type"`
	Enabled          optional[bool]            `json:"enabled"`
	PermissionPolicy optional[json.RawMessage] `json:"permission_policy"`
	AllowedDomains   optional[json.RawMessage] `json:"allowed_domains"`
	BlockedDomains   optional[json.RawMessage] `json:"blocked_domains"`
	MaxContentTokens optional[int64]           `json:"max_content_tokens"`
	UserLocation     optional[json.RawMessage] `json:"user_location"`
}

func parseAgentToolset(path string, raw json.RawMessage) (*Toolset, error) {
	var body agentToolsetBody
	if err := maDecode(path, raw, &body); err != nil {
		return nil, err
	}
	defaults, err := parseDefaults(maJoin(path, "default_config"), body.DefaultConfig, "always_allow")
	if err != nil {
		return nil, err
	}
	ts := &Toolset{Defaults: defaults, Configs: []ToolsetConfig{}}
	cpath := maJoin(path, "configs")
	if err := maNotNull(cpath, body.Configs); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, item := range body.Configs.Value {
		c, err := parseToolsetConfig(maIndex(cpath, i), item, defaults)
		if err != nil {
			return nil, err
		}
		if seen[c.Name] {
			return nil, invalidField(maJoin(maIndex(cpath, i), "name"), "duplicate tool `%s`", c.Name)
		}
		seen[c.Name] = true
		ts.Configs = append(ts.Configs, c)
	}
	return ts, nil
}

func parseToolsetConfig(path string, raw json.RawMessage, defaults ToolDefaults) (ToolsetConfig, error) {
	var body toolsetConfigBody
	if err := maDecode(path, raw, &body); err != nil {
		return ToolsetConfig{}, err
	}
	namePath := maJoin(path, "name")
	if err := maRequired(namePath, body.Name); err != nil {
		return ToolsetConfig{}, err
	}
	name := body.Name.Value
	if err := maOneOf(namePath, name, ToolsetTools...); err != nil {
		return ToolsetConfig{}, err
	}
	if err := maNotNull(maJoin(path, "type"), body.Type); err != nil {
		return ToolsetConfig{}, err
	}
	if body.Type.Set && body.Type.Value != name {
		return ToolsetConfig{}, invalidField(maJoin(path, "type"), "must be `%s`, the same as name", name)
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
	} {
		if f.set && !f.applies {
			return ToolsetConfig{}, invalidField(maJoin(path, f.key), "unknown field")
		}
	}
	c := ToolsetConfig{Name: name, Enabled: defaults.Enabled, Policy: defaults.Policy}
	if body.Enabled.Present() {
		c.Enabled = body.Enabled.Value
	}
	if body.PermissionPolicy.Present() {
		policy, err := parsePermissionPolicy(maJoin(path, "permission_policy"), body.PermissionPolicy.Value)
		if err != nil {
			return c, err
		}
		c.Policy = policy
	}
	var err error
	if c.allowedDomains, err = parseDomains(maJoin(path, "allowed_domains"), body.AllowedDomains); err != nil {
		return c, err
	}
	if c.blockedDomains, err = parseDomains(maJoin(path, "blocked_domains"), body.BlockedDomains); err != nil {
		return c, err
	}
	if c.allowedDomains != nil && c.blockedDomains != nil {
		return c, invalidField(maJoin(path, "blocked_domains"), "cannot be combined with allowed_domains")
	}
	if body.MaxContentTokens.Present() {
		if err := maInt32Min(maJoin(path, "max_content_tokens"), body.MaxContentTokens.Value, 1); err != nil {
			return c, err
		}
		v := body.MaxContentTokens.Value
		c.maxContentTokens = &v
	}
	if body.UserLocation.Present() {
		loc, err := parseUserLocation(maJoin(path, "user_location"), body.UserLocation.Value)
		if err != nil {
			return c, err
		}
		c.userLocation = loc
	}
	return c, nil
}

// parseDomains reads allowed_domains / blocked_domains: omitted is nil;
// otherwise 1 to 64 plain hostnames (an empty list is refused: omit it).
func parseDomains(path string, o optional[json.RawMessage]) ([]string, error) {
	if !o.Set {
		return nil, nil
	}
	if o.Null {
		return nil, invalidField(path, "must not be null")
	}
	domains, err := maStrings(path, o.Value, func(p, s string) error {
		if !plainHostname.MatchString(s) || len(s) > 253 {
			return invalidField(p, "must be a plain hostname")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return domains, maCount(path, len(domains), 1, maMaxDomains)
}

type userLocationBody struct {
	Type     optional[string] `json:"type"`
	City     optional[string] `json:"city"`
	Country  optional[string] `json:"country"`
	Region   optional[string] `json:"region"`
	Timezone optional[string] `json:"timezone"`
}

func parseUserLocation(path string, raw json.RawMessage) (*userLocation, error) {
	typ, err := maType(path, raw)
	if err != nil {
		return nil, err
	}
	if typ != "approximate" {
		return nil, maBadType(path, "approximate")
	}
	var body userLocationBody
	if err := maDecode(path, raw, &body); err != nil {
		return nil, err
	}
	loc := &userLocation{}
	for _, f := range []struct {
		key string
		o   optional[string]
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
		p := maJoin(path, f.key)
		if f.key == "country" {
			if !countryCode.MatchString(f.o.Value) {
				return nil, invalidField(p, "must be 2 uppercase letters")
			}
		} else if err := checkLength(p, f.o.Value, 1, 255); err != nil {
			return nil, err
		}
		*f.dst = maStringPtr(f.o.Value)
	}
	return loc, nil
}

type mcpToolsetBody struct {
	Type          optional[string]            `json:"type"`
	MCPServerName optional[string]            `json:"mcp_server_name"`
	DefaultConfig optional[json.RawMessage]   `json:"default_config"`
	Configs       optional[[]json.RawMessage] `json:"configs"`
}

type mcpToolConfigBody struct {
	Name             optional[string]          `json:"name"`
	Enabled          optional[bool]            `json:"enabled"`
	PermissionPolicy optional[json.RawMessage] `json:"permission_policy"`
}

func parseMCPToolset(path string, raw json.RawMessage) (*MCPToolset, error) {
	var body mcpToolsetBody
	if err := maDecode(path, raw, &body); err != nil {
		return nil, err
	}
	np := maJoin(path, "mcp_server_name")
	if err := maRequired(np, body.MCPServerName); err != nil {
		return nil, err
	}
	if err := checkLength(np, body.MCPServerName.Value, 1, 255); err != nil {
		return nil, err
	}
	defaults, err := parseDefaults(maJoin(path, "default_config"), body.DefaultConfig, "always_ask")
	if err != nil {
		return nil, err
	}
	ts := &MCPToolset{ServerName: body.MCPServerName.Value, Defaults: defaults, Configs: []MCPToolConfig{}}
	cpath := maJoin(path, "configs")
	if err := maNotNull(cpath, body.Configs); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, item := range body.Configs.Value {
		p := maIndex(cpath, i)
		var cb mcpToolConfigBody
		if err := maDecode(p, item, &cb); err != nil {
			return nil, err
		}
		if err := maRequired(maJoin(p, "name"), cb.Name); err != nil {
			return nil, err
		}
		if err := checkLength(maJoin(p, "name"), cb.Name.Value, 1, 128); err != nil {
			return nil, err
		}
		if seen[cb.Name.Value] {
			return nil, invalidField(maJoin(p, "name"), "duplicate tool `%s`", cb.Name.Value)
		}
		seen[cb.Name.Value] = true
		c := MCPToolConfig{Name: cb.Name.Value, Enabled: defaults.Enabled, Policy: defaults.Policy}
		if cb.Enabled.Present() {
			c.Enabled = cb.Enabled.Value
		}
		if cb.PermissionPolicy.Present() {
			if c.Policy, err = parsePermissionPolicy(maJoin(p, "permission_policy"), cb.PermissionPolicy.Value); err != nil {
				return nil, err
			}
		}
		ts.Configs = append(ts.Configs, c)
	}
	return ts, nil
}

type customToolBody struct {
	Type        optional[string]          `json:"type"`
	Name        optional[string]          `json:"name"`
	Description optional[string]          `json:"description"`
	InputSchema optional[json.RawMessage] `json:"input_schema"`
}

func parseCustomTool(path string, raw json.RawMessage) (*CustomTool, error) {
	var body customToolBody
	if err := maDecode(path, raw, &body); err != nil {
		return nil, err
	}
	np := maJoin(path, "name")
	if err := maRequired(np, body.Name); err != nil {
		return nil, err
	}
	if err := checkLength(np, body.Name.Value, 1, 128); err != nil {
		return nil, err
	}
	if !customToolName.MatchString(body.Name.Value) {
		return nil, invalidField(np, "must contain only letters, digits, underscores and hyphens")
	}
	dp := maJoin(path, "description")
	if err := maRequired(dp, body.Description); err != nil {
		return nil, err
	}
	if err := checkLength(dp, body.Description.Value, 1, 1024); err != nil {
		return nil, err
	}
	sp := maJoin(path, "input_schema")
	if err := maRequired(sp, body.InputSchema); err != nil {
		return nil, err
	}
	if err := checkInputSchema(sp, body.InputSchema.Value); err != nil {
		return nil, err
	}
	return &CustomTool{Name: body.Name.Value, description: body.Description.Value, InputSchema: maCompact(body.InputSchema.Value)}, nil
}

// checkInputSchema checks the members docs/managed-agents-wire.md 3.5 names
// for a custom tool's input_schema; other JSON Schema keys are kept as they
// are.
func checkInputSchema(path string, raw json.RawMessage) error {
	if maKind(raw) != '{' {
		return invalidField(path, "must be an object")
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return invalidField(path, "must be an object")
	}
	t, ok := members["type"]
	if !ok || maIsNull(t) {
		return invalidField(maJoin(path, "type"), "is required")
	}
	var typ string
	if maKind(t) != '"' || json.Unmarshal(t, &typ) != nil {
		return invalidField(maJoin(path, "type"), "must be a string")
	}
	if typ != "object" {
		return invalidField(maJoin(path, "type"), "must be one of `object`")
	}
	if p, ok := members["properties"]; ok && !maIsNull(p) && maKind(p) != '{' {
		return invalidField(maJoin(path, "properties"), "must be an object")
	}
	if r, ok := members["required"]; ok && !maIsNull(r) {
		if _, err := maStrings(maJoin(path, "required"), r, nil); err != nil {
			return err
		}
	}
	return nil
}

type mcpServerBody struct {
	Type optional[string] `json:"type"`
	Name optional[string] `json:"name"`
	URL  optional[string] `json:"url"`
}

func parseMCPServers(path string, raw json.RawMessage) ([]mcpServer, error) {
	items, err := maArray(path, raw)
	if err != nil {
		return nil, err
	}
	if err := maCount(path, len(items), 0, maMaxMCPServers); err != nil {
		return nil, err
	}
	out := make([]mcpServer, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		p := maIndex(path, i)
		typ, err := maType(p, item)
		if err != nil {
			return nil, err
		}
		if typ != "url" {
			return nil, maBadType(p, "url")
		}
		var body mcpServerBody
		if err := maDecode(p, item, &body); err != nil {
			return nil, err
		}
		np, up := maJoin(p, "name"), maJoin(p, "url")
		if err := maRequired(np, body.Name); err != nil {
			return nil, err
		}
		if err := checkLength(np, body.Name.Value, 1, 255); err != nil {
			return nil, err
		}
		if seen[body.Name.Value] {
			return nil, invalidField(np, "duplicate mcp server `%s`", body.Name.Value)
		}
		seen[body.Name.Value] = true
		if err := maRequired(up, body.URL); err != nil {
			return nil, err
		}
		if err := checkLength(up, body.URL.Value, 1, 2048); err != nil {
			return nil, err
		}
		u, perr := url.Parse(body.URL.Value)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, invalidField(up, "must be an absolute http or https URL")
		}
		out = append(out, mcpServer{name: body.Name.Value, url: body.URL.Value})
	}
	return out, nil
}
