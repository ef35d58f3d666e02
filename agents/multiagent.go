package agents

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// Multiagent lets an agent work with other agents: Coordinator (a fixed
// roster), Multiagent20261001 (advisor, subagents, workflows), or
// UnknownMultiagent. An agent named in a roster must not itself have a
// multiagent configuration (one level of nesting).
type Multiagent interface{ isMultiagent() }

// Coordinator coordinates a roster of 1 to 20 agents (type "coordinator").
// Entries are AgentID, AgentReference, SelfEntry or AdvisorEntry (at most
// one); responses hold AgentReference (resolved, version pinned at write
// time) and AdvisorEntry.
type Coordinator struct {
	Agents []RosterEntry `json:"agents"`
}

// MultiagentType20261001 is the type of Multiagent20261001.
const MultiagentType20261001 = "multiagent_20261001"

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
	Advisor   Advisor    `json:"advisor,omitempty"`
	Subagents Delegation `json:"subagents,omitempty"`
	Workflows Delegation `json:"workflows,omitempty"`
}

// UnknownMultiagent is a multiagent type this SDK does not know.
type UnknownMultiagent struct{ union.Raw }

func (Coordinator) isMultiagent()        {}
func (Multiagent20261001) isMultiagent() {}
func (UnknownMultiagent) isMultiagent()  {}

func (m Coordinator) MarshalJSON() ([]byte, error) {
	agents := m.Agents
	if agents == nil {
		agents = []RosterEntry{}
	}
	return union.Marshal("coordinator", struct {
		Agents []RosterEntry `json:"agents"`
	}{agents})
}

func (m *Coordinator) UnmarshalJSON(data []byte) error {
	var w struct {
		Agents json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	agents, err := decodeList(w.Agents, decodeRosterEntry)
	m.Agents = agents
	return err
}

func (m Multiagent20261001) MarshalJSON() ([]byte, error) {
	type plain Multiagent20261001
	return union.Marshal(MultiagentType20261001, plain(m))
}

func (m *Multiagent20261001) UnmarshalJSON(data []byte) error {
	var w struct {
		Advisor   json.RawMessage `json:"advisor"`
		Subagents json.RawMessage `json:"subagents"`
		Workflows json.RawMessage `json:"workflows"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	var err error
	*m = Multiagent20261001{}
	if m.Advisor, err = decodeAdvisor(w.Advisor); err != nil {
		return err
	}
	if m.Subagents, err = decodeDelegation(w.Subagents); err != nil {
		return err
	}
	m.Workflows, err = decodeDelegation(w.Workflows)
	return err
}

func decodeMultiagent(data []byte) (Multiagent, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "coordinator":
		var m Coordinator
		return m, json.Unmarshal(data, &m)
	case MultiagentType20261001:
		var m Multiagent20261001
		return m, json.Unmarshal(data, &m)
	}
	return UnknownMultiagent{union.NewRaw(typ, data)}, nil
}

// RosterEntry is an entry of Coordinator.Agents or of PredefinedAgents:
// AgentID, AgentReference, SelfEntry, AdvisorEntry (coordinator only), or
// UnknownRosterEntry.
type RosterEntry interface{ isRosterEntry() }

// SelfEntry names the agent that owns the configuration (type "self"); it
// resolves to the version being written.
type SelfEntry struct{}

// AdvisorEntry adds an advisor model to a coordinator roster (type
// "advisor").
type AdvisorEntry struct {
	Model string `json:"model"` // 1 to 256 characters
}

// UnknownRosterEntry is a roster entry type this SDK does not know.
type UnknownRosterEntry struct{ union.Raw }

func (AgentID) isRosterEntry()            {}
func (AgentReference) isRosterEntry()     {}
func (SelfEntry) isRosterEntry()          {}
func (AdvisorEntry) isRosterEntry()       {}
func (UnknownRosterEntry) isRosterEntry() {}

func (SelfEntry) MarshalJSON() ([]byte, error) { return union.Marshal("self", struct{}{}) }

func (a AdvisorEntry) MarshalJSON() ([]byte, error) {
	type plain AdvisorEntry
	return union.Marshal("advisor", plain(a))
}

func decodeRosterEntry(data []byte) (RosterEntry, error) {
	if len(data) > 0 && data[0] == '"' {
		var id string
		err := json.Unmarshal(data, &id)
		return AgentID(id), err
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "agent":
		return decodeAgentReference(data)
	case "self":
		return SelfEntry{}, nil
	case "advisor":
		var a AdvisorEntry
		return a, json.Unmarshal(data, &a)
	}
	return UnknownRosterEntry{union.NewRaw(typ, data)}, nil
}

// Advisor is Multiagent20261001.Advisor: AdvisorEnabled, AdvisorDisabled or
// UnknownAdvisor.
type Advisor interface{ isAdvisor() }

// AdvisorEnabled gives the agent an advisor model (type "enabled"); the
// model must be permitted as advisor for the agent's model.
type AdvisorEnabled struct {
	// Model is 1 to 256 characters. On update "" keeps the stored model
	// of an enabled advisor; on create it is required.
	Model string `json:"model,omitzero"`
}

// AdvisorDisabled turns the advisor off (type "disabled"), the default.
type AdvisorDisabled struct{}

// UnknownAdvisor is an advisor type this SDK does not know.
type UnknownAdvisor struct{ union.Raw }

func (AdvisorEnabled) isAdvisor()  {}
func (AdvisorDisabled) isAdvisor() {}
func (UnknownAdvisor) isAdvisor()  {}

func (a AdvisorEnabled) MarshalJSON() ([]byte, error) {
	type plain AdvisorEnabled
	return union.Marshal("enabled", plain(a))
}

func (AdvisorDisabled) MarshalJSON() ([]byte, error) { return union.Marshal("disabled", struct{}{}) }

func decodeAdvisor(data []byte) (Advisor, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "enabled":
		var a AdvisorEnabled
		return a, json.Unmarshal(data, &a)
	case "disabled":
		return AdvisorDisabled{}, nil
	}
	return UnknownAdvisor{union.NewRaw(typ, data)}, nil
}

// Delegation is Multiagent20261001.Subagents or .Workflows:
// DelegationEnabled, DelegationDisabled or UnknownDelegation.
type Delegation interface{ isDelegation() }

// DelegationEnabled allows subagents or workflows (type "enabled").
type DelegationEnabled struct {
	// InlineAgents says whether the agent may define unsaved agents
	// itself; nil means enabled (on update: keep the stored value).
	InlineAgents *InlineAgents `json:"inline_agents,omitempty"`
	// PredefinedAgents lists saved agents it may use (at most 20): AgentID,
	// AgentReference or SelfEntry; responses hold AgentReference. nil is
	// not sent (on update: keep the stored list); an empty non-nil slice
	// clears it. With inline agents disabled it must name at least one.
	PredefinedAgents []RosterEntry `json:"predefined_agents,omitzero"`
}

// DelegationDisabled forbids subagents or workflows (type "disabled").
type DelegationDisabled struct{}

// UnknownDelegation is a type this SDK does not know.
type UnknownDelegation struct{ union.Raw }

func (DelegationEnabled) isDelegation()  {}
func (DelegationDisabled) isDelegation() {}
func (UnknownDelegation) isDelegation()  {}

func (d DelegationEnabled) MarshalJSON() ([]byte, error) {
	type plain DelegationEnabled
	return union.Marshal("enabled", plain(d))
}

func (DelegationDisabled) MarshalJSON() ([]byte, error) {
	return union.Marshal("disabled", struct{}{})
}

func (d *DelegationEnabled) UnmarshalJSON(data []byte) error {
	var w struct {
		InlineAgents     *InlineAgents   `json:"inline_agents"`
		PredefinedAgents json.RawMessage `json:"predefined_agents"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	agents, err := decodeList(w.PredefinedAgents, decodeRosterEntry) // nil when not sent
	*d = DelegationEnabled{InlineAgents: w.InlineAgents, PredefinedAgents: agents}
	return err
}

func decodeDelegation(data []byte) (Delegation, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "enabled":
		var d DelegationEnabled
		return d, json.Unmarshal(data, &d)
	case "disabled":
		return DelegationDisabled{}, nil
	}
	return UnknownDelegation{union.NewRaw(typ, data)}, nil
}

// InlineAgents is DelegationEnabled.InlineAgents. Like PermissionPolicy it
// is {"type": …} with no other fields, so a struct covers every variant.
type InlineAgents struct {
	Type Toggle `json:"type"`
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
