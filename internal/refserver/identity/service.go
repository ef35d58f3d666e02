package identity

import (
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Deps is what the family needs from the server it runs in.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock.
	// nil: the family gets a lock of its own.
	Lock sync.Locker
	// Cloud makes the family behave as the cloud-hosted edition: a
	// workspace's external_key_id is then an AWS KMS key ARN.
	Cloud bool
	// EnvironmentLocked reports, for an environment key, the workspace of
	// its environment, whether the key still works (the environment exists
	// and is not archived), and whether the environment exists at all.
	// Called with Lock held. nil: no environment key works.
	EnvironmentLocked func(environmentID string) (workspaceID string, usable, exists bool)
}

// config is the part of Deps the family's code reads as s.cfg.
type config struct {
	clock  kit.Clock
	ids    kit.IDSource
	cloud  bool
	logger *slog.Logger
}

// Service is the identity family: its routes, the organization's directory
// (workspaces, users, service accounts), API keys, tunnels, and the token
// exchanges with what they issue.
type Service struct {
	cfg  config
	deps *kit.Deps
	seed Seed // fixed by New

	// mu is Deps.Lock: it guards the state below.
	mu              sync.Locker
	workspaces      map[string]*workspace
	users           map[string]*user
	serviceAccounts map[string]*serviceAccount
	keys            map[string]*apiKey
	keysByDigest    map[[32]byte]*apiKey
	tunnels         map[string]*tunnel
	tunnelDomains   map[string]bool  // every domain ever assigned: never reused
	tokens          tokenState       // access tokens (oauth_tokens.go)
	federation      federationState  // issuers, rules, used jti values (federation.go)
	devices         attestationState // app integrations, challenges, attested keys (attestation.go)

	// envKeys are the environment keys by digest (environment_keys.go);
	// nil until the first is minted.
	envKeys           map[[32]byte]*environmentKey
	environmentLocked func(environmentID string) (workspaceID string, usable, exists bool) // Deps.EnvironmentLocked

	denials denialLog // why exchanges were refused (oauth.go); own lock
}

// Seed is what New creates: the organization, its default workspace, and
// an owner with an unscoped personal key that has API access in the default
// workspace.
type Seed struct {
	OrganizationID     string
	DefaultWorkspaceID string
	UserID             string
	APIKey             string // the owner's unscoped personal key secret
}

// New returns the family's service with the organization seeded: it draws
// the ids org_, wrkspc_, cmpt_, user_ and apikey_, in that order.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	s := &Service{
		cfg:             config{clock: d.Clock, ids: d.IDs, cloud: d.Cloud, logger: d.Logger},
		deps:            d.Deps,
		mu:              mu,
		workspaces:      map[string]*workspace{},
		users:           map[string]*user{},
		serviceAccounts: map[string]*serviceAccount{},
		keys:            map[string]*apiKey{},
		keysByDigest:    map[[32]byte]*apiKey{},
		tunnels:         map[string]*tunnel{},
		tunnelDomains:   map[string]bool{},
	}
	s.environmentLocked = d.EnvironmentLocked
	s.seedOrganization()
	return s
}

func (s *Service) seedOrganization() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seed.OrganizationID = s.cfg.ids("org_")
	ws := s.newWorkspaceLocked("Default Workspace", true)
	owner := &user{id: s.cfg.ids("user_"), name: "Owner", apiAccess: map[string]bool{ws.id: true}}
	s.users[owner.id] = owner
	key := s.addKeyLocked(KeySpec{Kind: PersonalKey, OwnerID: owner.id})
	s.seed.DefaultWorkspaceID = ws.id
	s.seed.UserID = owner.id
	s.seed.APIKey = key.Secret
}

// Seed returns the ids and the key New created.
func (s *Service) Seed() Seed { return s.seed }

// Routes are the family's endpoints: workspaces, tunnels (and their legacy
// admin paths), the token exchanges and the API key admin endpoints.
func (s *Service) Routes() []kit.Route {
	var all []kit.Route
	all = append(all, s.workspaceRoutes()...)
	all = append(all, s.tunnelRoutes()...)
	all = append(all, s.oauthRoutes()...)
	all = append(all, s.apiKeyRoutes()...)
	return all
}

// now is the server clock as the wire carries it (kit.Deps.Now).
func (s *Service) now() time.Time { return s.deps.Now() }

// WorkspaceInfo is what the rest of the server learns about a workspace.
// It is a copy, so later changes to the workspace do not show in it.
type WorkspaceInfo struct {
	ID       string
	Name     string
	Archived bool
	Default  bool
	// DefaultGeo is data_residency.default_inference_geo; AllowedGeos its
	// allowed_inference_geos (nil: unrestricted).
	DefaultGeo  string
	AllowedGeos []string
}

// Workspace returns the workspace with this id, archived or not; false
// when there is none. It takes Deps.Lock: the caller must not hold it.
func (s *Service) Workspace(id string) (WorkspaceInfo, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.WorkspaceLocked(id)
}

// WorkspaceLocked is Workspace for a caller that holds Deps.Lock.
func (s *Service) WorkspaceLocked(id string) (WorkspaceInfo, bool) {
	ws := s.workspaces[id]
	if ws == nil {
		return WorkspaceInfo{}, false
	}
	return WorkspaceInfo{
		ID:          ws.id,
		Name:        ws.name,
		Archived:    ws.archived(),
		Default:     ws.isDefault,
		DefaultGeo:  ws.residency.defaultGeo,
		AllowedGeos: slices.Clone(ws.residency.allowedGeos),
	}, true
}
