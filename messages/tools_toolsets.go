package messages

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// BrowserToolsetVersion is the type of a BrowserToolset: which version of
// the browser toolset the model gets, and so which members it has.
type BrowserToolsetVersion string

// ComputerToolsetVersion is the type of a ComputerToolset.
type ComputerToolsetVersion string

// Toolset versions. The zero Type of BrowserToolset and ComputerToolset
// selects these.
const (
	BrowserToolset20260801  BrowserToolsetVersion  = "browser_toolset_20260801"
	ComputerToolset20260801 ComputerToolsetVersion = "computer_toolset_20260801"
)

// The member tools of each toolset version, in the platform's order. A
// member's name is the key of its entry in Configs and the name its
// tool_use blocks carry.
var (
	browserMembers20260801 = []string{"close_tab", "double_click", "file_upload", "find", "form_input",
		"get_page_text", "hold_key", "hover", "javascript_exec", "key", "left_click", "left_click_drag",
		"left_mouse_down", "left_mouse_up", "list_tabs", "middle_click", "mouse_move", "navigate", "new_tab",
		"read_console", "read_network", "read_page", "right_click", "screenshot", "scroll", "scroll_to",
		"switch_tab", "triple_click", "type", "wait", "zoom"}
	computerMembers20260801 = []string{"cursor_position", "double_click", "hold_key", "key", "left_click",
		"left_click_drag", "left_mouse_down", "left_mouse_up", "middle_click", "mouse_move", "right_click",
		"screenshot", "scroll", "triple_click", "type", "wait", "zoom"}
)

// Members returns the names of the version's member tools (the zero
// version is BrowserToolset20260801): close_tab, double_click,
// file_upload, find, form_input, get_page_text, hold_key, hover,
// javascript_exec, key, left_click, left_click_drag, left_mouse_down,
// left_mouse_up, list_tabs, middle_click, mouse_move, navigate, new_tab,
// read_console, read_network, read_page, right_click, screenshot, scroll,
// scroll_to, switch_tab, triple_click, type, wait and zoom. It returns nil
// for a version this SDK does not know; the slice is the caller's.
func (v BrowserToolsetVersion) Members() []string {
	switch v {
	case "", BrowserToolset20260801:
		return slices.Clone(browserMembers20260801)
	}
	return nil
}

// Members returns the names of the version's member tools (the zero
// version is ComputerToolset20260801): cursor_position, double_click,
// hold_key, key, left_click, left_click_drag, left_mouse_down,
// left_mouse_up, middle_click, mouse_move, right_click, screenshot,
// scroll, triple_click, type, wait and zoom. It returns nil for a version
// this SDK does not know; the slice is the caller's.
func (v ComputerToolsetVersion) Members() []string {
	switch v {
	case "", ComputerToolset20260801:
		return slices.Clone(computerMembers20260801)
	}
	return nil
}

// BrowserToolset declares the browser tool family in one tools entry,
// which carries no name: the model gets the members Configs leaves
// enabled (every member is enabled by default) and calls each by its
// member name (BrowserToolsetVersion.Members). The caller runs the calls,
// as for a custom tool.
//
// Configs holds sparse per-member overrides keyed by member name; a
// member without an entry keeps its defaults, and a nil map, an empty map
// and an absent member are the same request. A key that is not a member
// of the version is refused, and DeferLoading must come out the same (nil
// counts as false) on every enabled member.
type BrowserToolset struct {
	Type         BrowserToolsetVersion          `json:"type"` // "" is BrowserToolset20260801
	Configs      map[string]ToolsetMemberConfig `json:"configs,omitzero"`
	CacheControl *CacheControl                  `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ComputerToolset declares the computer tool family in one tools entry,
// as BrowserToolset does for the browser: same Configs rules, members
// from ComputerToolsetVersion.Members, every member (zoom included)
// enabled by default. The single computer tool's display options are not
// fields of a toolset; zoom is turned off with Configs["zoom"].
type ComputerToolset struct {
	Type         ComputerToolsetVersion         `json:"type"` // "" is ComputerToolset20260801
	Configs      map[string]ToolsetMemberConfig `json:"configs,omitzero"`
	CacheControl *CacheControl                  `json:"cache_control,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolsetMemberConfig overrides one member of a toolset; nil fields keep
// the member's default (enabled, not deferred).
type ToolsetMemberConfig struct {
	// DeferLoading defers the member until the model loads it (with a
	// tool search tool). It must be the same on every enabled member.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// Enabled false withholds the member from the model.
	Enabled *bool `json:"enabled,omitzero"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

func (BrowserToolset) isTool()  {}
func (ComputerToolset) isTool() {}

// Type is a field of the toolsets (and comes first, as "type" does on the
// wire) because it holds the version; the zero Type is written as the
// first version.
type (
	plainBrowserToolset      BrowserToolset
	plainComputerToolset     ComputerToolset
	plainToolsetMemberConfig ToolsetMemberConfig
)

func (t BrowserToolset) MarshalJSON() ([]byte, error) {
	if t.Type == "" {
		t.Type = BrowserToolset20260801
	}
	return wire.Marshal(plainBrowserToolset(t))
}
func (t *BrowserToolset) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainBrowserToolset)(t), &t.Extra)
}

func (t ComputerToolset) MarshalJSON() ([]byte, error) {
	if t.Type == "" {
		t.Type = ComputerToolset20260801
	}
	return wire.Marshal(plainComputerToolset(t))
}
func (t *ComputerToolset) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainComputerToolset)(t), &t.Extra)
}

func (c ToolsetMemberConfig) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainToolsetMemberConfig(c))
}
func (c *ToolsetMemberConfig) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainToolsetMemberConfig)(c), &c.Extra)
}

// toolsetOf returns the wire type, members (nil: unknown version) and
// configs of a BrowserToolset or ComputerToolset.
func toolsetOf(t Tool) (typ string, members []string, configs map[string]ToolsetMemberConfig, ok bool) {
	switch t := t.(type) {
	case BrowserToolset:
		typ = string(t.Type)
		if typ == "" {
			typ = string(BrowserToolset20260801)
		}
		return typ, t.Type.Members(), t.Configs, true
	case ComputerToolset:
		typ = string(t.Type)
		if typ == "" {
			typ = string(ComputerToolset20260801)
		}
		return typ, t.Type.Members(), t.Configs, true
	}
	return "", nil, nil, false
}

// validateToolset checks a toolset at path (tools.<i>) as the reference
// server does: every Configs key is a member (the first wrong one in
// sorted order, the order the request's JSON has), and defer_loading is
// the same on every enabled member. A version this SDK does not know is
// left to the server.
func validateToolset(path string, t Tool) error {
	typ, members, configs, ok := toolsetOf(t)
	if !ok || members == nil {
		return nil
	}
	p := path + "." + typ + ".configs"
	keys := make([]string, 0, len(configs))
	for k := range configs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(members, k) {
			return invalid(p+"."+k, "Extra inputs are not permitted")
		}
	}
	first, firstDefer := "", false
	for _, m := range members {
		c := configs[m]
		if c.Enabled != nil && !*c.Enabled {
			continue
		}
		d := c.DeferLoading != nil && *c.DeferLoading
		if first == "" {
			first, firstDefer = m, d
			continue
		}
		if d != firstDefer {
			return invalid(p, toolsetDeferRule(first, firstDefer, m, d))
		}
	}
	return nil
}

// toolsetDeferRule is the server's wording of the defer_loading rule.
func toolsetDeferRule(a string, da bool, b string, db bool) string {
	return "defer_loading must resolve to the same value on every enabled member: `" + a + "` resolves to " +
		strconv.FormatBool(da) + " and `" + b + "` to " + strconv.FormatBool(db)
}

// toolsetHas reports whether t is a toolset with an enabled member named
// name; an unknown version is given the benefit of the doubt.
func toolsetHas(t Tool, name string) bool {
	_, members, configs, ok := toolsetOf(t)
	if !ok {
		return false
	}
	if members == nil {
		return true
	}
	c := configs[name]
	return slices.Contains(members, name) && (c.Enabled == nil || *c.Enabled)
}
