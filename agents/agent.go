package agents

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/union"
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
	Description string      `json:"description"`
	System      string      `json:"system"`
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
}

// Archived reports whether the agent has been archived.
func (a *Agent) Archived() bool { return !a.ArchivedAt.IsZero() }

// Reference returns the reference to this version, for sessions,
// deployments and rosters.
func (a *Agent) Reference() AgentReference { return AgentReference{ID: a.ID, Version: a.Version} }

// UnmarshalJSON decodes the union fields into their variants.
func (a *Agent) UnmarshalJSON(data []byte) error {
	type plain Agent
	var w struct {
		plain
		Tools             json.RawMessage `json:"tools"`
		Skills            json.RawMessage `json:"skills"`
		Multiagent        json.RawMessage `json:"multiagent"`
		ExecutionIdentity json.RawMessage `json:"execution_identity"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*a = Agent(w.plain)
	var err error
	if a.Tools, err = decodeList(w.Tools, decodeTool); err != nil {
		return fmt.Errorf("tools: %w", err)
	}
	if a.Skills, err = decodeList(w.Skills, decodeSkill); err != nil {
		return fmt.Errorf("skills: %w", err)
	}
	if a.Multiagent, err = decodeMultiagent(w.Multiagent); err != nil {
		return fmt.Errorf("multiagent: %w", err)
	}
	if len(w.ExecutionIdentity) > 0 {
		if a.ExecutionIdentity, err = decodeExecutionIdentity(w.ExecutionIdentity); err != nil {
			return fmt.Errorf("execution_identity: %w", err)
		}
	}
	return nil
}

// decodeList decodes a union array; a missing key decodes as nil.
func decodeList[T any](data []byte, decode func([]byte) (T, error)) ([]T, error) {
	if len(data) == 0 {
		return nil, nil
	}
	return union.DecodeSlice(data, decode)
}
