package selfhosted

import (
	"context"
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/environments"
)

// minBeat bounds how often a lease is renewed, whatever TTL the API grants.
const minBeat = 100 * time.Millisecond

// keepLease heartbeats the item's lease until ctx ends. It ends the item
// when the API asks it to stop (state stopping or stopped, or the lease not
// extended) and when the lease is lost: a 412 (the item went back to the
// queue, or another worker holds it), a refusal that retrying cannot fix,
// or no successful heartbeat for a whole TTL, after which the API has
// given the lease up.
func (it *item) keepLease(ctx context.Context) {
	w := it.w
	ttl := w.cfg.leaseTTL
	last := environments.NoHeartbeat
	lastOK := time.Now()
	for {
		interval := max(ttl/3, minBeat)
		hctx, cancel := context.WithTimeout(ctx, interval)
		hb, err := w.client.Environments.Work.Heartbeat(hctx, w.envID, it.workID,
			environments.HeartbeatParams{ExpectedLastHeartbeat: last, DesiredTTL: w.cfg.leaseTTL}, w.key)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil:
			last, lastOK = hb.LastHeartbeat, time.Now()
			if hb.TTL > 0 {
				ttl = hb.TTL
			}
			if hb.State == environments.WorkStopping || hb.State == environments.WorkStopped || !hb.LeaseExtended {
				it.log.Info("selfhosted: the API asked to stop the work item", "state", string(hb.State))
				it.cancel(errStopRequested)
				return
			}
		case status(err) == http.StatusPreconditionFailed, permanent(err):
			it.log.Warn("selfhosted: heartbeat refused; the lease is lost", "error", err.Error())
			it.lose()
			return
		case time.Since(lastOK) > ttl:
			it.log.Warn("selfhosted: no heartbeat went through for a whole lease; the lease is lost", "error", err.Error())
			it.lose()
			return
		default:
			it.log.Warn("selfhosted: heartbeat failed; retrying", "error", err.Error())
			interval = min(interval, time.Second)
		}
		if !sleep(ctx, interval) {
			return
		}
	}
}

// lose ends an item whose lease is gone. Its tools are cancelled and their
// results not sent: the worker that holds the item now runs the calls.
func (it *item) lose() {
	it.lost.Store(true)
	it.cancel(errLeaseLost)
}
