package memory

import (
	"sync"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Deps is what the family needs from the server it runs in.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock,
	// because its sessions and deployments read stores under that lock
	// (StoreLocked) while holding it for their own state. nil: the family
	// gets a lock of its own.
	Lock sync.Locker
}

// config is the part of Deps the handlers read as s.cfg.
type config struct {
	ids kit.IDSource
}

// Service is the memory family: its routes and every store of every
// workspace.
type Service struct {
	cfg    config
	mu     sync.Locker // Deps.Lock: guards memory
	memory memoryState
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	return &Service{cfg: config{ids: d.IDs}, mu: mu}
}

// Routes are the family's endpoints: memory stores, memories and memory
// versions.
func (s *Service) Routes() []kit.Route { return s.memoryRoutes() }

// StoreInfo is what the rest of the server learns about a store: enough to
// attach it to a session or check a deployment's resources. It is a copy,
// so later changes to the store do not show in it.
type StoreInfo struct {
	ID          string
	Name        string
	Description string // "" when the store has none
	// Archived stores are read-only and cannot be attached to new sessions.
	Archived bool
	// MountPath is where a session mounts the store by default:
	// /mnt/memory/<slug of the name> (see memoryMountPath).
	MountPath string
}

// StoreLocked returns the store with this id in the workspace; a 404
// ("Memory store `<id>` not found.") when it is unknown, deleted, or in
// another workspace. The caller holds Deps.Lock.
func (s *Service) StoreLocked(workspaceID, id string) (StoreInfo, error) {
	st, err := s.memoryStoreLocked(workspaceID, id)
	if err != nil {
		return StoreInfo{}, err
	}
	name, description := st.snapshot()
	return StoreInfo{
		ID:          st.id,
		Name:        name,
		Description: description,
		Archived:    st.archived(),
		MountPath:   memoryMountPath(st.id, name),
	}, nil
}
