package work

import (
	"math"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// secondsOf is n seconds.
func secondsOf(n int) time.Duration { return time.Duration(n) * time.Second }

// poll is the long poll: the oldest pollable item of the environment at
// once, or the first that becomes pollable within block_ms, or null. The
// wait is real time (a long poll is a transport matter, not the server's
// clock) and ends early when the client goes away; the lock is never held
// while waiting.
func (s *Service) poll(c *kit.Call) error {
	if err := requireEnvironmentKey(c); err != nil {
		return err
	}
	q := c.R.URL.Query()
	blockMS, err := kit.QueryInt(q, "block_ms", 0, 1, maxBlockMS)
	if err != nil {
		return err
	}
	reclaimMS, err := kit.QueryInt(q, "reclaim_older_than_ms", defaultReclaimMS, 1, math.MaxInt32)
	if err != nil {
		return err
	}
	worker := c.R.Header.Get("vendor-worker-id")
	if len(worker) > maxWorkerIDLen {
		return kit.InvalidField("vendor-worker-id", "must be at most %d characters", maxWorkerIDLen)
	}
	reclaim := time.Duration(reclaimMS) * time.Millisecond

	it, wake, err := s.tryPoll(c, worker, reclaim)
	if err != nil || it != nil || blockMS == 0 {
		if err != nil {
			return err
		}
		return c.OK(it)
	}
	timer := time.NewTimer(time.Duration(blockMS) * time.Millisecond)
	defer timer.Stop()
	s.setWaiting(+1)
	defer s.setWaiting(-1)
	for {
		select {
		case <-wake:
		case <-timer.C:
			return c.OK(nil)
		case <-c.R.Context().Done():
			return c.OK(nil) // nobody reads it
		}
		if it, wake, err = s.tryPoll(c, "", reclaim); err != nil || it != nil {
			if err != nil {
				return err
			}
			return c.OK(it)
		}
	}
}

// tryPoll takes the oldest pollable item, which becomes pending, and
// records the worker. With none, it returns the channel that is closed
// when one may have become pollable.
func (s *Service) tryPoll(c *kit.Call, worker string, reclaim time.Duration) (*itemJSON, <-chan struct{}, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	env, err := s.environmentLocked(c) // sweeps
	if err != nil {
		return nil, nil, err
	}
	now := c.Now()
	if worker != "" {
		s.recordWorkerLocked(env.ID, worker, now)
	}
	for _, it := range s.queues[env.ID] {
		if it.pollable(now, reclaim) {
			it.polledAt = now
			s.pending[it.id] = it
			v := it.view()
			return &v, nil, nil
		}
	}
	return nil, s.wake, nil
}

// recordWorkerLocked notes that worker polled now, forgetting the workers
// that have not polled within the window (and the oldest beyond the cap).
func (s *Service) recordWorkerLocked(envID, worker string, now time.Time) {
	s.pruneWorkersLocked(envID, now)
	m := s.workers[envID]
	if m == nil {
		m = map[string]time.Time{}
		s.workers[envID] = m
	}
	if _, ok := m[worker]; !ok && len(m) >= maxWorkersPerEnv {
		oldest := ""
		for w, at := range m {
			if oldest == "" || at.Before(m[oldest]) {
				oldest = w
			}
		}
		delete(m, oldest)
	}
	m[worker] = now
}

// pruneWorkersLocked forgets the environment's workers that have not
// polled within the window.
func (s *Service) pruneWorkersLocked(envID string, now time.Time) {
	m := s.workers[envID]
	for w, at := range m {
		if now.Sub(at) >= workerWindow {
			delete(m, w)
		}
	}
	if len(m) == 0 {
		delete(s.workers, envID)
	}
}

// workersPollingLocked is the number of distinct workers that polled the
// environment within the window.
func (s *Service) workersPollingLocked(envID string, now time.Time) int {
	s.pruneWorkersLocked(envID, now)
	return len(s.workers[envID])
}

func (s *Service) setWaiting(delta int) {
	s.mu.Lock()
	s.waiting += delta
	s.mu.Unlock()
}
