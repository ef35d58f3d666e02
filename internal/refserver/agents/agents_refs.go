package agents

import (
	"encoding/json"
	"slices"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Agent references and the views other families need (docs/managed-agents-
// wire.md 3.8). Sessions and deployments resolve their "agent" field with
// Service.ResolveRefLocked and keep the *Version it returns: versions are
// immutable, so the pointer is a snapshot.

type agentRefBody struct {
	Type    kit.Optional[string] `json:"type"`
	ID      kit.Optional[string] `json:"id"`
	Version kit.Optional[int64]  `json:"version"`
}

// resolveAgentRefLocked resolves a request-side agent reference found at
// body path field (for example "agent" or "multiagent.agents[0]"): a JSON
// string id, meaning the latest version, pinned now; or
// {"type":"agent","id":…,"version":n} with version optional (latest). An
// unknown agent or version is 404 (`Agent `<id>` not found.`, `Agent `<id>`
// version `<n>` not found.`); an archived agent is 400 "<field>: agent
// `<id>` is archived". Other shapes are 400 naming field. Callers that
// accept more forms (agent_with_overrides) check the type first.
func (s *Service) resolveAgentRefLocked(workspaceID, field string, raw json.RawMessage) (*Version, error) {
	var id string
	version := 0
	switch kit.JSONKind(raw) {
	case '"':
		if err := json.Unmarshal(raw, &id); err != nil {
			return nil, kit.InvalidField(field, "must be a string")
		}
		if err := kit.CheckLength(field, id, 1, 128); err != nil {
			return nil, err
		}
	case '{':
		typ, err := kit.TypeAt(field, raw)
		if err != nil {
			return nil, err
		}
		if typ != "agent" {
			return nil, kit.BadType(field, "agent")
		}
		var body agentRefBody
		if err := kit.DecodeAt(field, raw, &body); err != nil {
			return nil, err
		}
		if err := kit.Required(kit.JoinPath(field, "id"), body.ID); err != nil {
			return nil, err
		}
		if err := kit.CheckLength(kit.JoinPath(field, "id"), body.ID.Value, 1, 128); err != nil {
			return nil, err
		}
		id = body.ID.Value
		if err := kit.NotNull(kit.JoinPath(field, "version"), body.Version); err != nil {
			return nil, err
		}
		if body.Version.Set {
			if err := kit.Int32Min(kit.JoinPath(field, "version"), body.Version.Value, 1); err != nil {
				return nil, err
			}
			version = int(body.Version.Value)
		}
	case 'n':
		return nil, kit.InvalidField(field, "must not be null")
	default:
		return nil, kit.InvalidField(field, "must be an agent id string or an object")
	}
	a, err := s.agentInWorkspaceLocked(workspaceID, id)
	if err != nil {
		return nil, err
	}
	v := a.latest()
	if version != 0 {
		if v, err = s.agentVersionLocked(workspaceID, id, version); err != nil {
			return nil, err
		}
	}
	if a.archived() {
		return nil, kit.InvalidField(field, "agent `%s` is archived", id)
	}
	return v, nil
}

// agentVersionLocked returns one version of an agent of workspaceID: 404
// `Agent `<id>` not found.` or `Agent `<id>` version `<n>` not found.`.
// Archived agents are returned too.
func (s *Service) agentVersionLocked(workspaceID, agentID string, version int) (*Version, error) {
	a, err := s.agentInWorkspaceLocked(workspaceID, agentID)
	if err != nil {
		return nil, err
	}
	if version < 1 || version > len(a.versions) {
		return nil, kit.NotFound("Agent `%s` version `%d` not found.", agentID, version)
	}
	return a.versions[version-1], nil
}

// agentReferenceJSON is the resolved reference {type: agent, id, version}.
type agentReferenceJSON struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Version int    `json:"version"`
}

// ReferenceJSON is the resolved reference to v: {"type":"agent","id","version"}.
func (v *Version) ReferenceJSON() any {
	return agentReferenceJSON{Type: "agent", ID: v.Agent.ID, Version: v.Version}
}

// threadAgentJSON is a thread agent (3.8): the resolved definition that runs
// in a session thread, without multiagent.
type threadAgentJSON struct {
	Type              string                `json:"type"`
	ID                string                `json:"id"`
	Version           int                   `json:"version"`
	Name              string                `json:"name"`
	Description       *string               `json:"description"`
	System            *string               `json:"system"`
	Model             modelConfigJSON       `json:"model"`
	Tools             []any                 `json:"tools"`
	MCPServers        []mcpServerJSON       `json:"mcp_servers"`
	Skills            []skillJSON           `json:"skills"`
	ExecutionIdentity executionIdentityJSON `json:"execution_identity"`
}

func (v *Version) threadAgentJSON() threadAgentJSON {
	return threadAgentJSON{
		Type:              "agent",
		ID:                v.Agent.ID,
		Version:           v.Version,
		Name:              v.Name,
		Description:       v.Description,
		System:            v.System,
		Model:             v.Model.view(),
		Tools:             v.Tools.toolsJSON(),
		MCPServers:        v.Tools.mcpServersJSON(),
		Skills:            kit.MapSlice(v.Skills, Skill.view),
		ExecutionIdentity: v.executionIdentity.view(),
	}
}

// sessionAgentJSONView is the session agent: the thread agent plus
// multiagent, whose agent references are expanded into thread agents.
type sessionAgentJSONView struct {
	threadAgentJSON
	Multiagent any `json:"multiagent"`
}

// SessionAgentJSON is session.agent (docs/managed-agents-wire.md 3.8): v's
// thread agent plus its multiagent (null when unset) with every roster and predefined agent
// reference expanded into that version's thread agent ({"type":"self"}
// expands into v itself); advisor entries stay {type: advisor, model}.
// For a session whose tools were replaced (Update Session), render a copy
// of v with the new Tools.
func (v *Version) SessionAgentJSON() any {
	return sessionAgentJSONView{threadAgentJSON: v.threadAgentJSON(), Multiagent: v.Multiagent.view(v, true)}
}

// ModelIDs lists, without repeats and own model first, every model the
// agent can run: its own, each roster and predefined agent's, and the
// advisor model. The budget rule (docs/managed-agents-wire.md 3.1) checks
// each has a price.
func (v *Version) ModelIDs() []string {
	ids := []string{v.Model.ID}
	for _, id := range v.Multiagent.modelIDs() {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// ThreadAgentJSON is the agent of a session thread that runs v
// (docs/session-events-wire.md 7.6): v's thread agent, type "agent".
func (v *Version) ThreadAgentJSON() any { return v.threadAgentJSON() }

// inlineAgentJSON is an inline thread agent: a definition with no Agent
// resource behind it, so without id and version.
type inlineAgentJSON struct {
	Type              string                `json:"type"`
	Name              string                `json:"name"`
	Description       *string               `json:"description"`
	System            *string               `json:"system"`
	Model             modelConfigJSON       `json:"model"`
	Tools             []any                 `json:"tools"`
	MCPServers        []mcpServerJSON       `json:"mcp_servers"`
	Skills            []skillJSON           `json:"skills"`
	ExecutionIdentity executionIdentityJSON `json:"execution_identity"`
}

// InlineAgentJSON is the agent of an inline subagent thread named name,
// which runs v's definition (docs/session-events-wire.md 7.6): type
// "inline", no id or version.
func (v *Version) InlineAgentJSON(name string) any {
	t := v.threadAgentJSON()
	return inlineAgentJSON{Type: "inline", Name: name, Description: t.Description, System: t.System, Model: t.Model,
		Tools: t.Tools, MCPServers: t.MCPServers, Skills: t.Skills, ExecutionIdentity: t.ExecutionIdentity}
}
