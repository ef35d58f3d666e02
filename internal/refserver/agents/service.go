package agents

import (
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Deps is what the family needs from the server it runs in.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock,
	// because sessions and deployments resolve agents and environments
	// (ResolveRefLocked, EnvironmentLocked) while holding it for their own
	// state. nil: the family gets a lock of its own.
	Lock sync.Locker
	// ArchiveDeploymentsLocked archives every deployment of an agent, in the
	// same operation as archiving the agent. It is called with Lock held
	// and must not take it. nil: nothing to archive.
	ArchiveDeploymentsLocked func(agentID string, now time.Time)
	// ResolveSkillLocked looks a custom skill reference up in the skills
	// family (docs/skills-wire.md 5), at field ("skills[i]"): the skill's
	// name and the version the reference pins ("" given: the latest
	// version id), or the 404 naming field's skill_id or version. It is
	// called with Lock held and must not take it. nil: custom skills are
	// not looked up.
	ResolveSkillLocked func(workspaceID, field, skillID, version string) (name, resolved string, err error)
}

// config is the part of Deps the handlers read as s.cfg.
type config struct {
	ids kit.IDSource
}

// Service is the agents family: its routes and every agent and environment
// of every workspace.
type Service struct {
	cfg  config
	deps *kit.Deps
	mu   sync.Locker // Deps.Lock: guards agents and environments

	agents       agentState
	environments environmentState

	archiveDeploymentsLocked func(agentID string, now time.Time)
	resolveSkillLocked       func(workspaceID, field, skillID, version string) (name, resolved string, err error)
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	return &Service{cfg: config{ids: d.IDs}, deps: d.Deps, mu: mu, archiveDeploymentsLocked: d.ArchiveDeploymentsLocked, resolveSkillLocked: d.ResolveSkillLocked}
}

// Routes are the family's endpoints: agents and their versions, and
// environments.
func (s *Service) Routes() []kit.Route {
	return append(s.agentRoutes(), s.environmentRoutes()...)
}

// now is the server clock as the wire carries it.
func (s *Service) now() time.Time { return s.deps.Now() }

// ResolveRefLocked resolves an agent reference sent at field: an agent id
// string (its latest version) or {type: agent, id, version?}. It returns
// the pinned version, which never changes (see Version); 404 when the
// agent or version is unknown in the workspace, 400 when the agent is
// archived. The caller holds Deps.Lock.
func (s *Service) ResolveRefLocked(workspaceID, field string, raw []byte) (*Version, error) {
	return s.resolveAgentRefLocked(workspaceID, field, raw)
}

// LatestLocked returns the latest version of the agent with this id, in
// any workspace, archived or not. The caller holds Deps.Lock.
func (s *Service) LatestLocked(agentID string) (*Version, bool) {
	a, ok := s.agents.byID[agentID]
	if !ok {
		return nil, false
	}
	return a.latest(), true
}

// EnvironmentInfo is what the rest of the server learns about an
// environment. It is a copy, so later changes to the environment do not
// show in it.
type EnvironmentInfo struct {
	ID          string
	WorkspaceID string
	// Archived environments cannot be used by new sessions or deployments
	// (400 "environment_id: environment `<id>` is archived").
	Archived bool
	// SelfHosted environments run sandbox tools on the client
	// (user.tool_result) and cannot mount resources.
	SelfHosted bool
}

func (e *environment) info() EnvironmentInfo {
	return EnvironmentInfo{ID: e.id, WorkspaceID: e.workspaceID, Archived: e.archived(), SelfHosted: e.selfHosted()}
}

// EnvironmentLocked returns the environment with this id in the
// workspace, archived or not: a 404 ("Environment `<id>` not found.") when
// it is unknown, deleted, or in another workspace. The caller holds
// Deps.Lock.
func (s *Service) EnvironmentLocked(workspaceID, id string) (EnvironmentInfo, error) {
	e, err := s.environmentLocked(workspaceID, id)
	if err != nil {
		return EnvironmentInfo{}, err
	}
	return e.info(), nil
}

// EnvironmentByIDLocked returns the environment with this id in any
// workspace; false when there is none (never created, or deleted). The
// caller holds Deps.Lock.
func (s *Service) EnvironmentByIDLocked(id string) (EnvironmentInfo, bool) {
	e, ok := s.environments.byID[id]
	if !ok {
		return EnvironmentInfo{}, false
	}
	return e.info(), true
}
