package work

import (
	"sync"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Deps is what the family needs from the server it runs in. Every func
// whose name ends in Locked is called with Lock held and must not take it.
type Deps struct {
	*kit.Deps
	// Lock guards the family's state. The server passes its one lock,
	// because the session engine queues work under it. nil: the family
	// gets a lock of its own.
	Lock sync.Locker
	// EnvironmentLocked is agents.Service.EnvironmentLocked: the
	// environment with this id in the workspace (a copy), or its 404.
	EnvironmentLocked func(workspaceID, id string) (agents.EnvironmentInfo, error)
	// SandboxCallWaitingLocked is sessions.Service.SandboxCallWaitingLocked:
	// whether a session that can still run has a sandbox call waiting for
	// its result. nil: never.
	SandboxCallWaitingLocked func(sessionID string) bool
}

// Service is the work queue family: its routes and every work item of
// every self-hosted environment.
type Service struct {
	deps Deps
	mu   sync.Locker

	items  map[string]*item   // by id
	queues map[string][]*item // by environment id, oldest first
	live   map[string]*item   // the session's item that is not stopped, by session id
	// leased are the starting, active and stopping items (they hold a
	// lease); pending the polled, unacknowledged ones. The sweep looks at
	// these only.
	leased  map[string]*item
	pending map[string]*item
	// workers is when each vendor-worker-id last polled, by environment:
	// entries older than workerWindow are forgotten.
	workers map[string]map[string]time.Time
	// wake is closed (and replaced) whenever an item may have become
	// pollable; a waiting long poll then looks again.
	wake      chan struct{}
	waiting   int // long polls waiting now (PollsWaiting)
	lastSweep time.Time
}

// PollsWaiting is how many long polls are waiting for an item now, so
// that a test can make work arrive while one waits.
func (s *Service) PollsWaiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waiting
}

// New returns the family's service.
func New(d Deps) *Service {
	mu := d.Lock
	if mu == nil {
		mu = new(sync.Mutex)
	}
	return &Service{deps: d, mu: mu,
		items: map[string]*item{}, queues: map[string][]*item{}, live: map[string]*item{},
		leased: map[string]*item{}, pending: map[string]*item{},
		workers: map[string]map[string]time.Time{}, wake: make(chan struct{})}
}

// notifyLocked wakes every waiting long poll.
func (s *Service) notifyLocked() {
	close(s.wake)
	s.wake = make(chan struct{})
}

// WorkNeededLocked queues an item for the session unless it has a live
// one (not stopped): the sessions family calls it when a session of a
// self-hosted environment is created, and when one has a sandbox call
// waiting. The caller holds Deps.Lock.
func (s *Service) WorkNeededLocked(workspaceID, environmentID, sessionID string, now time.Time) {
	if _, ok := s.live[sessionID]; ok {
		return
	}
	it := &item{id: s.deps.IDs("work_"), workspaceID: workspaceID, environmentID: environmentID,
		sessionID: sessionID, state: stateQueued, metadata: map[string]string{}, createdAt: now,
		ttl: defaultTTL}
	s.items[it.id] = it
	s.queues[environmentID] = append(s.queues[environmentID], it)
	s.live[sessionID] = it
	s.notifyLocked()
}

// SessionEndedLocked applies a session's end (terminated, archived or
// deleted) to its live item: a queued item stops, a claimed one is asked
// to stop (stopping); a stopping one is left to its worker. The caller
// holds Deps.Lock.
func (s *Service) SessionEndedLocked(sessionID string, now time.Time) {
	it, ok := s.live[sessionID]
	if !ok {
		return
	}
	switch it.state {
	case stateQueued:
		s.stopLocked(it, now)
	case stateStarting, stateActive:
		it.state, it.stopRequestedAt = stateStopping, now
	}
}

// SweepLocked applies what the clock has made due: an item whose lease
// ran out goes back to the queue (a stopping one stops). It also wakes the
// long polls when the clock moved while items wait for reclaim, since
// reclaim_older_than_ms is measured on the server's clock. The server
// calls it on its tick and the work handlers before they read the queue.
// The caller holds Deps.Lock.
func (s *Service) SweepLocked(now time.Time) {
	woke := false
	for _, it := range s.leased {
		if now.Before(it.leaseExpires) {
			continue
		}
		delete(s.leased, it.id)
		if it.state == stateStopping {
			s.stopLocked(it, now)
			continue
		}
		// The lease is lost: back in the queue for another worker. The
		// old holder's next heartbeat no longer matches.
		it.state = stateQueued
		it.polledAt, it.leaseExpires, it.heartbeatAt, it.beat = time.Time{}, time.Time{}, time.Time{}, ""
		woke = true
	}
	if len(s.pending) > 0 && !now.Equal(s.lastSweep) {
		woke = true
	}
	s.lastSweep = now
	if woke {
		s.notifyLocked()
	}
}

// stopLocked stops an item and, when its session still has a sandbox call
// waiting, queues a new one for it.
func (s *Service) stopLocked(it *item, now time.Time) {
	it.state, it.stoppedAt = stateStopped, now
	delete(s.leased, it.id)
	delete(s.pending, it.id)
	if s.live[it.sessionID] == it {
		delete(s.live, it.sessionID)
	}
	if s.deps.SandboxCallWaitingLocked != nil && s.deps.SandboxCallWaitingLocked(it.sessionID) {
		s.WorkNeededLocked(it.workspaceID, it.environmentID, it.sessionID, now)
	}
}
