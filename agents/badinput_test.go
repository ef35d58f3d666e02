package agents_test

import (
	"context"
	"strings"
	"testing"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

func TestBadInput(t *testing.T) {
	env, client := newClient(t)
	a := simpleAgent(t, client, "target")
	rep := strings.Repeat
	create := func(edit func(*agents.CreateParams)) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := agents.CreateParams{Name: "a", Model: agents.ModelID(models.VendorHaiku55)}
			edit(&p)
			_, err := c.Agents.Create(ctx, p)
			return err
		}
	}
	update := func(id string, p agents.UpdateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Agents.Update(ctx, id, p)
			return err
		}
	}
	tools := func(ts ...agents.Tool) func(*agents.CreateParams) {
		return func(p *agents.CreateParams) { p.Tools = ts }
	}
	web := func(c agents.ToolConfig) func(*agents.CreateParams) {
		return tools(agents.AgentToolset{Configs: []agents.ToolConfig{c}})
	}
	mcp := func(servers []agents.MCPServer, ts ...agents.Tool) func(*agents.CreateParams) {
		return func(p *agents.CreateParams) { p.MCPServers, p.Tools = servers, ts }
	}
	server := agents.MCPServer{Name: "docs", URL: "https://mcp.example.com/sse"}
	skills := func(ss ...agents.Skill) func(*agents.CreateParams) {
		return func(p *agents.CreateParams) { p.Skills = ss }
	}
	multi := func(m agents.Multiagent) func(*agents.CreateParams) {
		return func(p *agents.CreateParams) { p.Multiagent = m }
	}
	custom := func(name string) agents.CustomTool { return agents.CustomTool{Name: name, Description: "d"} }
	list := func(p agents.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Agents.List(ctx, p); return err }
	}
	versions := func(id string, p agents.ListVersionsParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Agents.ListVersions(ctx, id, p)
			return err
		}
	}
	get := func(id string, version int) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Agents.Get(ctx, id, agents.GetParams{Version: version})
			return err
		}
	}
	reftest.RunBadInput(t, env, client, []badInput{
		// Create: required, lengths, counts.
		{"create name empty", create(func(p *agents.CreateParams) { p.Name = "" }), "name", "between 1 and 256 characters", true},
		{"create name 257", create(func(p *agents.CreateParams) { p.Name = rep("n", 257) }), "name", "between 1 and 256 characters", true},
		{"create model missing", create(func(p *agents.CreateParams) { p.Model = nil }), "model", "is required", true},
		{"create model id empty", create(func(p *agents.CreateParams) { p.Model = agents.ModelID("") }), "model", "between 1 and 256 characters", true},
		{"create model config id 257", create(func(p *agents.CreateParams) { p.Model = agents.ModelConfig{ID: rep("m", 257)} }), "model.id", "between 1 and 256 characters", true},
		{"create model effort unknown", create(func(p *agents.CreateParams) {
			p.Model = agents.ModelConfig{ID: models.VendorHaiku55, Effort: "extreme"}
		}),
			"model.effort.type", "must be one of `low`, `medium`, `high`, `xhigh`, `max`", false},
		{"create model speed unknown", create(func(p *agents.CreateParams) { p.Model = agents.ModelConfig{ID: models.VendorHaiku55, Speed: "warp"} }),
			"model.speed", "must be one of", false},
		{"create model geo unknown", create(func(p *agents.CreateParams) {
			p.Model = agents.ModelConfig{ID: models.VendorHaiku55, InferenceGeo: "mars"}
		}),
			"model.inference_geo", "must be one of", false},
		{"create description 2049", create(func(p *agents.CreateParams) { p.Description = rep("d", 2049) }), "description", "at most 2048 characters", true},
		{"create system 100001", create(func(p *agents.CreateParams) { p.System = rep("s", 100001) }), "system", "at most 100000 characters", true},
		{"create tools 129", create(tools(make([]agents.Tool, 129)...)), "tools", "at most 128 items", true},
		{"create tool nil", create(tools(nil)), "tools[0]", "must not be nil", true},
		{"create toolset twice", create(tools(agents.AgentToolset{}, agents.AgentToolset{})), "tools[1].type", "duplicate toolset `agent_toolset_20260401`", true},
		{"create toolset config name missing", create(web(agents.ToolConfig{})), "tools[0].configs[0].name", "is required", true},
		{"create toolset config name unknown", create(web(agents.ToolConfig{Name: "teleport"})), "tools[0].configs[0].name", "must be one of", false},
		{"create toolset config twice", create(tools(agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolBash}, {Name: agents.ToolBash}}})),
			"tools[0].configs[1].name", "duplicate tool `bash`", true},
		{"create toolset policy unknown", create(web(agents.ToolConfig{Name: agents.ToolBash, PermissionPolicy: agents.Policy("sometimes")})),
			"tools[0].configs[0].permission_policy.type", "must be one of `always_allow`, `always_ask`, `auto`", false},
		{"create domains both", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, AllowedDomains: []string{"a.example"}, BlockedDomains: []string{"b.example"}})),
			"tools[0].configs[0].blocked_domains", "cannot be combined with allowed_domains", true},
		{"create domains empty list", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, AllowedDomains: []string{}})),
			"tools[0].configs[0].allowed_domains", "between 1 and 64 items", true},
		{"create domains 65", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, AllowedDomains: hosts(65)})),
			"tools[0].configs[0].allowed_domains", "between 1 and 64 items", true},
		{"create domain empty", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, BlockedDomains: []string{""}})),
			"tools[0].configs[0].blocked_domains[0]", "must be a plain hostname", true},
		{"create domain url", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, AllowedDomains: []string{"https://docs.example.com/"}})),
			"tools[0].configs[0].allowed_domains[0]", "must be a plain hostname", true},
		{"create domain wildcard", create(web(agents.ToolConfig{Name: agents.ToolWebSearch, AllowedDomains: []string{"ok.example", "*.example.com"}})),
			"tools[0].configs[0].allowed_domains[1]", "must be a plain hostname", true},
		{"create max_content_tokens negative", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, MaxContentTokens: -1})),
			"tools[0].configs[0].max_content_tokens", "must be at least 1", true},
		{"create user_location country", create(web(agents.ToolConfig{Name: agents.ToolWebSearch, UserLocation: &agents.UserLocation{Country: "fr"}})),
			"tools[0].configs[0].user_location.country", "must be 2 uppercase letters", true},
		{"create user_location city 256", create(web(agents.ToolConfig{Name: agents.ToolWebSearch, UserLocation: &agents.UserLocation{City: rep("c", 256)}})),
			"tools[0].configs[0].user_location.city", "between 1 and 255 characters", true},
		{"create custom name empty", create(tools(custom(""))), "tools[0].name", "between 1 and 128 characters", true},
		{"create custom name 129", create(tools(custom(rep("t", 129)))), "tools[0].name", "between 1 and 128 characters", true},
		{"create custom name charset", create(tools(custom("look up"))), "tools[0].name", "only letters, digits, underscores and hyphens", true},
		{"create custom description empty", create(tools(agents.CustomTool{Name: "t"})), "tools[0].description", "between 1 and 1024 characters", true},
		{"create custom description 1025", create(tools(agents.CustomTool{Name: "t", Description: rep("d", 1025)})), "tools[0].description", "between 1 and 1024 characters", true},
		{"create custom twice", create(tools(custom("t"), custom("t"))), "tools[1].name", "duplicate custom tool `t`", true},
		{"create mcp servers 21", create(mcp(make([]agents.MCPServer, 21))), "mcp_servers", "at most 20 items", true},
		{"create mcp server name empty", create(mcp([]agents.MCPServer{{URL: server.URL}}, agents.MCPToolset{MCPServerName: "docs"})),
			"mcp_servers[0].name", "between 1 and 255 characters", true},
		{"create mcp server url empty", create(mcp([]agents.MCPServer{{Name: "docs"}}, agents.MCPToolset{MCPServerName: "docs"})),
			"mcp_servers[0].url", "between 1 and 2048 characters", true},
		{"create mcp server url relative", create(mcp([]agents.MCPServer{{Name: "docs", URL: "/sse"}}, agents.MCPToolset{MCPServerName: "docs"})),
			"mcp_servers[0].url", "must be an absolute http or https URL", true},
		{"create mcp server url scheme", create(mcp([]agents.MCPServer{{Name: "docs", URL: "ftp://mcp.example.com"}}, agents.MCPToolset{MCPServerName: "docs"})),
			"mcp_servers[0].url", "must be an absolute http or https URL", true},
		{"create mcp server twice", create(mcp([]agents.MCPServer{server, server}, agents.MCPToolset{MCPServerName: "docs"})),
			"mcp_servers[1].name", "duplicate mcp server `docs`", true},
		{"create mcp server unused", create(mcp([]agents.MCPServer{server})), "mcp_servers[0].name", "server `docs` is not referenced by any mcp_toolset", true},
		{"create mcp toolset without server", create(mcp(nil, agents.MCPToolset{MCPServerName: "docs"})),
			"tools[0].mcp_server_name", "no mcp_servers entry named `docs`", true},
		{"create mcp toolset server name empty", create(mcp(nil, agents.MCPToolset{})), "tools[0].mcp_server_name", "between 1 and 255 characters", true},
		{"create mcp toolset twice", create(mcp([]agents.MCPServer{server}, agents.MCPToolset{MCPServerName: "docs"}, agents.MCPToolset{MCPServerName: "docs"})),
			"tools[1].mcp_server_name", "duplicate mcp_toolset `docs`", true},
		{"create mcp tool config name 129", create(mcp([]agents.MCPServer{server}, agents.MCPToolset{MCPServerName: "docs", Configs: []agents.MCPToolConfig{{Name: rep("x", 129)}}})),
			"tools[0].configs[0].name", "between 1 and 128 characters", true},
		{"create mcp tool config twice", create(mcp([]agents.MCPServer{server}, agents.MCPToolset{MCPServerName: "docs", Configs: []agents.MCPToolConfig{{Name: "q"}, {Name: "q"}}})),
			"tools[0].configs[1].name", "duplicate tool `q`", true},
		{"create skills 21", create(skills(func() []agents.Skill {
			out := make([]agents.Skill, 21)
			for i := range out {
				out[i] = agents.VendorSkill{SkillID: rep("s", i+1)}
			}
			return out
		}()...)), "skills", "at most 20 items", true},
		{"create skill nil", create(skills(nil)), "skills[0]", "must not be nil", true},
		{"create skill id empty", create(skills(agents.VendorSkill{})), "skills[0].skill_id", "between 1 and 64 characters", true},
		{"create skill id 65", create(skills(agents.VendorSkill{SkillID: rep("s", 65)})), "skills[0].skill_id", "between 1 and 64 characters", true},
		{"create skill version 65", create(skills(agents.VendorSkill{SkillID: "xlsx", Version: rep("v", 65)})), "skills[0].version", "between 1 and 64 characters", true},
		{"create custom skill prefix", create(skills(agents.CustomSkill{SkillID: "xlsx"})), "skills[0].skill_id", "must be a custom skill id (`skill_…`)", true},
		{"create skill twice", create(skills(agents.VendorSkill{SkillID: "xlsx"}, agents.VendorSkill{SkillID: "xlsx", Version: "2"})),
			"skills[1].skill_id", "duplicate skill `xlsx`", true},
		{"create url_sources only empty", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, URLSources: &agents.URLSources{ServerToolResults: &agents.URLSourceFilter{Type: agents.URLSourceOnly}}})),
			"tools[0].configs[0].url_sources.server_tool_results.tools", "between 1 and 128 items", true},
		{"create url_sources tools on all", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, URLSources: &agents.URLSources{ServerToolResults: agents.URLSourceOf(agents.URLSourceAll, "web_fetch")}})),
			"tools[0].configs[0].url_sources.server_tool_results.tools", "only allowed with type only or except", true},
		{"create url_sources tool twice", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, URLSources: &agents.URLSources{ServerToolResults: agents.URLSourceOf(agents.URLSourceExcept, "web_fetch", "web_fetch")}})),
			"tools[0].configs[0].url_sources.server_tool_results.tools[1].name", "duplicate tool `web_fetch`", true},
		{"create url_sources all none", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, URLSources: &agents.URLSources{
			UserInput: agents.URLSourceOf(agents.URLSourceNone), ClientToolResults: agents.URLSourceOf(agents.URLSourceNone), ServerToolResults: agents.URLSourceOf(agents.URLSourceNone)}})),
			"tools[0].configs[0].url_sources", "must not set every source to none", true},
		{"create url_sources server tool unknown", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, URLSources: &agents.URLSources{ServerToolResults: agents.URLSourceOf(agents.URLSourceOnly, "bash")}})),
			"tools[0].configs[0].url_sources.server_tool_results.tools[0].name", "must be one of `web_search`, `web_fetch`", false},
		{"create url_sources client tool not custom", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, URLSources: &agents.URLSources{ClientToolResults: agents.URLSourceOf(agents.URLSourceOnly, "lookup")}})),
			"tools[0].configs[0].url_sources.client_tool_results.tools[0].name", "no custom tool named `lookup`", false},
		{"create url_sources user_input only", create(web(agents.ToolConfig{Name: agents.ToolWebFetch, URLSources: &agents.URLSources{UserInput: agents.URLSourceOf(agents.URLSourceOnly, "lookup")}})),
			"tools[0].configs[0].url_sources.user_input.type", "must be one of `all`, `none`", false},
		{"create url_sources on web_search", create(web(agents.ToolConfig{Name: agents.ToolWebSearch, URLSources: &agents.URLSources{UserInput: agents.URLSourceOf(agents.URLSourceNone)}})),
			"tools[0].configs[0].url_sources", "unknown field", false},
		{"create aws_role empty", create(func(p *agents.CreateParams) { p.ExecutionIdentity = agents.AWSRole{} }),
			"execution_identity.role_arn", "between 1 and 2048 characters", true},
		{"create role_arn empty", create(func(p *agents.CreateParams) { p.ExecutionIdentity = agents.CloudRole{} }),
			"execution_identity.role_arn", "between 1 and 2048 characters", true},
		{"create role_arn 2049", create(func(p *agents.CreateParams) { p.ExecutionIdentity = agents.CloudRole{RoleARN: rep("r", 2049)} }),
			"execution_identity.role_arn", "between 1 and 2048 characters", true},
		{"create coordinator empty", create(multi(agents.Coordinator{})), "multiagent.agents", "between 1 and 20 items", true},
		{"create coordinator 21", create(multi(agents.Coordinator{Agents: make([]agents.RosterEntry, 21)})), "multiagent.agents", "between 1 and 20 items", true},
		{"create roster entry nil", create(multi(agents.Coordinator{Agents: []agents.RosterEntry{nil}})), "multiagent.agents[0]", "must not be nil", true},
		{"create roster id empty", create(multi(agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID("")}})), "multiagent.agents[0]", "between 1 and 128 characters", true},
		{"create roster version negative", create(multi(agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentReference{ID: a.ID, Version: -1}}})),
			"multiagent.agents[0].version", "must be at least 1", true},
		{"create roster advisor model empty", create(multi(agents.Coordinator{Agents: []agents.RosterEntry{agents.AdvisorEntry{}}})),
			"multiagent.agents[0].model", "between 1 and 256 characters", true},
		{"create roster two advisors", create(multi(agents.Coordinator{Agents: []agents.RosterEntry{agents.AdvisorEntry{Model: models.VendorOpus55}, agents.AdvisorEntry{Model: models.VendorSonnet55}}})),
			"multiagent.agents[1]", "duplicate advisor `vendor-sonnet-5-5`", true},
		{"create roster two selves", create(multi(agents.Coordinator{Agents: []agents.RosterEntry{agents.SelfEntry{}, agents.SelfEntry{}}})),
			"multiagent.agents[1]", "duplicate agent `self`", true},
		{"create advisor model empty", create(multi(agents.Multiagent20261001{Advisor: agents.AdvisorEnabled{}})), "multiagent.advisor.model", "between 1 and 256 characters", true},
		{"create predefined 21", create(multi(agents.Multiagent20261001{Subagents: agents.DelegationEnabled{PredefinedAgents: make([]agents.RosterEntry, 21)}})),
			"multiagent.subagents.predefined_agents", "at most 20 items", true},
		{"create predefined advisor", create(multi(agents.Multiagent20261001{Workflows: agents.DelegationEnabled{PredefinedAgents: []agents.RosterEntry{agents.AdvisorEntry{Model: models.VendorOpus55}}}})),
			"multiagent.workflows.predefined_agents[0].type", "must be one of `agent`, `self`", true},
		// A definition is what a session's response holds; requests refer.
		{"create roster definition", create(multi(agents.Coordinator{Agents: []agents.RosterEntry{agents.RosterAgent{ID: a.ID, Version: 1, Name: a.Name}}})),
			"multiagent.agents[0]", "a definition (RosterAgent) appears only in responses", true},
		{"create predefined definition", create(multi(agents.Multiagent20261001{Subagents: agents.DelegationEnabled{PredefinedAgents: []agents.RosterEntry{agents.SelfEntry{}, agents.RosterAgent{ID: a.ID}}}})),
			"multiagent.subagents.predefined_agents[1]", "must refer to an agent (AgentID, AgentReference or SelfEntry)", true},
		{"create roster session agent", create(multi(agents.Coordinator{Agents: []agents.RosterEntry{sessions.Agent{RosterAgent: agents.RosterAgent{ID: a.ID}}}})),
			"multiagent.agents[0]", "a definition (RosterAgent) appears only in responses", true},
		{"update roster definition", update(a.ID, agents.UpdateParams{Multiagent: param.Value[agents.Multiagent](agents.Coordinator{Agents: []agents.RosterEntry{agents.RosterAgent{ID: a.ID, Version: 1}}})}),
			"multiagent.agents[0]", "a definition (RosterAgent) appears only in responses", true},
		{"create predefined none without inline", create(multi(agents.Multiagent20261001{Subagents: agents.DelegationEnabled{InlineAgents: &agents.InlineAgents{Type: agents.Disabled}}})),
			"multiagent.subagents.predefined_agents", "must name at least one agent when inline_agents is disabled", true},
		{"create metadata 17 pairs", create(func(p *agents.CreateParams) {
			p.Metadata = map[string]string{}
			for i := range 17 {
				p.Metadata[rep("k", i+1)] = "v"
			}
		}), "metadata", "must have at most 16 pairs", true},
		{"create metadata key empty", create(func(p *agents.CreateParams) { p.Metadata = map[string]string{"": "v"} }), "metadata", "keys must be between 1 and 64 characters", true},
		{"create metadata key 65", create(func(p *agents.CreateParams) { p.Metadata = map[string]string{rep("k", 65): "v"} }), "metadata", "keys must be between 1 and 64 characters", true},
		{"create metadata value 513", create(func(p *agents.CreateParams) { p.Metadata = map[string]string{"k": rep("v", 513)} }), "metadata.k", "at most 512 characters", true},

		// Get, Archive, Update, versions: path ids and parameters.
		{"get empty id", get("", 0), "agent_id", "must not be empty", true},
		{"get version negative", get(a.ID, -1), "version", "must be at least 1", true},
		{"get version above int32", get(a.ID, 1<<31), "version", "between 1 and 2147483647", true},
		{"archive empty id", func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Agents.Archive(ctx, "")
			return err
		}, "agent_id", "must not be empty", true},
		{"update empty id", update("", agents.UpdateParams{Name: "x"}), "agent_id", "must not be empty", true},
		{"update version negative", update(a.ID, agents.UpdateParams{Version: -1}), "version", "must be at least 1", true},
		{"update name 257", update(a.ID, agents.UpdateParams{Name: rep("n", 257)}), "name", "between 1 and 256 characters", true},
		{"update model id empty", update(a.ID, agents.UpdateParams{Model: agents.ModelConfig{}}), "model.id", "between 1 and 256 characters", true},
		{"update description 2049", update(a.ID, agents.UpdateParams{Description: param.Value(rep("d", 2049))}), "description", "at most 2048 characters", true},
		{"update system 100001", update(a.ID, agents.UpdateParams{System: param.Value(rep("s", 100001))}), "system", "at most 100000 characters", true},
		{"update custom tool charset", update(a.ID, agents.UpdateParams{Tools: []agents.Tool{custom("a/b")}}), "tools[0].name", "only letters, digits, underscores and hyphens", true},
		{"update mcp toolset without server", update(a.ID, agents.UpdateParams{Tools: []agents.Tool{agents.MCPToolset{MCPServerName: "docs"}}, MCPServers: []agents.MCPServer{}}),
			"tools[0].mcp_server_name", "no mcp_servers entry named `docs`", true},
		{"update mcp toolset against the stored servers", update(a.ID, agents.UpdateParams{Tools: []agents.Tool{agents.MCPToolset{MCPServerName: "docs"}}}),
			"tools[0].mcp_server_name", "no mcp_servers entry named `docs`", false},
		{"update skill twice", update(a.ID, agents.UpdateParams{Skills: []agents.Skill{agents.CustomSkill{SkillID: "skill_1"}, agents.CustomSkill{SkillID: "skill_1"}}}),
			"skills[1].skill_id", "duplicate skill `skill_1`", true},
		{"update multiagent nil", update(a.ID, agents.UpdateParams{Multiagent: param.Value[agents.Multiagent](nil)}), "multiagent", "must not be nil", true},
		{"update role_arn 2049", update(a.ID, agents.UpdateParams{ExecutionIdentity: agents.CloudRole{RoleARN: rep("r", 2049)}}),
			"execution_identity.role_arn", "between 1 and 2048 characters", true},
		{"update metadata value 513", update(a.ID, agents.UpdateParams{Metadata: map[string]*string{"k": new(rep("v", 513))}}), "metadata.k", "at most 512 characters", true},
		{"update metadata key empty", update(a.ID, agents.UpdateParams{Metadata: map[string]*string{"": nil}}), "metadata", "keys must be between 1 and 64 characters", true},

		{"list limit -1", list(agents.ListParams{Limit: -1}), "limit", "between 1 and 100", true},
		{"list limit 101", list(agents.ListParams{Limit: 101}), "limit", "between 1 and 100", true},
		{"list page", list(agents.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"all limit 101", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Agents.All(ctx, agents.ListParams{Limit: 101}))
		},
			"limit", "between 1 and 100", true},
		{"versions empty id", versions("", agents.ListVersionsParams{}), "agent_id", "must not be empty", true},
		{"versions limit 101", versions(a.ID, agents.ListVersionsParams{Limit: 101}), "limit", "between 1 and 100", true},
		{"versions page", versions(a.ID, agents.ListVersionsParams{Page: "page_"}), "page", "invalid cursor", false},
		{"all versions empty id", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Agents.AllVersions(ctx, "", agents.ListVersionsParams{}))
		}, "agent_id", "must not be empty", true},
	})
}
