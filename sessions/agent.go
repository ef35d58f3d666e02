package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/union"
)

// The agent of a session (docs/managed-agents-wire.md 3.8) is the agent
// resolved one step further than an agents.Agent: where an agent's
// multiagent rosters hold references, a session's hold the full definitions
// of the agents it can run, as they were when the session was created. The
// fields an agent and a session share reuse the agents types; the rosters,
// whose entries have a different shape, have types of their own here, so
// that decoding a session never reduces a definition to a reference.

// ThreadAgent is the definition of an agent as one thread of a session
// runs it (type "agent"): a snapshot of one version of a saved agent, with
// any overrides the session was created with.
type ThreadAgent struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Version int    `json:"version"`
	Name    string `json:"name"`
	// Description and System are "" when unset (null on the wire).
	Description       string                   `json:"description"`
	System            string                   `json:"system"`
	Model             agents.ModelConfig       `json:"model"`
	Tools             []agents.Tool            `json:"tools"`
	MCPServers        []agents.MCPServer       `json:"mcp_servers"`
	Skills            []agents.Skill           `json:"skills"`
	ExecutionIdentity agents.ExecutionIdentity `json:"execution_identity"`
}

// Reference returns the reference to the agent version this definition
// came from.
func (t ThreadAgent) Reference() agents.AgentReference {
	return agents.AgentReference{ID: t.ID, Version: t.Version}
}

// UnmarshalJSON decodes the agent unions with the agents package's own
// decoders (through agents.Agent), so that both packages read tools,
// skills and identities the same way. A "multiagent" key is left out
// first: on a session it holds definitions, not the references
// agents.Agent expects, and Agent decodes it itself.
func (t *ThreadAgent) UnmarshalJSON(data []byte) error {
	var a agents.Agent
	if err := json.Unmarshal(withoutKeys(data, "multiagent"), &a); err != nil {
		return err
	}
	*t = ThreadAgent{
		Type: a.Type, ID: a.ID, Version: a.Version, Name: a.Name,
		Description: a.Description, System: a.System, Model: a.Model,
		Tools: a.Tools, MCPServers: a.MCPServers, Skills: a.Skills,
		ExecutionIdentity: a.ExecutionIdentity,
	}
	return nil
}

// Agent is a session's agent: the thread agent of its primary thread plus
// the multi-agent configuration, resolved.
type Agent struct {
	ThreadAgent
	// Multiagent is nil when the agent works alone (null on the wire).
	Multiagent Multiagent `json:"multiagent"`
}

// UnmarshalJSON decodes the thread agent and the multiagent union. It is
// needed because ThreadAgent's method would otherwise be promoted and
// decode only the embedded part.
func (a *Agent) UnmarshalJSON(data []byte) error {
	var w struct {
		Multiagent json.RawMessage `json:"multiagent"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*a = Agent{}
	if err := a.ThreadAgent.UnmarshalJSON(data); err != nil {
		return err
	}
	var err error
	if a.Multiagent, err = decodeMultiagent(w.Multiagent); err != nil {
		return fmt.Errorf("multiagent: %w", err)
	}
	return nil
}

// Multiagent is a session's resolved multi-agent configuration: Coordinator,
// Multiagent20261001 or UnknownMultiagent. They mirror agents.Coordinator
// and agents.Multiagent20261001 with every roster reference replaced by the
// agent's definition.
type Multiagent interface{ isMultiagent() }

// Coordinator coordinates a roster of agents (type "coordinator").
type Coordinator struct {
	// Agents holds a ThreadAgent for each agent of the roster and an
	// AdvisorMember for an advisor entry.
	Agents []RosterMember `json:"agents"`
}

// Multiagent20261001 configures an advisor, subagents and workflows (type
// "multiagent_20261001"); see agents.Multiagent20261001.
type Multiagent20261001 struct {
	Advisor   agents.Advisor `json:"advisor"` // agents.AdvisorEnabled or agents.AdvisorDisabled
	Subagents Delegation     `json:"subagents"`
	Workflows Delegation     `json:"workflows"`
}

// UnknownMultiagent is a multiagent type this SDK does not know, kept as
// received.
type UnknownMultiagent struct{ union.Raw }

func (Coordinator) isMultiagent()        {}
func (Multiagent20261001) isMultiagent() {}
func (UnknownMultiagent) isMultiagent()  {}

func (m Coordinator) MarshalJSON() ([]byte, error) {
	type plain Coordinator
	return union.Marshal("coordinator", plain(m))
}

func (m Multiagent20261001) MarshalJSON() ([]byte, error) {
	type plain Multiagent20261001
	return union.Marshal(agents.MultiagentType20261001, plain(m))
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
		var w struct {
			Agents json.RawMessage `json:"agents"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, err
		}
		members, err := decodeList(w.Agents, decodeRosterMember)
		return Coordinator{Agents: members}, err
	case agents.MultiagentType20261001:
		return decodeMultiagent20261001(data)
	}
	return UnknownMultiagent{union.NewRaw(typ, data)}, nil
}

func decodeMultiagent20261001(data []byte) (Multiagent, error) {
	// The advisor has the same shape on agents and sessions: the agents
	// decoder reads it. Its delegation decoder would reduce the
	// predefined agents to references, so those are read here.
	var a agents.Multiagent20261001
	if err := json.Unmarshal(withoutKeys(data, "subagents", "workflows"), &a); err != nil {
		return nil, err
	}
	var w struct {
		Subagents json.RawMessage `json:"subagents"`
		Workflows json.RawMessage `json:"workflows"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, err
	}
	m := Multiagent20261001{Advisor: a.Advisor}
	var err error
	if m.Subagents, err = decodeDelegation(w.Subagents); err != nil {
		return nil, fmt.Errorf("subagents: %w", err)
	}
	if m.Workflows, err = decodeDelegation(w.Workflows); err != nil {
		return nil, fmt.Errorf("workflows: %w", err)
	}
	return m, nil
}

// withoutKeys returns the JSON object data without the named members. On
// any decoding trouble it returns data unchanged and lets the caller's
// decoder report it.
func withoutKeys(data []byte, keys ...string) []byte {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return data
	}
	for _, k := range keys {
		delete(fields, k)
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return data
	}
	return out
}

// RosterMember is an entry of a session's roster: ThreadAgent (an agent's
// full definition), AdvisorMember, or UnknownRosterMember.
type RosterMember interface{ isRosterMember() }

// AdvisorMember is an advisor model in a coordinator's roster (type
// "advisor").
type AdvisorMember struct {
	Model string `json:"model"`
}

// UnknownRosterMember is a roster entry type this SDK does not know, kept
// as received.
type UnknownRosterMember struct{ union.Raw }

func (ThreadAgent) isRosterMember()         {}
func (AdvisorMember) isRosterMember()       {}
func (UnknownRosterMember) isRosterMember() {}

func (a AdvisorMember) MarshalJSON() ([]byte, error) {
	type plain AdvisorMember
	return union.Marshal("advisor", plain(a))
}

func decodeRosterMember(data []byte) (RosterMember, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "agent":
		var t ThreadAgent
		return t, t.UnmarshalJSON(data)
	case "advisor":
		var a AdvisorMember
		return a, json.Unmarshal(data, &a)
	}
	return UnknownRosterMember{union.NewRaw(typ, data)}, nil
}

// Delegation is Multiagent20261001.Subagents or .Workflows:
// DelegationEnabled, DelegationDisabled or UnknownDelegation.
type Delegation interface{ isDelegation() }

// DelegationEnabled allows subagents or workflows (type "enabled").
type DelegationEnabled struct {
	// InlineAgents says whether the agent may define unsaved agents itself.
	InlineAgents *agents.InlineAgents `json:"inline_agents"`
	// PredefinedAgents holds the definitions of the saved agents it may
	// use (ThreadAgent entries).
	PredefinedAgents []RosterMember `json:"predefined_agents"`
}

// DelegationDisabled forbids subagents or workflows (type "disabled").
type DelegationDisabled struct{}

// UnknownDelegation is a type this SDK does not know, kept as received.
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

func decodeDelegation(data []byte) (Delegation, error) {
	if len(data) == 0 || bytes.Equal(data, []byte("null")) {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "enabled":
		var w struct {
			InlineAgents     *agents.InlineAgents `json:"inline_agents"`
			PredefinedAgents json.RawMessage      `json:"predefined_agents"`
		}
		if err := json.Unmarshal(data, &w); err != nil {
			return nil, err
		}
		members, err := decodeList(w.PredefinedAgents, decodeRosterMember)
		return DelegationEnabled{InlineAgents: w.InlineAgents, PredefinedAgents: members}, err
	case "disabled":
		return DelegationDisabled{}, nil
	}
	return UnknownDelegation{union.NewRaw(typ, data)}, nil
}
