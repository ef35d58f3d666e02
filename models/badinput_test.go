package models_test

import (
	"context"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env := reftest.New(t)
	get := func(id string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Models.Get(ctx, id); return err }
	}
	list := func(p models.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Models.List(ctx, p); return err }
	}
	all := func(p models.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Models.All(ctx, p))
		}
	}
	reftest.RunBadInput(t, env, env.Client(t), []badInput{
		{"get empty id", get(""), "model_id", "must not be empty", true},
		{"list limit -1", list(models.ListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"list limit 1001", list(models.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"list after and before", list(models.ListParams{AfterID: models.VendorOpus55, BeforeID: models.VendorHaiku55}), "after_id", "cannot be combined with before_id", true},
		{"list after unknown id", list(models.ListParams{AfterID: "vendor-nope"}), "after_id", "no object with id", false},
		{"list before unknown id", list(models.ListParams{BeforeID: "vendor-nope"}), "before_id", "no object with id", false},
		{"all limit 1001", all(models.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"all after unknown id", all(models.ListParams{AfterID: "vendor-nope"}), "after_id", "no object with id", false},
	})
}
