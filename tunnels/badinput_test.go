package tunnels_test

import (
	"context"
	"strings"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env := reftest.New(t)
	create := func(name string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: name})
			return err
		}
	}
	get := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Tunnels.Get(ctx, id); return err }
	}
	archive := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Tunnels.Archive(ctx, id)
			return err
		}
	}
	list := func(p tunnels.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Tunnels.List(ctx, p); return err }
	}
	all := func(p tunnels.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Tunnels.All(ctx, p))
		}
	}
	reftest.RunBadInput(t, env, env.Client(t), []badInput{
		{"create display_name 256", create(strings.Repeat("a", 256)), "display_name", "between 1 and 255 characters", true},
		{"create display_name counts characters", create(strings.Repeat("é", 256)), "display_name", "between 1 and 255 characters", true},
		{"get empty id", get(""), "tunnel_id", "must not be empty", true},
		{"archive empty id", archive(""), "tunnel_id", "must not be empty", true},
		{"list limit -1", list(tunnels.ListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"list limit 1001", list(tunnels.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"list page not a cursor", list(tunnels.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"list page undecodable", list(tunnels.ListParams{Page: "page_!!"}), "page", "invalid cursor", false},
		{"all limit 1001", all(tunnels.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"all page not a cursor", all(tunnels.ListParams{Page: "nope"}), "page", "invalid cursor", false},
	})
}
