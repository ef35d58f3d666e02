package agents_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/wiretest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func decodeAgent(data []byte) (agents.Agent, error) {
	var a agents.Agent
	err := json.Unmarshal(data, &a)
	return a, err
}

// TestServerResponsesRoundTrip drives the reference server so that its
// answers hold every type and variant an agent response can hold, and
// checks that each answer encodes back to the server's JSON and decodes
// again to an equal value.
func TestServerResponsesRoundTrip(t *testing.T) {
	env, client := newClient(t)
	helper := simpleAgent(t, client, "helper")
	custom := customSkill(t, client)
	full, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:        "full",
		Model:       agents.ModelConfig{ID: models.VendorOpus55, Effort: agents.EffortMax, InferenceGeo: "us", Speed: agents.SpeedFast},
		Description: "d",
		System:      "s",
		Tools: []agents.Tool{
			agents.AgentToolset{Configs: []agents.ToolConfig{
				{Name: agents.ToolBash, PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)},
				{Name: agents.ToolWebFetch, AllowedDomains: []string{"docs.example.com"}, MaxContentTokens: 5000, URLSources: &agents.URLSources{
					UserInput:         agents.URLSourceOf(agents.URLSourceNone),
					ClientToolResults: agents.URLSourceOf(agents.URLSourceOnly, "lookup"),
					ServerToolResults: agents.URLSourceOf(agents.URLSourceExcept, "web_search"),
				}},
				{Name: agents.ToolWebSearch, BlockedDomains: []string{"spam.example"}, UserLocation: &agents.UserLocation{City: "Paris", Country: "FR"}},
			}},
			agents.MCPToolset{MCPServerName: "docs", Configs: []agents.MCPToolConfig{{Name: "search", Enabled: new(false)}}},
			agents.CustomTool{Name: "lookup", Description: "Look up.", InputSchema: agents.InputSchema{
				Properties: map[string]any{"id": map[string]any{"type": "string"}}, Required: []string{"id"},
				Extra: map[string]json.RawMessage{"additionalProperties": json.RawMessage(`false`)},
			}},
		},
		MCPServers:        []agents.MCPServer{{Name: "docs", URL: "https://mcp.example.com/sse"}},
		Skills:            []agents.Skill{agents.VendorSkill{SkillID: "xlsx"}, custom},
		Multiagent:        agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(helper.ID), agents.SelfEntry{}, agents.AdvisorEntry{Model: models.VendorOpus55}}},
		ExecutionIdentity: agents.CloudRole{RoleARN: "arn:aws:iam::123456789012:role/agent"},
		Metadata:          map[string]string{"team": "research"},
	})
	require.NoError(t, err)
	lead, err := client.Agents.Create(ctx, agents.CreateParams{Name: "lead", Model: agents.ModelID(models.VendorOpus55),
		ExecutionIdentity: agents.AWSRole{RoleARN: "arn:aws:iam::123456789012:role/lead"},
		Multiagent: agents.Multiagent20261001{
			Advisor:   agents.AdvisorEnabled{Model: models.VendorOpus55},
			Subagents: agents.DelegationEnabled{PredefinedAgents: []agents.RosterEntry{agents.AgentID(helper.ID), agents.SelfEntry{}}},
			Workflows: agents.DelegationDisabled{},
		}})
	require.NoError(t, err)
	_, err = client.Agents.Update(ctx, lead.ID, agents.UpdateParams{Multiagent: param.Value[agents.Multiagent](agents.Multiagent20261001{
		Advisor: agents.AdvisorDisabled{}, Subagents: agents.DelegationEnabled{InlineAgents: agents.InlineAgentsDisabled()},
	})})
	require.NoError(t, err)
	_, err = client.Agents.Archive(ctx, full.ID)
	require.NoError(t, err)

	beta := option.WithBeta("managed-agents-2026-04-01")
	var page struct{ Data []json.RawMessage }
	require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/agents", nil, &page, beta, option.WithQuery("include_archived", "true")))
	require.Len(t, page.Data, 3)
	responses := page.Data
	for _, id := range []string{helper.ID, full.ID, lead.ID} {
		var one json.RawMessage
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/agents/"+id, nil, &one, beta))
		var versions struct{ Data []json.RawMessage }
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/agents/"+id+"/versions", nil, &versions, beta))
		responses = append(append(responses, one), versions.Data...)
	}
	require.NotEmpty(t, env.Server.Requests())

	seen := map[string]bool{}
	for _, data := range responses {
		a, ok := wiretest.RoundTrip(t, data, decodeAgent, true)
		require.True(t, ok, "%s", data)
		wiretest.Seen(a, seen)
	}
	// SelfEntry and AgentID are request forms: the server answers with
	// the AgentReference they resolve to. Unknown variants and the tool
	// inputs are covered by the fuzz seeds (fuzz_internal_test.go).
	for _, name := range []string{
		"Agent", "ModelConfig", "AgentToolset", "ToolConfig", "ToolDefaults", "UserLocation", "PermissionPolicy",
		"MCPToolset", "MCPToolConfig", "CustomTool", "InputSchema", "MCPServer", "VendorSkill", "CustomSkill",
		"ServiceAccount", "CloudRole", "AWSRole", "URLSources", "URLSourceFilter", "URLSourceTool", "Coordinator", "AgentReference", "AdvisorEntry", "Multiagent20261001",
		"AdvisorEnabled", "AdvisorDisabled", "DelegationEnabled", "DelegationDisabled", "InlineAgents",
	} {
		require.True(t, seen[name], "no server response holds a %s", name)
	}
}

// TestSessionRostersRoundTrip: a session holds its agent's rosters
// resolved to definitions (RosterAgent); the server's JSON of them
// round-trips like an agent's own.
func TestSessionRostersRoundTrip(t *testing.T) {
	_, client := newClient(t)
	helper := simpleAgent(t, client, "helper")
	coordinator, err := client.Agents.Create(ctx, agents.CreateParams{Name: "coordinator", Model: agents.ModelID(models.VendorOpus55),
		Multiagent: agents.Coordinator{Agents: []agents.RosterEntry{agents.AgentID(helper.ID), agents.SelfEntry{}, agents.AdvisorEntry{Model: models.VendorOpus55}}}})
	require.NoError(t, err)
	lead, err := client.Agents.Create(ctx, agents.CreateParams{Name: "lead", Model: agents.ModelID(models.VendorOpus55),
		Multiagent: agents.Multiagent20261001{
			Subagents: agents.DelegationEnabled{PredefinedAgents: []agents.RosterEntry{agents.AgentID(helper.ID), agents.SelfEntry{}}},
			Workflows: agents.DelegationDisabled{},
		}})
	require.NoError(t, err)
	env, err := client.Environments.Create(ctx, environments.CreateParams{Name: "env"})
	require.NoError(t, err)

	seen := map[string]bool{}
	for _, a := range []*agents.Agent{coordinator, lead} {
		s, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: a.Reference(), EnvironmentID: env.ID,
			Budget: &sessions.Budget{MaxListCost: money.USD(100)}})
		require.NoError(t, err)
		var raw struct {
			Agent json.RawMessage `json:"agent"`
		}
		require.NoError(t, client.Execute(ctx, http.MethodGet, "/v1/sessions/"+s.ID, nil, &raw, option.WithBeta("managed-agents-2026-04-01")))
		v, ok := wiretest.RoundTrip(t, raw.Agent, decodeSessionAgent, true)
		require.True(t, ok, "%s", raw.Agent)
		wiretest.Seen(v, seen)
	}
	for _, name := range []string{"RosterAgent", "AdvisorEntry", "Coordinator", "Multiagent20261001", "DelegationEnabled", "DelegationDisabled"} {
		require.True(t, seen[name], "no session's agent holds a %s", name)
	}
}

func decodeSessionAgent(data []byte) (sessions.Agent, error) {
	var a sessions.Agent
	err := json.Unmarshal(data, &a)
	return a, err
}

// TestWireTypesHaveJSONMethods: every exported struct with an Extra field
// encodes through its own methods, which write Extra's members back.
func TestWireTypesHaveJSONMethods(t *testing.T) {
	wiretest.Implements(t, wiretest.Methods(t, "."),
		agents.Agent{}, agents.ModelConfig{}, agents.AgentReference{},
		agents.AgentToolset{}, agents.ToolDefaults{}, agents.ToolConfig{}, agents.UserLocation{}, agents.PermissionPolicy{},
		agents.MCPToolset{}, agents.MCPToolConfig{}, agents.CustomTool{}, agents.InputSchema{}, agents.MCPServer{},
		agents.VendorSkill{}, agents.CustomSkill{}, agents.ServiceAccount{}, agents.CloudRole{}, agents.AWSRole{},
		agents.URLSources{}, agents.URLSourceFilter{}, agents.URLSourceTool{},
		agents.Coordinator{}, agents.Multiagent20261001{}, agents.SelfEntry{}, agents.AdvisorEntry{}, agents.RosterAgent{},
		agents.AdvisorEnabled{}, agents.AdvisorDisabled{}, agents.DelegationEnabled{}, agents.DelegationDisabled{}, agents.InlineAgents{},
		agents.BashInput{}, agents.EditInput{}, agents.GlobInput{}, agents.GrepInput{}, agents.ReadInput{}, agents.WriteInput{})
}
