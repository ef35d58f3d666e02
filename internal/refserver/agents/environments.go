package agents

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"time"
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

func (e *environment) position() position { return position{CreatedAt: e.createdAt, ID: e.id} }

type environmentJSON struct {
	Type        string            `json:"type"`
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description *string           `json:"description"`
	Config      any               `json:"config"`
	Scope       string            `json:"scope"`
	Metadata    map[string]string `json:"metadata"`
	ArchivedAt  *timestamp        `json:"archived_at"`
	CreatedAt   timestamp         `json:"created_at"`
	UpdatedAt   timestamp         `json:"updated_at"`
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
		ArchivedAt:  optionalTimestamp(e.archivedAt),
		CreatedAt:   timestamp(e.createdAt),
		UpdatedAt:   timestamp(e.updatedAt),
	}
}

func (s *Service) environmentRoutes() []route {
	return []route{
		{Method: http.MethodPost, Path: "/v1/environments", Op: "environments.create", Betas: maBetas, Handle: s.createEnvironment},
		{Method: http.MethodGet, Path: "/v1/environments", Op: "environments.list", Betas: maBetas, Handle: s.listEnvironments},
		{Method: http.MethodGet, Path: "/v1/environments/{environment_id}", Op: "environments.retrieve", Betas: maBetas, Handle: s.getEnvironment},
		{Method: http.MethodPost, Path: "/v1/environments/{environment_id}", Op: "environments.update", Betas: maBetas, Handle: s.updateEnvironment},
		{Method: http.MethodDelete, Path: "/v1/environments/{environment_id}", Op: "environments.delete", Betas: maBetas, Handle: s.deleteEnvironment},
		{Method: http.MethodPost, Path: "/v1/environments/{environment_id}/archive", Op: "environments.archive", Betas: maBetas, Handle: s.archiveEnvironment},
	}
}

type environmentBody struct {
	Name        optional[string]                     `json:"name"`
	Description optional[string]                     `json:"description"`
	Config      optional[json.RawMessage]            `json:"config"`
	Metadata    optional[map[string]json.RawMessage] `json:"metadata"`
	Scope       optional[string]                     `json:"scope"`
}

func (s *Service) createEnvironment(c *call) error {
	var body environmentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := maRequired("name", body.Name); err != nil {
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
		if err := checkLength("name", body.Name.Value, 1, 256); err != nil {
			return err
		}
		e.name = body.Name.Value
	}
	if body.Description.Set {
		e.description = nil
		if body.Description.Present() {
			if err := checkLength("description", body.Description.Value, 0, 1024); err != nil {
				return err
			}
			e.description = maStringPtr(body.Description.Value)
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
		e.metadata, err = maMetadataCreate(body.Metadata)
	} else {
		e.metadata, err = maMetadataPatch(e.metadata, body.Metadata, true)
	}
	if err != nil {
		return err
	}
	if body.Scope.Present() {
		if err := maOneOf("scope", body.Scope.Value, "organization", "account"); err != nil {
			return err
		}
		if body.Scope.Value == "account" {
			return invalidField("scope", "`account` is not supported for API organizations")
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
		return nil, notFound("Environment `%s` not found.", id)
	}
	return e, nil
}

func (s *Service) getEnvironment(c *call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.environmentLocked(c.WorkspaceID, c.R.PathValue("environment_id"))
	if err != nil {
		return err
	}
	return c.OK(e.view())
}

func (s *Service) listEnvironments(c *call) error {
	q := c.R.URL.Query()
	includeArchived, err := queryBool(q, "include_archived")
	if err != nil {
		return err
	}
	p, err := parseCursorPageParams(q, 1000)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	all := slices.SortedFunc(maps.Values(s.environments.byID), newestFirst((*environment).position))
	keep := func(e *environment) bool {
		return e.workspaceID == c.WorkspaceID && (includeArchived || !e.archived())
	}
	return c.OK(mapCursorPage(paginateByCursor(all, (*environment).position, keep, p), (*environment).view))
}

func (s *Service) updateEnvironment(c *call) error {
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
		return stateConflict(errInvalidRequest, "environment_id: environment `%s` is archived", e.id)
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

func (s *Service) archiveEnvironment(c *call) error {
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

func (s *Service) deleteEnvironment(c *call) error {
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
