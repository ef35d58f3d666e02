package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Agents (docs/managed-agents-wire.md section 4): versioned definitions.
// Every write that changes an agent stores a new immutable Version;
// all earlier versions stay readable. Archiving is agent-wide.

type agentState struct {
	byID map[string]*Record // nil until the first agent is created
}

// Record is one agent: the state that is not versioned (archived_at)
// and every version, versions[i] being version i+1.
type Record struct {
	ID          string
	workspaceID string
	createdAt   time.Time
	archivedAt  time.Time // zero while active
	versions    []*Version
}

func (a *Record) archived() bool { return !a.archivedAt.IsZero() }

func (a *Record) latest() *Version { return a.versions[len(a.versions)-1] }

func (a *Record) position() kit.Position { return kit.Position{CreatedAt: a.createdAt, ID: a.ID} }

// Version is one immutable version of an agent. Nothing in it changes
// after it is stored (archived_at belongs to the Record), so sessions
// and deployments may keep pointers to it as their snapshot. A caller that
// needs a modified definition (Update Session replaces tools and
// mcp_servers) copies the struct and replaces fields of the copy.
type Version struct {
	Agent             *Record
	Version           int
	Name              string
	Description       *string // nil is null
	System            *string // nil is null
	Model             ModelConfig
	Tools             Tools
	Skills            []Skill
	Multiagent        *Multiagent // nil is null
	executionIdentity executionIdentity
	metadata          map[string]string
	updatedAt         time.Time // when this version was written
}

func (v *Version) position() kit.Position {
	// Versions list highest first: a zero-padded version number as the id
	// part makes the newest-first cursor order the version order.
	return kit.Position{CreatedAt: v.Agent.createdAt, ID: fmt.Sprintf("%010d", v.Version)}
}

type agentJSON struct {
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
	Multiagent        any                   `json:"multiagent"`
	ExecutionIdentity executionIdentityJSON `json:"execution_identity"`
	Metadata          map[string]string     `json:"metadata"`
	ArchivedAt        *kit.Timestamp        `json:"archived_at"`
	CreatedAt         kit.Timestamp         `json:"created_at"`
	UpdatedAt         kit.Timestamp         `json:"updated_at"`
}

func (v *Version) view() agentJSON {
	return agentJSON{
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
		Multiagent:        v.Multiagent.view(v, false),
		ExecutionIdentity: v.executionIdentity.view(),
		Metadata:          v.metadata,
		ArchivedAt:        kit.OptionalTimestamp(v.Agent.archivedAt),
		CreatedAt:         kit.Timestamp(v.Agent.createdAt),
		UpdatedAt:         kit.Timestamp(v.updatedAt),
	}
}

// sameDefinition reports whether a and b define the same agent, ignoring
// version and timestamps: an update that changes nothing writes no version.
func (v *Version) sameDefinition(w *Version) bool {
	// Render v as if it were w's version, so that {"type":"self"} roster
	// entries (which render the owner's version) compare equal.
	tmp := *v
	tmp.Version, tmp.updatedAt = w.Version, w.updatedAt
	ja, errA := json.Marshal(tmp.view())
	jb, errB := json.Marshal(w.view())
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

func (s *Service) agentRoutes() []kit.Route {
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/agents", Op: "agents.create", Betas: kit.ManagedAgentsBetas, Handle: s.createAgent},
		{Method: http.MethodGet, Path: "/v1/agents", Op: "agents.list", Betas: kit.ManagedAgentsBetas, Handle: s.listAgents},
		{Method: http.MethodGet, Path: "/v1/agents/{agent_id}", Op: "agents.retrieve", Betas: kit.ManagedAgentsBetas, Handle: s.getAgent},
		{Method: http.MethodPost, Path: "/v1/agents/{agent_id}", Op: "agents.update", Betas: kit.ManagedAgentsBetas, Handle: s.updateAgent},
		{Method: http.MethodPost, Path: "/v1/agents/{agent_id}/archive", Op: "agents.archive", Betas: kit.ManagedAgentsBetas, Handle: s.archiveAgent},
		{Method: http.MethodGet, Path: "/v1/agents/{agent_id}/versions", Op: "agents.versions.list", Betas: kit.ManagedAgentsBetas, Handle: s.listAgentVersions},
	}
}

// agentBody is the body of create and update (their rules differ, see
// applyAgentBodyLocked).
type agentBody struct {
	Version           kit.Optional[int64]                      `json:"version"` // update only
	Name              kit.Optional[string]                     `json:"name"`
	Model             kit.Optional[json.RawMessage]            `json:"model"`
	Description       kit.Optional[string]                     `json:"description"`
	System            kit.Optional[string]                     `json:"system"`
	Tools             kit.Optional[json.RawMessage]            `json:"tools"`
	MCPServers        kit.Optional[json.RawMessage]            `json:"mcp_servers"`
	Skills            kit.Optional[json.RawMessage]            `json:"skills"`
	Multiagent        kit.Optional[json.RawMessage]            `json:"multiagent"`
	ExecutionIdentity kit.Optional[json.RawMessage]            `json:"execution_identity"`
	Metadata          kit.Optional[map[string]json.RawMessage] `json:"metadata"`
}

func (s *Service) createAgent(c *kit.Call) error {
	var body agentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if body.Version.Set {
		return kit.InvalidField("version", "unknown field")
	}
	// Create-only rules: required keys and keys that may not be null.
	if err := kit.Required("name", body.Name); err != nil {
		return err
	}
	if err := kit.Required("model", body.Model); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := c.Now()
	// The id is assigned once the body is valid, so that a refused request
	// consumes none; {"type":"self"} entries read it when rendered.
	rec := &Record{workspaceID: c.WorkspaceID, createdAt: now}
	draft := &Version{Agent: rec, Version: 1, updatedAt: now,
		executionIdentity: serviceAccountIdentity, metadata: map[string]string{}, Skills: []Skill{}}
	if err := s.applyAgentBodyLocked(draft, nil, body); err != nil {
		return err
	}
	rec.ID = s.cfg.ids("agent_")
	rec.versions = []*Version{draft}
	if s.agents.byID == nil {
		s.agents.byID = map[string]*Record{}
	}
	s.agents.byID[rec.ID] = rec
	return c.OK(draft.view())
}

// applyAgentBodyLocked applies body to draft, the version being written.
// prev is the current version on update (nil on create); omitted fields
// keep draft's values, which start as prev's.
func (s *Service) applyAgentBodyLocked(draft, prev *Version, body agentBody) error {
	if body.Name.Set {
		if err := kit.NotNull("name", body.Name); err != nil {
			return err
		}
		if err := kit.CheckLength("name", body.Name.Value, 1, 256); err != nil {
			return err
		}
		draft.Name = body.Name.Value
	}
	if body.Model.Set {
		var base *ModelConfig
		if prev != nil {
			base = &prev.Model
		}
		raw := body.Model.Value
		if body.Model.Null {
			raw = json.RawMessage("null")
		}
		m, err := ParseModelConfig("model", raw, base)
		if err != nil {
			return err
		}
		draft.Model = m
	}
	var err error
	if draft.Description, err = kit.ClearableString("description", body.Description, draft.Description, 2048); err != nil {
		return err
	}
	if draft.System, err = kit.ClearableString("system", body.System, draft.System, 100000); err != nil {
		return err
	}
	if prev == nil { // on create the lists may be omitted but not null
		for _, f := range []struct {
			path string
			o    kit.Optional[json.RawMessage]
		}{{"tools", body.Tools}, {"mcp_servers", body.MCPServers}} {
			if err := kit.NotNull(f.path, f.o); err != nil {
				return err
			}
		}
	}
	if draft.Tools, err = ParseTools("", kit.RawOrNil(body.Tools), kit.RawOrNil(body.MCPServers), draft.Tools); err != nil {
		return err
	}
	if prev == nil {
		if err := kit.NotNull("skills", body.Skills); err != nil {
			return err
		}
	}
	if body.Skills.Set {
		draft.Skills = []Skill{}
		if body.Skills.Present() {
			if draft.Skills, err = ParseSkills("skills", body.Skills.Value); err != nil {
				return err
			}
			if err := s.ResolveSkillsLocked(draft.Agent.workspaceID, "skills", draft.Skills); err != nil {
				return err
			}
		}
	}
	if body.Multiagent.Set {
		draft.Multiagent = nil
		if body.Multiagent.Present() {
			owner := multiagentOwner{workspaceID: draft.Agent.workspaceID, agentID: draft.Agent.ID, version: draft.Version}
			var stored *Multiagent
			if prev != nil {
				stored = prev.Multiagent
			}
			if draft.Multiagent, err = s.parseMultiagentLocked("multiagent", body.Multiagent.Value, stored, owner); err != nil {
				return err
			}
		}
	}
	if body.ExecutionIdentity.Set {
		draft.executionIdentity = serviceAccountIdentity
		if body.ExecutionIdentity.Present() {
			if draft.executionIdentity, err = parseExecutionIdentity("execution_identity", body.ExecutionIdentity.Value); err != nil {
				return err
			}
		}
	}
	if prev == nil {
		draft.metadata, err = kit.MetadataCreate(body.Metadata)
	} else {
		draft.metadata, err = kit.MetadataPatch(draft.metadata, body.Metadata, false)
	}
	return err
}

// agentInWorkspaceLocked finds an agent of workspaceID by path id.
func (s *Service) agentInWorkspaceLocked(workspaceID, id string) (*Record, error) {
	a, ok := s.agents.byID[id]
	if !ok || a.workspaceID != workspaceID {
		return nil, kit.NotFound("Agent `%s` not found.", id)
	}
	return a, nil
}

func (s *Service) getAgent(c *kit.Call) error {
	id := c.R.PathValue("agent_id")
	version := 0
	if raw, ok := kit.QueryValue(c.R.URL.Query(), "version"); ok {
		n, err := parseVersionQuery(raw)
		if err != nil {
			return err
		}
		version = n
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if version == 0 {
		a, err := s.agentInWorkspaceLocked(c.WorkspaceID, id)
		if err != nil {
			return err
		}
		return c.OK(a.latest().view())
	}
	v, err := s.agentVersionLocked(c.WorkspaceID, id, version)
	if err != nil {
		return err
	}
	return c.OK(v.view())
}

// parseVersionQuery reads the version query parameter: an int32 of at
// least 1.
func parseVersionQuery(raw string) (int, error) {
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0, kit.InvalidField("version", "must be an integer")
	}
	if err := kit.Int32Min("version", n, 1); err != nil {
		return 0, err
	}
	return int(n), nil
}

func (s *Service) listAgents(c *kit.Call) error {
	q := c.R.URL.Query()
	created, err := kit.ParseCreatedRange(q)
	if err != nil {
		return err
	}
	includeArchived, err := kit.QueryBool(q, "include_archived")
	if err != nil {
		return err
	}
	p, err := kit.ParseCursorPageParams(q, 100)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.agents.byID), kit.NewestFirst((*Record).position))
	keep := func(a *Record) bool {
		return a.workspaceID == c.WorkspaceID && (includeArchived || !a.archived()) && created.Contains(a.createdAt)
	}
	page := kit.PaginateByCursor(all, (*Record).position, keep, p)
	return c.OK(kit.MapCursorPage(page, func(a *Record) agentJSON { return a.latest().view() }))
}

func (s *Service) listAgentVersions(c *kit.Call) error {
	p, err := kit.ParseCursorPageParams(c.R.URL.Query(), 100)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.agentInWorkspaceLocked(c.WorkspaceID, c.R.PathValue("agent_id"))
	if err != nil {
		return err
	}
	all := slices.Clone(a.versions)
	slices.Reverse(all)
	page := kit.PaginateByCursor(all, (*Version).position, func(*Version) bool { return true }, p)
	return c.OK(kit.MapCursorPage(page, (*Version).view))
}

func (s *Service) updateAgent(c *kit.Call) error {
	var body agentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.NotNull("version", body.Version); err != nil {
		return err
	}
	if body.Version.Set {
		if err := kit.Int32Min("version", body.Version.Value, 1); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.agentInWorkspaceLocked(c.WorkspaceID, c.R.PathValue("agent_id"))
	if err != nil {
		return err
	}
	if a.archived() {
		return kit.StateConflict("agent_id: agent `%s` is archived", a.ID)
	}
	prev := a.latest()
	if body.Version.Set && int(body.Version.Value) != prev.Version {
		return kit.StateConflict("version: does not match the current version `%d`", prev.Version)
	}
	draft := *prev
	draft.Version = prev.Version + 1
	draft.updatedAt = c.Now()
	if err := s.applyAgentBodyLocked(&draft, prev, body); err != nil {
		return err
	}
	if draft.sameDefinition(prev) {
		return c.OK(prev.view())
	}
	a.versions = append(a.versions, &draft)
	return c.OK(draft.view())
}

func (s *Service) archiveAgent(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.agentInWorkspaceLocked(c.WorkspaceID, c.R.PathValue("agent_id"))
	if err != nil {
		return err
	}
	if !a.archived() {
		a.archivedAt = c.Now()
		s.archiveDeploymentsOfAgentLocked(a.ID)
	}
	return c.OK(a.latest().view())
}

// archiveDeploymentsOfAgentLocked archives, in the same operation as the
// agent, every non-archived deployment whose agent is agentID
// (docs/managed-agents-wire.md 4.6; no deployment run is recorded).
func (s *Service) archiveDeploymentsOfAgentLocked(agentID string) {
	if s.archiveDeploymentsLocked != nil {
		s.archiveDeploymentsLocked(agentID, s.now())
	}
}
