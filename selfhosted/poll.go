package selfhosted

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/backoff"
)

// Waits after a failed poll or ack: doubling from minBackoff up to
// maxBackoff, less up to a quarter of jitter, so that a fleet cut off
// together does not come back together.
const (
	minBackoff = 500 * time.Millisecond
	maxBackoff = 30 * time.Second
)

// poll claims work while pollCtx lives, at most maxSessions items at a
// time. Items are served under runCtx (Run's context): Close ends only the
// polling, and lets the items release themselves.
func (w *Worker) poll(pollCtx, runCtx context.Context) error {
	slots := make(chan struct{}, w.cfg.maxSessions)
	params := environments.PollParams{Block: w.cfg.pollBlock, WorkerID: w.cfg.workerID}
	failures := 0
	for {
		select {
		case slots <- struct{}{}:
		case <-pollCtx.Done():
			return nil
		}
		work, err := w.client.Environments.Work.Poll(pollCtx, w.envID, params, w.key)
		if err == nil && work != nil {
			err = w.claim(pollCtx, runCtx, work, slots)
		} else {
			<-slots
		}
		switch {
		case pollCtx.Err() != nil:
			return nil
		case err == nil:
			failures = 0
			continue
		case permanent(err):
			w.log.Error("selfhosted: polling refused; stopping", "error", err.Error())
			return err
		}
		wait := backoff.Jittered(minBackoff, maxBackoff, failures)
		failures++
		w.log.Warn("selfhosted: polling failed; retrying", "error", err.Error(), "wait", wait)
		if !sleep(pollCtx, wait) {
			return nil
		}
	}
}

// claim acknowledges a polled item and starts serving it, holding one
// slot until it is done. An item another worker acked first (409) is
// skipped; a work item that is not a session is stopped, as there is
// nothing to run for it.
func (w *Worker) claim(pollCtx, runCtx context.Context, work *environments.Work, slots chan struct{}) error {
	log := w.log.With("work_id", work.ID)
	if _, err := w.client.Environments.Work.Ack(pollCtx, w.envID, work.ID, w.key); err != nil {
		<-slots
		if status(err) == http.StatusConflict {
			log.Debug("selfhosted: work item taken by another worker")
			return nil
		}
		return err
	}
	if work.Data.Type != environments.WorkDataSession || !safeSegment(work.Data.ID) {
		<-slots
		log.Warn("selfhosted: work item has no session to serve; stopping it", "type", string(work.Data.Type))
		w.stopItem(runCtx, work.ID, log)
		return nil
	}
	it := w.newItem(runCtx, work, log.With("session_id", work.Data.ID))
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		<-slots
		w.stopItem(runCtx, work.ID, log)
		return nil
	}
	w.items[it] = struct{}{}
	w.served.Add(1)
	w.mu.Unlock()
	go func() {
		defer func() {
			w.mu.Lock()
			delete(w.items, it)
			w.mu.Unlock()
			<-slots
			w.served.Done()
		}()
		it.serve()
	}()
	return nil
}

// stopItem force-stops a work item the Worker is done with, on a context
// that outlives ctx (a cancelled Run must still stop it); an item already
// stopped (409) is fine.
func (w *Worker) stopItem(ctx context.Context, workID string, log interface {
	Warn(msg string, args ...any)
}) {
	sctx, cancel := detached(ctx, stopTimeout)
	defer cancel()
	_, err := w.client.Environments.Work.Stop(sctx, w.envID, workID, environments.StopParams{Force: true}, w.key)
	if err != nil && status(err) != http.StatusConflict {
		log.Warn("selfhosted: stopping the work item failed; its lease will expire", "error", err.Error())
	}
}

// stopTimeout bounds stopping one item.
const stopTimeout = 10 * time.Second

// status is the HTTP status of an API error, or 0.
func status(err error) int {
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	return 0
}

// permanent reports a failure that retrying will not fix.
func permanent(err error) bool { return backoff.Permanent(err) }

// sleep waits d, or until ctx ends (false).
func sleep(ctx context.Context, d time.Duration) bool { return backoff.Sleep(ctx, d) }
