package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/wire"
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
	Description       string                   `json:"description,omitzero"`
	System            string                   `json:"system,omitzero"`
	Model             agents.ModelConfig       `json:"model"`
	Tools             []agents.Tool            `json:"tools"`
	MCPServers        []agents.MCPServer       `json:"mcp_servers"`
	Skills            []agents.Skill           `json:"skills"`
	ExecutionIdentity agents.ExecutionIdentity `json:"execution_identity"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Reference returns the reference to the agent version this definition
// came from.
func (t ThreadAgent) Reference() agents.AgentReference {
	return agents.AgentReference{ID: t.ID, Version: t.Version}
}

type plainThreadAgent ThreadAgent

// threadAgentKeys are the members ThreadAgent has fields for.
var threadAgentKeys = []string{"type", "id", "version", "name", "description", "system", "model",
	"tools", "mcp_servers", "skills", "execution_identity"}

// MarshalJSON writes the thread agent's wire object.
func (t ThreadAgent) MarshalJSON() ([]byte, error) { return wire.Marshal(plainThreadAgent(t)) }

// UnmarshalJSON decodes the agent unions with the agents package's own
// decoders (through agents.Agent), so that both packages read tools,
// skills and identities the same way; the members it has no field for go
// to Extra. A "multiagent" member is left out of the agents.Agent: on a
// session it holds definitions, not the references agents.Agent expects,
// and Agent decodes it itself.
func (t *ThreadAgent) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := wire.Unmarshal(data, &members); err != nil {
		return err
	}
	if members == nil {
		return fmt.Errorf("must be a JSON object")
	}
	var a agents.Agent
	if err := json.Unmarshal(withoutKeys(members, "multiagent"), &a); err != nil {
		return err
	}
	*t = ThreadAgent{
		Type: a.Type, ID: a.ID, Version: a.Version, Name: a.Name,
		Description: a.Description, System: a.System, Model: a.Model,
		Tools: a.Tools, MCPServers: a.MCPServers, Skills: a.Skills,
		ExecutionIdentity: a.ExecutionIdentity,
	}
	for _, k := range threadAgentKeys {
		delete(members, k)
	}
	if len(members) > 0 {
		t.Extra = members
	}
	return nil
}

// withoutKeys returns the JSON object of members, less the named ones.
func withoutKeys(members map[string]json.RawMessage, keys ...string) []byte {
	m := make(map[string]json.RawMessage, len(members))
	for k, v := range members {
		m[k] = v
	}
	for _, k := range keys {
		delete(m, k)
	}
	out, err := wire.Marshal(m)
	if err != nil { // cannot happen: the values were decoded as JSON
		return []byte("{}")
	}
	return out
}

// Agent is a session's agent: the thread agent of its primary thread plus
// the multi-agent configuration, resolved.
type Agent struct {
	ThreadAgent
	// Multiagent is nil when the agent works alone (null on the wire).
	Multiagent Multiagent `json:"multiagent"`
}

// MarshalJSON writes the agent's wire object: the thread agent's members
// and multiagent.
func (a Agent) MarshalJSON() ([]byte, error) {
	body, err := a.ThreadAgent.MarshalJSON()
	if err != nil {
		return nil, err
	}
	m, err := wire.Marshal(struct {
		Multiagent Multiagent `json:"multiagent"`
	}{a.Multiagent})
	if err != nil {
		return nil, err
	}
	out := append(bytes.TrimSuffix(body, []byte("}")), ',')
	return append(out, m[1:]...), nil
}

// UnmarshalJSON decodes the thread agent and the multiagent union. It is
// needed because ThreadAgent's method would otherwise be promoted and
// decode only the embedded part.
func (a *Agent) UnmarshalJSON(data []byte) error {
	*a = Agent{}
	if err := a.ThreadAgent.UnmarshalJSON(data); err != nil {
		return err
	}
	m, ok := a.Extra["multiagent"]
	if !ok {
		return nil
	}
	delete(a.Extra, "multiagent")
	if len(a.Extra) == 0 {
		a.Extra = nil
	}
	var err error
	if a.Multiagent, err = decodeUnion(m, decodeMultiagentUnion); err != nil {
		return fmt.Errorf("multiagent: %w", err)
	}
	return nil
}

// Multiagent is a session's resolved multi-agent configuration: Coordinator,
// Multiagent20261001 or UnknownMultiagent. They mirror agents.Coordinator
// and agents.Multiagent20261001 with every roster reference replaced by the
// agent's definition, which agents.RosterEntry cannot hold.
type Multiagent interface{ isMultiagent() }

// Coordinator coordinates a roster of agents (type "coordinator").
type Coordinator struct {
	// Agents holds a ThreadAgent for each agent of the roster and an
	// AdvisorMember for an advisor entry.
	Agents []RosterMember `json:"agents"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Multiagent20261001 configures an advisor, subagents and workflows (type
// "multiagent_20261001"); see agents.Multiagent20261001.
type Multiagent20261001 struct {
	Advisor   agents.Advisor `json:"advisor"` // agents.AdvisorEnabled or agents.AdvisorDisabled
	Subagents Delegation     `json:"subagents"`
	Workflows Delegation     `json:"workflows"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownMultiagent is a multiagent type this SDK does not know, kept as
// received.
type UnknownMultiagent struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownMultiagent) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (Coordinator) isMultiagent()        {}
func (Multiagent20261001) isMultiagent() {}
func (UnknownMultiagent) isMultiagent()  {}

type (
	plainCoordinator        Coordinator
	plainMultiagent20261001 Multiagent20261001
	plainAdvisorMember      AdvisorMember
	plainDelegationEnabled  DelegationEnabled
	plainDelegationDisabled DelegationDisabled
)

// MarshalJSON writes the variant's wire object, "type" first.
func (m Coordinator) MarshalJSON() ([]byte, error) {
	return marshalVariant("coordinator", plainCoordinator(m))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (m *Coordinator) UnmarshalJSON(data []byte) error {
	*m = Coordinator{}
	return decodeVariant(data, (*plainCoordinator)(m), unions)
}

// MarshalJSON writes the variant's wire object, "type" first.
func (m Multiagent20261001) MarshalJSON() ([]byte, error) {
	return marshalVariant(agents.MultiagentType20261001, plainMultiagent20261001(m))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (m *Multiagent20261001) UnmarshalJSON(data []byte) error {
	*m = Multiagent20261001{}
	return decodeVariant(data, (*plainMultiagent20261001)(m), unions)
}

func decodeMultiagentUnion(typ string, obj []byte) (Multiagent, error) {
	switch typ {
	case "coordinator":
		p, err := newVariant[plainCoordinator](obj, unions)
		if err != nil {
			return nil, err
		}
		return Coordinator(*p), nil
	case agents.MultiagentType20261001:
		p, err := newVariant[plainMultiagent20261001](obj, unions)
		if err != nil {
			return nil, err
		}
		return Multiagent20261001(*p), nil
	}
	return UnknownMultiagent{Type: typ, JSON: canonical(obj)}, nil
}

// decodeAdvisor reads the advisor of a Multiagent20261001 with the agents
// package's decoder: the advisor has the same shape on agents and
// sessions.
func decodeAdvisor(_ string, obj []byte) (agents.Advisor, error) {
	var m agents.Multiagent20261001
	err := json.Unmarshal(wrapAdvisor(obj), &m)
	return m.Advisor, err
}

// wrapAdvisor returns a multiagent_20261001 object whose advisor is obj.
func wrapAdvisor(obj []byte) []byte {
	const head = `{"type":"` + agents.MultiagentType20261001 + `","advisor":`
	out := make([]byte, 0, len(head)+len(obj)+1)
	out = append(out, head...)
	out = append(out, obj...)
	return append(out, '}')
}

// RosterMember is an entry of a session's roster: ThreadAgent (an agent's
// full definition), AdvisorMember, or UnknownRosterMember.
type RosterMember interface{ isRosterMember() }

// AdvisorMember is an advisor model in a coordinator's roster (type
// "advisor").
type AdvisorMember struct {
	Model string `json:"model"`
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownRosterMember is a roster entry type this SDK does not know, kept
// as received.
type UnknownRosterMember struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownRosterMember) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (ThreadAgent) isRosterMember()         {}
func (AdvisorMember) isRosterMember()       {}
func (UnknownRosterMember) isRosterMember() {}

// MarshalJSON writes the member's wire object, "type" first.
func (a AdvisorMember) MarshalJSON() ([]byte, error) {
	return marshalVariant("advisor", plainAdvisorMember(a))
}

// UnmarshalJSON decodes the member's wire object; "type" is not kept.
func (a *AdvisorMember) UnmarshalJSON(data []byte) error {
	*a = AdvisorMember{}
	return decodeVariant(data, (*plainAdvisorMember)(a))
}

func decodeRosterMemberUnion(typ string, obj []byte) (RosterMember, error) {
	switch typ {
	case "agent":
		return decodeAs[ThreadAgent](obj)
	case "advisor":
		p, err := newVariant[plainAdvisorMember](obj)
		if err != nil {
			return nil, err
		}
		return AdvisorMember(*p), nil
	}
	return UnknownRosterMember{Type: typ, JSON: canonical(obj)}, nil
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
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// DelegationDisabled forbids subagents or workflows (type "disabled").
type DelegationDisabled struct {
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownDelegation is a type this SDK does not know, kept as received.
type UnknownDelegation struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownDelegation) MarshalJSON() ([]byte, error) { return unknownJSON(u.Type, u.JSON) }

func (DelegationEnabled) isDelegation()  {}
func (DelegationDisabled) isDelegation() {}
func (UnknownDelegation) isDelegation()  {}

// MarshalJSON writes the variant's wire object, "type" first.
func (d DelegationEnabled) MarshalJSON() ([]byte, error) {
	return marshalVariant("enabled", plainDelegationEnabled(d))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (d *DelegationEnabled) UnmarshalJSON(data []byte) error {
	*d = DelegationEnabled{}
	return decodeVariant(data, (*plainDelegationEnabled)(d), unions)
}

// MarshalJSON writes the variant's wire object, "type" first.
func (d DelegationDisabled) MarshalJSON() ([]byte, error) {
	return marshalVariant("disabled", plainDelegationDisabled(d))
}

// UnmarshalJSON decodes the variant's wire object; "type" is not kept.
func (d *DelegationDisabled) UnmarshalJSON(data []byte) error {
	*d = DelegationDisabled{}
	return decodeVariant(data, (*plainDelegationDisabled)(d))
}

func decodeDelegationUnion(typ string, obj []byte) (Delegation, error) {
	switch typ {
	case "enabled":
		p, err := newVariant[plainDelegationEnabled](obj, unions)
		if err != nil {
			return nil, err
		}
		return DelegationEnabled(*p), nil
	case "disabled":
		p, err := newVariant[plainDelegationDisabled](obj)
		if err != nil {
			return nil, err
		}
		return DelegationDisabled(*p), nil
	}
	return UnknownDelegation{Type: typ, JSON: canonical(obj)}, nil
}
