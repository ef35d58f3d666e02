package environments_test

import (
	"context"
	"errors"
	"log"
	"os"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/option"
)

// A worker of a self-hosted environment: it polls the queue with the
// environment's key, acknowledges the item it gets, and heartbeats while
// it runs the session's sandbox tools. The key comes from the platform's
// console; it is given to each call, not to the client.
func ExampleWorkService_Poll() {
	client, err := agentplatform.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()
	envID := os.Getenv("ENVIRONMENT_ID")
	key := option.WithAPIKey(os.Getenv("ENVIRONMENT_KEY"))
	queue := client.Environments.Work

	for ctx.Err() == nil {
		w, err := queue.Poll(ctx, envID, environments.PollParams{Block: 999 * time.Millisecond, WorkerID: "runner-1"}, key)
		if err != nil {
			log.Fatal(err) // a real worker backs off and polls again
		}
		if w == nil {
			continue // nothing arrived within Block
		}
		if _, err := queue.Ack(ctx, envID, w.ID, key); err != nil {
			continue // reclaimed by another worker, or stopped meanwhile
		}
		runCtx, cancel := context.WithCancel(ctx)
		go keepLease(runCtx, cancel, queue, envID, w.ID, key)
		runSession(runCtx, w.Data.ID) // the session's tool calls, answered as user.tool_result events
		cancel()
	}
}

// keepLease heartbeats until ctx ends, and cancels the work when the lease
// is lost or the item is being stopped.
func keepLease(ctx context.Context, cancel context.CancelFunc, queue *environments.WorkService, envID, workID string, key option.Option) {
	defer cancel()
	expected := environments.NoHeartbeat
	for {
		hb, err := queue.Heartbeat(ctx, envID, workID, environments.HeartbeatParams{ExpectedLastHeartbeat: expected, DesiredTTL: 30 * time.Second}, key)
		switch {
		case errors.Is(err, environments.ErrLeaseLost):
			return // another worker may hold it now: stop at once
		case err != nil:
			return // a real worker retries while the lease lasts
		case !hb.LeaseExtended:
			return // stopping or stopped
		}
		expected = hb.LastHeartbeat
		select {
		case <-ctx.Done():
			return
		case <-time.After(hb.TTL / 3):
		}
	}
}

// runSession stands for the worker's own code: it answers the session's
// sandbox tool calls until the session is idle or ctx ends.
func runSession(ctx context.Context, sessionID string) {}
