package conformance_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentplatform/agentplatform-go/memorystores"
)

// TestCursorPagination walks memory stores a page of one at a time, with
// All and by hand, and checks that breaking out of All stops fetching. The
// three stores it creates are the newest, so they come first (unless
// something else creates stores in the workspace at the same time).
func TestCursorPagination(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	var created []string
	for range 3 {
		created = append(created, newMemoryStore(t, tg, memorystores.CreateParams{}).ID)
	}
	newestFirst := []string{created[2], created[1], created[0]}

	var pages counter
	var walked []string
	for st, err := range c.MemoryStores.All(ctx, memorystores.ListParams{Limit: 1}, pages.option()) {
		if err != nil {
			t.Fatalf("list stores: %v", err)
		}
		walked = append(walked, st.ID)
		if len(walked) == len(created) {
			break
		}
	}
	if d := cmp.Diff(newestFirst, walked); d != "" {
		t.Errorf("All, newest first (-want +got):\n%s", d)
	}
	if n := pages.count(); n != len(created) {
		t.Errorf("All fetched %d pages of one for %d stores, then was stopped", n, len(created))
	}

	// By hand: each page names the next; a cursor is stable while stores
	// are created (it encodes a position, not an offset).
	var byHand []string
	params := memorystores.ListParams{Limit: 1}
	for len(byHand) < len(created) {
		p, err := c.MemoryStores.List(ctx, params)
		if err != nil {
			t.Fatalf("list stores (page %q): %v", params.Page, err)
		}
		if len(p.Data) != 1 {
			t.Fatalf("page of limit 1 has %d stores", len(p.Data))
		}
		byHand = append(byHand, p.Data[0].ID)
		if len(byHand) == 1 {
			newMemoryStore(t, tg, memorystores.CreateParams{}) // must not shift the next page
		}
		if !p.HasMore() {
			break
		}
		params.Page = p.NextPage
	}
	if d := cmp.Diff(newestFirst, byHand); d != "" {
		t.Errorf("List by hand (-want +got):\n%s", d)
	}
}
