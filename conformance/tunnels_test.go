package conformance_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// TestTunnels creates, reads, lists and archives a tunnel. Tunnels are a
// research preview: a target that does not offer them to the key (403 or
// 404 on create) skips the test.
func TestTunnels(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	display := name(t)
	tn, err := c.Tunnels.Create(ctx, tunnels.CreateParams{DisplayName: display})
	if !tg.Reference() && (errors.Is(err, apierror.ErrPermission) || errors.Is(err, apierror.ErrNotFound)) {
		t.Skipf("tunnels (research preview) are not available on %s: %v", tg.Desc, err)
	}
	if err != nil {
		t.Fatalf("create tunnel: %v", err)
	}
	cleanup(t, "archive tunnel "+tn.ID, func(ctx context.Context) error {
		_, err := c.Tunnels.Archive(ctx, tn.ID)
		return err
	})
	if tn.Type != "tunnel" || !strings.HasPrefix(tn.ID, "tnl_") || tn.DisplayName != display || tn.Domain == "" || tn.Archived() {
		t.Fatalf("created tunnel: %+v", tn)
	}
	got, err := c.Tunnels.Get(ctx, tn.ID)
	if err != nil || got.Domain != tn.Domain {
		t.Fatalf("get tunnel: %v, %+v", err, got)
	}
	listed := func(includeArchived bool) bool {
		for x, err := range c.Tunnels.All(ctx, tunnels.ListParams{IncludeArchived: includeArchived}) {
			if err != nil {
				t.Fatalf("list tunnels: %v", err)
			}
			if x.ID == tn.ID {
				return true
			}
		}
		return false
	}
	if !listed(false) {
		t.Errorf("tunnel %s is not listed", tn.ID)
	}
	arch, err := c.Tunnels.Archive(ctx, tn.ID)
	if err != nil || !arch.Archived() || arch.Domain != tn.Domain {
		t.Fatalf("archive: %v, %+v", err, arch)
	}
	if listed(false) {
		t.Errorf("archived tunnel %s listed without IncludeArchived", tn.ID)
	}
	if !listed(true) {
		t.Errorf("archived tunnel %s not listed with IncludeArchived", tn.ID)
	}
}
