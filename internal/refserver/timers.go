package refserver

import (
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Time-driven work: scheduled deployments fire when the server's clock passes
// their next occurrence. tick does whatever has fallen due. It runs before
// every request, whenever a ManualClock moves, and once a second while Start
// serves on the system clock, so a standalone server fires on time even when
// nobody is calling it.
func (s *Server) tick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fireDueDeploymentsLocked(s.now())
}

// tickEverySecond runs tick in the background until the returned stop
// function is called; stop waits for the goroutine to end. With a frozen
// ManualClock there is nothing to do: the clock's moves drive tick. A
// running one (NewRunningClock) also moves with real time, which nothing
// announces, so it is ticked like the system clock.
func (s *Server) tickEverySecond() (stop func()) {
	if mc, manual := s.cfg.clock.(*ManualClock); manual && !kit.Running(mc) {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s.tick()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
