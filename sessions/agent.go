package sessions

import (
	"bytes"
	"fmt"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Agent is a session's agent (docs/managed-agents-wire.md 3.8): the
// definition of the agent version the session was created with, any
// overrides applied, and its multi-agent configuration resolved one step
// further than an agents.Agent's: its rosters hold the definitions
// (agents.RosterAgent) of the agents the session can run, as they were
// when the session was created, where an agent's hold references.
type Agent struct {
	agents.RosterAgent
	// Multiagent is nil when the agent works alone (null on the wire).
	Multiagent agents.Multiagent `json:"multiagent"`
}

// MarshalJSON writes the agent's wire object: the definition's members
// and multiagent.
func (a Agent) MarshalJSON() ([]byte, error) {
	body, err := a.RosterAgent.MarshalJSON()
	if err != nil {
		return nil, err
	}
	m, err := wire.Marshal(struct {
		Multiagent agents.Multiagent `json:"multiagent"`
	}{a.Multiagent})
	if err != nil {
		return nil, err
	}
	out := append(bytes.TrimSuffix(body, []byte("}")), ',')
	return append(out, m[1:]...), nil
}

// UnmarshalJSON decodes the definition and the multiagent union. It is
// needed because RosterAgent's method would otherwise be promoted and
// decode only the embedded part.
func (a *Agent) UnmarshalJSON(data []byte) error {
	*a = Agent{}
	if err := a.RosterAgent.UnmarshalJSON(data); err != nil {
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
	if err := wire.Unmarshal(m, &a.Multiagent, unions); err != nil {
		return fmt.Errorf("multiagent: %w", err)
	}
	return nil
}
