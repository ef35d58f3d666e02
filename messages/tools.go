package messages

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/tool"
)

// Tool is a tool definition of a request (docs/messages-wire.md 2.3):
// CustomTool (run by the client; build one from a tool.Tool with FromTool),
// WebSearchTool and CodeExecutionTool (run by the platform), MCPToolset
// (the tools of an MCP server of MCPServers), or UnknownTool for any other
// type, sent as given (web_fetch, memory, bash, text_editor, tool_search,
// …).
type Tool interface{ isTool() }

// CustomTool is a tool the client runs. The model calls it with a
// ToolUseBlock; answer with a ToolResultBlock (or let RunTools do it).
type CustomTool struct {
	Name        string `json:"name"` // 1 to 128 of A-Z a-z 0-9 _ -
	Description string `json:"description,omitzero"`
	// InputSchema is the JSON Schema of the input: an object schema,
	// {"type":"object", "properties": …, "required": …}.
	InputSchema         json.RawMessage   `json:"input_schema"`
	CacheControl        *CacheControl     `json:"cache_control,omitempty"`
	Strict              bool              `json:"strict,omitzero"`
	EagerInputStreaming *bool             `json:"eager_input_streaming,omitempty"`
	DeferLoading        bool              `json:"defer_loading,omitzero"`
	InputExamples       []json.RawMessage `json:"input_examples,omitzero"`
	AllowedCallers      []string          `json:"allowed_callers,omitzero"`
}

// FromTool returns the definition of t, for MessageParams.Tools.
func FromTool(t tool.Tool) CustomTool {
	return CustomTool{Name: t.Name(), Description: t.Description(), InputSchema: t.InputSchema()}
}

// FromTools returns the definitions of ts.
func FromTools(ts ...tool.Tool) []Tool {
	out := make([]Tool, len(ts))
	for i, t := range ts {
		out[i] = FromTool(t)
	}
	return out
}

// WebSearchVersion is the type of a WebSearchTool: which version of the
// tool the model gets.
type WebSearchVersion string

// CodeExecutionVersion is the type of a CodeExecutionTool.
type CodeExecutionVersion string

// Server tool versions. The zero Type of WebSearchTool and
// CodeExecutionTool selects the first of each.
const (
	WebSearch20250305 WebSearchVersion = "web_search_20250305"
	WebSearch20260209 WebSearchVersion = "web_search_20260209"

	CodeExecution20250825 CodeExecutionVersion = "code_execution_20250825"
	CodeExecution20250522 CodeExecutionVersion = "code_execution_20250522"
	CodeExecution20260120 CodeExecutionVersion = "code_execution_20260120"
)

// WebSearchTool lets the model search the web (name "web_search"). At most
// one of AllowedDomains and BlockedDomains may be set.
type WebSearchTool struct {
	Type           WebSearchVersion `json:"type"` // "" is WebSearch20250305
	MaxUses        int              `json:"max_uses,omitzero"`
	AllowedDomains []string         `json:"allowed_domains,omitzero"`
	BlockedDomains []string         `json:"blocked_domains,omitzero"`
	UserLocation   *UserLocation    `json:"user_location,omitempty"`
	CacheControl   *CacheControl    `json:"cache_control,omitempty"`
	DeferLoading   bool             `json:"defer_loading,omitzero"`
	Strict         bool             `json:"strict,omitzero"`
	AllowedCallers []string         `json:"allowed_callers,omitzero"`
}

// UserLocation localizes web search results (type "approximate").
type UserLocation struct {
	City     string `json:"city,omitzero"`
	Region   string `json:"region,omitzero"`
	Country  string `json:"country,omitzero"`
	Timezone string `json:"timezone,omitzero"`
}

func (l UserLocation) MarshalJSON() ([]byte, error) {
	type plain UserLocation
	return wire.Tagged("approximate", plain(l))
}

// CodeExecutionTool lets the model run code in a container (name
// "code_execution").
type CodeExecutionTool struct {
	Type           CodeExecutionVersion `json:"type"` // "" is CodeExecution20250825
	CacheControl   *CacheControl        `json:"cache_control,omitempty"`
	DeferLoading   bool                 `json:"defer_loading,omitzero"`
	Strict         bool                 `json:"strict,omitzero"`
	AllowedCallers []string             `json:"allowed_callers,omitzero"`
}

// MCPToolset enables the tools of one MCP server of MCPServers (type
// "mcp_toolset"). Configs overrides single tools by name.
type MCPToolset struct {
	MCPServerName string                   `json:"mcp_server_name"`
	DefaultConfig *MCPToolConfig           `json:"default_config,omitempty"`
	Configs       map[string]MCPToolConfig `json:"configs,omitzero"`
	CacheControl  *CacheControl            `json:"cache_control,omitempty"`
}

// MCPToolConfig enables or defers MCP tools; nil fields keep the default.
type MCPToolConfig struct {
	Enabled      *bool `json:"enabled,omitempty"`
	DeferLoading *bool `json:"defer_loading,omitempty"`
}

// UnknownTool is a tool definition sent exactly as given: Raw.JSON is the
// whole object, type included. Use it for the tool types this SDK does not
// model.
type UnknownTool struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

// MarshalJSON writes the object back as received.
func (u UnknownTool) MarshalJSON() ([]byte, error) { return wire.Unknown(u.Type, u.JSON) }

// RawTool returns an UnknownTool for the definition in data, a JSON object
// with a "type".
func RawTool(data json.RawMessage) (UnknownTool, error) {
	typ, err := wire.TypeOf(data)
	if err != nil {
		return UnknownTool{}, fmt.Errorf("agentplatform: raw tool: %w", err)
	}
	return UnknownTool{Type: typ, JSON: bytes.Clone(data)}, nil
}

func (CustomTool) isTool()        {}
func (WebSearchTool) isTool()     {}
func (CodeExecutionTool) isTool() {}
func (MCPToolset) isTool()        {}
func (UnknownTool) isTool()       {}

// A custom tool is sent without "type", which means custom
// (docs/messages-wire.md 2.3), as the platform's own examples do.

func (t WebSearchTool) MarshalJSON() ([]byte, error) {
	type plain WebSearchTool
	if t.Type == "" {
		t.Type = WebSearch20250305
	}
	return json.Marshal(struct {
		plain
		Name string `json:"name"`
	}{plain(t), "web_search"})
}

func (t CodeExecutionTool) MarshalJSON() ([]byte, error) {
	type plain CodeExecutionTool
	if t.Type == "" {
		t.Type = CodeExecution20250825
	}
	return json.Marshal(struct {
		plain
		Name string `json:"name"`
	}{plain(t), "code_execution"})
}

func (t MCPToolset) MarshalJSON() ([]byte, error) {
	type plain MCPToolset
	return wire.Tagged("mcp_toolset", plain(t))
}

// MCPServer is an MCP server the platform connects to for the request
// (type "url", beta mcp-client-2025-11-20, which the SDK sends). Enable its
// tools with exactly one MCPToolset.
type MCPServer struct {
	Name               string       `json:"name"` // 1 to 64 characters, unique
	URL                string       `json:"url"`  // https only
	AuthorizationToken param.Secret `json:"authorization_token,omitzero"`
}

func (s MCPServer) MarshalJSON() ([]byte, error) {
	type plain MCPServer
	return wire.Tagged("url", plain(s))
}
