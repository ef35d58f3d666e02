package agents

import "encoding/json"

// Multiagent lets an agent work with other agents: Coordinator (a fixed
// roster), Multiagent20261001 (advisor, subagents, workflows), or
// UnknownMultiagent. An agent named in a roster must not itself have a
// multiagent configuration (one level of nesting).
type Multiagent interface{ isMultiagent() }

// Coordinator coordinates a roster of 1 to 20 agents (type "coordinator").
// Entries are AgentID, AgentReference, SelfEntry or AdvisorEntry (at most
// one). An agent's responses hold AgentReference (resolved, version pinned
// at write time) and AdvisorEntry; a session's hold RosterAgent and
// AdvisorEntry.
type Coordinator struct {
	Agents []RosterEntry `json:"agents"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// multiagentType20261001 is the type of Multiagent20261001.
const multiagentType20261001 = "multiagent_20261001"

// Multiagent20261001 configures an advisor model, subagents (session
// threads the agent spawns) and workflows (type "multiagent_20261001").
//
// In a request nil fields are not sent: on create they take their
// defaults (advisor disabled, subagents and workflows enabled with inline
// agents); on update of an agent that already has this variant they keep
// the stored value, and a sent value of the same type is merged into the
// stored one (nil PredefinedAgents keeps the stored list). Responses set
// every field.
type Multiagent20261001 struct {
	Advisor   Advisor    `json:"advisor,omitzero"`
	Subagents Delegation `json:"subagents,omitzero"`
	Workflows Delegation `json:"workflows,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownMultiagent is a multiagent type this SDK does not know, kept as received.
type UnknownMultiagent struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (Coordinator) isMultiagent()        {}
func (Multiagent20261001) isMultiagent() {}
func (UnknownMultiagent) isMultiagent()  {}

// RosterEntry is an entry of Coordinator.Agents or of PredefinedAgents:
// AgentID, AgentReference, SelfEntry, AdvisorEntry (coordinator only),
// RosterAgent (responses of sessions only), or UnknownRosterEntry.
type RosterEntry interface{ isRosterEntry() }

// SelfEntry names the agent that owns the configuration (type "self"); it
// resolves to the version being written.
type SelfEntry struct {
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AdvisorEntry adds an advisor model to a coordinator roster (type
// "advisor").
type AdvisorEntry struct {
	Model string `json:"model"` // 1 to 256 characters
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// RosterAgent is the full definition of a roster agent, as a session holds
// it (type "agent", like AgentReference): the version of the agent the
// session was created with, resolved from the reference its agent's roster
// holds, so that the session keeps running it whatever later versions
// change. A session's own agent (sessions.Agent) is one too, with its
// multi-agent configuration. Requests refer to agents instead, with
// AgentID, AgentReference or SelfEntry.
//
// On the wire a definition and a reference share the type "agent"; an
// entry that has a "name" is a definition.
type RosterAgent struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	Name    string `json:"name"`
	// Description and System are "" when unset (null on the wire).
	Description       string            `json:"description,omitzero"`
	System            string            `json:"system,omitzero"`
	Model             ModelConfig       `json:"model"`
	Tools             []Tool            `json:"tools"`
	MCPServers        []MCPServer       `json:"mcp_servers"`
	Skills            []Skill           `json:"skills"`
	ExecutionIdentity ExecutionIdentity `json:"execution_identity"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Reference returns the reference to the agent version this definition
// came from.
func (r RosterAgent) Reference() AgentReference {
	return AgentReference{ID: r.ID, Version: r.Version}
}

// UnknownRosterEntry is a roster entry type this SDK does not know, kept as received.
type UnknownRosterEntry struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (AgentID) isRosterEntry()            {}
func (AgentReference) isRosterEntry()     {}
func (SelfEntry) isRosterEntry()          {}
func (AdvisorEntry) isRosterEntry()       {}
func (RosterAgent) isRosterEntry()        {}
func (UnknownRosterEntry) isRosterEntry() {}

// Advisor is Multiagent20261001.Advisor: AdvisorEnabled, AdvisorDisabled or
// UnknownAdvisor.
type Advisor interface{ isAdvisor() }

// AdvisorEnabled gives the agent an advisor model (type "enabled"); the
// model must be permitted as advisor for the agent's model.
type AdvisorEnabled struct {
	// Model is 1 to 256 characters. On update "" keeps the stored model
	// of an enabled advisor; on create it is required.
	Model string `json:"model,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AdvisorDisabled turns the advisor off (type "disabled"), the default.
type AdvisorDisabled struct {
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownAdvisor is an advisor type this SDK does not know, kept as received.
type UnknownAdvisor struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (AdvisorEnabled) isAdvisor()  {}
func (AdvisorDisabled) isAdvisor() {}
func (UnknownAdvisor) isAdvisor()  {}

// Delegation is Multiagent20261001.Subagents or .Workflows:
// DelegationEnabled, DelegationDisabled or UnknownDelegation.
type Delegation interface{ isDelegation() }

// DelegationEnabled allows subagents or workflows (type "enabled").
type DelegationEnabled struct {
	// InlineAgents says whether the agent may define unsaved agents
	// itself; nil means enabled (on update: keep the stored value).
	InlineAgents *InlineAgents `json:"inline_agents,omitzero"`
	// PredefinedAgents lists saved agents it may use (at most 20): AgentID,
	// AgentReference or SelfEntry; an agent's responses hold
	// AgentReference, a session's RosterAgent. nil is
	// not sent (on update: keep the stored list); an empty non-nil slice
	// clears it. With inline agents disabled it must name at least one.
	PredefinedAgents []RosterEntry `json:"predefined_agents,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// DelegationDisabled forbids subagents or workflows (type "disabled").
type DelegationDisabled struct {
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownDelegation is a delegation type this SDK does not know, kept as received.
type UnknownDelegation struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (DelegationEnabled) isDelegation()  {}
func (DelegationDisabled) isDelegation() {}
func (UnknownDelegation) isDelegation()  {}

// InlineAgents is DelegationEnabled.InlineAgents. Like PermissionPolicy it
// is {"type": …} with no other fields, so a struct covers every variant.
type InlineAgents struct {
	Type Toggle `json:"type"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Toggle is "enabled" or "disabled"; unknown values are kept.
type Toggle string

const (
	Enabled  Toggle = "enabled"
	Disabled Toggle = "disabled"
)

// InlineAgentsEnabled and InlineAgentsDisabled return request values.
func InlineAgentsEnabled() *InlineAgents  { return &InlineAgents{Type: Enabled} }
func InlineAgentsDisabled() *InlineAgents { return &InlineAgents{Type: Disabled} }
