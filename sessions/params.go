package sessions

import (
	"time"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/param"
)

// CreateParams is the body of Create. Agent and EnvironmentID are
// required.
type CreateParams struct {
	// Agent is the agent to run, in one of three forms:
	// agents.AgentID (its latest version, pinned now), agents.AgentReference
	// (a chosen version), or AgentWithOverrides (a version with parts of
	// its definition replaced for this session).
	Agent         agents.AgentRef `json:"agent"`
	EnvironmentID string          `json:"environment_id"` // 1 to 128 characters
	Title         string          `json:"title,omitzero"` // 1 to 500 characters; "" for none
	// Metadata: at most 16 pairs, keys 1 to 64 characters, values at most
	// 512 characters.
	Metadata map[string]string `json:"metadata,omitzero"`
	// Resources to mount, at most 500: FileResourceParam,
	// RepositoryResourceParam, MemoryStoreResourceParam.
	Resources []ResourceParam `json:"resources,omitzero"`
	VaultIDs  []string        `json:"vault_ids,omitzero"` // at most 50 "vlt_…" ids
	// Budget caps the session's spend; nil leaves it uncapped. A budget
	// can only be set here, at creation, and every model the session can
	// run must have a public list price.
	Budget *Budget `json:"budget,omitempty"`
	// InitialEvents, at most 50, are processed in order as if sent right
	// after creation; the session then starts running. A SystemMessageParam
	// must come last, right after a UserMessageParam.
	InitialEvents []EventParam `json:"initial_events,omitzero"`
}

// AgentWithOverrides runs a version of a saved agent with parts of its
// definition replaced for one session (type "agent_with_overrides"); the
// result is validated like a new agent. It is accepted by Create only.
//
// It embeds the reference it starts from, which also makes it an
// agents.AgentRef:
//
//	Agent: sessions.AgentWithOverrides{
//		AgentReference: agent.Reference(),
//		System:         param.Value("Answer in French."),
//	}
//
// Sessions created this way cannot change their agent with Update.
type AgentWithOverrides struct {
	agents.AgentReference // ID is required; Version 0 means the latest

	// Model replaces the model when not nil.
	Model agents.ModelParam `json:"model,omitempty"`
	// System replaces the system prompt (at most 100000 characters);
	// param.Null clears it.
	System param.Nullable[string] `json:"system,omitzero"`
	// Tools, MCPServers and Skills replace the agent's list when not nil;
	// an empty non-nil slice clears it.
	Tools      []agents.Tool      `json:"tools,omitzero"`
	MCPServers []agents.MCPServer `json:"mcp_servers,omitzero"`
	Skills     []agents.Skill     `json:"skills,omitzero"`
}

// MarshalJSON writes the agent_with_overrides form; the embedded
// reference's own method would write a plain reference.
func (a AgentWithOverrides) MarshalJSON() ([]byte, error) {
	return paramVariant("agent_with_overrides", struct {
		ID         string                 `json:"id"`
		Version    int                    `json:"version,omitzero"`
		Model      agents.ModelParam      `json:"model,omitempty"`
		System     param.Nullable[string] `json:"system,omitzero"`
		Tools      []agents.Tool          `json:"tools,omitzero"`
		MCPServers []agents.MCPServer     `json:"mcp_servers,omitzero"`
		Skills     []agents.Skill         `json:"skills,omitzero"`
	}{a.ID, a.Version, a.Model, a.System, a.Tools, a.MCPServers, a.Skills})
}

// UpdateParams is the body of Update (docs/managed-agents-wire.md 6.5).
// Unset fields keep their value.
//
// vault_ids is not offered: the API reserves it and rejects every update
// that sets it.
type UpdateParams struct {
	// Agent replaces the snapshot's tools or MCP servers. Only sessions
	// created from an agent id or reference (or by a deployment) accept
	// it, and not while they run.
	Agent *AgentUpdateParams `json:"agent,omitempty"`
	// Budget: param.Value replaces the budget, param.Null removes it for
	// good. A session created without a budget cannot get one
	// (budget_create_only), and a new ceiling must lie above the cost
	// already consumed (budget_not_raised). Raising or removing the budget
	// of a session stopped by it resumes the turn.
	Budget param.Nullable[Budget] `json:"budget,omitzero"`
	// Metadata is a patch: a key set to a string is upserted, a key set to
	// nil is deleted, keys not named are kept.
	Metadata map[string]*string `json:"metadata,omitzero"`
	// Title: param.Value sets it (1 to 500 characters), param.Null clears
	// it.
	Title param.Nullable[string] `json:"title,omitzero"`
}

// AgentUpdateParams replaces parts of a session's agent. Each list
// replaces the snapshot's whole list when not nil; an empty non-nil slice
// clears it. The result is validated as an agent is (every MCP server
// used by an MCP toolset, and so on).
type AgentUpdateParams struct {
	Tools      []agents.Tool      `json:"tools,omitzero"`
	MCPServers []agents.MCPServer `json:"mcp_servers,omitzero"`
}

// Order is the direction of List by creation time.
type Order string

const (
	OrderDesc Order = "desc" // newest first, the default
	OrderAsc  Order = "asc"  // oldest first
)

// ListParams selects a page of sessions. Zero fields do not filter.
type ListParams struct {
	Page  string // cursor from a previous page's NextPage or PrevPage; "" for the first page
	Limit int    // 1 to 100; 0 means 20
	// Order sorts by creation time, then id; "" means OrderDesc. A cursor
	// belongs to the Order and CreatedAt window it was issued for.
	Order Order

	AgentID string // sessions created from this agent
	// AgentVersion narrows AgentID to one version; it requires AgentID.
	AgentVersion int
	// CreatedAtGT, CreatedAtGTE, CreatedAtLT and CreatedAtLTE bound the
	// creation time (GT and LT exclusive, GTE and LTE inclusive).
	CreatedAtGT, CreatedAtGTE, CreatedAtLT, CreatedAtLTE time.Time
	DeploymentID                                         string   // sessions created by runs of this deployment
	MemoryStoreID                                        string   // sessions with this memory store attached
	Statuses                                             []Status // any of these statuses
	// IncludeArchived also lists archived sessions.
	IncludeArchived bool
}

// ResourceListParams selects a page of a session's resources.
type ResourceListParams struct {
	Page string // cursor from a previous page's NextPage
	// Limit is 1 to 1000; 0 returns every resource in one page.
	Limit int
}

// ResourceUpdateParams is the body of ResourcesService.Update.
type ResourceUpdateParams struct {
	// AuthorizationToken is the repository's new token, 1 to 4096
	// characters. Only repository resources have one.
	AuthorizationToken param.Secret `json:"authorization_token"`
}

// Limits of docs/managed-agents-wire.md section 11.
const (
	maxListLimit         = 100
	maxResourceListLimit = 1000
	maxTitle             = 500
	maxEnvironmentID     = 128
	maxEvents            = 50
	maxResources         = 500
	maxVaultIDs          = 50
)
