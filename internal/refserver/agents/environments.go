package agents

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Environments (docs/managed-agents-wire.md section 5): where sessions run.
// An environment's config is cloud (networking and packages) or
// self_hosted; its type is fixed at creation. Delete removes it for good.

type environmentState struct {
	byID map[string]*environment // nil until the first environment is created
}

type environment struct {
	id          string
	workspaceID string
	name        string
	description *string // nil is null; "" is kept as ""
	config      envConfig
	scope       string
	metadata    map[string]string
	createdAt   time.Time
	updatedAt   time.Time
	archivedAt  time.Time // zero while active
}

// archived reports whether the environment is archived: new sessions and
// deployments may not use it (400 "environment_id: environment `<id>` is
// archived").
func (e *environment) archived() bool { return !e.archivedAt.IsZero() }

// selfHosted reports whether the environment's config is self_hosted: the
// client runs sandbox tools (user.tool_result) and resources cannot be
// mounted.
func (e *environment) selfHosted() bool { return e.config.typ == envSelfHosted }

func (e *environment) position() kit.Position { return kit.Position{CreatedAt: e.createdAt, ID: e.id} }

type environmentJSON struct {
	Type        string            `json:"type"`
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description *string           `json:"description"`
	Config      any               `json:"config"`
	Scope       string            `json:"scope"`
	Metadata    map[string]string `json:"metadata"`
	ArchivedAt  *kit.Timestamp    `json:"archived_at"`
	CreatedAt   kit.Timestamp     `json:"created_at"`
	UpdatedAt   kit.Timestamp     `json:"updated_at"`
}

func (e *environment) view() environmentJSON {
	return environmentJSON{
		Type:        "environment",
		ID:          e.id,
		Name:        e.name,
		Description: e.description,
		Config:      e.config.view(),
		Scope:       e.scope,
		Metadata:    e.metadata,
		ArchivedAt:  kit.OptionalTimestamp(e.archivedAt),
		CreatedAt:   kit.Timestamp(e.createdAt),
		UpdatedAt:   kit.Timestamp(e.updatedAt),
	}
}

func (s *Service) environmentRoutes() []kit.Route {
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/environments", Op: "environments.create", Betas: kit.ManagedAgentsBetas, Handle: s.createEnvironment},
		{Method: http.MethodGet, Path: "/v1/environments", Op: "environments.list", Betas: kit.ManagedAgentsBetas, Handle: s.listEnvironments},
		{Method: http.MethodGet, Path: "/v1/environments/{environment_id}", Op: "environments.retrieve", Betas: kit.ManagedAgentsBetas, Handle: s.getEnvironment},
		{Method: http.MethodPost, Path: "/v1/environments/{environment_id}", Op: "environments.update", Betas: kit.ManagedAgentsBetas, Handle: s.updateEnvironment},
		{Method: http.MethodDelete, Path: "/v1/environments/{environment_id}", Op: "environments.delete", Betas: kit.ManagedAgentsBetas, Handle: s.deleteEnvironment},
		{Method: http.MethodPost, Path: "/v1/environments/{environment_id}/archive", Op: "environments.archive", Betas: kit.ManagedAgentsBetas, Handle: s.archiveEnvironment},
	}
}

type environmentBody struct {
	Name        kit.Optional[string]                     `json:"name"`
	Description kit.Optional[string]                     `json:"description"`
	Config      kit.Optional[json.RawMessage]            `json:"config"`
	Metadata    kit.Optional[map[string]json.RawMessage] `json:"metadata"`
	Scope       kit.Optional[string]                     `json:"scope"`
}

func (s *Service) createEnvironment(c *kit.Call) error {
	var body environmentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.Required("name", body.Name); err != nil {
		return err
	}
	now := c.Now()
	e := &environment{workspaceID: c.WorkspaceID, scope: "organization", config: defaultEnvConfig(),
		createdAt: now, updatedAt: now}
	if err := applyEnvironmentBody(e, body, true); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e.id = s.cfg.ids("env_")
	if s.environments.byID == nil {
		s.environments.byID = map[string]*environment{}
	}
	s.environments.byID[e.id] = e
	return c.OK(e.view())
}

// applyEnvironmentBody applies a create (creating) or update body to e.
func applyEnvironmentBody(e *environment, body environmentBody, creating bool) error {
	if body.Name.Present() {
		if err := kit.CheckLength("name", body.Name.Value, 1, 256); err != nil {
			return err
		}
		e.name = body.Name.Value
	}
	if body.Description.Set {
		e.description = nil
		if body.Description.Present() {
			if err := kit.CheckLength("description", body.Description.Value, 0, 1024); err != nil {
				return err
			}
			e.description = kit.StringPtr(body.Description.Value)
		}
	}
	if body.Config.Present() {
		cfg, err := parseEnvConfig("config", body.Config.Value, e.config, creating)
		if err != nil {
			return err
		}
		e.config = cfg
	}
	var err error
	if creating {
		e.metadata, err = kit.MetadataCreate(body.Metadata)
	} else {
		e.metadata, err = kit.MetadataPatch(e.metadata, body.Metadata, true)
	}
	if err != nil {
		return err
	}
	if body.Scope.Present() {
		if err := kit.OneOf("scope", body.Scope.Value, "organization", "account"); err != nil {
			return err
		}
		if body.Scope.Value == "account" {
			return kit.InvalidField("scope", "`account` is not supported for API organizations")
		}
		e.scope = body.Scope.Value
	}
	return nil
}

// environmentLocked returns an environment of workspaceID: 404
// `Environment `<id>` not found.` when unknown or deleted. Archived ones
// are returned; callers check archived().
func (s *Service) environmentLocked(workspaceID, id string) (*environment, error) {
	e, ok := s.environments.byID[id]
	if !ok || e.workspaceID != workspaceID {
		return nil, kit.NotFound("Environment `%s` not found.", id)
	}
	return e, nil
}

func (s *Service) getEnvironment(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.environmentLocked(c.WorkspaceID, c.R.PathValue("environment_id"))
	if err != nil {
		return err
	}
	return c.OK(e.view())
}

func (s *Service) listEnvironments(c *kit.Call) error {
	q := c.R.URL.Query()
	includeArchived, err := kit.QueryBool(q, "include_archived")
	if err != nil {
		return err
	}
	p, err := kit.ParseCursorPageParams(q, 1000)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.environments.byID), kit.NewestFirst((*environment).position))
	keep := func(e *environment) bool {
		return e.workspaceID == c.WorkspaceID && (includeArchived || !e.archived())
	}
	return c.OK(kit.MapCursorPage(kit.PaginateByCursor(all, (*environment).position, keep, p), (*environment).view))
}

func (s *Service) updateEnvironment(c *kit.Call) error {
	var body environmentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.environmentLocked(c.WorkspaceID, c.R.PathValue("environment_id"))
	if err != nil {
		return err
	}
	if e.archived() {
		return kit.StateConflict("environment_id: environment `%s` is archived", e.id)
	}
	draft := *e
	if err := applyEnvironmentBody(&draft, body, false); err != nil {
		return err
	}
	if changed := !envEqual(&draft, e); changed {
		draft.updatedAt = c.Now()
	}
	*e = draft
	return c.OK(e.view())
}

// envEqual compares the wire forms: updated_at moves only on a change.
func envEqual(a, b *environment) bool {
	ja, errA := json.Marshal(a.view())
	jb, errB := json.Marshal(b.view())
	return errA == nil && errB == nil && string(ja) == string(jb)
}

func (s *Service) archiveEnvironment(c *kit.Call) error {
	if err := c.Decode(&struct{}{}); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.environmentLocked(c.WorkspaceID, c.R.PathValue("environment_id"))
	if err != nil {
		return err
	}
	if !e.archived() {
		e.archivedAt = c.Now()
	}
	return c.OK(e.view())
}

func (s *Service) deleteEnvironment(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.environmentLocked(c.WorkspaceID, c.R.PathValue("environment_id"))
	if err != nil {
		return err
	}
	delete(s.environments.byID, e.id)
	return c.OK(struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	}{e.id, "environment_deleted"})
}
