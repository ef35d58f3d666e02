package agents_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
)

var ctx = context.Background()

// ignoreServerFields leaves out what the server assigns.
var ignoreServerFields = cmpopts.IgnoreFields(agents.Agent{}, "ID", "CreatedAt", "UpdatedAt", "ArchivedAt")

func newClient(t *testing.T, opts ...refserver.Option) (*reftest.Env, *agentplatform.Client) {
	t.Helper()
	env := reftest.New(t, opts...)
	return env, env.Client(t)
}

func simpleAgent(t *testing.T, client *agentplatform.Client, name string) *agents.Agent {
	t.Helper()
	a, err := client.Agents.Create(ctx, agents.CreateParams{Name: name, Model: agents.ModelID(models.VendorHaiku55)})
	require.NoError(t, err)
	return a
}

func requireStatus(t *testing.T, err error, status int, contains string) {
	t.Helper()
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, status, apiErr.StatusCode, apiErr.Message)
	require.Contains(t, apiErr.Message, contains)
}

func TestCreateWithEveryField(t *testing.T) {
	_, client := newClient(t)
	helper := simpleAgent(t, client, "helper")
	custom := customSkill(t, client)
	params := agents.CreateParams{
		Name:        "Researcher",
		Model:       agents.ModelConfig{ID: models.VendorOpus55, Effort: agents.EffortMax, InferenceGeo: "us", Speed: agents.SpeedFast},
		Description: "Finds and summarises sources.",
		System:      "You are a careful research agent.",
		Tools: []agents.Tool{
			agents.AgentToolset{
				Configs: []agents.ToolConfig{
					{Name: agents.ToolBash, PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)},
					{Name: agents.ToolWebFetch, AllowedDomains: []string{"docs.example.com"}, MaxContentTokens: 5000},
					{Name: agents.ToolWebSearch, Enabled: new(false), BlockedDomains: []string{"spam.example"},
						UserLocation: &agents.UserLocation{City: "Paris", Country: "FR"}},
				},
				DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(agents.PolicyAuto)},
			},
			agents.MCPToolset{MCPServerName: "docs", Configs: []agents.MCPToolConfig{{Name: "search", Enabled: new(false)}}},
			agents.CustomTool{Name: "lookup_order", Description: "Look up an order by id.", InputSchema: agents.InputSchema{
				Properties: map[string]any{"order_id": map[string]any{"type": "string"}},
				Required:   []string{"order_id"},
				Extra:      map[string]json.RawMessage{"additionalProperties": json.RawMessage(`false`)},
			}},
		},
		MCPServers:        []agents.MCPServer{{Name: "docs", URL: "https://mcp.example.com/sse"}},
		Skills:            []agents.Skill{agents.VendorSkill{SkillID: "xlsx"}, custom},
		Multiagent:        agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(helper.ID), agents.SelfEntry{}, agents.AdvisorEntry{Model: models.VendorOpus55}}},
		ExecutionIdentity: agents.CloudRole{RoleARN: "arn:aws:iam::123456789012:role/agent"},
		Metadata:          map[string]string{"team": "research"},
	}
	a, err := client.Agents.Create(ctx, params)
	require.NoError(t, err)
	require.Regexp(t, `^agent_`, a.ID)
	require.False(t, a.Archived())
	require.Equal(t, a.CreatedAt, a.UpdatedAt)

	allow, ask, auto := agents.Policy(agents.PolicyAlwaysAllow), agents.Policy(agents.PolicyAlwaysAsk), agents.Policy(agents.PolicyAuto)
	want := &agents.Agent{
		Type: "agent", Version: 1, Name: "Researcher",
		Description: "Finds and summarises sources.", System: "You are a careful research agent.",
		Model: agents.ModelConfig{ID: models.VendorOpus55, Effort: agents.EffortMax, InferenceGeo: "us", Speed: agents.SpeedFast},
		Tools: []agents.Tool{
			agents.AgentToolset{
				Configs: []agents.ToolConfig{
					{Name: agents.ToolBash, Enabled: new(true), PermissionPolicy: ask},
					{Name: agents.ToolWebFetch, Enabled: new(true), PermissionPolicy: auto, AllowedDomains: []string{"docs.example.com"}, MaxContentTokens: 5000},
					{Name: agents.ToolWebSearch, Enabled: new(false), PermissionPolicy: auto, BlockedDomains: []string{"spam.example"},
						UserLocation: &agents.UserLocation{City: "Paris", Country: "FR"}},
				},
				DefaultConfig: &agents.ToolDefaults{Enabled: new(true), PermissionPolicy: auto},
			},
			agents.MCPToolset{MCPServerName: "docs",
				Configs:       []agents.MCPToolConfig{{Name: "search", Enabled: new(false), PermissionPolicy: ask}},
				DefaultConfig: &agents.ToolDefaults{Enabled: new(true), PermissionPolicy: ask}},
			params.Tools[2],
		},
		MCPServers: params.MCPServers,
		Skills:     []agents.Skill{agents.VendorSkill{SkillID: "xlsx", Version: "latest"}, custom},
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{
			agents.AgentReference{ID: helper.ID, Version: 1},
			agents.AgentReference{ID: a.ID, Version: 1},
			agents.AdvisorEntry{Model: models.VendorOpus55},
		}},
		ExecutionIdentity: params.ExecutionIdentity,
		Metadata:          map[string]string{"team": "research"},
	}
	_ = allow
	require.Empty(t, cmp.Diff(want, a, ignoreServerFields))

	got, err := client.Agents.Get(ctx, a.ID, agents.GetParams{})
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(a, got))
}

func TestCreateWithDefaults(t *testing.T) {
	_, client := newClient(t)
	a := simpleAgent(t, client, "plain")
	want := &agents.Agent{
		Type: "agent", Version: 1, Name: "plain",
		Model:             agents.ModelConfig{ID: models.VendorHaiku55, Effort: agents.EffortHigh, Speed: agents.SpeedStandard},
		Tools:             []agents.Tool{},
		MCPServers:        []agents.MCPServer{},
		Skills:            []agents.Skill{},
		ExecutionIdentity: agents.ServiceAccount{},
		Metadata:          map[string]string{},
	}
	require.Empty(t, cmp.Diff(want, a, ignoreServerFields))

	// A bare toolset takes its defaults: enabled, always_allow; an MCP
	// toolset's default policy is always_ask.
	b, err := client.Agents.Create(ctx, agents.CreateParams{Name: "tools", Model: agents.ModelID("vendor-sonnet-4-5"),
		Tools:      []agents.Tool{agents.AgentToolset{}, agents.MCPToolset{MCPServerName: "s"}},
		MCPServers: []agents.MCPServer{{Name: "s", URL: "http://localhost:8080/mcp"}}})
	require.NoError(t, err)
	require.Equal(t, agents.ModelID("vendor-sonnet-4-5"), agents.ModelID(b.Model.ID))
	require.Empty(t, cmp.Diff([]agents.Tool{
		agents.AgentToolset{Configs: []agents.ToolConfig{}, DefaultConfig: &agents.ToolDefaults{Enabled: new(true), PermissionPolicy: agents.Policy(agents.PolicyAlwaysAllow)}},
		agents.MCPToolset{MCPServerName: "s", Configs: []agents.MCPToolConfig{}, DefaultConfig: &agents.ToolDefaults{Enabled: new(true), PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)}},
	}, b.Tools))
}

func TestVersioning(t *testing.T) {
	env, client := newClient(t)
	a := simpleAgent(t, client, "v")

	v2, err := client.Agents.Update(ctx, a.ID, agents.UpdateParams{Version: a.Version, System: param.Value("Be brief."),
		Model: agents.ModelConfig{ID: models.VendorSonnet55, Effort: agents.EffortLow}})
	require.NoError(t, err)
	require.Equal(t, 2, v2.Version)
	require.Equal(t, "Be brief.", v2.System)
	require.Equal(t, a.CreatedAt, v2.CreatedAt)

	// A model given as a bare id keeps the stored effort.
	v3, err := client.Agents.Update(ctx, a.ID, agents.UpdateParams{Model: agents.ModelID(models.VendorOpus55)})
	require.NoError(t, err)
	require.Equal(t, 3, v3.Version)
	require.Equal(t, agents.ModelConfig{ID: models.VendorOpus55, Effort: agents.EffortLow, Speed: agents.SpeedStandard}, v3.Model)

	// Nothing changes: no new version.
	same, err := client.Agents.Update(ctx, a.ID, agents.UpdateParams{Name: "v", System: param.Value("Be brief.")})
	require.NoError(t, err)
	require.Equal(t, 3, same.Version)

	// Optimistic concurrency.
	_, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{Version: 2, Name: "late"})
	requireStatus(t, err, http.StatusConflict, "version: does not match the current version `3`")

	v1, err := client.Agents.Get(ctx, a.ID, agents.GetParams{Version: 1})
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(a, v1), "version 1 is immutable")
	_, err = client.Agents.Get(ctx, a.ID, agents.GetParams{Version: 9})
	require.ErrorIs(t, err, apierror.ErrNotFound)
	requireStatus(t, err, http.StatusNotFound, "Agent `"+a.ID+"` version `9` not found.")

	var versions []int
	for v, err := range client.Agents.AllVersions(ctx, a.ID, agents.ListVersionsParams{Limit: 2}) {
		require.NoError(t, err)
		versions = append(versions, v.Version)
	}
	require.Equal(t, []int{3, 2, 1}, versions)
	require.Equal(t, 2, env.Count(http.MethodGet, "/v1/agents/"+a.ID+"/versions"))

	// Clearing fields.
	cleared, err := client.Agents.Update(ctx, a.ID, agents.UpdateParams{System: param.Null[string]()})
	require.NoError(t, err)
	require.Equal(t, 4, cleared.Version)
	require.Empty(t, cleared.System)
	cleared, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{System: param.Value(""), Description: param.Null[string]()})
	require.NoError(t, err)
	require.Equal(t, 4, cleared.Version, "already unset: nothing changed")
}

func TestUpdateListsAndMetadata(t *testing.T) {
	_, client := newClient(t)
	a, err := client.Agents.Create(ctx, agents.CreateParams{Name: "m", Model: agents.ModelID(models.VendorHaiku55),
		Tools:      []agents.Tool{agents.MCPToolset{MCPServerName: "s"}},
		MCPServers: []agents.MCPServer{{Name: "s", URL: "https://s.example"}},
		Skills:     []agents.Skill{agents.VendorSkill{SkillID: "pdf"}},
		Metadata:   map[string]string{"a": "1", "b": "2"}})
	require.NoError(t, err)

	u, err := client.Agents.Update(ctx, a.ID, agents.UpdateParams{
		Metadata: map[string]*string{"a": nil, "c": new("3")},
		Skills:   []agents.Skill{},
	})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"b": "2", "c": "3"}, u.Metadata)
	require.Empty(t, u.Skills)
	require.Len(t, u.Tools, 1, "omitted lists are kept")

	// Dropping the toolset while its server stays is refused: the lists
	// are checked against each other after the update.
	_, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{Tools: []agents.Tool{}})
	requireStatus(t, err, http.StatusBadRequest, "mcp_servers[0].name: server `s` is not referenced by any mcp_toolset")
	u, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{Tools: []agents.Tool{}, MCPServers: []agents.MCPServer{}})
	require.NoError(t, err)
	require.Empty(t, u.Tools)
	require.Empty(t, u.MCPServers)

	u, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{ExecutionIdentity: agents.CloudRole{RoleARN: "arn:x"}})
	require.NoError(t, err)
	require.Equal(t, agents.CloudRole{RoleARN: "arn:x"}, u.ExecutionIdentity)
}

func TestArchiveRules(t *testing.T) {
	_, client := newClient(t)
	keep := simpleAgent(t, client, "keep")
	gone := simpleAgent(t, client, "gone")

	archived, err := client.Agents.Archive(ctx, gone.ID)
	require.NoError(t, err)
	require.True(t, archived.Archived())
	again, err := client.Agents.Archive(ctx, gone.ID)
	require.NoError(t, err)
	require.Equal(t, archived.ArchivedAt, again.ArchivedAt, "archiving is idempotent")

	_, err = client.Agents.Update(ctx, gone.ID, agents.UpdateParams{Name: "back"})
	requireStatus(t, err, http.StatusConflict, "agent_id: agent `"+gone.ID+"` is archived")

	v1, err := client.Agents.Get(ctx, gone.ID, agents.GetParams{Version: 1})
	require.NoError(t, err)
	require.True(t, v1.Archived(), "archived_at shows on every version")
	page, err := client.Agents.ListVersions(ctx, gone.ID, agents.ListVersionsParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)

	ids := func(p agents.ListParams) []string {
		var out []string
		for a, err := range client.Agents.All(ctx, p) {
			require.NoError(t, err)
			out = append(out, a.ID)
		}
		return out
	}
	require.Equal(t, []string{keep.ID}, ids(agents.ListParams{}))
	require.Equal(t, []string{gone.ID, keep.ID}, ids(agents.ListParams{IncludeArchived: true}))

	// An archived agent cannot join a roster.
	_, err = client.Agents.Create(ctx, agents.CreateParams{Name: "c", Model: agents.ModelID(models.VendorHaiku55),
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentReference{ID: gone.ID}}}})
	requireStatus(t, err, http.StatusBadRequest, "multiagent.agents[0]: agent `"+gone.ID+"` is archived")

	_, err = client.Agents.Archive(ctx, "agent_01missing")
	requireStatus(t, err, http.StatusNotFound, "Agent `agent_01missing` not found.")
}

func TestMultiagent20261001(t *testing.T) {
	_, client := newClient(t)
	helper := simpleAgent(t, client, "helper")
	a, err := client.Agents.Create(ctx, agents.CreateParams{Name: "lead", Model: agents.ModelID(models.VendorOpus55),
		Multiagent: agents.Multiagent20261001{
			Advisor:   agents.AdvisorEnabled{Model: models.VendorOpus55},
			Subagents: agents.DelegationEnabled{PredefinedAgents: []agents.RosterEntry{agents.AgentID(helper.ID), agents.SelfEntry{}}},
			Workflows: agents.DelegationDisabled{},
		}})
	require.NoError(t, err)
	want := agents.Multiagent20261001{
		Advisor: agents.AdvisorEnabled{Model: models.VendorOpus55},
		Subagents: agents.DelegationEnabled{InlineAgents: agents.InlineAgentsEnabled(), PredefinedAgents: []agents.RosterEntry{
			agents.AgentReference{ID: helper.ID, Version: 1}, agents.AgentReference{ID: a.ID, Version: 1}}},
		Workflows: agents.DelegationDisabled{},
	}
	require.Empty(t, cmp.Diff(want, a.Multiagent))

	// Merge: same-typed subagents keep their predefined list; self moves to
	// the new version; omitted workflows and advisor are kept.
	u, err := client.Agents.Update(ctx, a.ID, agents.UpdateParams{Multiagent: param.Value[agents.Multiagent](agents.Multiagent20261001{
		Subagents: agents.DelegationEnabled{InlineAgents: agents.InlineAgentsDisabled()},
	})})
	require.NoError(t, err)
	want.Subagents = agents.DelegationEnabled{InlineAgents: agents.InlineAgentsDisabled(), PredefinedAgents: []agents.RosterEntry{
		agents.AgentReference{ID: helper.ID, Version: 1}, agents.AgentReference{ID: a.ID, Version: 2}}}
	require.Empty(t, cmp.Diff(want, u.Multiagent))

	// The merged result is validated: clearing the list while inline agents
	// are disabled is refused locally and by the server.
	_, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{Multiagent: param.Value[agents.Multiagent](agents.Multiagent20261001{
		Subagents: agents.DelegationEnabled{InlineAgents: agents.InlineAgentsDisabled(), PredefinedAgents: []agents.RosterEntry{}},
	})})
	var verr *apierror.ValidationError
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "multiagent.subagents.predefined_agents", verr.Field)

	// Nesting is refused: a has multiagent set.
	_, err = client.Agents.Create(ctx, agents.CreateParams{Name: "boss", Model: agents.ModelID(models.VendorHaiku55),
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(a.ID)}}})
	requireStatus(t, err, http.StatusBadRequest, "multiagent.agents[0]: agent `"+a.ID+"` has multiagent set; nesting is not allowed")

	// Removing it.
	u, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{Multiagent: param.Null[agents.Multiagent]()})
	require.NoError(t, err)
	require.Nil(t, u.Multiagent)

	_, err = client.Agents.Create(ctx, agents.CreateParams{Name: "x", Model: agents.ModelID(models.VendorHaiku55),
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentReference{ID: helper.ID, Version: 7}}}})
	requireStatus(t, err, http.StatusNotFound, "Agent `"+helper.ID+"` version `7` not found.")
}

func TestListFiltersAndPagination(t *testing.T) {
	start := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	clock := refserver.NewManualClock(start)
	env, client := newClient(t, refserver.WithClock(clock))
	var created []*agents.Agent // oldest first
	for i := range 5 {
		created = append(created, simpleAgent(t, client, "a"+string(rune('0'+i))))
		clock.Advance(time.Minute)
	}
	var walked []string
	for a, err := range client.Agents.All(ctx, agents.ListParams{Limit: 2}) {
		require.NoError(t, err)
		walked = append(walked, a.Name)
	}
	require.Equal(t, []string{"a4", "a3", "a2", "a1", "a0"}, walked, "newest first, every page")
	require.Equal(t, 3, env.Count(http.MethodGet, "/v1/agents"))

	// Stopping early fetches no further page.
	n := 0
	for _, err := range client.Agents.All(ctx, agents.ListParams{Limit: 2}) {
		require.NoError(t, err)
		if n++; n == 2 {
			break
		}
	}
	require.Equal(t, 4, env.Count(http.MethodGet, "/v1/agents"))

	// Bounds are inclusive.
	page, err := client.Agents.List(ctx, agents.ListParams{CreatedAtGTE: created[1].CreatedAt, CreatedAtLTE: created[3].CreatedAt})
	require.NoError(t, err)
	var names []string
	for _, a := range page.Data {
		names = append(names, a.Name)
	}
	require.Equal(t, []string{"a3", "a2", "a1"}, names)
	require.False(t, page.HasMore())
	// Non-UTC times mean the same instant.
	page, err = client.Agents.List(ctx, agents.ListParams{CreatedAtGTE: created[4].CreatedAt.In(time.FixedZone("x", 3600))})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
}

func TestLocalValidation(t *testing.T) {
	env, client := newClient(t)
	base := func() agents.CreateParams { return agents.CreateParams{Name: "n", Model: agents.ModelID("m")} }
	with := func(f func(*agents.CreateParams)) agents.CreateParams { p := base(); f(&p); return p }
	tools := func(n int) []agents.Tool {
		out := make([]agents.Tool, n)
		for i := range out {
			out[i] = agents.CustomTool{Name: "t" + strings.Repeat("x", i), Description: "d", InputSchema: agents.InputSchema{}}
		}
		return out
	}
	roster := func(n int) []agents.RosterEntry {
		out := make([]agents.RosterEntry, n)
		for i := range out {
			out[i] = agents.AgentID("agent_" + strings.Repeat("x", i+1))
		}
		return out
	}
	meta := func(n int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[strings.Repeat("k", i+1)] = "v"
		}
		return m
	}
	cases := []struct {
		name   string
		params agents.CreateParams
		field  string // "" means sent (the server may still refuse it)
	}{
		{"name 256", with(func(p *agents.CreateParams) { p.Name = strings.Repeat("é", 256) }), ""},
		{"name 257", with(func(p *agents.CreateParams) { p.Name = strings.Repeat("é", 257) }), "name"},
		{"name empty", with(func(p *agents.CreateParams) { p.Name = "" }), "name"},
		{"model missing", with(func(p *agents.CreateParams) { p.Model = nil }), "model"},
		{"model id 257", with(func(p *agents.CreateParams) { p.Model = agents.ModelID(strings.Repeat("m", 257)) }), "model"},
		{"model config id empty", with(func(p *agents.CreateParams) { p.Model = agents.ModelConfig{} }), "model.id"},
		{"description 2048", with(func(p *agents.CreateParams) { p.Description = strings.Repeat("d", 2048) }), ""},
		{"description 2049", with(func(p *agents.CreateParams) { p.Description = strings.Repeat("d", 2049) }), "description"},
		{"system 100001", with(func(p *agents.CreateParams) { p.System = strings.Repeat("s", 100001) }), "system"},
		{"tools 128", with(func(p *agents.CreateParams) { p.Tools = tools(128) }), ""},
		{"tools 129", with(func(p *agents.CreateParams) { p.Tools = tools(129) }), "tools"},
		{"custom name 128", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.CustomTool{Name: strings.Repeat("n", 128), Description: "d"}}
		}), ""},
		{"custom name 129", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.CustomTool{Name: strings.Repeat("n", 129), Description: "d"}}
		}), "tools[0].name"},
		{"custom name charset", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{}, agents.CustomTool{Name: "no spaces", Description: "d"}}
		}), "tools[1].name"},
		{"custom description empty", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.CustomTool{Name: "a", Description: ""}}
		}), "tools[0].description"},
		{"domains both", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebFetch, AllowedDomains: []string{"a.com"}, BlockedDomains: []string{"b.com"}}}}}
		}), "tools[0].configs[0].blocked_domains"},
		{"domains empty", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebFetch, AllowedDomains: []string{}}}}}
		}), "tools[0].configs[0].allowed_domains"},
		{"domains 65", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebSearch, BlockedDomains: hosts(65)}}}}
		}), "tools[0].configs[0].blocked_domains"},
		{"config name missing", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{}}}}
		}), "tools[0].configs[0].name"},
		{"mcp servers 21", with(func(p *agents.CreateParams) { p.MCPServers = make([]agents.MCPServer, 21) }), "mcp_servers"},
		{"skills 21", with(func(p *agents.CreateParams) {
			p.Skills = make([]agents.Skill, 21)
		}), "skills"},
		{"skill id 65", with(func(p *agents.CreateParams) {
			p.Skills = []agents.Skill{agents.VendorSkill{SkillID: strings.Repeat("s", 65)}}
		}), "skills[0].skill_id"},
		{"role arn 2048", with(func(p *agents.CreateParams) {
			p.ExecutionIdentity = agents.CloudRole{RoleARN: strings.Repeat("r", 2048)}
		}), ""},
		{"role arn 2049", with(func(p *agents.CreateParams) {
			p.ExecutionIdentity = agents.CloudRole{RoleARN: strings.Repeat("r", 2049)}
		}), "execution_identity.role_arn"},
		{"roster 21", with(func(p *agents.CreateParams) { p.Multiagent = agents.Coordinator{Agents: roster(21)} }), "multiagent.agents"},
		{"roster empty", with(func(p *agents.CreateParams) { p.Multiagent = agents.Coordinator{} }), "multiagent.agents"},
		{"roster version", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentReference{ID: "agent_x", Version: -1}}}
		}), "multiagent.agents[0].version"},
		{"predefined 21", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Multiagent20261001{Workflows: agents.DelegationEnabled{PredefinedAgents: roster(21)}}
		}), "multiagent.workflows.predefined_agents"},
		{"inline disabled needs predefined", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Multiagent20261001{Subagents: agents.DelegationEnabled{InlineAgents: agents.InlineAgentsDisabled()}}
		}), "multiagent.subagents.predefined_agents"},
		{"advisor model required", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Multiagent20261001{Advisor: agents.AdvisorEnabled{}}
		}), "multiagent.advisor.model"},
		{"system 100000", with(func(p *agents.CreateParams) { p.System = strings.Repeat("s", 100000) }), ""},
		{"model id 256", with(func(p *agents.CreateParams) { p.Model = agents.ModelConfig{ID: strings.Repeat("m", 256)} }), ""},
		{"model config id 257", with(func(p *agents.CreateParams) { p.Model = agents.ModelConfig{ID: strings.Repeat("m", 257)} }), "model.id"},
		{"custom description 1024", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.CustomTool{Name: "a", Description: strings.Repeat("d", 1024)}}
		}), ""},
		{"custom description 1025", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.CustomTool{Name: "a", Description: strings.Repeat("d", 1025)}}
		}), "tools[0].description"},
		{"domains 64", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebSearch, BlockedDomains: hosts(64)}}}}
		}), ""},
		{"max content tokens negative", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebFetch, MaxContentTokens: -1}}}}
		}), "tools[0].configs[0].max_content_tokens"},
		{"city 255", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebSearch,
				UserLocation: &agents.UserLocation{City: strings.Repeat("c", 255)}}}}}
		}), ""},
		{"city 256", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebSearch,
				UserLocation: &agents.UserLocation{City: strings.Repeat("c", 256)}}}}}
		}), "tools[0].configs[0].user_location.city"},
		{"country lowercase", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebSearch,
				UserLocation: &agents.UserLocation{Country: "fr"}}}}}
		}), "tools[0].configs[0].user_location.country"},
		{"mcp server name 256", with(func(p *agents.CreateParams) {
			p.MCPServers = []agents.MCPServer{{Name: strings.Repeat("s", 256), URL: "https://x"}}
		}), "mcp_servers[0].name"},
		{"mcp server url 2049", with(func(p *agents.CreateParams) {
			p.MCPServers = []agents.MCPServer{{Name: "s", URL: "https://" + strings.Repeat("u", 2041)}}
		}), "mcp_servers[0].url"},
		{"mcp servers 20", with(func(p *agents.CreateParams) {
			p.MCPServers = make([]agents.MCPServer, 20)
			for i := range p.MCPServers {
				p.MCPServers[i] = agents.MCPServer{Name: strings.Repeat("s", i+1), URL: "https://x"}
				p.Tools = append(p.Tools, agents.MCPToolset{MCPServerName: p.MCPServers[i].Name})
			}
		}), ""},
		{"mcp toolset server 256", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.MCPToolset{MCPServerName: strings.Repeat("s", 256)}}
		}), "tools[0].mcp_server_name"},
		{"mcp tool name 129", with(func(p *agents.CreateParams) {
			p.Tools = []agents.Tool{agents.MCPToolset{MCPServerName: "s", Configs: []agents.MCPToolConfig{{Name: strings.Repeat("t", 129)}}}}
		}), "tools[0].configs[0].name"},
		{"skills 20", with(func(p *agents.CreateParams) {
			p.Skills = make([]agents.Skill, 20)
			for i := range p.Skills {
				p.Skills[i] = agents.VendorSkill{SkillID: strings.Repeat("s", i+1)}
			}
		}), ""},
		{"skill version 65", with(func(p *agents.CreateParams) {
			p.Skills = []agents.Skill{agents.CustomSkill{SkillID: "skill_1", Version: strings.Repeat("v", 65)}}
		}), "skills[0].version"},
		{"skill nil", with(func(p *agents.CreateParams) { p.Skills = []agents.Skill{nil} }), "skills[0]"},
		{"tool nil", with(func(p *agents.CreateParams) { p.Tools = []agents.Tool{nil} }), "tools[0]"},
		{"role arn empty", with(func(p *agents.CreateParams) { p.ExecutionIdentity = agents.CloudRole{} }), "execution_identity.role_arn"},
		{"roster 20", with(func(p *agents.CreateParams) { p.Multiagent = agents.Coordinator{Agents: roster(20)} }), ""},
		{"roster id 129", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(strings.Repeat("a", 129))}}
		}), "multiagent.agents[0]"},
		{"roster reference id empty", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentReference{}}}
		}), "multiagent.agents[0].id"},
		{"roster advisor model 257", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Coordinator{Agents: []agents.RosterEntry{agents.AdvisorEntry{Model: strings.Repeat("m", 257)}}}
		}), "multiagent.agents[0].model"},
		{"roster nil", with(func(p *agents.CreateParams) { p.Multiagent = agents.Coordinator{Agents: []agents.RosterEntry{nil}} }), "multiagent.agents[0]"},
		{"predefined 20", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Multiagent20261001{Workflows: agents.DelegationEnabled{PredefinedAgents: roster(20)}}
		}), ""},
		{"advisor model 257", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Multiagent20261001{Advisor: agents.AdvisorEnabled{Model: strings.Repeat("m", 257)}}
		}), "multiagent.advisor.model"},
		{"inline disabled with predefined", with(func(p *agents.CreateParams) {
			p.Multiagent = agents.Multiagent20261001{Subagents: agents.DelegationEnabled{InlineAgents: agents.InlineAgentsDisabled(),
				PredefinedAgents: []agents.RosterEntry{agents.SelfEntry{}}}}
		}), ""},
		{"metadata 16", with(func(p *agents.CreateParams) { p.Metadata = meta(16) }), ""},
		{"metadata 17", with(func(p *agents.CreateParams) { p.Metadata = meta(17) }), "metadata"},
		{"metadata key 65", with(func(p *agents.CreateParams) { p.Metadata = map[string]string{strings.Repeat("k", 65): "v"} }), "metadata"},
		{"metadata value 512", with(func(p *agents.CreateParams) { p.Metadata = map[string]string{"k": strings.Repeat("v", 512)} }), ""},
		{"metadata value 513", with(func(p *agents.CreateParams) { p.Metadata = map[string]string{"k": strings.Repeat("v", 513)} }), "metadata.k"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := len(env.Server.Requests())
			_, err := client.Agents.Create(ctx, tc.params)
			if tc.field == "" {
				require.Len(t, env.Server.Requests(), before+1)
				return
			}
			var verr *apierror.ValidationError
			require.ErrorAs(t, err, &verr)
			require.Equal(t, tc.field, verr.Field, verr.Rule)
			require.Len(t, env.Server.Requests(), before, "nothing is sent")
		})
	}

	before := len(env.Server.Requests())
	for _, call := range []func() error{
		func() error {
			_, err := client.Agents.Update(ctx, "agent_x", agents.UpdateParams{Version: -1})
			return err
		},
		func() error {
			_, err := client.Agents.Update(ctx, "agent_x", agents.UpdateParams{Name: strings.Repeat("n", 257)})
			return err
		},
		func() error {
			_, err := client.Agents.Update(ctx, "agent_x", agents.UpdateParams{Metadata: map[string]*string{"k": new(strings.Repeat("v", 513))}})
			return err
		},
		func() error { _, err := client.Agents.Get(ctx, "agent_x", agents.GetParams{Version: -1}); return err },
		func() error { _, err := client.Agents.Get(ctx, "", agents.GetParams{}); return err },
		func() error { _, err := client.Agents.List(ctx, agents.ListParams{Limit: 101}); return err },
		func() error {
			_, err := client.Agents.ListVersions(ctx, "agent_x", agents.ListVersionsParams{Limit: 101})
			return err
		},
	} {
		require.ErrorIs(t, call(), apierror.ErrInvalidRequest)
	}
	require.Len(t, env.Server.Requests(), before, "nothing is sent")

	_, err := client.Agents.List(ctx, agents.ListParams{Limit: 100})
	require.NoError(t, err)
}

func TestServerSideRules(t *testing.T) {
	_, client := newClient(t)
	for _, tc := range []struct {
		name    string
		params  agents.CreateParams
		message string
	}{
		{"unknown tool name", agents.CreateParams{Name: "n", Model: agents.ModelID(models.VendorHaiku55),
			Tools: []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: "teleport"}}}}},
			"tools[0].configs[0].name: must be one of `bash`"},
		{"web field on bash", agents.CreateParams{Name: "n", Model: agents.ModelID(models.VendorHaiku55),
			Tools: []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolBash, MaxContentTokens: 3}}}}},
			"tools[0].configs[0].max_content_tokens: unknown field"},
		{"unknown agent", agents.CreateParams{Name: "n", Model: agents.ModelID(models.VendorHaiku55),
			Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID("agent_01nope")}}},
			"Agent `agent_01nope` not found."},
		{"effort", agents.CreateParams{Name: "n", Model: agents.ModelConfig{ID: "m", Effort: "extreme"}},
			"model.effort.type: must be one of `low`, `medium`, `high`, `xhigh`, `max`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := client.Agents.Create(ctx, tc.params)
			var apiErr *apierror.Error
			require.ErrorAs(t, err, &apiErr)
			require.Contains(t, apiErr.Message, tc.message)
		})
	}
}

func TestAgentsBelongToTheirWorkspace(t *testing.T) {
	env := reftest.New(t)
	other := env.Server.CreateWorkspace("other")
	require.NoError(t, env.Server.GrantAPIAccess(env.Seed.UserID, other))
	a := simpleAgent(t, env.Client(t), "mine")
	otherClient := env.Client(t, option.WithWorkspaceID(other))
	_, err := otherClient.Agents.Get(ctx, a.ID, agents.GetParams{})
	require.ErrorIs(t, err, apierror.ErrNotFound)
	page, err := otherClient.Agents.List(ctx, agents.ListParams{})
	require.NoError(t, err)
	require.Empty(t, page.Data)
}

func hosts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "h" + strings.Repeat("x", i) + ".example"
	}
	return out
}
