package agents

import (
	"encoding/json"
	"time"
)

// Agent is one version of an agent (type "agent"). Every update that
// changes the definition writes a new version; earlier versions stay
// readable with Get (GetParams.Version) and ListVersions.
type Agent struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Version int    `json:"version"` // starts at 1
	Name    string `json:"name"`
	// Description and System are "" when unset (null on the wire); the
	// API stores "" as null, so nothing is lost.
	Description string      `json:"description,omitzero"`
	System      string      `json:"system,omitzero"`
	Model       ModelConfig `json:"model"`
	Tools       []Tool      `json:"tools"`
	MCPServers  []MCPServer `json:"mcp_servers"`
	Skills      []Skill     `json:"skills"`
	// Multiagent is nil when the agent works alone (null on the wire).
	Multiagent        Multiagent        `json:"multiagent"`
	ExecutionIdentity ExecutionIdentity `json:"execution_identity"`
	Metadata          map[string]string `json:"metadata"`
	// ArchivedAt is zero while the agent is active. Archiving applies to
	// every version.
	ArchivedAt time.Time `json:"archived_at,omitzero"`
	CreatedAt  time.Time `json:"created_at"` // the agent's creation, same on every version
	UpdatedAt  time.Time `json:"updated_at"` // when this version was written
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Archived reports whether the agent has been archived.
func (a *Agent) Archived() bool { return !a.ArchivedAt.IsZero() }

// Reference returns the reference to this version, for sessions,
// deployments and rosters.
func (a *Agent) Reference() AgentReference { return AgentReference{ID: a.ID, Version: a.Version} }
