package refserver

import "github.com/agentplatform/agentplatform-go/internal/refserver/kit"

// Time-driven work: scheduled deployments fire when the server's clock passes
// their next occurrence, expired files are removed from disk, and work items whose lease ran out go back to their queue. tick does whatever has fallen due. It runs before
// every request, whenever a ManualClock moves, and once a second while Start
// serves on the system clock, so a standalone server fires on time even when
// nobody is calling it.
func (s *Server) tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.deployments.FireDueLocked(now)
	s.files.SweepLocked(now)
	s.work.SweepLocked(now) // leases that ran out
}

// tickEverySecond runs tick in the background until the returned stop
// function is called (kit.EverySecond).
func (s *Server) tickEverySecond() (stop func()) {
	return kit.EverySecond(s.cfg.clock, s.tick)
}
