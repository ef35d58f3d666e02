package sessions_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

// TestBadInputCreate covers Create Session, the endpoint with the most
// rules: each resource and event kind, references and counts.
func TestBadInputCreate(t *testing.T) {
	f := newFixture(t)
	create := func(edit func(*sessions.CreateParams)) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			p := f.params()
			edit(&p)
			_, err := c.Sessions.Create(ctx, p)
			return err
		}
	}
	agent := func(ref agents.AgentRef) reftest.Call {
		return create(func(p *sessions.CreateParams) { p.Agent = ref })
	}
	overrides := func(edit func(*sessions.AgentWithOverrides)) reftest.Call {
		o := sessions.AgentWithOverrides{AgentReference: f.agent.Reference()}
		edit(&o)
		return agent(o)
	}
	resources := func(rs ...sessions.ResourceParam) reftest.Call {
		return create(func(p *sessions.CreateParams) { p.Resources = rs })
	}
	repo := func(r sessions.RepositoryResourceParam) reftest.Call {
		if r.URL == "" {
			r.URL = repoURL
		}
		return resources(r)
	}
	events := func(es ...sessions.EventParam) reftest.Call {
		return create(func(p *sessions.CreateParams) { p.InitialEvents = es })
	}
	budget := func(m money.Money) reftest.Call {
		return create(func(p *sessions.CreateParams) { p.Budget = &sessions.Budget{MaxListCost: m} })
	}
	stores := make([]sessions.ResourceParam, 9)
	for i := range stores {
		stores[i] = sessions.MemoryStoreResourceParam{MemoryStoreID: f.newStore(t, rep(i+1), "").ID}
	}
	custom := agents.CustomTool{Name: "look up", Description: "d"}
	reftest.RunBadInput(t, f.env, f.client, []badInput{
		{"agent missing", agent(nil), "agent", "is required", true},
		{"agent id empty", agent(agents.AgentID("")), "agent", "between 1 and 128 characters", true},
		{"agent id 129", agent(agents.AgentID("agent_" + rep(123))), "agent", "between 1 and 128 characters", true},
		{"agent version negative", agent(agents.AgentReference{ID: f.agent.ID, Version: -1}), "agent.version", "must be at least 1", true},
		{"overrides id missing", agent(sessions.AgentWithOverrides{}), "agent.id", "between 1 and 128 characters", true},
		{"overrides model id 257", overrides(func(o *sessions.AgentWithOverrides) { o.Model = agents.ModelID(rep(257)) }), "agent.model", "between 1 and 256 characters", true},
		{"overrides model effort unknown", overrides(func(o *sessions.AgentWithOverrides) {
			o.Model = agents.ModelConfig{ID: f.agent.Model.ID, Effort: "extreme"}
		}),
			"agent.model.effort.type", "must be one of", false},
		{"overrides system 100001", overrides(func(o *sessions.AgentWithOverrides) { o.System = param.Value(rep(100001)) }), "agent.system", "at most 100000 characters", true},
		{"overrides tools 129", overrides(func(o *sessions.AgentWithOverrides) { o.Tools = make([]agents.Tool, 129) }), "agent.tools", "at most 128 items", true},
		{"overrides custom tool name", overrides(func(o *sessions.AgentWithOverrides) { o.Tools = []agents.Tool{custom} }),
			"agent.tools[0].name", "only letters, digits, underscores and hyphens", true},
		{"overrides mcp toolset without server", overrides(func(o *sessions.AgentWithOverrides) {
			o.Tools, o.MCPServers = []agents.Tool{agents.MCPToolset{MCPServerName: "docs"}}, []agents.MCPServer{}
		}), "agent.tools[0].mcp_server_name", "no mcp_servers entry named `docs`", true},
		{"overrides mcp server url", overrides(func(o *sessions.AgentWithOverrides) {
			o.MCPServers = []agents.MCPServer{{Name: "docs", URL: "mcp.example.com"}}
		}),
			"agent.mcp_servers[0].url", "must be an absolute http or https URL", true},
		{"overrides skills 21", overrides(func(o *sessions.AgentWithOverrides) { o.Skills = make([]agents.Skill, 21) }), "agent.skills", "at most 20 items", true},
		{"overrides custom skill prefix", overrides(func(o *sessions.AgentWithOverrides) { o.Skills = []agents.Skill{agents.CustomSkill{SkillID: "pdf"}} }),
			"agent.skills[0].skill_id", "must be a custom skill id (`skill_…`)", true},
		{"environment_id empty", create(func(p *sessions.CreateParams) { p.EnvironmentID = "" }), "environment_id", "between 1 and 128 characters", true},
		{"environment_id 129", create(func(p *sessions.CreateParams) { p.EnvironmentID = "env_" + rep(125) }), "environment_id", "between 1 and 128 characters", true},
		{"title 501", create(func(p *sessions.CreateParams) { p.Title = rep(501) }), "title", "between 1 and 500 characters", true},
		{"metadata 17 pairs", create(func(p *sessions.CreateParams) { p.Metadata = pairs(17) }), "metadata", "at most 16 pairs", true},
		{"metadata key 65", create(func(p *sessions.CreateParams) { p.Metadata = map[string]string{rep(65): "v"} }), "metadata", "keys must be between 1 and 64 characters", true},
		{"metadata value 513", create(func(p *sessions.CreateParams) { p.Metadata = map[string]string{"k": rep(513)} }), "metadata.k", "at most 512 characters", true},

		{"resources 501", create(func(p *sessions.CreateParams) { p.Resources = fileResources(501) }), "resources", "at most 500 items", true},
		{"resource nil", resources(nil), "resources[0]", "must not be nil", true},
		{"file_id empty", resources(sessions.FileResourceParam{}), "resources[0].file_id", "between 1 and 128 characters", true},
		{"file_id 129", resources(sessions.FileResourceParam{FileID: "file_" + rep(124)}), "resources[0].file_id", "between 1 and 128 characters", true},
		{"file_id prefix", resources(sessions.FileResourceParam{FileID: "doc_1"}), "resources[0].file_id", "must be a file id (`file_…`)", true},
		{"file mount path relative", resources(sessions.FileResourceParam{FileID: fileID, MountPath: "data/in.csv"}), "resources[0].mount_path", "must start with `/`", true},
		{"file mount path escapes", resources(sessions.FileResourceParam{FileID: fileID, MountPath: "/workspace/../etc/passwd"}), "resources[0].mount_path", "must not contain a `.` or `..` segment", true},
		{"file mount path empty segment", resources(sessions.FileResourceParam{FileID: fileID, MountPath: "/workspace//in.csv"}), "resources[0].mount_path", "must not contain an empty segment (`//`)", true},
		{"file mount path NUL", resources(sessions.FileResourceParam{FileID: fileID, MountPath: "/workspace/in\x00.csv"}), "resources[0].mount_path", "must not contain a NUL character", true},
		{"file mount path 4097", resources(sessions.FileResourceParam{FileID: fileID, MountPath: "/" + rep(4096)}), "resources[0].mount_path", "between 1 and 4096 characters", true},
		{"repository url missing", resources(sessions.RepositoryResourceParam{}), "resources[0].url", "between 1 and 2048 characters", true},
		{"repository url 2049", repo(sessions.RepositoryResourceParam{URL: "https://" + rep(2041)}), "resources[0].url", "between 1 and 2048 characters", true},
		{"repository url http", repo(sessions.RepositoryResourceParam{URL: "http://github.com/example-org/example-repo"}), "resources[0].url", "must be an absolute https URL", true},
		{"repository url relative", repo(sessions.RepositoryResourceParam{URL: "example-org/example-repo"}), "resources[0].url", "must be an absolute https URL", true},
		{"repository token 4097", repo(sessions.RepositoryResourceParam{AuthorizationToken: param.Secret(rep(4097))}), "resources[0].authorization_token", "between 1 and 4096 characters", true},
		{"repository branch empty", repo(sessions.RepositoryResourceParam{Checkout: sessions.BranchCheckout{}}), "resources[0].checkout.name", "between 1 and 255 characters", true},
		{"repository branch 256", repo(sessions.RepositoryResourceParam{Checkout: sessions.BranchCheckout{Name: rep(256)}}), "resources[0].checkout.name", "between 1 and 255 characters", true},
		{"repository sha 6", repo(sessions.RepositoryResourceParam{Checkout: sessions.CommitCheckout{SHA: "abc1234"[:6]}}), "resources[0].checkout.sha", "between 7 and 64 characters", true},
		{"repository sha not hex", repo(sessions.RepositoryResourceParam{Checkout: sessions.CommitCheckout{SHA: "main-branch"}}), "resources[0].checkout.sha", "must be a hexadecimal commit id", true},
		{"repository mount path relative", repo(sessions.RepositoryResourceParam{MountPath: "repo"}), "resources[0].mount_path", "must start with `/`", true},
		{"memory store id missing", resources(sessions.MemoryStoreResourceParam{}), "resources[0].memory_store_id", "is required", true},
		{"memory store instructions 4097", resources(sessions.MemoryStoreResourceParam{MemoryStoreID: "memstore_1", Instructions: rep(4097)}),
			"resources[0].instructions", "at most 4096 characters", true},
		{"memory stores 9", resources(stores...), "resources", "must have at most 8 memory stores", true},
		{"memory store access unknown", resources(sessions.MemoryStoreResourceParam{MemoryStoreID: f.newStore(t, "s", "").ID, Access: "write_only"}),
			"resources[0].access", "must be one of", false},
		{"mount paths repeated", resources(sessions.FileResourceParam{FileID: fileID, MountPath: "/a"}, sessions.FileResourceParam{FileID: "file_02", MountPath: "/a"}),
			"resources[1].mount_path", "duplicate mount path `/a`", false},

		{"vault_ids 51", create(func(p *sessions.CreateParams) { p.VaultIDs = madeUpVaultIDs(51) }), "vault_ids", "at most 50 items", true},
		{"vault id prefix", create(func(p *sessions.CreateParams) { p.VaultIDs = []string{vaultID, "vault_1"} }), "vault_ids[1]", "must be a vault id (`vlt_…`)", true},
		{"vault id repeated", create(func(p *sessions.CreateParams) { p.VaultIDs = []string{vaultID, vaultID} }), "vault_ids[1]", "duplicate vault id `" + vaultID + "`", true},

		{"budget 0", budget(money.USD(0)), "budget.max_list_cost.amount", "must be at least 1", true},
		{"budget 19 digits", budget(money.Money{Amount: "1000000000000000000", Currency: "USD"}), "budget.max_list_cost.amount", "at most 18 digits", true},
		{"budget leading zero", budget(money.Money{Amount: "0100", Currency: "USD"}), "budget.max_list_cost.amount", "must not have leading zeros", true},
		{"budget currency form", budget(money.Money{Amount: "100", Currency: "usd"}), "budget.max_list_cost.currency", "must be an uppercase ISO 4217 code such as USD", true},
		{"budget currency unknown", budget(money.New(100, "EUR")), "budget.max_list_cost.currency", "must be one of `USD`", false},

		{"initial_events 51", create(func(p *sessions.CreateParams) { p.InitialEvents = messages(51) }), "initial_events", "at most 50 items", true},
		{"event nil", events(nil), "initial_events[0]", "must not be nil", true},
		{"message without content", events(sessions.UserMessage()), "initial_events[0].content", "must have at least 1 item", true},
		{"message empty text", events(sessions.UserMessage("a", "")), "initial_events[0].content[1].text", "must be at least 1 character", true},
		{"message block unknown", events(sessions.UserMessageParam{Content: []sessions.ContentBlockParam{
			sessions.UnknownContentBlockParam{Type: "image", JSON: json.RawMessage(`{"type":"image","source":{"type":"url","url":"https://x"}}`)}}}),
			"initial_events[0].content[0].type", "must be one of `text`", false},
		{"event kind not allowed", events(sessions.Interrupt()), "initial_events[0].type", "must be one of `user.message`, `user.define_outcome`, `system.message`", false},
		{"system alone", events(sessions.SystemMessage("s")), "initial_events[0]", "system.message must be the last event and follow a user.message", true},
		{"system not last", events(sessions.UserMessage("a"), sessions.SystemMessage("s"), sessions.UserMessage("b")), "initial_events[1]", "must be the last event", true},
		{"outcome description empty", events(sessions.DefineOutcome("", sessions.TextRubric("r"))), "initial_events[0].description", "must be at least 1 character", true},
		{"outcome rubric missing", events(sessions.DefineOutcome("d", nil)), "initial_events[0].rubric", "is required", true},
		{"outcome rubric 262145", events(sessions.DefineOutcome("d", sessions.TextRubric(rep(262145)))), "initial_events[0].rubric.content", "between 1 and 262144 characters", true},
		{"outcome file rubric prefix", events(sessions.DefineOutcome("d", sessions.FileRubric("rubric.md"))), "initial_events[0].rubric.file_id", "must be a file id (`file_…`)", true},
		{"outcome file rubric 129", events(sessions.DefineOutcome("d", sessions.FileRubric("file_"+rep(124)))), "initial_events[0].rubric.file_id", "between 1 and 128 characters", true},
		{"outcome max_iterations 21", events(sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.TextRubric("r"), MaxIterations: 21}),
			"initial_events[0].max_iterations", "between 1 and 20", true},
	})
}

// TestBadInputOtherCalls covers every other session endpoint: get,
// update, archive, delete, list, resources and events.
func TestBadInputOtherCalls(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	file, err := f.client.Sessions.Resources.Add(context.Background(), s.ID, sessions.FileResourceParam{FileID: fileID})
	require.NoError(t, err)
	byID := func(op func(context.Context, *agentplatform.Client) error) reftest.Call { return op }
	update := func(id string, p sessions.UpdateParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Update(ctx, id, p)
			return err
		}
	}
	list := func(p sessions.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.List(ctx, p)
			return err
		}
	}
	resList := func(id string, p sessions.ResourceListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Resources.List(ctx, id, p)
			return err
		}
	}
	add := func(id string, p sessions.FileResourceParam) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Resources.Add(ctx, id, p)
			return err
		}
	}
	rotate := func(id, resourceID, token string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Resources.Update(ctx, id, resourceID, sessions.ResourceUpdateParams{AuthorizationToken: param.Secret(token)})
			return err
		}
	}
	send := func(id string, es ...sessions.EventParam) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Events.Send(ctx, id, sessions.SendParams{Events: es})
			return err
		}
	}
	events := func(id string, p sessions.EventListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Events.List(ctx, id, p)
			return err
		}
	}
	stream := func(id string, p sessions.StreamParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			es, err := c.Sessions.Events.Stream(ctx, id, p)
			if err == nil {
				_ = es.Close()
			}
			return err
		}
	}
	text := func(n int) []sessions.ContentBlockParam {
		out := make([]sessions.ContentBlockParam, n)
		for i := range out {
			out[i] = sessions.TextBlockParam{Text: "t"}
		}
		return out
	}
	patch17 := map[string]*string{}
	for k, v := range pairs(17) {
		patch17[k] = &v
	}
	reftest.RunBadInput(t, f.env, f.client, []badInput{
		{"get empty id", byID(func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Get(ctx, "")
			return err
		}), "session_id", "must not be empty", true},
		{"archive empty id", byID(func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Archive(ctx, "")
			return err
		}), "session_id", "must not be empty", true},
		{"delete empty id", byID(func(ctx context.Context, c *agentplatform.Client) error {
			return c.Sessions.Delete(ctx, "")
		}), "session_id", "must not be empty", true},

		{"update empty id", update("", sessions.UpdateParams{Title: param.Value("t")}), "session_id", "must not be empty", true},
		{"update title empty", update(s.ID, sessions.UpdateParams{Title: param.Value("")}), "title", "between 1 and 500 characters", true},
		{"update title 501", update(s.ID, sessions.UpdateParams{Title: param.Value(rep(501))}), "title", "between 1 and 500 characters", true},
		{"update metadata 17 set", update(s.ID, sessions.UpdateParams{Metadata: patch17}), "metadata", "at most 16 pairs", true},
		{"update metadata value 513", update(s.ID, sessions.UpdateParams{Metadata: map[string]*string{"k": new(rep(513))}}), "metadata.k", "at most 512 characters", true},
		{"update budget leading zero", update(s.ID, sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.Money{Amount: "0100", Currency: "USD"}))}), "budget.max_list_cost.amount", "must not have leading zeros", true},
		{"update budget currency unknown", update(s.ID, sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.New(1, "EUR")))}),
			"budget.max_list_cost.currency", "must be one of `USD`", false},
		{"update agent tools 129", update(s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: make([]agents.Tool, 129)}}), "agent.tools", "at most 128 items", true},
		{"update agent tool nil", update(s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{nil}}}), "agent.tools[0]", "must not be nil", true},
		{"update agent custom tool description", update(s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{agents.CustomTool{Name: "t"}}}}),
			"agent.tools[0].description", "between 1 and 1024 characters", true},
		{"update agent toolset twice", update(s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{agents.AgentToolset{}, agents.AgentToolset{}}}}),
			"agent.tools[1].type", "duplicate toolset", true},
		{"update agent mcp servers 21", update(s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{MCPServers: make([]agents.MCPServer, 21)}}), "agent.mcp_servers", "at most 20 items", true},
		{"update agent mcp server unused", update(s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{},
			MCPServers: []agents.MCPServer{{Name: "docs", URL: "https://mcp.example.com"}}}}), "agent.mcp_servers[0].name", "is not referenced by any mcp_toolset", true},
		{"update agent mcp server against the stored tools", update(s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{
			MCPServers: []agents.MCPServer{{Name: "docs", URL: "https://mcp.example.com"}}}}), "agent.mcp_servers[0].name", "is not referenced by any mcp_toolset", false},

		{"list limit -1", list(sessions.ListParams{Limit: -1}), "limit", "between 1 and 100", true},
		{"list limit 101", list(sessions.ListParams{Limit: 101}), "limit", "between 1 and 100", true},
		{"list agent_version without agent_id", list(sessions.ListParams{AgentVersion: 1}), "agent_version", "requires agent_id", true},
		{"list agent_version negative", list(sessions.ListParams{AgentID: f.agent.ID, AgentVersion: -1}), "agent_version", "between 1 and 2147483647", true},
		{"list status unknown", list(sessions.ListParams{Statuses: []sessions.Status{"sleeping"}}), "statuses", "must be one of", false},
		{"list order unknown", list(sessions.ListParams{Order: "random"}), "order", "must be one of `asc`, `desc`", false},
		{"list page", list(sessions.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"all limit 101", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Sessions.All(ctx, sessions.ListParams{Limit: 101}))
		},
			"limit", "between 1 and 100", true},

		{"resources list empty id", resList("", sessions.ResourceListParams{}), "session_id", "must not be empty", true},
		{"resources list limit -1", resList(s.ID, sessions.ResourceListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"resources list limit 1001", resList(s.ID, sessions.ResourceListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"resources list page", resList(s.ID, sessions.ResourceListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"resources all limit 1001", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Sessions.Resources.All(ctx, s.ID, sessions.ResourceListParams{Limit: 1001}))
		}, "limit", "between 1 and 1000", true},
		{"resource add empty id", add("", sessions.FileResourceParam{FileID: fileID}), "session_id", "must not be empty", true},
		{"resource add file_id empty", add(s.ID, sessions.FileResourceParam{}), "file_id", "between 1 and 128 characters", true},
		{"resource add file_id prefix", add(s.ID, sessions.FileResourceParam{FileID: "upload_1"}), "file_id", "must be a file id (`file_…`)", true},
		{"resource add mount path relative", add(s.ID, sessions.FileResourceParam{FileID: "file_2", MountPath: "in.csv"}), "mount_path", "must start with `/`", true},
		{"resource add mount path 4097", add(s.ID, sessions.FileResourceParam{FileID: "file_2", MountPath: "/" + rep(4096)}), "mount_path", "between 1 and 4096 characters", true},
		{"resource add mount path taken", add(s.ID, sessions.FileResourceParam{FileID: "file_02", MountPath: file.MountPath}), "mount_path", "duplicate mount path", false},
		{"resource get empty session id", byID(func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Resources.Get(ctx, "", file.ID)
			return err
		}),
			"session_id", "must not be empty", true},
		{"resource get empty id", byID(func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Sessions.Resources.Get(ctx, s.ID, "")
			return err
		}),
			"resource_id", "must not be empty", true},
		{"resource update empty id", rotate(s.ID, "", "token"), "resource_id", "must not be empty", true},
		{"resource update token missing", rotate(s.ID, file.ID, ""), "authorization_token", "is required", true},
		{"resource update token 4097", rotate(s.ID, file.ID, rep(4097)), "authorization_token", "between 1 and 4096 characters", true},
		{"resource update not a repository", rotate(s.ID, file.ID, "token"), "authorization_token", "only vcs_repository resources support token rotation", false},
		{"resource delete empty id", byID(func(ctx context.Context, c *agentplatform.Client) error {
			return c.Sessions.Resources.Delete(ctx, s.ID, "")
		}),
			"resource_id", "must not be empty", true},

		{"send empty id", send("", sessions.UserMessage("hi")), "session_id", "must not be empty", true},
		{"send no events", send(s.ID), "events", "must have at least 1 item", true},
		{"send 51 events", send(s.ID, messages(51)...), "events", "at most 50 items", true},
		{"send event nil", send(s.ID, nil), "events[0]", "must not be nil", true},
		{"send message without content", send(s.ID, sessions.UserMessage()), "events[0].content", "must have at least 1 item", true},
		{"send message empty text", send(s.ID, sessions.UserMessage("")), "events[0].content[0].text", "must be at least 1 character", true},
		{"send event type unknown", send(s.ID, sessions.UnknownEventParam{Type: "user.wave", JSON: json.RawMessage(`{"type":"user.wave"}`)}), "events[0].type", "must be one of", false},
		{"send confirmation result missing", send(s.ID, sessions.ToolConfirmationParam{ToolUseID: "sevt_1"}), "events[0].result", "is required", true},
		{"send confirmation result unknown", send(s.ID, sessions.ToolConfirmationParam{Result: "maybe", ToolUseID: "sevt_1"}), "events[0].result", "must be one of `allow`, `deny`", false},
		{"send confirmation id empty", send(s.ID, sessions.Allow("")), "events[0].tool_use_id", "between 1 and 128 characters", true},
		{"send confirmation id 129", send(s.ID, sessions.Allow(rep(129))), "events[0].tool_use_id", "between 1 and 128 characters", true},
		{"send deny message with allow", send(s.ID, sessions.ToolConfirmationParam{Result: sessions.ConfirmationAllow, ToolUseID: "sevt_1", DenyMessage: "no"}),
			"events[0].deny_message", "only allowed when result is `deny`", true},
		{"send deny message 10001", send(s.ID, sessions.Deny("sevt_1", rep(10001))), "events[0].deny_message", "at most 10000 characters", true},
		{"send custom result id empty", send(s.ID, sessions.CustomToolResult("", "42")), "events[0].custom_tool_use_id", "between 1 and 128 characters", true},
		{"send custom result empty text", send(s.ID, sessions.CustomToolResult("sevt_1", "")), "events[0].content[0].text", "must be at least 1 character", true},
		{"send tool result id 129", send(s.ID, sessions.ToolResult(rep(129), "ok")), "events[0].tool_use_id", "between 1 and 128 characters", true},
		{"send tool result unknown tool use", send(s.ID, sessions.ToolResult("sevt_1", "ok")), "events[0].type", "only valid on self_hosted environments", false},
		{"send system alone", send(s.ID, sessions.SystemMessage("s")), "events[0]",
			"system.message must be the last event and follow a user.message, user.tool_result or user.custom_tool_result", true},
		{"send system not last", send(s.ID, sessions.UserMessage("a"), sessions.SystemMessage("s"), sessions.UserMessage("b")), "events[1]", "must be the last event", true},
		{"send system without content", send(s.ID, sessions.UserMessage("a"), sessions.SystemMessage()), "events[1].content", "must have between 1 and 1000 items", true},
		{"send system 1001 blocks", send(s.ID, sessions.UserMessage("a"), sessions.SystemMessageParam{Content: text(1001)}), "events[1].content", "must have between 1 and 1000 items", true},
		{"send outcome rubric file prefix", send(s.ID, sessions.DefineOutcome("d", sessions.FileRubric("x"))), "events[0].rubric.file_id", "must be a file id (`file_…`)", true},
		{"send outcome max_iterations -1", send(s.ID, sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.TextRubric("r"), MaxIterations: -1}),
			"events[0].max_iterations", "between 1 and 20", true},

		{"events list empty id", events("", sessions.EventListParams{}), "session_id", "must not be empty", true},
		{"events list limit -1", events(s.ID, sessions.EventListParams{Limit: -1}), "limit", "between 1 and 1000", true},
		{"events list limit 1001", events(s.ID, sessions.EventListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"events list type empty", events(s.ID, sessions.EventListParams{Types: []sessions.EventType{"user.message", ""}}), "types", "must not be empty", true},
		{"events list order unknown", events(s.ID, sessions.EventListParams{Order: "sideways"}), "order", "must be one of `asc`, `desc`", false},
		{"events list page", events(s.ID, sessions.EventListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"events all limit 1001", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Sessions.Events.All(ctx, s.ID, sessions.EventListParams{Limit: 1001}))
		}, "limit", "between 1 and 1000", true},

		{"stream empty id", stream("", sessions.StreamParams{}), "session_id", "must not be empty", true},
		{"stream event_deltas 101", stream(s.ID, sessions.StreamParams{EventDeltas: make([]sessions.EventType, 101)}), "event_deltas", "at most 100 items", true},
		{"stream resume without reconnection", stream(s.ID, sessions.StreamParams{NoReconnect: true, ResumeAfter: sessions.Position{EventID: "sevt_1"}}),
			"resume_after", "needs reconnection", true},
		{"stream resume without event id", stream(s.ID, sessions.StreamParams{ResumeAfter: sessions.Position{ProcessedAt: time.Now()}}), "resume_after.event_id", "is required", true},
		{"stream event_deltas unknown", stream(s.ID, sessions.StreamParams{NoReconnect: true, EventDeltas: []sessions.EventType{"agent.tool_use"}}),
			"event_deltas", "must be one of `agent.message`, `agent.thinking`", false},
	})
}
