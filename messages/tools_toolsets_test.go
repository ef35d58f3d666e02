package messages_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/messages"
)

func TestToolsetsEncode(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		tool messages.Tool
		wire string
	}{
		{messages.BrowserToolset{}, `{"type":"browser_toolset_20260801"}`},
		{messages.ComputerToolset{}, `{"type":"computer_toolset_20260801"}`},
		{messages.BrowserToolset{Type: messages.BrowserToolset20260801, CacheControl: messages.Ephemeral(""),
			Configs: map[string]messages.ToolsetMemberConfig{"javascript_exec": {Enabled: &no}, "navigate": {}}},
			`{"type":"browser_toolset_20260801","configs":{"javascript_exec":{"enabled":false},"navigate":{}},"cache_control":{"type":"ephemeral"}}`},
		{messages.ComputerToolset{Configs: map[string]messages.ToolsetMemberConfig{"zoom": {Enabled: &yes, DeferLoading: &no}}},
			`{"type":"computer_toolset_20260801","configs":{"zoom":{"defer_loading":false,"enabled":true}}}`},
		{messages.ComputerToolset{Configs: map[string]messages.ToolsetMemberConfig{}}, `{"type":"computer_toolset_20260801","configs":{}}`},
	} {
		got, err := json.Marshal(tc.tool)
		require.NoError(t, err)
		require.JSONEq(t, tc.wire, string(got))
	}
}

// TestToolsetsRoundTrip: a stored toolset entry decodes and encodes back
// as it was, members this SDK does not know included.
func TestToolsetsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		wire string
		into interface {
			json.Unmarshaler
			messages.Tool
		}
	}{
		{`{"type":"browser_toolset_20260801","configs":{"find":{"enabled":false,"defer_loading":true,"priority":2},"zoom":{}},` +
			`"cache_control":{"type":"ephemeral","ttl":"1h"},"display":"wide"}`, &messages.BrowserToolset{}},
		{`{"type":"computer_toolset_20260801","configs":{"zoom":{"enabled":false}}}`, &messages.ComputerToolset{}},
		{`{"type":"computer_toolset_20270101"}`, &messages.ComputerToolset{}},
	} {
		require.NoError(t, json.Unmarshal([]byte(tc.wire), tc.into))
		got, err := json.Marshal(tc.into)
		require.NoError(t, err)
		require.JSONEq(t, tc.wire, string(got))
	}
	var b messages.BrowserToolset
	require.NoError(t, json.Unmarshal([]byte(`{"type":"browser_toolset_20260801","configs":{"find":{"enabled":false,"x":1}},"y":true}`), &b))
	require.False(t, *b.Configs["find"].Enabled)
	require.Nil(t, b.Configs["find"].DeferLoading)
	require.JSONEq(t, `1`, string(b.Configs["find"].Extra["x"]))
	require.JSONEq(t, `true`, string(b.Extra["y"]))
}

func TestToolsetMembers(t *testing.T) {
	browser := messages.BrowserToolset20260801.Members()
	require.Len(t, browser, 31)
	require.Equal(t, browser, messages.BrowserToolsetVersion("").Members())
	require.True(t, slices.IsSorted(browser))
	require.Contains(t, browser, "javascript_exec")
	computer := messages.ComputerToolset20260801.Members()
	require.Len(t, computer, 17)
	require.Contains(t, computer, "cursor_position")
	require.NotContains(t, computer, "navigate")
	require.Nil(t, messages.ComputerToolsetVersion("computer_toolset_20270101").Members())
	computer[0] = "changed"
	require.Equal(t, "cursor_position", messages.ComputerToolset20260801.Members()[0], "the slice is a copy")
}

// TestToolsetsReachTheServer: the reference server takes both toolsets
// with sparse configs, and tool_choice may force an enabled member.
func TestToolsetsReachTheServer(t *testing.T) {
	env, client := newEnv(t)
	yes, no := true, false
	p := prompt("Open the page")
	p.Tools = append(messages.FromTools(weather),
		messages.BrowserToolset{Configs: map[string]messages.ToolsetMemberConfig{"javascript_exec": {Enabled: &no}, "find": {}}},
		messages.ComputerToolset{Configs: map[string]messages.ToolsetMemberConfig{"zoom": {Enabled: &no, DeferLoading: &yes}}},
	)
	p.ToolChoice = messages.ToolChoiceTool{Name: "navigate"}
	msg, err := client.Messages.Create(ctx, p)
	require.NoError(t, err)
	for _, b := range msg.Content {
		_, isText := b.(messages.TextBlock)
		require.True(t, isText, "the fake model never calls a toolset member: %#v", b)
	}
	tools := lastBody(t, env)["tools"].([]any)
	require.Equal(t, map[string]any{"type": "browser_toolset_20260801",
		"configs": map[string]any{"javascript_exec": map[string]any{"enabled": false}, "find": map[string]any{}}}, tools[1])

	// Every member deferred is one value on every enabled member.
	all := map[string]messages.ToolsetMemberConfig{}
	for _, m := range messages.ComputerToolset20260801.Members() {
		all[m] = messages.ToolsetMemberConfig{DeferLoading: &yes}
	}
	p = prompt("Hi")
	p.Tools = []messages.Tool{messages.ComputerToolset{Configs: all}, messages.ToolSearchTool{}}
	_, err = client.Messages.Create(ctx, p)
	require.NoError(t, err)
}

// TestToolsetsRefusedLocally: a key that is not a member, defer_loading
// that differs between enabled members, and a tool_choice naming a
// disabled or absent member are refused before anything is sent, with the
// server's words; sent raw, the server refuses them the same way.
func TestToolsetsRefusedLocally(t *testing.T) {
	env, client := newEnv(t)
	yes, no := true, false
	before := len(env.Server.Requests())
	for _, tc := range []struct {
		tools   []messages.Tool
		choice  messages.ToolChoice
		message string
	}{
		{tools: []messages.Tool{messages.BrowserToolset{Configs: map[string]messages.ToolsetMemberConfig{"navigate": {}, "cursor_position": {}}}},
			message: "tools.0.browser_toolset_20260801.configs.cursor_position: Extra inputs are not permitted"},
		{tools: []messages.Tool{messages.FromTool(weather), messages.ComputerToolset{Configs: map[string]messages.ToolsetMemberConfig{"navigate": {}, "zoom": {}}}},
			message: "tools.1.computer_toolset_20260801.configs.navigate: Extra inputs are not permitted"},
		{tools: []messages.Tool{messages.BrowserToolset{Configs: map[string]messages.ToolsetMemberConfig{"screenshot": {DeferLoading: &yes}}}},
			message: "tools.0.browser_toolset_20260801.configs: defer_loading must resolve to the same value on every enabled member: " +
				"`close_tab` resolves to false and `screenshot` to true"},
		{tools: []messages.Tool{messages.BrowserToolset{Configs: map[string]messages.ToolsetMemberConfig{
			"close_tab": {Enabled: &no}, "double_click": {DeferLoading: &yes}}}},
			message: "tools.0.browser_toolset_20260801.configs: defer_loading must resolve to the same value on every enabled member: " +
				"`double_click` resolves to true and `file_upload` to false"},
		{tools: []messages.Tool{messages.ComputerToolset{Configs: map[string]messages.ToolsetMemberConfig{"zoom": {Enabled: &no}}}},
			choice: messages.ToolChoiceTool{Name: "zoom"}, message: "tool_choice.tool.name: tool `zoom` is not in `tools`"},
		{tools: []messages.Tool{messages.ComputerToolset{}}, choice: messages.ToolChoiceTool{Name: "navigate"},
			message: "tool_choice.tool.name: tool `navigate` is not in `tools`"},
	} {
		p := prompt("Hi")
		p.Tools, p.ToolChoice = tc.tools, tc.choice
		_, err := client.Messages.Create(ctx, p)
		var invalid *apierror.ValidationError
		require.True(t, errors.As(err, &invalid), "%s: %v", tc.message, err)
		require.Equal(t, tc.message, invalid.Field+": "+invalid.Rule)
		require.Equal(t, before, len(env.Server.Requests()), "nothing is sent")

		// The same tools as raw JSON: the server's message is the same.
		p.Tools = nil
		for _, tool := range tc.tools {
			if _, custom := tool.(messages.CustomTool); custom {
				p.Tools = append(p.Tools, tool)
				continue
			}
			data, err := json.Marshal(tool)
			require.NoError(t, err)
			raw, err := messages.RawTool(data)
			require.NoError(t, err)
			p.Tools = append(p.Tools, raw)
		}
		if tc.choice != nil {
			continue // an UnknownTool has the benefit of the doubt locally; the server test covers it
		}
		_, err = client.Messages.Create(ctx, p)
		require.ErrorContains(t, err, tc.message)
		before = len(env.Server.Requests())
	}
}

// TestToolsetsRefusedByServer: what the SDK leaves to the server (a
// member's field it does not model, a toolset member it does not know)
// comes back as the server's error.
func TestToolsetsRefusedByServer(t *testing.T) {
	_, client := newEnv(t)
	p := prompt("Hi")
	p.Tools = []messages.Tool{messages.ComputerToolset{Configs: map[string]messages.ToolsetMemberConfig{
		"zoom": {Extra: map[string]json.RawMessage{"hidden": json.RawMessage(`true`)}}}}}
	_, err := client.Messages.Create(ctx, p)
	require.ErrorContains(t, err, "tools.0.computer_toolset_20260801.configs.zoom.hidden: Extra inputs are not permitted")

	p.Tools = []messages.Tool{messages.ComputerToolset{Extra: map[string]json.RawMessage{"enable_zoom": json.RawMessage(`true`)}}}
	_, err = client.Messages.Create(ctx, p)
	require.ErrorContains(t, err, "tools.0.computer_toolset_20260801.enable_zoom: Extra inputs are not permitted")
}
