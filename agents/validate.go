package agents

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// Local validation: every rule the SDK can check without the server's
// state, reported with the wire path of the field before anything is sent.
// Enum values are not checked: a newer server may accept more.

// Limits of docs/managed-agents-wire.md sections 3, 4 and 11.
const (
	maxName           = 256
	maxDescription    = 2048
	maxSystem         = 100000
	maxTools          = 128
	maxMCPServers     = 20
	maxSkills         = 20
	maxRoster         = 20
	maxDomains        = 64
	maxRoleARN        = 2048
	maxModelID        = 256
	maxCustomName     = 128
	maxURLSourceTools = 128
	maxCustomDesc     = 1024
	maxMCPName        = 255
	maxMCPURL         = 2048
	maxMCPToolName    = 128
	maxSkillField     = 64
	maxLocationText   = 255

	customSkillPrefix = "skill_"
)

var (
	customToolName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	plainHostname  = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$`)
)

const maxHostname = 253

func idx(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func (p *CreateParams) validate() error {
	if err := check.Length("name", p.Name, 1, maxName); err != nil {
		return err
	}
	if p.Model == nil {
		return &apierror.ValidationError{Field: "model", Rule: "is required"}
	}
	if err := validateModel(p.Model); err != nil {
		return err
	}
	if err := check.Length("description", p.Description, 0, maxDescription); err != nil {
		return err
	}
	if err := check.Length("system", p.System, 0, maxSystem); err != nil {
		return err
	}
	if err := validateToolLists("", p.Tools, p.MCPServers, p.Skills, true); err != nil {
		return err
	}
	if p.Multiagent != nil {
		if err := validateMultiagent(p.Multiagent, true); err != nil {
			return err
		}
	}
	if err := validateIdentity(p.ExecutionIdentity); err != nil {
		return err
	}
	return check.Metadata(p.Metadata)
}

func (p *UpdateParams) validate() error {
	if err := checkVersion("version", p.Version); err != nil {
		return err
	}
	if err := check.OptionalLength("name", p.Name, 1, maxName); err != nil {
		return err
	}
	if p.Model != nil {
		if err := validateModel(p.Model); err != nil {
			return err
		}
	}
	if v, ok := p.Description.Get(); ok {
		if err := check.Length("description", v, 0, maxDescription); err != nil {
			return err
		}
	}
	if v, ok := p.System.Get(); ok {
		if err := check.Length("system", v, 0, maxSystem); err != nil {
			return err
		}
	}
	// The servers and toolsets must match in the resulting agent: the
	// request alone decides that when it replaces both lists.
	both := p.Tools != nil && p.MCPServers != nil
	if err := validateToolLists("", p.Tools, p.MCPServers, p.Skills, both); err != nil {
		return err
	}
	if m, ok := p.Multiagent.Get(); ok {
		if m == nil {
			return &apierror.ValidationError{Field: "multiagent", Rule: "must not be nil; use param.Null to remove it"}
		}
		if err := validateMultiagent(m, false); err != nil {
			return err
		}
	}
	if err := validateIdentity(p.ExecutionIdentity); err != nil {
		return err
	}
	return check.MetadataPatch(p.Metadata)
}

func validateModel(m ModelParam) error {
	switch m := m.(type) {
	case ModelID:
		return check.Length("model", string(m), 1, maxModelID)
	case ModelConfig:
		return check.Length("model.id", m.ID, 1, maxModelID)
	}
	return nil
}

// validateToolLists checks the tools, mcp_servers and skills of a request
// as an agent create does, each list free of duplicates, naming fields
// under prefix: "" for an agent's body, "agent" for a session's
// ("agent.tools[0].name"). matched also checks that every MCP toolset names
// one of servers and that every server is used by a toolset, which the
// request alone decides when it sends both lists. Sessions send tool lists
// too, and borrow it (shared.go).
func validateToolLists(prefix string, tools []Tool, servers []MCPServer, skills []Skill, matched bool) error {
	toolsPath, serversPath, skillsPath := join(prefix, "tools"), join(prefix, "mcp_servers"), join(prefix, "skills")
	if err := count(toolsPath, len(tools), maxTools); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, t := range tools {
		p := idx(toolsPath, i)
		if err := validateTool(p, t); err != nil {
			return err
		}
		switch t := t.(type) {
		case AgentToolset:
			if seen[agentToolsetType] {
				return &apierror.ValidationError{Field: p + ".type", Rule: "duplicate toolset `" + agentToolsetType + "`"}
			}
			seen[agentToolsetType] = true
		case MCPToolset:
			if seen["mcp:"+t.MCPServerName] {
				return &apierror.ValidationError{Field: p + ".mcp_server_name", Rule: "duplicate mcp_toolset `" + t.MCPServerName + "`"}
			}
			seen["mcp:"+t.MCPServerName] = true
		case CustomTool:
			if seen["custom:"+t.Name] {
				return &apierror.ValidationError{Field: p + ".name", Rule: "duplicate custom tool `" + t.Name + "`"}
			}
			seen["custom:"+t.Name] = true
		}
	}
	if err := count(serversPath, len(servers), maxMCPServers); err != nil {
		return err
	}
	names := map[string]bool{}
	for i, s := range servers {
		p := idx(serversPath, i)
		if err := check.Length(p+".name", s.Name, 1, maxMCPName); err != nil {
			return err
		}
		if names[s.Name] {
			return &apierror.ValidationError{Field: p + ".name", Rule: "duplicate mcp server `" + s.Name + "`"}
		}
		names[s.Name] = true
		if err := check.Length(p+".url", s.URL, 1, maxMCPURL); err != nil {
			return err
		}
		if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &apierror.ValidationError{Field: p + ".url", Rule: "must be an absolute http or https URL"}
		}
	}
	if matched {
		if err := matchServers(toolsPath, serversPath, tools, servers, names); err != nil {
			return err
		}
	}
	if err := count(skillsPath, len(skills), maxSkills); err != nil {
		return err
	}
	seen = map[string]bool{}
	for i, s := range skills {
		p := idx(skillsPath, i)
		var key, id string
		switch s := s.(type) {
		case nil:
			return &apierror.ValidationError{Field: p, Rule: "must not be nil"}
		case VendorSkill:
			if err := checkSkill(p, s.SkillID, s.Version); err != nil {
				return err
			}
			key, id = "vendor", s.SkillID
		case CustomSkill:
			if err := check.Length(p+".skill_id", s.SkillID, 1, maxSkillField); err != nil {
				return err
			}
			if !strings.HasPrefix(s.SkillID, customSkillPrefix) {
				return &apierror.ValidationError{Field: p + ".skill_id", Rule: "must be a custom skill id (`" + customSkillPrefix + "…`)"}
			}
			if err := check.OptionalLength(p+".version", s.Version, 1, maxSkillField); err != nil {
				return err
			}
			key, id = "custom", s.SkillID
		default:
			continue
		}
		if seen[key+"\x00"+id] {
			return &apierror.ValidationError{Field: p + ".skill_id", Rule: "duplicate skill `" + id + "`"}
		}
		seen[key+"\x00"+id] = true
	}
	return nil
}

// matchServers checks that every MCP toolset names one of the servers
// (named) and that every server is used by a toolset.
func matchServers(toolsPath, serversPath string, tools []Tool, servers []MCPServer, named map[string]bool) error {
	used := map[string]bool{}
	for i, t := range tools {
		if m, ok := t.(MCPToolset); ok {
			if !named[m.MCPServerName] {
				return &apierror.ValidationError{Field: idx(toolsPath, i) + ".mcp_server_name", Rule: "no mcp_servers entry named `" + m.MCPServerName + "`"}
			}
			used[m.MCPServerName] = true
		}
	}
	for i, s := range servers {
		if !used[s.Name] {
			return &apierror.ValidationError{Field: idx(serversPath, i) + ".name", Rule: "server `" + s.Name + "` is not referenced by any mcp_toolset"}
		}
	}
	return nil
}

// join appends a member to a wire path: "" + "tools" is "tools", "agent" +
// "tools" is "agent.tools".
func join(prefix, member string) string {
	if prefix == "" {
		return member
	}
	return prefix + "." + member
}

func checkSkill(path, id, version string) error {
	if err := check.Length(path+".skill_id", id, 1, maxSkillField); err != nil {
		return err
	}
	return check.OptionalLength(path+".version", version, 1, maxSkillField)
}

func count(path string, n, max int) error {
	if n > max {
		return &apierror.ValidationError{Field: path, Rule: "must have at most " + strconv.Itoa(max) + " items"}
	}
	return nil
}

func validateTool(path string, t Tool) error {
	switch t := t.(type) {
	case nil:
		return &apierror.ValidationError{Field: path, Rule: "must not be nil"}
	case AgentToolset:
		seen := map[ToolName]bool{}
		for i, c := range t.Configs {
			p := idx(path+".configs", i)
			if err := validateToolConfig(p, c); err != nil {
				return err
			}
			if seen[c.Name] {
				return &apierror.ValidationError{Field: p + ".name", Rule: "duplicate tool `" + string(c.Name) + "`"}
			}
			seen[c.Name] = true
		}
	case MCPToolset:
		if err := check.Length(path+".mcp_server_name", t.MCPServerName, 1, maxMCPName); err != nil {
			return err
		}
		seen := map[string]bool{}
		for i, c := range t.Configs {
			p := idx(path+".configs", i) + ".name"
			if err := check.Length(p, c.Name, 1, maxMCPToolName); err != nil {
				return err
			}
			if seen[c.Name] {
				return &apierror.ValidationError{Field: p, Rule: "duplicate tool `" + c.Name + "`"}
			}
			seen[c.Name] = true
		}
	case CustomTool:
		if err := check.Length(path+".name", t.Name, 1, maxCustomName); err != nil {
			return err
		}
		if !customToolName.MatchString(t.Name) {
			return &apierror.ValidationError{Field: path + ".name", Rule: "must contain only letters, digits, underscores and hyphens"}
		}
		if err := check.Length(path+".description", t.Description, 1, maxCustomDesc); err != nil {
			return err
		}
	}
	return nil
}

func validateToolConfig(path string, c ToolConfig) error {
	if c.Name == "" {
		return &apierror.ValidationError{Field: path + ".name", Rule: "is required"}
	}
	for _, d := range []struct {
		field string
		list  []string
	}{{"allowed_domains", c.AllowedDomains}, {"blocked_domains", c.BlockedDomains}} {
		for i, host := range d.list {
			if !plainHostname.MatchString(host) || len(host) > maxHostname {
				return &apierror.ValidationError{Field: idx(path+"."+d.field, i), Rule: "must be a plain hostname"}
			}
		}
		if d.list != nil && (len(d.list) < 1 || len(d.list) > maxDomains) {
			return &apierror.ValidationError{Field: path + "." + d.field, Rule: "must have between 1 and " + strconv.Itoa(maxDomains) + " items"}
		}
	}
	if c.AllowedDomains != nil && c.BlockedDomains != nil {
		return &apierror.ValidationError{Field: path + ".blocked_domains", Rule: "cannot be combined with allowed_domains"}
	}
	if c.MaxContentTokens < 0 || c.MaxContentTokens > 1<<31-1 {
		return &apierror.ValidationError{Field: path + ".max_content_tokens", Rule: "must be at least 1"}
	}
	if err := validateURLSources(path+".url_sources", c.URLSources); err != nil {
		return err
	}
	if l := c.UserLocation; l != nil {
		lp := path + ".user_location"
		for _, f := range []struct{ field, v string }{{"city", l.City}, {"region", l.Region}, {"timezone", l.Timezone}} {
			if err := check.OptionalLength(lp+"."+f.field, f.v, 1, maxLocationText); err != nil {
				return err
			}
		}
		if l.Country != "" && !isCountryCode(l.Country) {
			return &apierror.ValidationError{Field: lp + ".country", Rule: "must be 2 uppercase letters"}
		}
	}
	return nil
}

func isCountryCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

func validateIdentity(e ExecutionIdentity) error {
	switch c := e.(type) {
	case CloudRole:
		return check.Length("execution_identity.role_arn", c.RoleARN, 1, maxRoleARN)
	case AWSRole:
		return check.Length("execution_identity.role_arn", c.RoleARN, 1, maxRoleARN)
	}
	return nil
}

// validateURLSources checks the lists of a web_fetch url_sources; the
// server also checks the names against the agent's tools.
func validateURLSources(path string, u *URLSources) error {
	if u == nil {
		return nil
	}
	for _, m := range []struct {
		field string
		f     *URLSourceFilter
	}{{"user_input", u.UserInput}, {"client_tool_results", u.ClientToolResults}, {"server_tool_results", u.ServerToolResults}} {
		if m.f == nil {
			continue
		}
		p := path + "." + m.field + ".tools"
		switch m.f.Type {
		case URLSourceAll, URLSourceNone:
			if m.f.Tools != nil {
				return &apierror.ValidationError{Field: p, Rule: "is only allowed with type only or except"}
			}
		case URLSourceOnly, URLSourceExcept:
			if len(m.f.Tools) < 1 || len(m.f.Tools) > maxURLSourceTools {
				return &apierror.ValidationError{Field: p, Rule: "must have between 1 and " + strconv.Itoa(maxURLSourceTools) + " items"}
			}
			seen := map[string]bool{}
			for i, t := range m.f.Tools {
				np := idx(p, i) + ".name"
				if err := check.Length(np, t.Name, 1, maxCustomName); err != nil {
					return err
				}
				if seen[t.Name] {
					return &apierror.ValidationError{Field: np, Rule: "duplicate tool `" + t.Name + "`"}
				}
				seen[t.Name] = true
			}
		}
	}
	none := func(f *URLSourceFilter) bool { return f != nil && f.Type == URLSourceNone }
	if none(u.UserInput) && none(u.ClientToolResults) && none(u.ServerToolResults) {
		return &apierror.ValidationError{Field: path, Rule: "must not set every source to none"}
	}
	return nil
}

// validateMultiagent checks m; creating adds the rules that an update may
// satisfy by merging with the stored value.
func validateMultiagent(m Multiagent, creating bool) error {
	switch m := m.(type) {
	case Coordinator:
		if len(m.Agents) < 1 || len(m.Agents) > maxRoster {
			return &apierror.ValidationError{Field: "multiagent.agents", Rule: "must have between 1 and " + strconv.Itoa(maxRoster) + " items"}
		}
		return validateRoster("multiagent.agents", m.Agents, true)
	case Multiagent20261001:
		if a, ok := m.Advisor.(AdvisorEnabled); ok {
			if creating || a.Model != "" {
				if err := check.Length("multiagent.advisor.model", a.Model, 1, maxModelID); err != nil {
					return err
				}
			}
		}
		if err := validateDelegation("multiagent.subagents", m.Subagents, creating); err != nil {
			return err
		}
		return validateDelegation("multiagent.workflows", m.Workflows, creating)
	}
	return nil
}

func validateDelegation(path string, d Delegation, creating bool) error {
	e, ok := d.(DelegationEnabled)
	if !ok {
		return nil
	}
	pp := path + ".predefined_agents"
	if err := count(pp, len(e.PredefinedAgents), maxRoster); err != nil {
		return err
	}
	if err := validateRoster(pp, e.PredefinedAgents, false); err != nil {
		return err
	}
	inlineOff := e.InlineAgents != nil && e.InlineAgents.Type == Disabled
	if inlineOff && len(e.PredefinedAgents) == 0 && (creating || e.PredefinedAgents != nil) {
		return &apierror.ValidationError{Field: pp, Rule: "must name at least one agent when inline_agents is disabled"}
	}
	return nil
}

// validateRoster checks roster entries; advisors are allowed only in a
// coordinator roster. At most one advisor and one self: other duplicates
// need the references resolved, which is the server's work.
func validateRoster(path string, entries []RosterEntry, allowAdvisor bool) error {
	advisor, self := false, false
	for i, e := range entries {
		p := idx(path, i)
		switch e := e.(type) {
		case nil:
			return &apierror.ValidationError{Field: p, Rule: "must not be nil"}
		case AgentID:
			if err := validateAgentRef(p, e); err != nil {
				return err
			}
		case AgentReference:
			if err := validateAgentRef(p, e); err != nil {
				return err
			}
		case SelfEntry:
			if self {
				return &apierror.ValidationError{Field: p, Rule: "duplicate agent `self`"}
			}
			self = true
		case AdvisorEntry:
			if !allowAdvisor {
				return &apierror.ValidationError{Field: p + ".type", Rule: "must be one of `agent`, `self`"}
			}
			if err := check.Length(p+".model", e.Model, 1, maxModelID); err != nil {
				return err
			}
			if advisor {
				return &apierror.ValidationError{Field: p, Rule: "duplicate advisor `" + e.Model + "`"}
			}
			advisor = true
		case UnknownRosterEntry:
			// sent as received: the server judges it
		default:
			// RosterAgent, or a type that embeds it (sessions.Agent).
			return &apierror.ValidationError{Field: p, Rule: "must refer to an agent (AgentID, AgentReference or SelfEntry): a definition (RosterAgent) appears only in responses"}
		}
	}
	return nil
}
