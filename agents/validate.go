package agents

import (
	"regexp"
	"strconv"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// Local validation: every rule the SDK can check without the server's
// state, reported with the wire path of the field before anything is sent.
// Enum values are not checked: a newer server may accept more.

// Limits of docs/managed-agents-wire.md sections 3, 4 and 11.
const (
	maxName         = 256
	maxDescription  = 2048
	maxSystem       = 100000
	maxTools        = 128
	maxMCPServers   = 20
	maxSkills       = 20
	maxRoster       = 20
	maxDomains      = 64
	maxRoleARN      = 2048
	maxModelID      = 256
	maxCustomName   = 128
	maxCustomDesc   = 1024
	maxMCPName      = 255
	maxMCPURL       = 2048
	maxMCPToolName  = 128
	maxSkillField   = 64
	maxLocationText = 255
)

var customToolName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func idx(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func (p *CreateParams) validate() error {
	if err := check.Length("name", p.Name, 1, maxName); err != nil {
		return err
	}
	if p.Model == nil {
		return apierror.Invalid("model", "is required")
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
	if err := validateLists(p.Tools, p.MCPServers, p.Skills); err != nil {
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
	if err := validateLists(p.Tools, p.MCPServers, p.Skills); err != nil {
		return err
	}
	if m, ok := p.Multiagent.Get(); ok {
		if m == nil {
			return apierror.Invalid("multiagent", "must not be nil; use param.Null to remove it")
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

func validateLists(tools []Tool, servers []MCPServer, skills []Skill) error {
	if err := count("tools", len(tools), maxTools); err != nil {
		return err
	}
	for i, t := range tools {
		if err := validateTool(idx("tools", i), t); err != nil {
			return err
		}
	}
	if err := count("mcp_servers", len(servers), maxMCPServers); err != nil {
		return err
	}
	for i, s := range servers {
		p := idx("mcp_servers", i)
		if err := check.Length(p+".name", s.Name, 1, maxMCPName); err != nil {
			return err
		}
		if err := check.Length(p+".url", s.URL, 1, maxMCPURL); err != nil {
			return err
		}
	}
	if err := count("skills", len(skills), maxSkills); err != nil {
		return err
	}
	for i, s := range skills {
		p := idx("skills", i)
		switch s := s.(type) {
		case nil:
			return apierror.Invalid(p, "must not be nil")
		case VendorSkill:
			if err := checkSkill(p, s.SkillID, s.Version); err != nil {
				return err
			}
		case CustomSkill:
			if err := checkSkill(p, s.SkillID, s.Version); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkSkill(path, id, version string) error {
	if err := check.Length(path+".skill_id", id, 1, maxSkillField); err != nil {
		return err
	}
	return check.OptionalLength(path+".version", version, 1, maxSkillField)
}

func count(path string, n, max int) error {
	if n > max {
		return apierror.Invalid(path, "must have at most "+strconv.Itoa(max)+" items")
	}
	return nil
}

func validateTool(path string, t Tool) error {
	switch t := t.(type) {
	case nil:
		return apierror.Invalid(path, "must not be nil")
	case AgentToolset:
		for i, c := range t.Configs {
			if err := validateToolConfig(idx(path+".configs", i), c); err != nil {
				return err
			}
		}
	case MCPToolset:
		if err := check.Length(path+".mcp_server_name", t.MCPServerName, 1, maxMCPName); err != nil {
			return err
		}
		for i, c := range t.Configs {
			if err := check.Length(idx(path+".configs", i)+".name", c.Name, 1, maxMCPToolName); err != nil {
				return err
			}
		}
	case CustomTool:
		if err := check.Length(path+".name", t.Name, 1, maxCustomName); err != nil {
			return err
		}
		if !customToolName.MatchString(t.Name) {
			return apierror.Invalid(path+".name", "must contain only letters, digits, underscores and hyphens")
		}
		if err := check.Length(path+".description", t.Description, 1, maxCustomDesc); err != nil {
			return err
		}
	}
	return nil
}

func validateToolConfig(path string, c ToolConfig) error {
	if c.Name == "" {
		return apierror.Invalid(path+".name", "is required")
	}
	if c.AllowedDomains != nil && c.BlockedDomains != nil {
		return apierror.Invalid(path+".blocked_domains", "cannot be combined with allowed_domains")
	}
	for _, d := range []struct {
		field string
		list  []string
	}{{"allowed_domains", c.AllowedDomains}, {"blocked_domains", c.BlockedDomains}} {
		if d.list != nil && (len(d.list) < 1 || len(d.list) > maxDomains) {
			return apierror.Invalid(path+"."+d.field, "must have between 1 and "+strconv.Itoa(maxDomains)+" items")
		}
		for i, host := range d.list {
			if host == "" {
				return apierror.Invalid(idx(path+"."+d.field, i), "must be a plain hostname")
			}
		}
	}
	if c.MaxContentTokens < 0 || c.MaxContentTokens > 1<<31-1 {
		return apierror.Invalid(path+".max_content_tokens", "must be at least 1")
	}
	if l := c.UserLocation; l != nil {
		lp := path + ".user_location"
		for _, f := range []struct{ field, v string }{{"city", l.City}, {"region", l.Region}, {"timezone", l.Timezone}} {
			if err := check.OptionalLength(lp+"."+f.field, f.v, 1, maxLocationText); err != nil {
				return err
			}
		}
		if l.Country != "" && !isCountryCode(l.Country) {
			return apierror.Invalid(lp+".country", "must be 2 uppercase letters")
		}
	}
	return nil
}

func isCountryCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

func validateIdentity(e ExecutionIdentity) error {
	if c, ok := e.(CloudRole); ok {
		return check.Length("execution_identity.role_arn", c.RoleARN, 1, maxRoleARN)
	}
	return nil
}

// validateMultiagent checks m; creating adds the rules that an update may
// satisfy by merging with the stored value.
func validateMultiagent(m Multiagent, creating bool) error {
	switch m := m.(type) {
	case Coordinator:
		if len(m.Agents) < 1 || len(m.Agents) > maxRoster {
			return apierror.Invalid("multiagent.agents", "must have between 1 and "+strconv.Itoa(maxRoster)+" items")
		}
		return validateRoster("multiagent.agents", m.Agents)
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
	if err := validateRoster(pp, e.PredefinedAgents); err != nil {
		return err
	}
	inlineOff := e.InlineAgents != nil && e.InlineAgents.Type == Disabled
	if inlineOff && len(e.PredefinedAgents) == 0 && (creating || e.PredefinedAgents != nil) {
		return apierror.Invalid(pp, "must name at least one agent when inline_agents is disabled")
	}
	return nil
}

func validateRoster(path string, entries []RosterEntry) error {
	for i, e := range entries {
		p := idx(path, i)
		switch e := e.(type) {
		case nil:
			return apierror.Invalid(p, "must not be nil")
		case AgentID:
			if err := ValidateAgentRef(p, e); err != nil {
				return err
			}
		case AgentReference:
			if err := ValidateAgentRef(p, e); err != nil {
				return err
			}
		case AdvisorEntry:
			if err := check.Length(p+".model", e.Model, 1, maxModelID); err != nil {
				return err
			}
		}
	}
	return nil
}
