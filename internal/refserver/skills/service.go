package skills

import (
	"net/http"
	"sync"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Deps is what the family needs from the server it runs in.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock,
	// because the agents family resolves skills (ResolveLocked) while
	// holding it. nil: the family gets a lock of its own.
	Lock sync.Locker
}

// Service is the skills family: its routes and every skill of every
// workspace.
type Service struct {
	ids    kit.IDSource
	mu     sync.Locker // Deps.Lock: guards skills
	skills skillState
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	return &Service{ids: d.IDs, mu: mu, skills: skillState{byID: map[string]*skill{}}}
}

// Routes are the family's endpoints: skills and their versions.
func (s *Service) Routes() []kit.Route {
	const (
		one      = "/v1/skills/{skill_id}"
		versions = one + "/versions"
		version  = versions + "/{version}"
	)
	return []kit.Route{
		{Method: http.MethodPost, Path: "/v1/skills", Op: "skills.create", Handle: s.create, RawBody: true},
		{Method: http.MethodGet, Path: "/v1/skills", Op: "skills.list", Handle: s.list},
		{Method: http.MethodGet, Path: one, Op: "skills.retrieve", Handle: s.get},
		{Method: http.MethodDelete, Path: one, Op: "skills.delete", Handle: s.delete},
		{Method: http.MethodPost, Path: versions, Op: "skills.versions.create", Handle: s.createVersion, RawBody: true},
		{Method: http.MethodGet, Path: versions, Op: "skills.versions.list", Handle: s.listVersions},
		{Method: http.MethodGet, Path: version, Op: "skills.versions.retrieve", Handle: s.getVersion},
		{Method: http.MethodDelete, Path: version, Op: "skills.versions.delete", Handle: s.deleteVersion},
		{Method: http.MethodGet, Path: version + "/content", Op: "skills.versions.download", Handle: s.download},
	}
}

// Ref is a custom skill reference an agent may hold, resolved.
type Ref struct {
	// Name is the skill's name (its versions' name, which never changes).
	Name string
	// Version is the version the reference pins: the one given ("latest"
	// or a version id), or, when none was, the skill's latest version id.
	Version string
}

// ResolveLocked resolves a custom skill reference of the workspace at
// field (e.g. "skills[0]"): 404 naming field.skill_id when the skill is
// unknown, field.version when version ("" for none) is neither "latest"
// nor one of its version ids. The caller holds Deps.Lock.
func (s *Service) ResolveLocked(workspaceID, field, skillID, version string) (Ref, error) {
	sk, ok := s.skills.byID[skillID]
	if !ok || sk.workspaceID != workspaceID {
		return Ref{}, kit.NotFound("%s: skill `%s` not found", kit.JoinPath(field, "skill_id"), skillID)
	}
	switch version {
	case "":
		return Ref{Name: sk.name, Version: sk.latest().id}, nil
	case latest:
		return Ref{Name: sk.name, Version: version}, nil
	}
	if sk.version(version) == nil {
		return Ref{}, kit.NotFound("%s: skill version `%s` not found", kit.JoinPath(field, "version"), version)
	}
	return Ref{Name: sk.name, Version: version}, nil
}
