package agents

import (
	"encoding/json"
	"maps"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// Tool is one entry of an agent's tools: AgentToolset (the built-in tools),
// MCPToolset (the tools of one MCP server), CustomTool (run by the API
// client), or UnknownTool (a type newer than this SDK, kept intact).
type Tool interface{ isTool() }

// AgentToolsetType is the type of AgentToolset; it embeds its version date.
const AgentToolsetType = "agent_toolset_20260401"

// AgentToolset enables the built-in tools (type "agent_toolset_20260401").
// An agent has at most one.
type AgentToolset struct {
	// Configs overrides single tools; at most one entry per tool. A
	// response echoes the overrides sent, resolved against DefaultConfig.
	Configs []ToolConfig `json:"configs,omitzero"`
	// DefaultConfig applies to every tool without an override. In requests
	// nil means enabled with policy always_allow; responses always set it.
	DefaultConfig *ToolDefaults `json:"default_config,omitempty"`
}

// ToolDefaults is a toolset's default_config. In a request nil fields take
// the toolset's defaults; a response sets both.
type ToolDefaults struct {
	Enabled          *bool             `json:"enabled,omitempty"`
	PermissionPolicy *PermissionPolicy `json:"permission_policy,omitempty"`
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
	Enabled          *bool             `json:"enabled,omitempty"`
	PermissionPolicy *PermissionPolicy `json:"permission_policy,omitempty"`

	// AllowedDomains and BlockedDomains (web_fetch, web_search; exclusive)
	// list 1 to 64 plain hostnames. nil means unset (null in responses).
	AllowedDomains []string `json:"allowed_domains,omitzero"`
	BlockedDomains []string `json:"blocked_domains,omitzero"`
	// MaxContentTokens (web_fetch) caps fetched content; 0 means unset.
	MaxContentTokens int `json:"max_content_tokens,omitzero"`
	// UserLocation (web_search) localizes results; nil means unset.
	UserLocation *UserLocation `json:"user_location,omitempty"`
}

// UserLocation is an approximate location for web search (type
// "approximate", the only one). Empty fields are unset.
type UserLocation struct {
	City     string `json:"city,omitzero"`     // 1 to 255 characters
	Country  string `json:"country,omitzero"`  // 2 uppercase letters, ISO 3166-1
	Region   string `json:"region,omitzero"`   // 1 to 255 characters
	Timezone string `json:"timezone,omitzero"` // 1 to 255 characters, IANA
}

func (l UserLocation) MarshalJSON() ([]byte, error) {
	type plain UserLocation
	return union.Marshal("approximate", plain(l))
}

// PermissionPolicy decides whether a tool call needs confirmation. It is a
// union on the wire ({"type": …}), but no variant has other fields, so a
// struct with a string type covers every variant, future ones included.
type PermissionPolicy struct {
	Type PermissionPolicyType `json:"type"`
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
	DefaultConfig *ToolDefaults `json:"default_config,omitempty"`
}

// MCPToolConfig overrides one tool of an MCP server.
type MCPToolConfig struct {
	Name             string            `json:"name"` // 1 to 128 characters
	Enabled          *bool             `json:"enabled,omitempty"`
	PermissionPolicy *PermissionPolicy `json:"permission_policy,omitempty"`
}

// CustomTool is a tool the API client runs (type "custom"): the session
// emits agent.custom_tool_use and waits for user.custom_tool_result.
type CustomTool struct {
	Name        string      `json:"name"`        // 1 to 128 of A-Z a-z 0-9 _ -
	Description string      `json:"description"` // 1 to 1024 characters
	InputSchema InputSchema `json:"input_schema"`
}

// InputSchema is the JSON Schema of a custom tool's input; its type is
// always "object". Extra holds any other schema keys, which are sent and
// returned unchanged.
type InputSchema struct {
	Properties map[string]any             // nil: not sent
	Required   []string                   // nil: not sent
	Extra      map[string]json.RawMessage // other keywords, e.g. "additionalProperties"
}

func (s InputSchema) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(s.Extra)+3)
	for k, v := range s.Extra {
		m[k] = v
	}
	m["type"] = "object"
	if s.Properties != nil {
		m["properties"] = s.Properties
	}
	if s.Required != nil {
		m["required"] = s.Required
	}
	return json.Marshal(m)
}

func (s *InputSchema) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*s = InputSchema{}
	if raw, ok := m["properties"]; ok {
		if err := json.Unmarshal(raw, &s.Properties); err != nil {
			return err
		}
	}
	if raw, ok := m["required"]; ok {
		if err := json.Unmarshal(raw, &s.Required); err != nil {
			return err
		}
	}
	maps.DeleteFunc(m, func(k string, _ json.RawMessage) bool {
		return k == "type" || k == "properties" || k == "required"
	})
	if len(m) > 0 {
		s.Extra = m
	}
	return nil
}

// UnknownTool is a tool type this SDK does not know, kept as received.
type UnknownTool struct{ union.Raw }

func (AgentToolset) isTool() {}
func (MCPToolset) isTool()   {}
func (CustomTool) isTool()   {}
func (UnknownTool) isTool()  {}

func (t AgentToolset) MarshalJSON() ([]byte, error) {
	type plain AgentToolset
	return union.Marshal(AgentToolsetType, plain(t))
}

func (t MCPToolset) MarshalJSON() ([]byte, error) {
	type plain MCPToolset
	return union.Marshal("mcp_toolset", plain(t))
}

func (t CustomTool) MarshalJSON() ([]byte, error) {
	type plain CustomTool
	return union.Marshal("custom", plain(t))
}

func decodeTool(data []byte) (Tool, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case AgentToolsetType:
		var t AgentToolset
		return t, json.Unmarshal(data, &t)
	case "mcp_toolset":
		var t MCPToolset
		return t, json.Unmarshal(data, &t)
	case "custom":
		var t CustomTool
		return t, json.Unmarshal(data, &t)
	}
	return UnknownTool{union.NewRaw(typ, data)}, nil
}

// MCPServer is an MCP server the agent connects to (type "url", the only
// type). Every server must be used by an MCPToolset.
type MCPServer struct {
	Name string `json:"name"` // 1 to 255 characters, unique per agent
	URL  string `json:"url"`  // absolute http or https URL, up to 2048 characters
}

func (s MCPServer) MarshalJSON() ([]byte, error) {
	type plain MCPServer
	return union.Marshal("url", plain(s))
}
