package refserver_test

import (
	"strings"
	"testing"
)

// The browser and computer toolsets (docs/messages-wire.md 2.3.4):
// accepted with sparse per-member configs, refused with a key that is not a
// member, a field a toolset does not have, or defer_loading that differs
// between enabled members.

func TestMessagesMemberToolsets(t *testing.T) {
	e := newEnv(t)
	for _, tools := range []string{
		`{"type":"browser_toolset_20260801"}`,
		`{"type":"browser_toolset_20260801","configs":null}`,
		`{"type":"browser_toolset_20260801","configs":{}}`,
		`{"type":"browser_toolset_20260801","configs":{"navigate":{},"zoom":null,"find":{"enabled":null,"defer_loading":null}},"cache_control":{"type":"ephemeral"}}`,
		`{"type":"computer_toolset_20260801","configs":{"zoom":{"enabled":false},"cursor_position":{"enabled":true,"defer_loading":false}}}`,
		// Every member deferred: one value on every enabled member.
		`{"type":"computer_toolset_20260801","configs":{` + allMembers(computerMembers, `{"defer_loading":true}`) + `}}`,
		// A disabled member's defer_loading does not count.
		`{"type":"computer_toolset_20260801","configs":{"zoom":{"enabled":false,"defer_loading":true}}}`,
		// Both families in one request; they carry no name to clash.
		`{"type":"browser_toolset_20260801"},{"type":"computer_toolset_20260801"}`,
	} {
		wantOK(t, e.do(t, "POST", "/v1/messages", base(`"tools":[`+tools+`]`)))
	}
	for _, c := range []struct{ tool, message string }{
		{`{"type":"browser_toolset_20260801","configs":{"navigate":{},"cursor_position":{"enabled":true}}}`,
			"tools.0.browser_toolset_20260801.configs.cursor_position: Extra inputs are not permitted"},
		{`{"type":"computer_toolset_20260801","configs":{"navigate":{}}}`,
			"tools.0.computer_toolset_20260801.configs.navigate: Extra inputs are not permitted"},
		{`{"type":"computer_toolset_20260801","configs":{"zoom":{"enabled":"yes"}}}`,
			"tools.0.computer_toolset_20260801.configs.zoom.enabled: Input should be a valid boolean"},
		{`{"type":"computer_toolset_20260801","configs":{"zoom":{"hidden":true}}}`,
			"tools.0.computer_toolset_20260801.configs.zoom.hidden: Extra inputs are not permitted"},
		{`{"type":"computer_toolset_20260801","configs":[]}`,
			"tools.0.computer_toolset_20260801.configs: Input should be a valid dictionary"},
		{`{"type":"computer_toolset_20260801","name":"computer"}`,
			"tools.0.computer_toolset_20260801.name: Extra inputs are not permitted"},
		{`{"type":"computer_toolset_20260801","enable_zoom":true}`,
			"tools.0.computer_toolset_20260801.enable_zoom: Extra inputs are not permitted"},
		{`{"type":"browser_toolset_20260801","configs":{"screenshot":{"defer_loading":true}}}`,
			"tools.0.browser_toolset_20260801.configs: defer_loading must resolve to the same value on every enabled member: " +
				"`close_tab` resolves to false and `screenshot` to true"},
		{`{"type":"browser_toolset_20260801","configs":{"close_tab":{"enabled":false},"double_click":{"defer_loading":true}}}`,
			"tools.0.browser_toolset_20260801.configs: defer_loading must resolve to the same value on every enabled member: " +
				"`double_click` resolves to true and `file_upload` to false"},
		{`{"type":"browser_toolset_20260901"}`, "tools.0: Input tag 'browser_toolset_20260901' found using 'type' " +
			"does not match any of the expected tags: " + toolTagList},
	} {
		wantInvalid(t, e.do(t, "POST", "/v1/messages", base(`"tools":[`+c.tool+`]`)), c.message)
	}
}

// tool_choice may force an enabled member by its name; the fake model
// never calls a toolset member, so the answer is text.
func TestMessagesMemberToolsetToolChoice(t *testing.T) {
	e := newEnv(t)
	tools := `"tools":[{"type":"browser_toolset_20260801","configs":{"javascript_exec":{"enabled":false}}}]`
	body := withMessages(`{"role":"user","content":"take a screenshot"}`, tools, `"tool_choice":{"type":"tool","name":"screenshot"}`)
	got := wantOK(t, e.do(t, "POST", "/v1/messages", body))
	for _, b := range got["content"].([]any) {
		if typ := b.(map[string]any)["type"]; typ != "text" {
			t.Fatalf("content block of type %v; the fake model never calls toolset members: %v", typ, got)
		}
	}
	wantInvalid(t, e.do(t, "POST", "/v1/messages", base(tools+`,"tool_choice":{"type":"tool","name":"javascript_exec"}`)),
		"tool_choice.tool.name: tool `javascript_exec` is not in `tools`")
	wantInvalid(t, e.do(t, "POST", "/v1/messages", base(tools+`,"tool_choice":{"type":"tool","name":"cursor_position"}`)),
		"tool_choice.tool.name: tool `cursor_position` is not in `tools`")
}

var computerMembers = []string{"cursor_position", "double_click", "hold_key", "key", "left_click",
	"left_click_drag", "left_mouse_down", "left_mouse_up", "middle_click", "mouse_move", "right_click",
	"screenshot", "scroll", "triple_click", "type", "wait", "zoom"}

// allMembers is the configs members giving each name the config cfg.
func allMembers(names []string, cfg string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = `"` + n + `":` + cfg
	}
	return strings.Join(parts, ",")
}
