package messages

import "slices"

// The browser and computer toolsets (docs/messages-wire.md 2.3.4): one
// tools entry, with no name, declares a family of member tools the client
// runs. The server checks the entry and records the enabled members, which
// tool_choice may name; the fake model never calls them.

// toolsetMembers are the member names of each toolset type, in the
// platform's order. Every member is enabled by default.
var toolsetMembers = map[string][]string{
	"browser_toolset_20260801": {"close_tab", "double_click", "file_upload", "find", "form_input",
		"get_page_text", "hold_key", "hover", "javascript_exec", "key", "left_click", "left_click_drag",
		"left_mouse_down", "left_mouse_up", "list_tabs", "middle_click", "mouse_move", "navigate", "new_tab",
		"read_console", "read_network", "read_page", "right_click", "screenshot", "scroll", "scroll_to",
		"switch_tab", "triple_click", "type", "wait", "zoom"},
	"computer_toolset_20260801": {"cursor_position", "double_click", "hold_key", "key", "left_click",
		"left_click_drag", "left_mouse_down", "left_mouse_up", "middle_click", "mouse_move", "right_click",
		"screenshot", "scroll", "triple_click", "type", "wait", "zoom"},
}

// memberConfig is a member's overrides; nil keeps the default.
type memberConfig struct{ enabled, deferLoading *bool }

// parseMemberToolset checks a toolset entry: only type, configs and
// cache_control; configs (absent, null and {} alike) keyed by member
// names only, each {enabled, defer_loading} (booleans or null); and
// defer_loading resolving to one value on every enabled member. It
// records the enabled members in t.members.
func parseMemberToolset(t *toolDef, v *jnode, cache fieldFunc) error {
	t.kind = "member_toolset"
	members := toolsetMembers[t.typ]
	configs := map[string]memberConfig{}
	optBool := func(dst **bool) fieldFunc {
		return nullable(func(p string, v *jnode) error {
			b, err := readBool(p, v)
			*dst = &b
			return err
		})
	}
	err := walkObject(t.path, v, map[string]fieldFunc{
		"type": nil, "cache_control": cache,
		"configs": nullable(func(p string, v *jnode) error {
			if err := readObject(p, v); err != nil {
				return err
			}
			for _, m := range v.obj {
				mp := joinPath(p, m.key)
				if !slices.Contains(members, m.key) {
					return errExtra(mp)
				}
				var c memberConfig
				if err := nullable(func(p string, v *jnode) error {
					return walkObject(p, v, map[string]fieldFunc{
						"enabled":       optBool(&c.enabled),
						"defer_loading": optBool(&c.deferLoading),
					})
				})(mp, m.val); err != nil {
					return err
				}
				configs[m.key] = c
			}
			return nil
		}),
	})
	if err != nil {
		return err
	}
	first, firstDefer := "", false
	for _, m := range members {
		c := configs[m]
		if c.enabled != nil && !*c.enabled {
			continue
		}
		t.members = append(t.members, m)
		d := c.deferLoading != nil && *c.deferLoading
		if first == "" {
			first, firstDefer = m, d
		} else if d != firstDefer {
			return pyErr(joinPath(t.path, "configs"), "defer_loading must resolve to the same value on every "+
				"enabled member: `%s` resolves to %t and `%s` to %t", first, firstDefer, m, d)
		}
	}
	return nil
}

// toolsetMember reports whether an enabled member of a toolset in the
// request is named name.
func (r *msgRequest) toolsetMember(name string) bool {
	for _, t := range r.tools {
		if t.kind == "member_toolset" && slices.Contains(t.members, name) {
			return true
		}
	}
	return false
}
