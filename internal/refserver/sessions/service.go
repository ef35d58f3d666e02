package sessions

import (
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/files"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/memory"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
	"github.com/agentplatform/agentplatform-go/internal/refserver/vaults"
)

// Deps is what the family needs from the server it runs in. Every func
// whose name ends in Locked is called with Lock held and must not take it.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock,
	// because sessions read agents, environments and memory stores, and
	// deployments create sessions, under it. nil: the family gets a lock of
	// its own (tests).
	Lock sync.Locker
	// PingInterval is how long an event stream may stay silent before the
	// server sends a ping; zero or less: 15 s.
	PingInterval time.Duration
	// Tracing is the server's API tracing; nil: no spans.
	Tracing *spans.Tracing

	// ResolveAgentLocked is agents.Service.ResolveRefLocked: the agent
	// version a request body's reference at field names in the workspace.
	ResolveAgentLocked func(workspaceID, field string, raw []byte) (*agents.Version, error)
	// LatestAgentLocked is agents.Service.LatestLocked: an agent's latest
	// version, in any workspace.
	LatestAgentLocked func(agentID string) (*agents.Version, bool)
	// EnvironmentLocked is agents.Service.EnvironmentLocked: the
	// environment with this id in the workspace (a copy), or its 404.
	EnvironmentLocked func(workspaceID, id string) (agents.EnvironmentInfo, error)
	// EnvironmentByIDLocked is agents.Service.EnvironmentByIDLocked: the
	// environment with this id in any workspace (a copy).
	EnvironmentByIDLocked func(id string) (agents.EnvironmentInfo, bool)
	// StoreLocked is memory.Service.StoreLocked: whether a memory store
	// exists in the workspace and is archived.
	StoreLocked func(workspaceID, id string) (memory.StoreInfo, error)
	// FileLocked is files.Service.FileLocked: the live file with this id
	// in the workspace, or a 404 naming field. nil: every file id is taken
	// as existing (tests of the family alone).
	FileLocked func(workspaceID, id, field string, now time.Time) (files.Info, error)
	// FileContentLocked is files.Service.ContentLocked: up to limit bytes
	// of a file, for the scripted agent's read tool. nil: none.
	FileContentLocked func(workspaceID, id string, limit int64, now time.Time) ([]byte, bool, error)
	// ResolveSkillsLocked is agents.Service.ResolveSkillsLocked: an
	// agent_with_overrides session's custom skills must exist. nil: they
	// are not looked up.
	ResolveSkillsLocked func(workspaceID, path string, skills []agents.Skill) error
	// VaultLocked is vaults.Service.VaultLocked: the vault with this id in
	// the workspace, or its 404. nil: every vault id is taken as usable
	// (tests of the family alone).
	VaultLocked vaults.LookupLocked
	// MCPCredentialLocked is vaults.Service.MCPCredentialLocked: the
	// credential of the session's vaults for the MCP server at a URL. nil:
	// none ever matches.
	MCPCredentialLocked func(workspaceID string, vaultIDs []string, serverURL string) (credentialID string, ok bool)
	// WorkNeededLocked is work.Service.WorkNeededLocked: a session of a
	// self-hosted environment needs a worker (work.go). nil: no queue.
	WorkNeededLocked func(workspaceID, environmentID, sessionID string, now time.Time)
	// SessionEndedLocked is work.Service.SessionEndedLocked: a session was
	// terminated, archived or deleted. nil: no queue.
	SessionEndedLocked func(sessionID string, now time.Time)
}

// DefaultPingInterval is how long a stream stays silent before a ping
// when the server is not told otherwise (docs/session-events-wire.md 2.3).
const DefaultPingInterval = defaultPingInterval

// config is the part of Deps the handlers read as s.cfg.
type config struct {
	ids          kit.IDSource
	pingInterval time.Duration
}

// Service is the sessions family: its routes, every session of every
// workspace with its engine and streams, and the scripted agent's queued
// turns.
type Service struct {
	cfg      config
	deps     Deps
	mu       sync.Locker // Deps.Lock: guards sessions and scripts
	trace    *spans.Tracing
	sessions sessionState
	scripts  scriptState
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	s := &Service{deps: d, mu: mu, trace: d.Tracing}
	if d.Deps != nil {
		s.cfg.ids = d.IDs
	}
	s.cfg.pingInterval = d.PingInterval
	if s.cfg.pingInterval <= 0 {
		s.cfg.pingInterval = defaultPingInterval
	}
	return s
}

// now is the server clock as the wire carries it (kit.Deps.Now).
func (s *Service) now() time.Time { return s.deps.Now() }

// Routes are the family's endpoints: sessions, session resources and
// session events (send, list, stream).
func (s *Service) Routes() []kit.Route { return s.sessionRoutes() }
