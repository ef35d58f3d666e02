package agents

import "github.com/agentplatform/agentplatform-go/internal/wire"

// The JSON methods of the variants and the other wire structs (see
// json.go). A variant's UnmarshalJSON does not keep its "type" in Extra,
// since its MarshalJSON writes it.

type (
	plainAgentToolset       AgentToolset
	plainMCPToolset         MCPToolset
	plainCustomTool         CustomTool
	plainUserLocation       UserLocation
	plainMCPServer          MCPServer
	plainInputSchema        InputSchema
	plainVendorSkill        VendorSkill
	plainCustomSkill        CustomSkill
	plainServiceAccount     ServiceAccount
	plainCloudRole          CloudRole
	plainAWSRole            AWSRole
	plainCoordinator        Coordinator
	plainMultiagent20261001 Multiagent20261001
	plainSelfEntry          SelfEntry
	plainAdvisorEntry       AdvisorEntry
	plainRosterAgent        RosterAgent
	plainAdvisorEnabled     AdvisorEnabled
	plainAdvisorDisabled    AdvisorDisabled
	plainDelegationEnabled  DelegationEnabled
	plainDelegationDisabled DelegationDisabled
	plainToolDefaults       ToolDefaults
	plainToolConfig         ToolConfig
	plainMCPToolConfig      MCPToolConfig
	plainPermissionPolicy   PermissionPolicy
	plainInlineAgents       InlineAgents
	plainBashInput          BashInput
	plainEditInput          EditInput
	plainGlobInput          GlobInput
	plainGrepInput          GrepInput
	plainReadInput          ReadInput
	plainWriteInput         WriteInput
)

// MarshalJSON writes {"type": "agent_toolset_20260401", …}.
func (a AgentToolset) MarshalJSON() ([]byte, error) {
	return variant(agentToolsetType, plainAgentToolset(a))
}

// UnmarshalJSON reads the variant's object.
func (a *AgentToolset) UnmarshalJSON(data []byte) error {
	*a = AgentToolset{}
	return wire.Variant(data, (*plainAgentToolset)(a), &a.Extra)
}

// MarshalJSON writes {"type": "mcp_toolset", …}.
func (m MCPToolset) MarshalJSON() ([]byte, error) { return variant("mcp_toolset", plainMCPToolset(m)) }

// UnmarshalJSON reads the variant's object.
func (m *MCPToolset) UnmarshalJSON(data []byte) error {
	*m = MCPToolset{}
	return wire.Variant(data, (*plainMCPToolset)(m), &m.Extra)
}

// MarshalJSON writes {"type": "custom", …}.
func (c CustomTool) MarshalJSON() ([]byte, error) { return variant("custom", plainCustomTool(c)) }

// UnmarshalJSON reads the variant's object.
func (c *CustomTool) UnmarshalJSON(data []byte) error {
	*c = CustomTool{}
	return wire.Variant(data, (*plainCustomTool)(c), &c.Extra)
}

// MarshalJSON writes {"type": "approximate", …}.
func (u UserLocation) MarshalJSON() ([]byte, error) {
	return variant("approximate", plainUserLocation(u))
}

// UnmarshalJSON reads the variant's object.
func (u *UserLocation) UnmarshalJSON(data []byte) error {
	*u = UserLocation{}
	return wire.Variant(data, (*plainUserLocation)(u), &u.Extra)
}

// MarshalJSON writes {"type": "url", …}.
func (m MCPServer) MarshalJSON() ([]byte, error) { return variant("url", plainMCPServer(m)) }

// UnmarshalJSON reads the variant's object.
func (m *MCPServer) UnmarshalJSON(data []byte) error {
	*m = MCPServer{}
	return wire.Variant(data, (*plainMCPServer)(m), &m.Extra)
}

// MarshalJSON writes {"type": "object", …}.
func (i InputSchema) MarshalJSON() ([]byte, error) { return variant("object", plainInputSchema(i)) }

// UnmarshalJSON reads the variant's object.
func (i *InputSchema) UnmarshalJSON(data []byte) error {
	*i = InputSchema{}
	return wire.Variant(data, (*plainInputSchema)(i), &i.Extra)
}

// MarshalJSON writes {"type": "vendor", …}.
func (v VendorSkill) MarshalJSON() ([]byte, error) { return variant("vendor", plainVendorSkill(v)) }

// UnmarshalJSON reads the variant's object.
func (v *VendorSkill) UnmarshalJSON(data []byte) error {
	*v = VendorSkill{}
	return wire.Variant(data, (*plainVendorSkill)(v), &v.Extra)
}

// MarshalJSON writes {"type": "custom", …}.
func (c CustomSkill) MarshalJSON() ([]byte, error) { return variant("custom", plainCustomSkill(c)) }

// UnmarshalJSON reads the variant's object.
func (c *CustomSkill) UnmarshalJSON(data []byte) error {
	*c = CustomSkill{}
	return wire.Variant(data, (*plainCustomSkill)(c), &c.Extra)
}

// MarshalJSON writes {"type": "service_account", …}.
func (s ServiceAccount) MarshalJSON() ([]byte, error) {
	return variant("service_account", plainServiceAccount(s))
}

// UnmarshalJSON reads the variant's object.
func (s *ServiceAccount) UnmarshalJSON(data []byte) error {
	*s = ServiceAccount{}
	return wire.Variant(data, (*plainServiceAccount)(s), &s.Extra)
}

// MarshalJSON writes {"type": "cloud_role", …}.
func (c CloudRole) MarshalJSON() ([]byte, error) { return variant("cloud_role", plainCloudRole(c)) }

// UnmarshalJSON reads the variant's object.
func (c *CloudRole) UnmarshalJSON(data []byte) error {
	*c = CloudRole{}
	return wire.Variant(data, (*plainCloudRole)(c), &c.Extra)
}

// MarshalJSON writes {"type": "aws_role", …}.
func (c AWSRole) MarshalJSON() ([]byte, error) { return variant("aws_role", plainAWSRole(c)) }

// UnmarshalJSON reads the variant's object.
func (c *AWSRole) UnmarshalJSON(data []byte) error {
	*c = AWSRole{}
	return wire.Variant(data, (*plainAWSRole)(c), &c.Extra)
}

// MarshalJSON writes {"type": "coordinator", …}.
func (c Coordinator) MarshalJSON() ([]byte, error) {
	return variant("coordinator", plainCoordinator(c))
}

// UnmarshalJSON reads the variant's object.
func (c *Coordinator) UnmarshalJSON(data []byte) error {
	*c = Coordinator{}
	return wire.Variant(data, (*plainCoordinator)(c), &c.Extra, unions)
}

// MarshalJSON writes {"type": multiagentType20261001, …}.
func (m Multiagent20261001) MarshalJSON() ([]byte, error) {
	return variant(multiagentType20261001, plainMultiagent20261001(m))
}

// UnmarshalJSON reads the variant's object.
func (m *Multiagent20261001) UnmarshalJSON(data []byte) error {
	*m = Multiagent20261001{}
	return wire.Variant(data, (*plainMultiagent20261001)(m), &m.Extra, unions)
}

// MarshalJSON writes {"type": "self", …}.
func (s SelfEntry) MarshalJSON() ([]byte, error) { return variant("self", plainSelfEntry(s)) }

// UnmarshalJSON reads the variant's object.
func (s *SelfEntry) UnmarshalJSON(data []byte) error {
	*s = SelfEntry{}
	return wire.Variant(data, (*plainSelfEntry)(s), &s.Extra)
}

// MarshalJSON writes {"type": "advisor", …}.
func (a AdvisorEntry) MarshalJSON() ([]byte, error) { return variant("advisor", plainAdvisorEntry(a)) }

// UnmarshalJSON reads the variant's object.
func (a *AdvisorEntry) UnmarshalJSON(data []byte) error {
	*a = AdvisorEntry{}
	return wire.Variant(data, (*plainAdvisorEntry)(a), &a.Extra)
}

// MarshalJSON writes {"type": "agent", …}.
func (r RosterAgent) MarshalJSON() ([]byte, error) { return variant("agent", plainRosterAgent(r)) }

// UnmarshalJSON reads the variant's object, its unions included.
func (r *RosterAgent) UnmarshalJSON(data []byte) error {
	*r = RosterAgent{}
	return wire.Variant(data, (*plainRosterAgent)(r), &r.Extra, unions)
}

// MarshalJSON writes {"type": "enabled", …}.
func (a AdvisorEnabled) MarshalJSON() ([]byte, error) {
	return variant("enabled", plainAdvisorEnabled(a))
}

// UnmarshalJSON reads the variant's object.
func (a *AdvisorEnabled) UnmarshalJSON(data []byte) error {
	*a = AdvisorEnabled{}
	return wire.Variant(data, (*plainAdvisorEnabled)(a), &a.Extra)
}

// MarshalJSON writes {"type": "disabled", …}.
func (a AdvisorDisabled) MarshalJSON() ([]byte, error) {
	return variant("disabled", plainAdvisorDisabled(a))
}

// UnmarshalJSON reads the variant's object.
func (a *AdvisorDisabled) UnmarshalJSON(data []byte) error {
	*a = AdvisorDisabled{}
	return wire.Variant(data, (*plainAdvisorDisabled)(a), &a.Extra)
}

// MarshalJSON writes {"type": "enabled", …}.
func (d DelegationEnabled) MarshalJSON() ([]byte, error) {
	return variant("enabled", plainDelegationEnabled(d))
}

// UnmarshalJSON reads the variant's object.
func (d *DelegationEnabled) UnmarshalJSON(data []byte) error {
	*d = DelegationEnabled{}
	return wire.Variant(data, (*plainDelegationEnabled)(d), &d.Extra, unions)
}

// MarshalJSON writes {"type": "disabled", …}.
func (d DelegationDisabled) MarshalJSON() ([]byte, error) {
	return variant("disabled", plainDelegationDisabled(d))
}

// UnmarshalJSON reads the variant's object.
func (d *DelegationDisabled) UnmarshalJSON(data []byte) error {
	*d = DelegationDisabled{}
	return wire.Variant(data, (*plainDelegationDisabled)(d), &d.Extra)
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (t ToolDefaults) MarshalJSON() ([]byte, error) { return wire.Marshal(plainToolDefaults(t)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (t *ToolDefaults) UnmarshalJSON(data []byte) error {
	*t = ToolDefaults{}
	return wire.Unmarshal(data, (*plainToolDefaults)(t))
}

// MarshalJSON writes the override with "type" first: the API names the
// tool twice, in "type" and "name".
func (t ToolConfig) MarshalJSON() ([]byte, error) { return variant(string(t.Name), plainToolConfig(t)) }

// UnmarshalJSON reads an override; its "type", the tool's name again, is
// not kept in Extra.
func (t *ToolConfig) UnmarshalJSON(data []byte) error {
	*t = ToolConfig{}
	return wire.Variant(data, (*plainToolConfig)(t), &t.Extra)
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (m MCPToolConfig) MarshalJSON() ([]byte, error) { return wire.Marshal(plainMCPToolConfig(m)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (m *MCPToolConfig) UnmarshalJSON(data []byte) error {
	*m = MCPToolConfig{}
	return wire.Unmarshal(data, (*plainMCPToolConfig)(m))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (p PermissionPolicy) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainPermissionPolicy(p))
}

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (p *PermissionPolicy) UnmarshalJSON(data []byte) error {
	*p = PermissionPolicy{}
	return wire.Unmarshal(data, (*plainPermissionPolicy)(p))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (i InlineAgents) MarshalJSON() ([]byte, error) { return wire.Marshal(plainInlineAgents(i)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (i *InlineAgents) UnmarshalJSON(data []byte) error {
	*i = InlineAgents{}
	return wire.Unmarshal(data, (*plainInlineAgents)(i))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (b BashInput) MarshalJSON() ([]byte, error) { return wire.Marshal(plainBashInput(b)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (b *BashInput) UnmarshalJSON(data []byte) error {
	*b = BashInput{}
	return wire.Unmarshal(data, (*plainBashInput)(b))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (e EditInput) MarshalJSON() ([]byte, error) { return wire.Marshal(plainEditInput(e)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (e *EditInput) UnmarshalJSON(data []byte) error {
	*e = EditInput{}
	return wire.Unmarshal(data, (*plainEditInput)(e))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (g GlobInput) MarshalJSON() ([]byte, error) { return wire.Marshal(plainGlobInput(g)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (g *GlobInput) UnmarshalJSON(data []byte) error {
	*g = GlobInput{}
	return wire.Unmarshal(data, (*plainGlobInput)(g))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (g GrepInput) MarshalJSON() ([]byte, error) { return wire.Marshal(plainGrepInput(g)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (g *GrepInput) UnmarshalJSON(data []byte) error {
	*g = GrepInput{}
	return wire.Unmarshal(data, (*plainGrepInput)(g))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (r ReadInput) MarshalJSON() ([]byte, error) { return wire.Marshal(plainReadInput(r)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (r *ReadInput) UnmarshalJSON(data []byte) error {
	*r = ReadInput{}
	return wire.Unmarshal(data, (*plainReadInput)(r))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (w WriteInput) MarshalJSON() ([]byte, error) { return wire.Marshal(plainWriteInput(w)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (w *WriteInput) UnmarshalJSON(data []byte) error {
	*w = WriteInput{}
	return wire.Unmarshal(data, (*plainWriteInput)(w))
}

// MarshalJSON writes the object back as received.
func (u UnknownTool) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }

// MarshalJSON writes the object back as received.
func (u UnknownSkill) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }

// MarshalJSON writes the object back as received.
func (u UnknownExecutionIdentity) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }

// MarshalJSON writes the object back as received.
func (u UnknownMultiagent) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }

// MarshalJSON writes the object back as received.
func (u UnknownRosterEntry) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }

// MarshalJSON writes the object back as received.
func (u UnknownAdvisor) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }

// MarshalJSON writes the object back as received.
func (u UnknownDelegation) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }
