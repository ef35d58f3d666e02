package refserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Agents (docs/managed-agents-wire.md section 4): versioned definitions.
// Every write that changes an agent stores a new immutable agentVersion;
// all earlier versions stay readable. Archiving is agent-wide.

type agentState struct {
	byID map[string]*agentRecord // nil until the first agent is created
}

// agentRecord is one agent: the state that is not versioned (archived_at)
// and every version, versions[i] being version i+1.
type agentRecord struct {
	id          string
	workspaceID string
	createdAt   time.Time
	archivedAt  time.Time // zero while active
	versions    []*agentVersion
}

func (a *agentRecord) archived() bool { return !a.archivedAt.IsZero() }

func (a *agentRecord) latest() *agentVersion { return a.versions[len(a.versions)-1] }

func (a *agentRecord) position() position { return position{CreatedAt: a.createdAt, ID: a.id} }

// agentVersion is one immutable version of an agent. Nothing in it changes
// after it is stored (archived_at belongs to the agentRecord), so sessions
// and deployments may keep pointers to it as their snapshot. A caller that
// needs a modified definition (Update Session replaces tools and
// mcp_servers) copies the struct and replaces fields of the copy.
type agentVersion struct {
	agent             *agentRecord
	version           int
	name              string
	description       *string // nil is null
	system            *string // nil is null
	model             modelConfig
	tools             agentTools
	skills            []skill
	multiagent        *multiagentConfig // nil is null
	executionIdentity executionIdentity
	metadata          map[string]string
	updatedAt         time.Time // when this version was written
}

func (v *agentVersion) position() position {
	// Versions list highest first: a zero-padded version number as the id
	// part makes the newest-first cursor order the version order.
	return position{CreatedAt: v.agent.createdAt, ID: fmt.Sprintf("%010d", v.version)}
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
	ArchivedAt        *timestamp            `json:"archived_at"`
	CreatedAt         timestamp             `json:"created_at"`
	UpdatedAt         timestamp             `json:"updated_at"`
}

func (v *agentVersion) view() agentJSON {
	return agentJSON{
		Type:              "agent",
		ID:                v.agent.id,
		Version:           v.version,
		Name:              v.name,
		Description:       v.description,
		System:            v.system,
		Model:             v.model.view(),
		Tools:             v.tools.toolsJSON(),
		MCPServers:        v.tools.mcpServersJSON(),
		Skills:            mapSlice(v.skills, skill.view),
		Multiagent:        v.multiagent.view(v, false),
		ExecutionIdentity: v.executionIdentity.view(),
		Metadata:          v.metadata,
		ArchivedAt:        optionalTimestamp(v.agent.archivedAt),
		CreatedAt:         timestamp(v.agent.createdAt),
		UpdatedAt:         timestamp(v.updatedAt),
	}
}

// sameDefinition reports whether a and b define the same agent, ignoring
// version and timestamps: an update that changes nothing writes no version.
func (v *agentVersion) sameDefinition(w *agentVersion) bool {
	// Render v as if it were w's version, so that {"type":"self"} roster
	// entries (which render the owner's version) compare equal.
	tmp := *v
	tmp.version, tmp.updatedAt = w.version, w.updatedAt
	ja, errA := json.Marshal(tmp.view())
	jb, errB := json.Marshal(w.view())
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

func (s *Server) agentRoutes() []route {
	return []route{
		{Method: http.MethodPost, Path: "/v1/agents", Op: "agents.create", Betas: maBetas, Handle: s.createAgent},
		{Method: http.MethodGet, Path: "/v1/agents", Op: "agents.list", Betas: maBetas, Handle: s.listAgents},
		{Method: http.MethodGet, Path: "/v1/agents/{agent_id}", Op: "agents.retrieve", Betas: maBetas, Handle: s.getAgent},
		{Method: http.MethodPost, Path: "/v1/agents/{agent_id}", Op: "agents.update", Betas: maBetas, Handle: s.updateAgent},
		{Method: http.MethodPost, Path: "/v1/agents/{agent_id}/archive", Op: "agents.archive", Betas: maBetas, Handle: s.archiveAgent},
		{Method: http.MethodGet, Path: "/v1/agents/{agent_id}/versions", Op: "agents.versions.list", Betas: maBetas, Handle: s.listAgentVersions},
	}
}

// agentBody is the body of create and update (their rules differ, see
// applyAgentBodyLocked).
type agentBody struct {
	Version           optional[int64]                      `json:"version"` // update only
	Name              optional[string]                     `json:"name"`
	Model             optional[json.RawMessage]            `json:"model"`
	Description       optional[string]                     `json:"description"`
	System            optional[string]                     `json:"system"`
	Tools             optional[json.RawMessage]            `json:"tools"`
	MCPServers        optional[json.RawMessage]            `json:"mcp_servers"`
	Skills            optional[json.RawMessage]            `json:"skills"`
	Multiagent        optional[json.RawMessage]            `json:"multiagent"`
	ExecutionIdentity optional[json.RawMessage]            `json:"execution_identity"`
	Metadata          optional[map[string]json.RawMessage] `json:"metadata"`
}

func (s *Server) createAgent(c *call) error {
	var body agentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if body.Version.Set {
		return invalidField("version", "unknown field")
	}
	// Create-only rules: required keys and keys that may not be null.
	if err := maRequired("name", body.Name); err != nil {
		return err
	}
	if err := maRequired("model", body.Model); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := c.Now()
	// The id is assigned once the body is valid, so that a refused request
	// consumes none; {"type":"self"} entries read it when rendered.
	rec := &agentRecord{workspaceID: c.WorkspaceID, createdAt: now}
	draft := &agentVersion{agent: rec, version: 1, updatedAt: now,
		executionIdentity: serviceAccountIdentity, metadata: map[string]string{}, skills: []skill{}}
	if err := s.applyAgentBodyLocked(draft, nil, body); err != nil {
		return err
	}
	rec.id = s.cfg.ids("agent_")
	rec.versions = []*agentVersion{draft}
	if s.agents.byID == nil {
		s.agents.byID = map[string]*agentRecord{}
	}
	s.agents.byID[rec.id] = rec
	return c.OK(draft.view())
}

// applyAgentBodyLocked applies body to draft, the version being written.
// prev is the current version on update (nil on create); omitted fields
// keep draft's values, which start as prev's.
func (s *Server) applyAgentBodyLocked(draft, prev *agentVersion, body agentBody) error {
	if body.Name.Set {
		if err := maNotNull("name", body.Name); err != nil {
			return err
		}
		if err := checkLength("name", body.Name.Value, 1, 256); err != nil {
			return err
		}
		draft.name = body.Name.Value
	}
	if body.Model.Set {
		var base *modelConfig
		if prev != nil {
			base = &prev.model
		}
		raw := body.Model.Value
		if body.Model.Null {
			raw = json.RawMessage("null")
		}
		m, err := parseModelConfig("model", raw, base)
		if err != nil {
			return err
		}
		draft.model = m
	}
	var err error
	if draft.description, err = clearableString("description", body.Description, draft.description, 2048); err != nil {
		return err
	}
	if draft.system, err = clearableString("system", body.System, draft.system, 100000); err != nil {
		return err
	}
	if prev == nil { // on create the lists may be omitted but not null
		for _, f := range []struct {
			path string
			o    optional[json.RawMessage]
		}{{"tools", body.Tools}, {"mcp_servers", body.MCPServers}} {
			if err := maNotNull(f.path, f.o); err != nil {
				return err
			}
		}
	}
	if draft.tools, err = parseAgentTools("", rawOrNil(body.Tools), rawOrNil(body.MCPServers), draft.tools); err != nil {
		return err
	}
	if prev == nil {
		if err := maNotNull("skills", body.Skills); err != nil {
			return err
		}
	}
	if body.Skills.Set {
		draft.skills = []skill{}
		if body.Skills.Present() {
			if draft.skills, err = parseSkills("skills", body.Skills.Value); err != nil {
				return err
			}
		}
	}
	if body.Multiagent.Set {
		draft.multiagent = nil
		if body.Multiagent.Present() {
			owner := multiagentOwner{workspaceID: draft.agent.workspaceID, agentID: draft.agent.id, version: draft.version}
			var stored *multiagentConfig
			if prev != nil {
				stored = prev.multiagent
			}
			if draft.multiagent, err = s.parseMultiagentLocked("multiagent", body.Multiagent.Value, stored, owner); err != nil {
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
		draft.metadata, err = maMetadataCreate(body.Metadata)
	} else {
		draft.metadata, err = maMetadataPatch(draft.metadata, body.Metadata, false)
	}
	return err
}

// clearableString applies an optional nullable string with a maximum
// length: omitted keeps cur; null and "" clear it (stored as null).
func clearableString(path string, o optional[string], cur *string, maxLen int) (*string, error) {
	if !o.Set {
		return cur, nil
	}
	if o.Null || o.Value == "" {
		return nil, nil
	}
	if err := checkLength(path, o.Value, 0, maxLen); err != nil {
		return nil, err
	}
	return maStringPtr(o.Value), nil
}

// rawOrNil turns an optional raw member into parseAgentTools' convention:
// nil when omitted, the JSON null when null.
func rawOrNil(o optional[json.RawMessage]) json.RawMessage {
	switch {
	case !o.Set:
		return nil
	case o.Null:
		return json.RawMessage("null")
	}
	return o.Value
}

// agentInWorkspaceLocked finds an agent of workspaceID by path id.
func (s *Server) agentInWorkspaceLocked(workspaceID, id string) (*agentRecord, error) {
	a, ok := s.agents.byID[id]
	if !ok || a.workspaceID != workspaceID {
		return nil, notFound("Agent `%s` not found.", id)
	}
	return a, nil
}

func (s *Server) getAgent(c *call) error {
	id := c.R.PathValue("agent_id")
	version := 0
	if raw, ok := queryValue(c.R.URL.Query(), "version"); ok {
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
		return 0, invalidField("version", "must be an integer")
	}
	if err := maInt32Min("version", n, 1); err != nil {
		return 0, err
	}
	return int(n), nil
}

func (s *Server) listAgents(c *call) error {
	q := c.R.URL.Query()
	created, err := maParseCreatedRange(q)
	if err != nil {
		return err
	}
	includeArchived, err := queryBool(q, "include_archived")
	if err != nil {
		return err
	}
	p, err := parseCursorPageParams(q, 100)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.agents.byID), newestFirst((*agentRecord).position))
	keep := func(a *agentRecord) bool {
		return a.workspaceID == c.WorkspaceID && (includeArchived || !a.archived()) && created.Contains(a.createdAt)
	}
	page := paginateByCursor(all, (*agentRecord).position, keep, p)
	return c.OK(mapCursorPage(page, func(a *agentRecord) agentJSON { return a.latest().view() }))
}

func (s *Server) listAgentVersions(c *call) error {
	p, err := parseCursorPageParams(c.R.URL.Query(), 100)
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
	page := paginateByCursor(all, (*agentVersion).position, func(*agentVersion) bool { return true }, p)
	return c.OK(mapCursorPage(page, (*agentVersion).view))
}

func (s *Server) updateAgent(c *call) error {
	var body agentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := maNotNull("version", body.Version); err != nil {
		return err
	}
	if body.Version.Set {
		if err := maInt32Min("version", body.Version.Value, 1); err != nil {
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
		return stateConflict(errInvalidRequest, "agent_id: agent `%s` is archived", a.id)
	}
	prev := a.latest()
	if body.Version.Set && int(body.Version.Value) != prev.version {
		return stateConflict(errInvalidRequest, "version: does not match the current version `%d`", prev.version)
	}
	draft := *prev
	draft.version = prev.version + 1
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

func (s *Server) archiveAgent(c *call) error {
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
		s.archiveDeploymentsOfAgentLocked(a.id)
	}
	return c.OK(a.latest().view())
}

// archiveDeploymentsOfAgentLocked archives, in the same operation as the
// agent, every non-archived deployment whose agent is agentID
// (docs/managed-agents-wire.md 4.6; no deployment run is recorded).
func (s *Server) archiveDeploymentsOfAgentLocked(agentID string) {
	s.deployments.ArchiveAgentLocked(agentID, s.now())
}
