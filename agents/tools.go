package agents

import "encoding/json"

// Tool is one entry of an agent's tools: AgentToolset (the built-in tools),
// MCPToolset (the tools of one MCP server), CustomTool (run by the API
// client), or UnknownTool (a type newer than this SDK, kept intact).
type Tool interface{ isTool() }

// agentToolsetType is the type of AgentToolset; it embeds its version date.
const agentToolsetType = "agent_toolset_20260401"

// AgentToolset enables the built-in tools (type "agent_toolset_20260401").
// An agent has at most one.
type AgentToolset struct {
	// Configs overrides single tools; at most one entry per tool. A
	// response echoes the overrides sent, resolved against DefaultConfig.
	Configs []ToolConfig `json:"configs,omitzero"`
	// DefaultConfig applies to every tool without an override. In requests
	// nil means enabled with policy always_allow; responses always set it.
	DefaultConfig *ToolDefaults `json:"default_config,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolDefaults is a toolset's default_config. In a request nil fields take
// the toolset's defaults; a response sets both.
type ToolDefaults struct {
	Enabled          *bool             `json:"enabled,omitzero"`
	PermissionPolicy *PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ToolName names a built-in tool of the agent toolset. Unknown names are
// kept as they are.
type ToolName string

const (
	ToolBash      ToolName = "bash"
	ToolEdit      ToolName = "edit"
	ToolRead      ToolName = "read"
	ToolWrite     ToolName = "write"
	ToolGlob      ToolName = "glob"
	ToolGrep      ToolName = "grep"
	ToolWebFetch  ToolName = "web_fetch"
	ToolWebSearch ToolName = "web_search"
)

// ToolConfig overrides one built-in tool. The configs are keyed by Name
// rather than by a type of their own, so this is one struct; the web
// fields apply only to the tools named beside them, and the API refuses
// them on other tools.
type ToolConfig struct {
	Name ToolName `json:"name"`
	// Enabled and PermissionPolicy override DefaultConfig when set; a
	// response always sets them.
	Enabled          *bool             `json:"enabled,omitzero"`
	PermissionPolicy *PermissionPolicy `json:"permission_policy,omitzero"`

	// AllowedDomains and BlockedDomains (web_fetch, web_search; exclusive)
	// list 1 to 64 plain hostnames. nil means unset (null in responses).
	AllowedDomains []string `json:"allowed_domains,omitzero"`
	BlockedDomains []string `json:"blocked_domains,omitzero"`
	// MaxContentTokens (web_fetch) caps fetched content; 0 means unset.
	MaxContentTokens int `json:"max_content_tokens,omitzero"`
	// URLSources (web_fetch) limits where the URLs it fetches may come
	// from; nil means unset (null in responses), which allows every source.
	URLSources *URLSources `json:"url_sources,omitzero"`
	// UserLocation (web_search) localizes results; nil means unset.
	UserLocation *UserLocation `json:"user_location,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UserLocation is an approximate location for web search (type
// "approximate", the only one). Empty fields are unset.
type UserLocation struct {
	City     string `json:"city,omitzero"`     // 1 to 255 characters
	Country  string `json:"country,omitzero"`  // 2 uppercase letters, ISO 3166-1
	Region   string `json:"region,omitzero"`   // 1 to 255 characters
	Timezone string `json:"timezone,omitzero"` // 1 to 255 characters, IANA
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// PermissionPolicy decides whether a tool call needs confirmation. It is a
// union on the wire ({"type": …}), but no variant has other fields, so a
// struct with a string type covers every variant, future ones included.
type PermissionPolicy struct {
	Type PermissionPolicyType `json:"type"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// PermissionPolicyType is a permission policy. Unknown values are kept.
type PermissionPolicyType string

const (
	// PolicyAlwaysAllow approves calls automatically.
	PolicyAlwaysAllow PermissionPolicyType = "always_allow"
	// PolicyAlwaysAsk makes every call wait for a user.tool_confirmation.
	PolicyAlwaysAsk PermissionPolicyType = "always_ask"
	// PolicyAuto lets the server judge each call: safe calls are allowed,
	// high-risk ones denied, and calls it cannot judge wait for confirmation.
	PolicyAuto PermissionPolicyType = "auto"
)

// Policy returns a *PermissionPolicy of type t, for request fields.
func Policy(t PermissionPolicyType) *PermissionPolicy { return &PermissionPolicy{Type: t} }

// MCPToolset enables the tools of one MCP server (type "mcp_toolset").
type MCPToolset struct {
	// MCPServerName names an entry of the agent's MCP servers (1 to 255
	// characters). At most one toolset per server.
	MCPServerName string          `json:"mcp_server_name"`
	Configs       []MCPToolConfig `json:"configs,omitzero"`
	// DefaultConfig: nil means enabled with policy always_ask in requests.
	DefaultConfig *ToolDefaults `json:"default_config,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// MCPToolConfig overrides one tool of an MCP server.
type MCPToolConfig struct {
	Name             string            `json:"name"` // 1 to 128 characters
	Enabled          *bool             `json:"enabled,omitzero"`
	PermissionPolicy *PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CustomTool is a tool the API client runs (type "custom"): the session
// emits agent.custom_tool_use and waits for user.custom_tool_result.
type CustomTool struct {
	Name        string      `json:"name"`        // 1 to 128 of A-Z a-z 0-9 _ -
	Description string      `json:"description"` // 1 to 1024 characters
	InputSchema InputSchema `json:"input_schema"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// InputSchema is the JSON Schema of a custom tool's input; its type is
// always "object". Extra holds any other schema keywords, which are sent
// and returned unchanged.
type InputSchema struct {
	Properties map[string]any `json:"properties,omitzero"` // nil: not sent
	Required   []string       `json:"required,omitzero"`   // nil: not sent
	// Extra holds the other keywords (e.g. "additionalProperties",
	// "$defs"), kept as received and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownTool is a tool type this SDK does not know, kept as received.
type UnknownTool struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (AgentToolset) isTool() {}
func (MCPToolset) isTool()   {}
func (CustomTool) isTool()   {}
func (UnknownTool) isTool()  {}

// MCPServer is an MCP server the agent connects to (type "url", the only
// type). Every server must be used by an MCPToolset.
type MCPServer struct {
	Name string `json:"name"` // 1 to 255 characters, unique per agent
	URL  string `json:"url"`  // absolute http or https URL, up to 2048 characters
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}
