package conformance_test

import (
	"context"
	"testing"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/tool"
)

type lookupInput struct {
	OrderID string `json:"order_id" jsonschema:"the order's id"`
}

// lookupTool is the custom tool of the tests' agents. Its answer is fixed,
// so that a test can find it in the session's history.
var lookupTool = tool.Must(tool.New("conformance_lookup_order", "Look up an order by its id and return its status.",
	func(ctx context.Context, in lookupInput) (tool.Result, error) {
		return tool.Text("order " + in.OrderID + ": shipped"), nil
	}))

// TestAgentVersions creates an agent, updates it under a version
// precondition, reads both versions back, and archives it.
func TestAgentVersions(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	a := newAgent(t, tg, agents.CreateParams{
		Description: "created by the conformance tests",
		System:      "You are terse.",
		Tools: []agents.Tool{
			agents.AgentToolset{Configs: []agents.ToolConfig{
				{Name: agents.ToolBash, PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)},
			}},
			agents.FromTool(lookupTool),
		},
	})
	if a.Type != "agent" || a.ID == "" || a.Version != 1 || a.System != "You are terse." {
		t.Fatalf("created agent: %+v", a)
	}
	if a.Model.ID != tg.Model(t) {
		t.Errorf("model %q, want %q", a.Model.ID, tg.Model(t))
	}
	if len(a.Tools) != 2 {
		t.Fatalf("tools: %+v", a.Tools)
	}
	if ct, ok := a.Tools[1].(agents.CustomTool); !ok || ct.Name != "conformance_lookup_order" {
		t.Errorf("second tool: %#v", a.Tools[1])
	}

	v2, err := c.Agents.Update(ctx, a.ID, agents.UpdateParams{Version: a.Version, System: param.Value("You are very terse.")})
	if err != nil {
		t.Fatalf("update with the current version: %v", err)
	}
	if v2.Version != 2 || v2.System != "You are very terse." || v2.ID != a.ID {
		t.Errorf("after update: version %d, system %q", v2.Version, v2.System)
	}

	// The precondition: version 1 is no longer current.
	_, err = c.Agents.Update(ctx, a.ID, agents.UpdateParams{Version: 1, System: param.Value("stale")})
	wantStatus(t, err, 409)

	// An update that changes nothing writes no version.
	same, err := c.Agents.Update(ctx, a.ID, agents.UpdateParams{System: param.Value("You are very terse.")})
	if err != nil || same.Version != 2 {
		t.Errorf("no-op update: %v, version %d", err, same.Version)
	}

	cur, err := c.Agents.Get(ctx, a.ID, agents.GetParams{})
	if err != nil || cur.Version != 2 {
		t.Fatalf("get current: %v, %+v", err, cur)
	}
	v1, err := c.Agents.Get(ctx, a.ID, agents.GetParams{Version: 1})
	if err != nil || v1.Version != 1 || v1.System != "You are terse." {
		t.Fatalf("get version 1: %v, %+v", err, v1)
	}

	var versions []int
	for v, err := range c.Agents.AllVersions(ctx, a.ID, agents.ListVersionsParams{Limit: 1}) {
		if err != nil {
			t.Fatalf("list versions: %v", err)
		}
		versions = append(versions, v.Version)
	}
	if len(versions) != 2 || versions[0] != 2 || versions[1] != 1 {
		t.Errorf("versions %v, want [2 1]", versions)
	}

	found := false
	for x, err := range c.Agents.All(ctx, agents.ListParams{}) {
		if err != nil {
			t.Fatalf("list agents: %v", err)
		}
		if x.ID == a.ID {
			found = x.Version == 2
			break
		}
	}
	if !found {
		t.Errorf("agent %s is not listed at version 2", a.ID)
	}

	arch, err := c.Agents.Archive(ctx, a.ID)
	if err != nil || arch.ArchivedAt.IsZero() {
		t.Fatalf("archive: %v, %+v", err, arch)
	}
	_, err = c.Agents.Update(ctx, a.ID, agents.UpdateParams{Name: name(t)})
	wantStatus(t, err, 409)
	if old, err := c.Agents.Get(ctx, a.ID, agents.GetParams{Version: 1}); err != nil || old.ArchivedAt.IsZero() {
		t.Errorf("archiving applies to every version: %v, %+v", err, old)
	}
}
