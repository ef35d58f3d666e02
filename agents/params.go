package agents

import (
	"time"

	"github.com/agentplatform/agentplatform-go/param"
)

// CreateParams is the body of Create. Name and Model are required.
type CreateParams struct {
	Name        string      `json:"name"`                 // 1 to 256 characters
	Model       ModelParam  `json:"model"`                // ModelID or ModelConfig
	Description string      `json:"description,omitzero"` // at most 2048 characters
	System      string      `json:"system,omitzero"`      // system prompt, at most 100000 characters
	Tools       []Tool      `json:"tools,omitzero"`       // at most 128
	MCPServers  []MCPServer `json:"mcp_servers,omitzero"` // at most 20, each used by an MCPToolset
	Skills      []Skill     `json:"skills,omitzero"`      // at most 20
	Multiagent  Multiagent  `json:"multiagent,omitempty"` // nil: works alone
	// ExecutionIdentity: nil means ServiceAccount.
	ExecutionIdentity ExecutionIdentity `json:"execution_identity,omitempty"`
	// Metadata: at most 16 pairs, keys 1 to 64 characters, values at most
	// 512 characters.
	Metadata map[string]string `json:"metadata,omitzero"`
}

// UpdateParams is the body of Update. Unset fields keep their value. An
// update that changes anything writes a new version; one that changes
// nothing returns the current version.
type UpdateParams struct {
	// Version, when not 0, must equal the agent's current version, or the
	// update fails with 409 and nothing changes (optimistic concurrency).
	// Set it from the Agent you read: agent.Version.
	Version int        `json:"version,omitzero"`
	Name    string     `json:"name,omitzero"`
	Model   ModelParam `json:"model,omitempty"` // replaces the whole config; an omitted effort is kept
	// Description and System: param.Null or param.Value("") clear them.
	Description param.Nullable[string] `json:"description,omitzero"`
	System      param.Nullable[string] `json:"system,omitzero"`
	// Tools, MCPServers and Skills replace the whole list when not nil; an
	// empty non-nil slice clears it.
	Tools      []Tool      `json:"tools,omitzero"`
	MCPServers []MCPServer `json:"mcp_servers,omitzero"`
	Skills     []Skill     `json:"skills,omitzero"`
	// Multiagent: param.Null removes it; param.Value[agents.Multiagent](v)
	// sets v. A Multiagent20261001 sent to an agent that has one is merged
	// into it (see Multiagent20261001); any other value replaces it.
	Multiagent param.Nullable[Multiagent] `json:"multiagent,omitzero"`
	// ExecutionIdentity replaces the identity when not nil.
	ExecutionIdentity ExecutionIdentity `json:"execution_identity,omitempty"`
	// Metadata is a patch: a key set to a string is upserted, a key set to
	// nil is deleted, keys not named are kept.
	Metadata map[string]*string `json:"metadata,omitzero"`
}

// GetParams selects the version Get returns.
type GetParams struct {
	Version int // a version number; 0 means the current version
}

// ListParams selects a page of agents (their current versions), newest
// first.
type ListParams struct {
	Page            string    // cursor from a previous page's NextPage; "" for the first page
	Limit           int       // 1 to 100; 0 means 20
	IncludeArchived bool      // also list archived agents
	CreatedAtGTE    time.Time // only agents created at or after this time; zero: no bound
	CreatedAtLTE    time.Time // only agents created at or before this time; zero: no bound
}

// ListVersionsParams selects a page of an agent's versions, highest first.
type ListVersionsParams struct {
	Page  string // cursor from a previous page's NextPage
	Limit int    // 1 to 100; 0 means 20
}

const maxListLimit = 100
