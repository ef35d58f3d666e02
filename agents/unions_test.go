package agents_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/param"
)

// TestRequestEncoding pins the wire form of every request-side variant.
func TestRequestEncoding(t *testing.T) {
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"model id", agents.CreateParams{Name: "n", Model: agents.ModelID("vendor-opus-5-5")}, `{"name":"n","model":"vendor-opus-5-5"}`},
		{"model config", agents.CreateParams{Name: "n", Model: agents.ModelConfig{ID: "m", Effort: agents.EffortXHigh, InferenceGeo: "global", Speed: agents.SpeedStandard}},
			`{"name":"n","model":{"id":"m","effort":{"type":"xhigh"},"inference_geo":"global","speed":"standard"}}`},
		{"model config bare", agents.ModelConfig{ID: "m"}, `{"id":"m"}`},
		{"vendor skill", agents.VendorSkill{SkillID: "xlsx"}, `{"type":"vendor","skill_id":"xlsx"}`},
		{"custom skill", agents.CustomSkill{SkillID: "skill_1", Version: "3"}, `{"type":"custom","skill_id":"skill_1","version":"3"}`},
		{"agent toolset", agents.AgentToolset{}, `{"type":"agent_toolset_20260401"}`},
		{"agent toolset full", agents.AgentToolset{
			Configs: []agents.ToolConfig{{Name: agents.ToolWebSearch, Enabled: new(true), PermissionPolicy: agents.Policy(agents.PolicyAuto),
				AllowedDomains: []string{"a.com"}, UserLocation: &agents.UserLocation{Country: "US"}}},
			DefaultConfig: &agents.ToolDefaults{Enabled: new(false)},
		}, `{"type":"agent_toolset_20260401","configs":[{"type":"web_search","name":"web_search","enabled":true,"permission_policy":{"type":"auto"},
			"allowed_domains":["a.com"],"user_location":{"type":"approximate","country":"US"}}],"default_config":{"enabled":false}}`},
		{"mcp toolset", agents.MCPToolset{MCPServerName: "s", Configs: []agents.MCPToolConfig{{Name: "t", PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)}}},
			`{"type":"mcp_toolset","mcp_server_name":"s","configs":[{"name":"t","permission_policy":{"type":"always_ask"}}]}`},
		{"custom tool", agents.CustomTool{Name: "t", Description: "d", InputSchema: agents.InputSchema{Required: []string{"x"}}},
			`{"type":"custom","name":"t","description":"d","input_schema":{"type":"object","required":["x"]}}`},
		{"mcp server", agents.MCPServer{Name: "s", URL: "https://x"}, `{"type":"url","name":"s","url":"https://x"}`},
		{"service account", agents.ServiceAccount{}, `{"type":"service_account"}`},
		{"cloud role", agents.CloudRole{RoleARN: "arn"}, `{"type":"cloud_role","role_arn":"arn"}`},
		{"coordinator", agents.Coordinator{Agents: []agents.RosterEntry{
			agents.AgentID("agent_1"), agents.AgentReference{ID: "agent_2"}, agents.AgentReference{ID: "agent_3", Version: 4},
			agents.SelfEntry{}, agents.AdvisorEntry{Model: "m"},
		}}, `{"type":"coordinator","agents":["agent_1",{"type":"agent","id":"agent_2"},{"type":"agent","id":"agent_3","version":4},{"type":"self"},{"type":"advisor","model":"m"}]}`},
		{"multiagent empty", agents.Multiagent20261001{}, `{"type":"multiagent_20261001"}`},
		{"multiagent full", agents.Multiagent20261001{
			Advisor:   agents.AdvisorDisabled{},
			Subagents: agents.DelegationEnabled{InlineAgents: agents.InlineAgentsDisabled(), PredefinedAgents: []agents.RosterEntry{agents.SelfEntry{}}},
			Workflows: agents.DelegationDisabled{},
		}, `{"type":"multiagent_20261001","advisor":{"type":"disabled"},"subagents":{"type":"enabled","inline_agents":{"type":"disabled"},
			"predefined_agents":[{"type":"self"}]},"workflows":{"type":"disabled"}}`},
		{"advisor enabled", agents.AdvisorEnabled{Model: "m"}, `{"type":"enabled","model":"m"}`},
		{"update", agents.UpdateParams{Version: 3, Description: param.Null[string](), Tools: []agents.Tool{},
			Multiagent: param.Null[agents.Multiagent](), Metadata: map[string]*string{"gone": nil}},
			`{"version":3,"description":null,"tools":[],"multiagent":null,"metadata":{"gone":null}}`},
		{"update multiagent", agents.UpdateParams{Multiagent: param.Value[agents.Multiagent](agents.Coordinator{Agents: []agents.RosterEntry{agents.SelfEntry{}}})},
			`{"multiagent":{"type":"coordinator","agents":[{"type":"self"}]}}`},
		{"empty update", agents.UpdateParams{}, `{}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.v)
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(b))
		})
	}
}

// agentJSON is a response carrying every union in an unknown variant.
const unknownAgentJSON = `{
  "type": "agent", "id": "agent_1", "version": 1, "name": "n", "description": null, "system": null,
  "model": {"id": "m", "effort": {"type": "galactic"}, "inference_geo": null, "speed": "warp"},
  "tools": [{"type": "computer_20270101", "display": {"w": 1024}},
            {"type": "custom", "name": "t", "description": "d", "input_schema": {"type": "object", "$defs": {"x": {"type": "integer"}}}}],
  "mcp_servers": [],
  "skills": [{"type": "marketplace", "skill_id": "s", "listing": 7}],
  "multiagent": {"type": "swarm_20270101", "size": 9},
  "execution_identity": {"type": "workload_identity", "pool": "p"},
  "metadata": {},
  "archived_at": null, "created_at": "2026-03-15T10:00:00Z", "updated_at": "2026-03-15T10:00:00Z"
}`

func TestUnknownVariantsRoundTrip(t *testing.T) {
	var a agents.Agent
	require.NoError(t, json.Unmarshal([]byte(unknownAgentJSON), &a))
	require.Equal(t, agents.Effort("galactic"), a.Model.Effort, "unknown enum values are kept")
	require.Equal(t, agents.Speed("warp"), a.Model.Speed)

	tool, ok := a.Tools[0].(agents.UnknownTool)
	require.True(t, ok, "%T", a.Tools[0])
	require.Equal(t, "computer_20270101", tool.Type)
	custom := a.Tools[1].(agents.CustomTool)
	require.JSONEq(t, `{"x":{"type":"integer"}}`, string(custom.InputSchema.Extra["$defs"]))
	skill, ok := a.Skills[0].(agents.UnknownSkill)
	require.True(t, ok)
	require.Equal(t, "marketplace", skill.Type)
	ma, ok := a.Multiagent.(agents.UnknownMultiagent)
	require.True(t, ok)
	require.Equal(t, "swarm_20270101", ma.Type)
	id, ok := a.ExecutionIdentity.(agents.UnknownExecutionIdentity)
	require.True(t, ok)
	require.Equal(t, "workload_identity", id.Type)

	// Marshalled back, nothing is lost.
	out, err := json.Marshal(&a)
	require.NoError(t, err)
	var want, got map[string]any
	require.NoError(t, json.Unmarshal([]byte(unknownAgentJSON), &want))
	require.NoError(t, json.Unmarshal(out, &got))
	for _, key := range []string{"tools", "skills", "multiagent", "execution_identity", "model"} {
		if key == "model" {
			delete(want[key].(map[string]any), "inference_geo") // "" means null: omitted
		}
		require.Empty(t, cmp.Diff(want[key], got[key]), key)
	}

	// Unknown variants sent back in a request go out exactly as received.
	body, err := json.Marshal(agents.UpdateParams{Tools: a.Tools, Skills: a.Skills, ExecutionIdentity: a.ExecutionIdentity,
		Multiagent: param.Value(a.Multiagent)})
	require.NoError(t, err)
	require.JSONEq(t, `{"tools":`+mustJSON(t, want["tools"])+`,"skills":`+mustJSON(t, want["skills"])+
		`,"execution_identity":{"type":"workload_identity","pool":"p"},"multiagent":{"type":"swarm_20270101","size":9}}`, string(body))
}

func TestUnknownNestedVariants(t *testing.T) {
	in := `{"type":"multiagent_20261001","advisor":{"type":"council","models":["a"]},
		"subagents":{"type":"enabled","inline_agents":{"type":"sometimes"},"predefined_agents":[{"type":"agent","id":"agent_1","version":2},{"type":"clone"}]},
		"workflows":{"type":"scheduled"}}`
	var a agents.Agent
	require.NoError(t, json.Unmarshal([]byte(`{"multiagent":`+in+`}`), &a))
	m := a.Multiagent.(agents.Multiagent20261001)
	require.IsType(t, agents.UnknownAdvisor{}, m.Advisor)
	require.IsType(t, agents.UnknownDelegation{}, m.Workflows)
	sub := m.Subagents.(agents.DelegationEnabled)
	require.Equal(t, agents.Toggle("sometimes"), sub.InlineAgents.Type)
	require.Equal(t, agents.AgentReference{ID: "agent_1", Version: 2}, sub.PredefinedAgents[0])
	require.IsType(t, agents.UnknownRosterEntry{}, sub.PredefinedAgents[1])
	out, err := json.Marshal(m)
	require.NoError(t, err)
	require.JSONEq(t, in, string(out))

	coord := `{"type":"coordinator","agents":[{"type":"agent","id":"agent_1","version":1},{"type":"advisor","model":"m"},{"type":"team","id":"t"}]}`
	require.NoError(t, json.Unmarshal([]byte(`{"multiagent":`+coord+`}`), &a))
	c := a.Multiagent.(agents.Coordinator)
	require.Equal(t, agents.AdvisorEntry{Model: "m"}, c.Agents[1])
	require.IsType(t, agents.UnknownRosterEntry{}, c.Agents[2])
	out, err = json.Marshal(c)
	require.NoError(t, err)
	require.JSONEq(t, coord, string(out))

	// A request's model may be a bare id; decoding accepts it too.
	var mc agents.ModelConfig
	require.NoError(t, json.Unmarshal([]byte(`"vendor-opus-5-5"`), &mc))
	require.Equal(t, "vendor-opus-5-5", mc.ID)
	var e agents.Effort
	require.NoError(t, json.Unmarshal([]byte(`"low"`), &e))
	require.Equal(t, agents.EffortLow, e)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestDecodeToolInput(t *testing.T) {
	cases := []struct {
		name  agents.ToolName
		input string
		want  agents.ToolInput
	}{
		{agents.ToolBash, `{"command":"ls -la","timeout_ms":5000}`, agents.BashInput{Command: "ls -la", TimeoutMS: 5000}},
		{agents.ToolBash, `{"restart":true}`, agents.BashInput{Restart: true}},
		{agents.ToolEdit, `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":true}`,
			agents.EditInput{FilePath: "/a", OldString: "x", NewString: "y", ReplaceAll: true}},
		{agents.ToolGlob, `{"pattern":"**/*.go"}`, agents.GlobInput{Pattern: "**/*.go"}},
		{agents.ToolGrep, `{"pattern":"func\\s+main","path":"cmd"}`, agents.GrepInput{Pattern: `func\s+main`, Path: "cmd"}},
		{agents.ToolRead, `{"file_path":"/a","view_range":[10,-1]}`, agents.ReadInput{FilePath: "/a", ViewRange: &agents.LineRange{Start: 10, End: -1}}},
		{agents.ToolRead, `{"file_path":"/a"}`, agents.ReadInput{FilePath: "/a"}},
		{agents.ToolWrite, `{"file_path":"/a","content":"hi"}`, agents.WriteInput{FilePath: "/a", Content: "hi"}},
		{agents.ToolWebFetch, `{"url":"https://x"}`, agents.UnknownToolInput{Name: agents.ToolWebFetch, JSON: json.RawMessage(`{"url":"https://x"}`)}},
	}
	for _, tc := range cases {
		t.Run(string(tc.name), func(t *testing.T) {
			got, err := agents.DecodeToolInput(tc.name, json.RawMessage(tc.input))
			require.NoError(t, err)
			require.Empty(t, cmp.Diff(tc.want, got))
			require.Equal(t, tc.name, got.ToolName())
			out, err := json.Marshal(got)
			require.NoError(t, err)
			require.JSONEq(t, tc.input, string(out), "inputs marshal back to their wire form")
		})
	}
	_, err := agents.DecodeToolInput(agents.ToolRead, json.RawMessage(`{"file_path":"/a","view_range":[1]}`))
	require.ErrorContains(t, err, "view_range")
	_, err = agents.DecodeToolInput(agents.ToolBash, json.RawMessage(`{"command":3}`))
	require.Error(t, err)
}
