package refserver

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/deployments"
	"github.com/agentplatform/agentplatform-go/internal/refserver/files"
	"github.com/agentplatform/agentplatform-go/internal/refserver/identity"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/memory"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
	"github.com/agentplatform/agentplatform-go/internal/refserver/sessions"
	"github.com/agentplatform/agentplatform-go/internal/refserver/skills"
	"github.com/agentplatform/agentplatform-go/internal/refserver/spans"
	"github.com/agentplatform/agentplatform-go/internal/refserver/vaults"
	"github.com/agentplatform/agentplatform-go/internal/refserver/work"
)

// Server is the in-process reference server: an http.Handler that
// implements the API over in-memory state. It is safe for concurrent use.
type Server struct {
	cfg  config
	mux  *http.ServeMux
	seed Seed // fixed by New

	deps        *kit.Deps // clock, ids and logger, as every call sees them
	faults      kit.FaultQueue
	requests    kit.RequestLog
	idempotency kit.IdempotencyStore
	rawRoutes   map[string]bool // patterns of the kit.Route.RawBody routes; fixed by New

	// mu guards the state below. It is never held while waiting (fault
	// delays) or while writing to a client.
	mu sync.Mutex

	trace *spans.Tracing // API spans (tracing.go); nil unless WithSpanExporter

	// Families in their own packages. Each has its own state and lock.
	msgs *messages.Service // Messages, chat completions, models, the fake model
	// memory is the memory stores; its state is guarded by mu (sessions
	// and deployments read stores under it).
	memory *memory.Service
	// vaults is the vaults and their credentials; guarded by mu.
	vaults *vaults.Service
	// identity is workspaces, users, keys, tunnels and the token
	// exchanges; its state is guarded by mu (its denial log has its own
	// lock).
	identity *identity.Service
	// agents is agents and environments; its state is guarded by mu
	// (sessions and deployments resolve agents and environments under it).
	agents *agents.Service
	// deployments is deployments and their runs; guarded by mu as well
	// (a run creates a session under it).
	deployments *deployments.Service
	// sessions is sessions, their events, engine and streams, and the
	// scripted agent's queued turns; guarded by mu (a turn reads agents
	// and memory stores, a deployment run creates a session, under it).
	sessions *sessions.Service
	// files is the files and their bytes on disk; guarded by mu (sessions
	// check and read mounted files under it).
	files *files.Service
	// skills is the custom skills and their versions; guarded by mu
	// (agents resolve skill references under it).
	skills *skills.Service
	// work is the work queues of self-hosted environments; guarded by mu
	// (the session engine queues work under it).
	work *work.Service
}

type config struct {
	clock        Clock
	ids          IDSource
	cloud        bool
	logger       *slog.Logger
	pingInterval time.Duration
	thinkingKey  []byte                // WithThinkingKey
	spanExporter sdktrace.SpanExporter // WithSpanExporter; nil: no spans (tracing.go)
	content      bool                  // WithContentCapture
	fileDir      string                // WithFileDir; "": a temporary directory
	maxFileSize  int64                 // WithMaxFileSize; 0: files.DefaultMaxFileSize
}

// Option configures a Server.
type Option func(*config)

// WithClock sets the clock for timestamps and expiry (default: system time).
func WithClock(c Clock) Option {
	return func(cfg *config) {
		if c != nil {
			cfg.clock = c
		}
	}
}

// WithIDs sets the id source (default: RandomIDs).
func WithIDs(ids IDSource) Option {
	return func(cfg *config) {
		if ids != nil {
			cfg.ids = ids
		}
	}
}

// WithCloudEdition makes the server behave as the cloud-hosted edition:
// a workspace's external_key_id must then be an AWS KMS key ARN
// (arn:aws:kms:<region>:<12 digits>:key/<id>) instead of an ekey_ id.
func WithCloudEdition() Option {
	return func(cfg *config) { cfg.cloud = true }
}

// WithLogger logs one line per request (id, method, path, status, duration)
// and server-side failures. Logging is off by default. Nothing that can hold
// a secret (headers, query, body) is ever logged.
func WithLogger(l *slog.Logger) Option {
	return func(cfg *config) {
		if l != nil {
			cfg.logger = l
		}
	}
}

// WithPingInterval sets how long a session event stream may stay silent
// before the server sends a ping (default 15 s, docs/session-events-wire.md
// 2.3). Values of
// zero or less keep the default.
func WithPingInterval(d time.Duration) Option {
	return func(cfg *config) {
		if d > 0 {
			cfg.pingInterval = d
		}
	}
}

// WithThinkingKey sets the key that signs thinking blocks
// (docs/messages-wire.md 10.10;
// default: 32 random bytes per server), so that a test can compute or
// replay signatures across servers.
func WithThinkingKey(key []byte) Option {
	return func(cfg *config) {
		if len(key) > 0 {
			cfg.thinkingKey = append([]byte(nil), key...)
		}
	}
}

// newMessages builds the Messages family over the server's clock, ids,
// spans and workspaces.
func (s *Server) newMessages() *messages.Service {
	d := messages.Deps{
		Deps:         s.deps,
		PingInterval: s.cfg.pingInterval,
		ThinkingKey:  s.cfg.thinkingKey,
		Content:      s.cfg.content,
		Residency:    s.residency,
	}
	if s.trace != nil {
		d.Tracer = s.trace.Tracer()
	}
	return messages.New(d)
}

// newSessions builds the sessions family over the server's lock, tracing,
// agents, environments and memory stores.
func (s *Server) newSessions() *sessions.Service {
	return sessions.New(sessions.Deps{
		Deps:                  s.deps,
		Lock:                  &s.mu,
		PingInterval:          s.cfg.pingInterval,
		Tracing:               s.trace,
		ResolveAgentLocked:    s.agents.ResolveRefLocked,
		LatestAgentLocked:     s.agents.LatestLocked,
		EnvironmentLocked:     s.agents.EnvironmentLocked,
		EnvironmentByIDLocked: s.agents.EnvironmentByIDLocked,
		StoreLocked:           s.memory.StoreLocked,
		FileLocked:            s.files.FileLocked,
		FileContentLocked:     s.files.ContentLocked,
		ResolveSkillsLocked:   s.agents.ResolveSkillsLocked,
		VaultLocked:           s.vaults.VaultLocked,
		MCPCredentialLocked:   s.vaults.MCPCredentialLocked,
		WorkNeededLocked:      s.work.WorkNeededLocked,
		SessionEndedLocked:    s.work.SessionEndedLocked,
	})
}

// resolveSkillLocked is the agents family's lookup of a custom skill.
func (s *Server) resolveSkillLocked(workspaceID, field, skillID, version string) (string, string, error) {
	ref, err := s.skills.ResolveLocked(workspaceID, field, skillID, version)
	return ref.Name, ref.Version, err
}

// residency is a workspace's default inference geo and allowed geos (nil:
// any), for the Messages family.
func (s *Server) residency(workspaceID string) (defaultGeo string, allowed []string, ok bool) {
	ws, ok := s.identity.Workspace(workspaceID)
	return ws.DefaultGeo, ws.AllowedGeos, ok
}

// Seed is what New creates: the organization, its default workspace, and
// an owner with an unscoped personal key that has API access in the default
// workspace.
type Seed = identity.Seed

// New returns a seeded server.
func New(opts ...Option) *Server {
	cfg := config{clock: kit.SystemClock{}, ids: RandomIDs(), logger: slog.New(slog.DiscardHandler), pingInterval: sessions.DefaultPingInterval}
	for _, opt := range opts {
		opt(&cfg)
	}
	s := &Server{
		cfg:  cfg,
		deps: &kit.Deps{Clock: cfg.clock, IDs: cfg.ids, Logger: cfg.logger},
	}
	s.trace = newServerTracing(cfg)
	s.msgs = s.newMessages()
	s.memory = memory.New(memory.Deps{Deps: s.deps, Lock: &s.mu})
	s.vaults = vaults.New(vaults.Deps{Deps: s.deps, Lock: &s.mu})
	s.identity = identity.New(identity.Deps{Deps: s.deps, Lock: &s.mu, Cloud: cfg.cloud, EnvironmentLocked: s.environmentOfKeyLocked}) // seeds the organization
	s.seed = s.identity.Seed()
	// Archiving an agent archives its deployments, in the same operation.
	archiveDeployments := func(agentID string, now time.Time) { s.deployments.ArchiveAgentLocked(agentID, now) }
	s.skills = skills.New(skills.Deps{Deps: s.deps, Lock: &s.mu})
	s.agents = agents.New(agents.Deps{Deps: s.deps, Lock: &s.mu, ArchiveDeploymentsLocked: archiveDeployments, ResolveSkillLocked: s.resolveSkillLocked})
	s.files = s.newFiles()
	s.work = s.newWork() // before sessions, which queue work
	s.sessions = s.newSessions()
	s.deployments = s.newDeployments()
	s.mux = http.NewServeMux()
	for _, rt := range s.routes() {
		s.handle(rt)
	}
	s.mux.HandleFunc("/", s.notFoundRoute)
	if mc, ok := cfg.clock.(*ManualClock); ok {
		kit.OnMove(mc, s.tick)
	}
	return s
}

// now is the server clock as the wire carries it (kit.Deps.Now).
func (s *Server) now() time.Time { return s.deps.Now() }

// Seed returns the ids and the key New created.
func (s *Server) Seed() Seed { return s.seed }

// handle registers a route with its chain.
func (s *Server) handle(rt kit.Route) {
	pattern := rt.Method + " " + rt.Path
	s.mux.Handle(pattern, s.serveRoute(rt))
	if rt.RawBody {
		if s.rawRoutes == nil {
			s.rawRoutes = map[string]bool{}
		}
		s.rawRoutes[pattern] = true
	}
}

// routes is the route table. A new endpoint family adds its routes here.
func (s *Server) routes() []kit.Route {
	var all []kit.Route
	all = append(all, s.identity.Routes()...) // workspaces, tunnels, token exchanges, API keys
	all = append(all, s.msgs.Routes()...)     // messages, count_tokens, chat completions, models
	all = append(all, s.agents.Routes()...)   // agents, environments
	all = append(all, s.memory.Routes()...)
	all = append(all, s.vaults.Routes()...)
	all = append(all, s.sessions.Routes()...)
	all = append(all, s.deployments.Routes()...)
	all = append(all, s.files.Routes()...)
	all = append(all, s.skills.Routes()...)
	all = append(all, s.work.Routes()...) // environment work queues
	return all
}
