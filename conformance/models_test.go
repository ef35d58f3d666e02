package conformance_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/models"
)

// TestModelCatalogue lists the catalogue, reads an entry back by id, and
// walks it a page of one at a time, forward and back.
func TestModelCatalogue(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	page, err := c.Models.List(ctx, models.ListParams{})
	if err != nil {
		t.Fatalf("list models: %v", err)
	}
	if len(page.Data) == 0 {
		t.Fatal("the catalogue is empty")
	}
	if page.FirstID != page.Data[0].ID || page.LastID != page.Data[len(page.Data)-1].ID {
		t.Errorf("first_id %q, last_id %q do not match the page's ends", page.FirstID, page.LastID)
	}
	seen := map[string]bool{}
	for i, m := range page.Data {
		if m.Type != "model" || m.ID == "" || m.DisplayName == "" || m.CreatedAt.IsZero() {
			t.Errorf("model %d lacks type, id, display_name or created_at: %+v", i, m)
		}
		if seen[m.ID] {
			t.Errorf("model %s listed twice", m.ID)
		}
		seen[m.ID] = true
		if i > 0 && m.CreatedAt.After(page.Data[i-1].CreatedAt) {
			t.Errorf("not newest first: %s (%s) after %s (%s)", m.ID, m.CreatedAt, page.Data[i-1].ID, page.Data[i-1].CreatedAt)
		}
	}
	if tg.Reference() {
		for _, id := range []string{models.VendorHaiku55, models.VendorSonnet55, models.VendorOpus55} {
			if !seen[id] {
				t.Errorf("the reference catalogue lacks %s", id)
			}
		}
	}

	first := page.Data[0]
	got, err := c.Models.Get(ctx, first.ID)
	if err != nil {
		t.Fatalf("get model %s: %v", first.ID, err)
	}
	if d := cmp.Diff(first, *got); d != "" {
		t.Errorf("Get differs from the listed entry (-list +get):\n%s", d)
	}

	// Pages of one, by hand: each after the previous page's last id.
	var forward []string
	params := models.ListParams{Limit: 1}
	for range 1000 {
		p, err := c.Models.List(ctx, params)
		if err != nil {
			t.Fatalf("list models after %q: %v", params.AfterID, err)
		}
		if len(p.Data) > 1 {
			t.Fatalf("limit 1 gave %d models", len(p.Data))
		}
		for _, m := range p.Data {
			forward = append(forward, m.ID)
		}
		if !p.HasMore {
			break
		}
		params.AfterID = p.LastID
	}
	var all []string
	for m, err := range c.Models.All(ctx, models.ListParams{Limit: 1}) {
		if err != nil {
			t.Fatalf("all models: %v", err)
		}
		all = append(all, m.ID)
	}
	if d := cmp.Diff(forward, all); d != "" {
		t.Errorf("All differs from paging by hand (-hand +all):\n%s", d)
	}
	if len(all) < len(page.Data) {
		t.Errorf("All walked %d models, the first page alone had %d", len(all), len(page.Data))
	}

	// Backward from the last model: the page before it ends with the one
	// listed just before it.
	if len(all) >= 2 {
		p, err := c.Models.List(ctx, models.ListParams{BeforeID: all[len(all)-1], Limit: 1})
		if err != nil {
			t.Fatalf("list models before %s: %v", all[len(all)-1], err)
		}
		if len(p.Data) != 1 || p.Data[0].ID != all[len(all)-2] {
			t.Errorf("the page before %s: %v, want [%s]", all[len(all)-1], p.Data, all[len(all)-2])
		}
	}
}
