package environments_test

import (
	"context"
	"strings"
	"testing"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
)

// TestWorkBadInput: every parameter of the work queue the SDK can judge
// is refused before anything is sent, naming the field and the rule.
func TestWorkBadInput(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	const envID, workID = "env_01", "work_01"
	pollIn := func(envID string, p environments.PollParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Environments.Work.Poll(ctx, envID, p)
			return err
		}
	}
	poll := func(p environments.PollParams) reftest.Call { return pollIn(envID, p) }
	beat := func(id string, p environments.HeartbeatParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Environments.Work.Heartbeat(ctx, envID, id, p)
			return err
		}
	}
	ok := environments.HeartbeatParams{ExpectedLastHeartbeat: environments.NoHeartbeat}
	ttl := func(d time.Duration) environments.HeartbeatParams {
		return environments.HeartbeatParams{ExpectedLastHeartbeat: environments.NoHeartbeat, DesiredTTL: d}
	}
	update := func(id string, m map[string]*string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Environments.Work.Update(ctx, envID, id, environments.WorkUpdateParams{Metadata: m})
			return err
		}
	}
	list := func(envID string, p environments.WorkListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Environments.Work.List(ctx, envID, p)
			return err
		}
	}
	item := func(op func(ctx context.Context, c *agentplatform.Client, env, work string) error, env, work string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { return op(ctx, c, env, work) }
	}
	ack := func(ctx context.Context, c *agentplatform.Client, e, w string) error {
		_, err := c.Environments.Work.Ack(ctx, e, w)
		return err
	}
	stop := func(ctx context.Context, c *agentplatform.Client, e, w string) error {
		_, err := c.Environments.Work.Stop(ctx, e, w, environments.StopParams{})
		return err
	}
	get := func(ctx context.Context, c *agentplatform.Client, e, w string) error {
		_, err := c.Environments.Work.Get(ctx, e, w)
		return err
	}
	stats := func(ctx context.Context, c *agentplatform.Client, e, _ string) error {
		_, err := c.Environments.Work.Stats(ctx, e)
		return err
	}
	many := map[string]*string{}
	for i := range 17 {
		v := "v"
		many[strings.Repeat("k", i+1)] = &v
	}
	long := strings.Repeat("v", 513)
	reftest.RunBadInput(t, env, client, []badInput{
		{"poll without environment", pollIn("", environments.PollParams{}), "environment_id", "must not be empty", true},
		{"block under 1ms", poll(environments.PollParams{Block: time.Microsecond}), "block_ms", "between 1ms and 999ms", true},
		{"block of a second", poll(environments.PollParams{Block: time.Second}), "block_ms", "between 1ms and 999ms", true},
		{"block not whole ms", poll(environments.PollParams{Block: 1500 * time.Microsecond}), "block_ms", "whole number of milliseconds", true},
		{"negative block", poll(environments.PollParams{Block: -time.Millisecond}), "block_ms", "between 1ms and 999ms", true},
		{"negative reclaim", poll(environments.PollParams{ReclaimOlderThan: -time.Millisecond}), "reclaim_older_than_ms", "positive whole number of milliseconds", true},
		{"reclaim not whole ms", poll(environments.PollParams{ReclaimOlderThan: time.Microsecond}), "reclaim_older_than_ms", "whole number of milliseconds", true},
		{"worker id too long", poll(environments.PollParams{WorkerID: strings.Repeat("w", 129)}), "vendor-worker-id", "at most 128 characters", true},
		{"worker id with a newline", poll(environments.PollParams{WorkerID: "a\r\nx-evil: 1"}), "vendor-worker-id", "control characters", true},
		{"heartbeat without expected", beat(workID, environments.HeartbeatParams{}), "expected_last_heartbeat", "NoHeartbeat", true},
		{"heartbeat without work id", beat("", ok), "work_id", "must not be empty", true},
		{"ttl under a second", beat(workID, ttl(500*time.Millisecond)), "desired_ttl_seconds", "between 1s and 600s", true},
		{"ttl over 600s", beat(workID, ttl(601*time.Second)), "desired_ttl_seconds", "between 1s and 600s", true},
		{"ttl not whole seconds", beat(workID, ttl(1500*time.Millisecond)), "desired_ttl_seconds", "whole number of seconds", true},
		{"negative ttl", beat(workID, ttl(-time.Second)), "desired_ttl_seconds", "between 1s and 600s", true},
		{"ack without work id", item(ack, envID, ""), "work_id", "must not be empty", true},
		{"ack without environment", item(ack, "", workID), "environment_id", "must not be empty", true},
		{"ack of the poll route", item(ack, envID, "poll"), "work_id", "must be a work item id", true},
		{"stop without work id", item(stop, envID, ""), "work_id", "must not be empty", true},
		{"get without work id", item(get, envID, ""), "work_id", "must not be empty", true},
		{"get of the stats route", item(get, envID, "stats"), "work_id", "must be a work item id", true},
		{"get of the poll route", item(get, envID, "poll"), "work_id", "must be a work item id", true},
		{"stats without environment", item(stats, "", ""), "environment_id", "must not be empty", true},
		{"list without environment", list("", environments.WorkListParams{}), "environment_id", "must not be empty", true},
		{"list limit over 100", list(envID, environments.WorkListParams{Limit: 101}), "limit", "between 1 and 100", true},
		{"list negative limit", list(envID, environments.WorkListParams{Limit: -1}), "limit", "between 1 and 100", true},
		{"update without work id", update("", nil), "work_id", "must not be empty", true},
		{"update too many pairs", update(workID, many), "metadata", "at most 16 pairs", true},
		{"update value too long", update(workID, map[string]*string{"k": &long}), "metadata.k", "at most 512 characters", true},
	})
}
