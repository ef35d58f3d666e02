package deployments

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/memory"
	"github.com/agentplatform/agentplatform-go/internal/refserver/vaults"
)

// Deps is what the family needs from the server it runs in. Every func
// whose name ends in Locked is called with Lock held and must not take it.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock,
	// because a run creates a session and reads agents, environments and
	// memory stores while the deployment is locked. nil: the family gets
	// a lock of its own (tests).
	Lock sync.Locker

	// ResolveAgentLocked resolves the body's agent reference at path (an
	// id string pins the latest version) in the workspace.
	ResolveAgentLocked func(workspaceID, path string, raw json.RawMessage) (Agent, error)
	// CheckBudgetable refuses a budget for an agent version that can run a
	// model without a list price.
	CheckBudgetable func(Agent) error
	// EnvironmentFieldLocked reads the required environment_id field and
	// returns the usable (existing, unarchived) environment it names.
	EnvironmentFieldLocked func(workspaceID string, field kit.Optional[string]) (Environment, error)
	// EnvironmentLocked returns the environment with this id in any
	// workspace; false when there is none.
	EnvironmentLocked func(id string) (Environment, bool)
	// StoreLocked is memory.Service.StoreLocked: whether a memory store
	// exists in the workspace and is archived.
	StoreLocked func(workspaceID, id string) (memory.StoreInfo, error)
	// VaultLocked is vaults.Service.VaultLocked: the vault with this id in
	// the workspace, or its 404. nil: every vault id is taken as usable.
	VaultLocked vaults.LookupLocked

	// The session parameters a deployment hands to its sessions are the
	// sessions code's: these parse them at path with its rules.
	ParseInitialEvents func(path string, raw json.RawMessage, minN int) (Events, error)
	ParseBudget        func(path string, raw json.RawMessage) (*Budget, error)
	ParseResources     func(path string, raw json.RawMessage) (Resources, error)
	ParseVaultIDs      func(path string, raw json.RawMessage) ([]string, error)
	// CheckResourcesLocked checks resources as a session create would in
	// the workspace (memory stores exist and are not archived, mount paths
	// do not clash; none at all for a self-hosted environment).
	CheckResourcesLocked func(workspaceID string, selfHosted bool, r Resources, now time.Time) error

	// CreateSessionLocked creates and starts a session of a run, dated at,
	// and runs the turn its initial events start; it returns the
	// session's id or why it could not be created.
	CreateSessionLocked func(workspaceID string, spec SessionSpec, at time.Time) (sessionID string, err error)
	// ParentTurns makes the request's span the parent of the turns a Run
	// Now starts; the returned func ends that.
	ParentTurns func(c *kit.Call) (end func())
}

// Agent is a pinned agent version as the server resolved it. The family
// reads ID and Reference and hands Version back unchanged in SessionSpec.
type Agent struct {
	ID        string // the agent's id
	Reference any    // the wire reference {"type":"agent","id","version"}
	Version   any    // the server's snapshot of the version; opaque here
}

// Environment is what the family learns about an environment: a copy.
type Environment struct {
	ID, WorkspaceID      string
	SelfHosted, Archived bool
}

// Events are a deployment's initial events: their stored forms, which the
// deployment object shows, and the parsed value handed back in
// SessionSpec.
type Events struct {
	Stored []json.RawMessage
	Value  any
}

// Resources are a deployment's resources: each one's config as the
// deployment object shows it, the ids of the memory stores among them
// (in order), and the parsed value handed back in SessionSpec.
type Resources struct {
	Configs        []any
	MemoryStoreIDs []string
	Value          any
}

// Budget is a deployment's budget: its wire form and the parsed value
// handed back in SessionSpec. A nil *Budget is no budget.
type Budget struct {
	View  any
	Value any
}

// SessionSpec is what a deployment hands to each session it creates: its
// pinned agent, environment, resources, vaults, budget, initial events and
// its own id.
type SessionSpec struct {
	Agent         Agent
	EnvironmentID string
	Resources     Resources
	VaultIDs      []string
	Budget        *Budget
	Events        Events
	DeploymentID  string
}

// config is the part of Deps the handlers read as s.cfg.
type config struct {
	ids kit.IDSource
}

// Service is the deployments family: its routes and every deployment and
// run of every workspace.
type Service struct {
	cfg         config
	deps        Deps
	mu          sync.Locker // Deps.Lock: guards deployments
	deployments deploymentState
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	s := &Service{deps: d, mu: mu}
	if d.Deps != nil {
		s.cfg.ids = d.IDs
	}
	return s
}

// Routes are the family's endpoints: deployments and deployment runs.
func (s *Service) Routes() []kit.Route { return s.deploymentRoutes() }

// FireDueLocked fires every scheduled occurrence that has fallen due by
// now (see fireDueDeploymentsLocked). The server's tick calls it before
// every request and whenever its clock moves. The caller holds Deps.Lock.
func (s *Service) FireDueLocked(now time.Time) { s.fireDueDeploymentsLocked(now) }

// ArchiveAgentLocked archives every deployment of the agent, in the same
// operation as archiving the agent itself. The caller holds Deps.Lock.
func (s *Service) ArchiveAgentLocked(agentID string, now time.Time) {
	s.archiveAgentDeploymentsLocked(agentID, now)
}
