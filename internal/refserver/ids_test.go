package refserver_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func TestSequentialIDs(t *testing.T) {
	ids := refserver.SequentialIDs()
	want := []struct{ prefix, id string }{
		{"wrkspc_", "wrkspc_010000000000000000000001"},
		{"wrkspc_", "wrkspc_010000000000000000000002"},
		{"tnl_", "tnl_010000000000000000000001"},
	}
	for _, w := range want {
		if got := ids(w.prefix); got != w.id {
			t.Fatalf("got %q, want %q", got, w.id)
		}
	}
	var last string
	for range 70 {
		last = ids("x_")
	}
	if last != "x_010000000000000000000018" { // 70 = 1*62 + 8
		t.Fatalf("70th id %q", last)
	}
}

func TestRandomIDs(t *testing.T) {
	ids := refserver.RandomIDs()
	pattern := regexp.MustCompile(`^sesn_01[0-9A-Za-z]{22}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := ids("sesn_")
		if !pattern.MatchString(id) || seen[id] {
			t.Fatalf("id %q (repeat: %v)", id, seen[id])
		}
		seen[id] = true
	}
}

func TestManualClock(t *testing.T) {
	c := refserver.NewManualClock(testStart)
	c.Advance(time.Minute)
	if !c.Now().Equal(testStart.Add(time.Minute)) {
		t.Fatalf("after Advance: %v", c.Now())
	}
	c.Set(testStart)
	if !c.Now().Equal(testStart) {
		t.Fatalf("after Set: %v", c.Now())
	}
}

func TestSeedIsUsable(t *testing.T) {
	e := newEnv(t, refserver.WithIDs(refserver.RandomIDs()))
	s := e.seed
	for _, c := range []struct{ v, pattern string }{
		{s.OrganizationID, `^org_01[0-9A-Za-z]{22}$`},
		{s.DefaultWorkspaceID, `^wrkspc_01[0-9A-Za-z]{22}$`},
		{s.UserID, `^user_01[0-9A-Za-z]{22}$`},
		{s.APIKey, `^sk-vendor-api03-[0-9A-Za-z_-]{43}$`},
	} {
		if !regexp.MustCompile(c.pattern).MatchString(c.v) {
			t.Fatalf("%q does not match %s", c.v, c.pattern)
		}
	}
	got := wantOK(t, e.do(t, "GET", workspacesPath+"/"+s.DefaultWorkspaceID, ""))
	if got["name"] != "Default Workspace" {
		t.Fatalf("default workspace %v", got)
	}
}
