package identity

import (
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
}

// config is the part of Deps the family's code reads as s.cfg.
type config struct {
	clock kit.Clock
	ids   kit.IDSource
}

// Service is the identity family: its routes and its state.
type Service struct {
	cfg  config
	deps *kit.Deps

	mu            sync.Locker // Deps.Lock: guards the state below
	tunnels       map[string]*tunnel
	tunnelDomains map[string]bool // every domain ever assigned: never reused
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	return &Service{
		cfg:           config{clock: d.Clock, ids: d.IDs},
		deps:          d.Deps,
		mu:            mu,
		tunnels:       map[string]*tunnel{},
		tunnelDomains: map[string]bool{},
	}
}

// Routes are the family's endpoints.
func (s *Service) Routes() []kit.Route {
	return s.tunnelRoutes()
}

// now is the server clock as the wire carries it (kit.Deps.Now).
func (s *Service) now() time.Time { return s.deps.Now() }
