package sessions_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestRequestEncoding pins the wire form of every request-side variant.
func TestRequestEncoding(t *testing.T) {
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"minimal create", sessions.CreateParams{Agent: agents.AgentID("agent_1"), EnvironmentID: "env_1"},
			`{"agent":"agent_1","environment_id":"env_1"}`},
		{"reference", sessions.CreateParams{Agent: agents.AgentReference{ID: "agent_1", Version: 2}, EnvironmentID: "env_1", Title: "t",
			Metadata: map[string]string{"k": "v"}, VaultIDs: []string{"vlt_1"}, Budget: &sessions.Budget{MaxListCost: money.USD(2500)}},
			`{"agent":{"type":"agent","id":"agent_1","version":2},"environment_id":"env_1","title":"t","metadata":{"k":"v"},
			  "vault_ids":["vlt_1"],"budget":{"type":"limit","max_list_cost":{"amount":"2500","currency":"USD"}}}`},
		{"overrides", sessions.AgentWithOverrides{AgentReference: agents.AgentReference{ID: "agent_1"},
			Model: agents.ModelID("m"), System: param.Null[string](), Tools: []agents.Tool{}, Skills: []agents.Skill{agents.VendorSkill{SkillID: "xlsx"}}},
			`{"type":"agent_with_overrides","id":"agent_1","model":"m","system":null,"tools":[],"skills":[{"type":"vendor","skill_id":"xlsx"}]}`},
		{"overrides, reference only", sessions.AgentWithOverrides{AgentReference: agents.AgentReference{ID: "agent_1", Version: 3}},
			`{"type":"agent_with_overrides","id":"agent_1","version":3}`},
		{"file", sessions.FileResourceParam{FileID: "file_1"}, `{"type":"file","file_id":"file_1"}`},
		{"file mounted", sessions.FileResourceParam{FileID: "file_1", MountPath: "/m"}, `{"type":"file","file_id":"file_1","mount_path":"/m"}`},
		{"repository", sessions.RepositoryResourceParam{URL: "https://x/r", AuthorizationToken: "tok", Checkout: sessions.CommitCheckout{SHA: "abcdef0"}, MountPath: "/r"},
			`{"type":"vcs_repository","url":"https://x/r","authorization_token":"tok","checkout":{"type":"commit","sha":"abcdef0"},"mount_path":"/r"}`},
		{"repository bare", sessions.RepositoryResourceParam{URL: "https://x/r"}, `{"type":"vcs_repository","url":"https://x/r"}`},
		{"branch", sessions.BranchCheckout{Name: "main"}, `{"type":"branch","name":"main"}`},
		{"memory store", sessions.MemoryStoreResourceParam{MemoryStoreID: "memstore_1", Access: sessions.AccessReadOnly, Instructions: "i"},
			`{"type":"memory_store","memory_store_id":"memstore_1","access":"read_only","instructions":"i"}`},
		{"memory store bare", sessions.MemoryStoreResourceParam{MemoryStoreID: "memstore_1"}, `{"type":"memory_store","memory_store_id":"memstore_1"}`},
		{"user message", sessions.UserMessage("a", "b"), `{"type":"user.message","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`},
		{"system message", sessions.SystemMessage("s"), `{"type":"system.message","content":[{"type":"text","text":"s"}]}`},
		{"define outcome", sessions.DefineOutcome("d", sessions.TextRubric("r")),
			`{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"r"}}`},
		{"define outcome, file rubric", sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.FileRubric("file_1"), MaxIterations: 5},
			`{"type":"user.define_outcome","description":"d","rubric":{"type":"file","file_id":"file_1"},"max_iterations":5}`},
		{"unknown event", sessions.UnknownEventParam{Type: "user.interrupt", JSON: json.RawMessage(`{"type":"user.interrupt","session_thread_id":null}`)},
			`{"type":"user.interrupt","session_thread_id":null}`},
		{"update", sessions.UpdateParams{Budget: param.Null[sessions.Budget](), Title: param.Null[string](), Metadata: map[string]*string{"gone": nil, "k": new("v")}},
			`{"budget":null,"metadata":{"gone":null,"k":"v"},"title":null}`},
		{"update values", sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.USD(1))), Title: param.Value("t"),
			Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{}}},
			`{"agent":{"tools":[]},"budget":{"type":"limit","max_list_cost":{"amount":"1","currency":"USD"}},"title":"t"}`},
		{"empty update", sessions.UpdateParams{}, `{}`},
		{"token rotation", sessions.ResourceUpdateParams{AuthorizationToken: "tok"}, `{"authorization_token":"tok"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.v)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(b))
		})
	}
}

// TestEventParamRoundTrip decodes what the request side encodes, unknown
// types and blocks included: the deployments package relies on it.
func TestEventParamRoundTrip(t *testing.T) {
	events := []sessions.EventParam{
		sessions.UserMessageParam{Content: []sessions.ContentBlockParam{
			sessions.TextBlockParam{Text: "hi"},
			sessions.UnknownContentBlockParam{Type: "image", JSON: json.RawMessage(`{"type":"image","source":{"type":"base64","data":"AA=="}}`)},
		}},
		sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.TextRubric("r"), MaxIterations: 3},
		sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.FileRubric("file_1")},
		sessions.DefineOutcomeParam{Description: "d", Rubric: sessions.UnknownRubricParam{Type: "url", JSON: json.RawMessage(`{"type":"url","url":"https://r"}`)}},
		sessions.SystemMessage("s"),
		sessions.Interrupt(),
		sessions.Deny("sevt_1", "no"),
		sessions.CustomToolResult("sevt_2", "r"),
		sessions.ToolError("sevt_3", "e"),
		sessions.UnknownEventParam{Type: "user.future", JSON: json.RawMessage(`{"type":"user.future","result":"allow","tool_use_id":"sevt_1"}`)},
	}
	for _, e := range events {
		b, err := json.Marshal(e)
		require.NoError(t, err)
		got, err := sessions.DecodeEventParam(b)
		require.NoError(t, err)
		require.Empty(t, cmp.Diff(e, got))
		again, err := json.Marshal(got)
		require.NoError(t, err)
		require.JSONEq(t, string(b), string(again))
	}
	_, err := sessions.DecodeEventParam([]byte(`{"content":[]}`))
	require.Error(t, err, "an event without a type")
}

// sessionJSON carries every response union in known and unknown variants.
const sessionJSON = `{
  "type": "session", "id": "sesn_1", "environment_id": "env_1", "status": "hibernating", "title": null,
  "metadata": {}, "vault_ids": [], "budget": null, "deployment_id": "depl_1", "archived_at": null,
  "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z",
  "stats": {"active_seconds": 1.5, "duration_seconds": 3},
  "usage": {"active_seconds": 1.5, "cache_creation": {"ephemeral_1h_input_tokens": 1, "ephemeral_5m_input_tokens": 2},
            "cache_read_input_tokens": 3, "input_tokens": 4, "output_tokens": 5,
            "list_cost": {"amount": "12", "currency": "USD"},
            "server_tool_use": {"web_fetch_requests": 6, "web_search_requests": 7}},
  "outcome_evaluations": [{"type": "outcome_evaluation", "outcome_id": "outc_1", "description": "d", "explanation": "e",
                           "iteration": 2, "result": "partially_satisfied", "completed_at": "2026-03-15T10:05:00Z"}],
  "resources": [
    {"type": "file", "id": "sesrsc_1", "file_id": "file_1", "mount_path": "/f", "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"},
    {"type": "vcs_repository", "id": "sesrsc_2", "url": "https://x/r", "checkout": {"type": "tag", "name": "v1"}, "mount_path": "/r",
     "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"},
    {"type": "vcs_repository", "id": "sesrsc_3", "url": "https://x/s", "checkout": null, "mount_path": "/s",
     "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"},
    {"type": "bucket", "id": "sesrsc_4", "bucket": "b"}
  ],
  "agent": {
    "type": "agent", "id": "agent_1", "version": 2, "name": "lead", "description": null, "system": "s",
    "model": {"id": "m", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"},
    "tools": [{"type": "computer_20270101"}], "mcp_servers": [], "skills": [], "execution_identity": {"type": "service_account"},
    "multiagent": {"type": "coordinator", "agents": [
      {"type": "agent", "id": "agent_2", "version": 1, "name": "helper", "description": "h", "system": null,
       "model": {"id": "m2", "effort": {"type": "low"}, "inference_geo": "us", "speed": "fast"},
       "tools": [], "mcp_servers": [], "skills": [{"type": "vendor", "skill_id": "xlsx", "version": "latest"}],
       "execution_identity": {"type": "cloud_role", "role_arn": "arn"}},
      {"type": "advisor", "model": "m3"},
      {"type": "crowd", "size": 3}
    ]}
  }
}`

func TestDecodeSession(t *testing.T) {
	var s sessions.Session
	require.NoError(t, json.Unmarshal([]byte(sessionJSON), &s))
	at := time.Date(2026, time.March, 15, 10, 0, 0, 0, time.UTC)
	helper := agents.RosterAgent{ID: "agent_2", Version: 1, Name: "helper", Description: "h",
		Model: agents.ModelConfig{ID: "m2", Effort: agents.EffortLow, InferenceGeo: "us", Speed: agents.SpeedFast},
		Tools: []agents.Tool{}, MCPServers: []agents.MCPServer{}, Skills: []agents.Skill{agents.VendorSkill{SkillID: "xlsx", Version: "latest"}},
		ExecutionIdentity: agents.CloudRole{RoleARN: "arn"}}
	want := sessions.Session{
		Type: "session", ID: "sesn_1", EnvironmentID: "env_1", Status: "hibernating",
		Metadata: map[string]string{}, VaultIDs: []string{}, DeploymentID: "depl_1", CreatedAt: at, UpdatedAt: at,
		Stats: sessions.Stats{ActiveSeconds: 1.5, DurationSeconds: 3},
		Usage: sessions.Usage{ActiveSeconds: 1.5, CacheCreation: sessions.CacheCreation{Ephemeral1hInputTokens: 1, Ephemeral5mInputTokens: 2},
			CacheReadInputTokens: 3, InputTokens: 4, OutputTokens: 5, ListCost: money.USD(12),
			ServerToolUse: sessions.ServerToolUse{WebFetchRequests: 6, WebSearchRequests: 7}},
		OutcomeEvaluations: []sessions.OutcomeEvaluation{{Type: "outcome_evaluation", OutcomeID: "outc_1", Description: "d", Explanation: "e",
			Iteration: 2, Result: "partially_satisfied", CompletedAt: at.Add(5 * time.Minute)}},
		Resources: []sessions.Resource{
			sessions.FileResource{ID: "sesrsc_1", FileID: "file_1", MountPath: "/f", CreatedAt: at, UpdatedAt: at},
			sessions.RepositoryResource{ID: "sesrsc_2", URL: "https://x/r", MountPath: "/r", CreatedAt: at, UpdatedAt: at,
				Checkout: sessions.UnknownCheckout{Type: "tag", JSON: json.RawMessage(`{"type": "tag", "name": "v1"}`)}},
			sessions.RepositoryResource{ID: "sesrsc_3", URL: "https://x/s", MountPath: "/s", CreatedAt: at, UpdatedAt: at},
			sessions.UnknownResource{Type: "bucket", JSON: json.RawMessage(`{"type": "bucket", "id": "sesrsc_4", "bucket": "b"}`)},
		},
		Agent: sessions.Agent{
			RosterAgent: agents.RosterAgent{ID: "agent_1", Version: 2, Name: "lead", System: "s",
				Model:      agents.ModelConfig{ID: "m", Effort: agents.EffortHigh, Speed: agents.SpeedStandard},
				Tools:      []agents.Tool{agents.UnknownTool{Type: "computer_20270101", JSON: json.RawMessage(`{"type": "computer_20270101"}`)}},
				MCPServers: []agents.MCPServer{}, Skills: []agents.Skill{}, ExecutionIdentity: agents.ServiceAccount{}},
			Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{
				helper,
				agents.AdvisorEntry{Model: "m3"},
				agents.UnknownRosterEntry{Type: "crowd", JSON: json.RawMessage(`{"type": "crowd", "size": 3}`)},
			}},
		},
	}
	require.Empty(t, cmp.Diff(want, s, rawEqual))
	require.Equal(t, agents.AgentReference{ID: "agent_2", Version: 1}, helper.Reference())

	// Everything marshals back to what decodes the same, unknown variants
	// byte for byte.
	b, err := json.Marshal(s)
	require.NoError(t, err)
	var again sessions.Session
	require.NoError(t, json.Unmarshal(b, &again))
	require.Empty(t, cmp.Diff(s, again, rawEqual))
	unknown, err := json.Marshal(s.Resources[3])
	require.NoError(t, err)
	require.JSONEq(t, `{"type": "bucket", "id": "sesrsc_4", "bucket": "b"}`, string(unknown))
}

func TestDecodeMultiagent20261001(t *testing.T) {
	const data = `{"type": "agent", "id": "agent_1", "version": 1, "name": "n", "description": null, "system": null,
	  "model": {"id": "m", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"},
	  "tools": [], "mcp_servers": [], "skills": [], "execution_identity": {"type": "service_account"},
	  "multiagent": {"type": "multiagent_20261001",
	    "advisor": {"type": "disabled"},
	    "subagents": {"type": "enabled", "inline_agents": {"type": "disabled"}, "predefined_agents": [
	      {"type": "agent", "id": "agent_2", "version": 4, "name": "h", "description": null, "system": null,
	       "model": {"id": "m", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"},
	       "tools": [], "mcp_servers": [], "skills": [], "execution_identity": {"type": "service_account"}}]},
	    "workflows": {"type": "budgeted", "max": 3}}}`
	var a sessions.Agent
	require.NoError(t, json.Unmarshal([]byte(data), &a))
	m, ok := a.Multiagent.(agents.Multiagent20261001)
	require.True(t, ok, "%T", a.Multiagent)
	require.Equal(t, agents.AdvisorDisabled{}, m.Advisor)
	sub, ok := m.Subagents.(agents.DelegationEnabled)
	require.True(t, ok)
	require.Equal(t, agents.InlineAgentsDisabled(), sub.InlineAgents)
	require.Len(t, sub.PredefinedAgents, 1)
	h := sub.PredefinedAgents[0].(agents.RosterAgent)
	require.Equal(t, "h", h.Name, "a predefined agent keeps its whole definition")
	require.Equal(t, agents.UnknownDelegation{Type: "budgeted", JSON: json.RawMessage(`{"type": "budgeted", "max": 3}`)}, m.Workflows)

	b, err := json.Marshal(a)
	require.NoError(t, err)
	var again sessions.Agent
	require.NoError(t, json.Unmarshal(b, &again))
	require.Empty(t, cmp.Diff(a, again, rawEqual))
}

// rawEqual compares unknown variants by JSON value, not by bytes.
var rawEqual = cmp.Comparer(func(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
})

func TestDecodeUnknownMultiagent(t *testing.T) {
	const data = `{"type": "agent", "id": "agent_1", "version": 1, "name": "n", "description": null, "system": null,
	  "model": {"id": "m", "effort": {"type": "high"}, "inference_geo": null, "speed": "standard"},
	  "tools": [], "mcp_servers": [], "skills": [], "execution_identity": {"type": "service_account"},
	  "multiagent": {"type": "swarm_20270101", "size": 9}}`
	var a sessions.Agent
	require.NoError(t, json.Unmarshal([]byte(data), &a))
	require.Equal(t, agents.UnknownMultiagent{Type: "swarm_20270101", JSON: json.RawMessage(`{"type": "swarm_20270101", "size": 9}`)}, a.Multiagent)
	require.Equal(t, "n", a.Name)
	b, err := json.Marshal(a.Multiagent)
	require.NoError(t, err)
	require.JSONEq(t, `{"type": "swarm_20270101", "size": 9}`, string(b))

	var alone sessions.Agent
	require.NoError(t, json.Unmarshal([]byte(`{"type": "agent", "id": "agent_1", "multiagent": null}`), &alone))
	require.Nil(t, alone.Multiagent)
	require.Error(t, json.Unmarshal([]byte(`{"multiagent": {"size": 9}}`), &alone), "a union without a type")
}
