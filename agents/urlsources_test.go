package agents_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/option"
)

// TestURLSourcesShorthand: a request may give each url_sources member as
// the shorthand string a current official client sends; the server
// answers with the object form, null for the unset member, and the SDK
// reads it.
func TestURLSourcesShorthand(t *testing.T) {
	_, client := newClient(t)
	body := json.RawMessage(`{"name": "fetcher", "model": "vendor-opus-5-5", "tools": [
		{"type": "agent_toolset_20260401", "configs": [{"name": "web_fetch",
			"url_sources": {"user_input": "none", "server_tool_results": {"type": "only", "tools": [{"type": "tool_reference", "name": "web_search"}]}}}]},
		{"type": "custom", "name": "lookup", "description": "d", "input_schema": {"type": "object"}}]}`)
	var raw json.RawMessage
	require.NoError(t, client.Execute(ctx, http.MethodPost, "/v1/agents", body, &raw, option.WithBeta("managed-agents-2026-04-01")))
	var got struct {
		ID    string
		Tools []struct {
			Configs []struct {
				URLSources json.RawMessage `json:"url_sources"`
			}
		}
	}
	require.NoError(t, json.Unmarshal(raw, &got))
	require.JSONEq(t, `{"user_input": {"type": "none"}, "client_tool_results": null,
		"server_tool_results": {"type": "only", "tools": [{"type": "tool_reference", "name": "web_search"}]}}`,
		string(got.Tools[0].Configs[0].URLSources))

	a, err := client.Agents.Get(ctx, got.ID, agents.GetParams{})
	require.NoError(t, err)
	cfg := a.Tools[0].(agents.AgentToolset).Configs[0]
	require.Equal(t, &agents.URLSources{
		UserInput:         agents.URLSourceOf(agents.URLSourceNone),
		ServerToolResults: agents.URLSourceOf(agents.URLSourceOnly, "web_search"),
	}, cfg.URLSources)

	// The SDK reads the shorthand too, as a request document may hold it.
	var f agents.URLSourceFilter
	require.NoError(t, json.Unmarshal([]byte(`"all"`), &f))
	require.Equal(t, agents.URLSourceFilter{Type: agents.URLSourceAll}, f)
	out, err := json.Marshal(f)
	require.NoError(t, err)
	require.JSONEq(t, `{"type": "all"}`, string(out))

	// Unset: the member is sent as null and read as nil; update clears it.
	a, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{Version: a.Version,
		Tools: []agents.Tool{agents.AgentToolset{Configs: []agents.ToolConfig{{Name: agents.ToolWebFetch}}}}})
	require.NoError(t, err)
	require.Nil(t, a.Tools[0].(agents.AgentToolset).Configs[0].URLSources)
}

// TestURLSourcesServerRules: the rules the SDK leaves to the server, sent
// as raw JSON so that the SDK's own checks do not answer first.
func TestURLSourcesServerRules(t *testing.T) {
	_, client := newClient(t)
	for name, c := range map[string]struct{ sources, want string }{
		"every source none": {`{"user_input": "none", "client_tool_results": "none", "server_tool_results": {"type": "none"}}`,
			"tools[0].configs[0].url_sources: must not set every source to `none`"},
		"shorthand only": {`{"client_tool_results": "only"}`, "tools[0].configs[0].url_sources.client_tool_results: must be one of `all`, `none`"},
		"not an object":  {`["all"]`, "tools[0].configs[0].url_sources: must be an object"},
		"reference type": {`{"server_tool_results": {"type": "except", "tools": [{"type": "tool", "name": "web_fetch"}]}}`,
			"tools[0].configs[0].url_sources.server_tool_results.tools[0].type: must be one of `tool_reference`"},
		"unknown member": {`{"assistant_output": "none"}`, "tools[0].configs[0].url_sources.assistant_output: unknown field"},
	} {
		t.Run(name, func(t *testing.T) {
			body := json.RawMessage(`{"name": "fetcher", "model": "vendor-opus-5-5", "tools": [
				{"type": "agent_toolset_20260401", "configs": [{"name": "web_fetch", "url_sources": ` + c.sources + `}]}]}`)
			err := client.Execute(ctx, http.MethodPost, "/v1/agents", body, nil, option.WithBeta("managed-agents-2026-04-01"))
			var apiErr *apierror.Error
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
			require.Equal(t, c.want, apiErr.Message)
		})
	}
}

// TestAWSRoleEchoed: aws_role, the name current official clients use, is
// accepted beside cloud_role, and each is echoed under the name it was
// given.
func TestAWSRoleEchoed(t *testing.T) {
	_, client := newClient(t)
	arn := "arn:aws:iam::123456789012:role/agent"
	a, err := client.Agents.Create(ctx, agents.CreateParams{Name: "a", Model: agents.ModelID("vendor-opus-5-5"),
		ExecutionIdentity: agents.AWSRole{RoleARN: arn}})
	require.NoError(t, err)
	require.Equal(t, agents.AWSRole{RoleARN: arn}, a.ExecutionIdentity)

	a, err = client.Agents.Update(ctx, a.ID, agents.UpdateParams{Version: a.Version, ExecutionIdentity: agents.CloudRole{RoleARN: arn}})
	require.NoError(t, err)
	require.Equal(t, agents.CloudRole{RoleARN: arn}, a.ExecutionIdentity)

	var raw struct {
		ExecutionIdentity json.RawMessage `json:"execution_identity"`
	}
	body := json.RawMessage(`{"version": 2, "execution_identity": {"type": "aws_role", "role_arn": "` + arn + `"}}`)
	require.NoError(t, client.Execute(ctx, http.MethodPost, "/v1/agents/"+a.ID, body, &raw, option.WithBeta("managed-agents-2026-04-01")))
	require.JSONEq(t, `{"type": "aws_role", "role_arn": "`+arn+`"}`, string(raw.ExecutionIdentity))

	body = json.RawMessage(`{"version": 3, "execution_identity": {"type": "aws_role"}}`)
	err = client.Execute(ctx, http.MethodPost, "/v1/agents/"+a.ID, body, nil, option.WithBeta("managed-agents-2026-04-01"))
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "execution_identity.role_arn: is required", apiErr.Message)
}
