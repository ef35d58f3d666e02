package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/wire"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/tool"
)

// Tool is a tool definition of a request (docs/messages-wire.md 2.3):
// CustomTool (run by the client; build one from a tool.Tool with FromTool),
// WebSearchTool, WebFetchTool, CodeExecutionTool and ToolSearchTool (run by
// the platform), BrowserToolset and ComputerToolset (families of tools the
// client runs, declared in one entry), MCPToolset (the tools of an MCP
// server of MCPServers), or UnknownTool for any other type, sent as given
// (memory, bash, text_editor, …).
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
	// WebSearch20260318 also takes ResponseInclusion.
	WebSearch20260318 WebSearchVersion = "web_search_20260318"

	CodeExecution20250825 CodeExecutionVersion = "code_execution_20250825"
	CodeExecution20250522 CodeExecutionVersion = "code_execution_20250522"
	CodeExecution20260120 CodeExecutionVersion = "code_execution_20260120"
	CodeExecution20260521 CodeExecutionVersion = "code_execution_20260521"
)

// ResponseInclusion says whether a server tool's results are written into
// the response (ResponseInclusionFull, the default) or only given to the
// model (ResponseInclusionExcluded). The newest web search and web fetch
// versions take it.
type ResponseInclusion string

// Response inclusions.
const (
	ResponseInclusionFull     ResponseInclusion = "full"
	ResponseInclusionExcluded ResponseInclusion = "excluded"
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
	// ResponseInclusion needs WebSearch20260318 or later.
	ResponseInclusion ResponseInclusion `json:"response_inclusion,omitzero"`
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

// WebFetchVersion is the type of a WebFetchTool.
type WebFetchVersion string

// Web fetch versions. The zero Type of WebFetchTool selects the first.
const (
	WebFetch20250910 WebFetchVersion = "web_fetch_20250910"
	WebFetch20260209 WebFetchVersion = "web_fetch_20260209"
	// WebFetch20260309 also takes UseCache.
	WebFetch20260309 WebFetchVersion = "web_fetch_20260309"
	// WebFetch20260318 also takes UseCache and ResponseInclusion.
	WebFetch20260318 WebFetchVersion = "web_fetch_20260318"
)

// WebFetchTool lets the model fetch web pages and PDFs (name "web_fetch").
// At most one of AllowedDomains and BlockedDomains may be set.
type WebFetchTool struct {
	Type             WebFetchVersion  `json:"type"` // "" is WebFetch20250910
	MaxUses          int              `json:"max_uses,omitzero"`
	MaxContentTokens int              `json:"max_content_tokens,omitzero"`
	AllowedDomains   []string         `json:"allowed_domains,omitzero"`
	BlockedDomains   []string         `json:"blocked_domains,omitzero"`
	Citations        *CitationsConfig `json:"citations,omitempty"`
	// UseCache set to false fetches afresh instead of from the platform's
	// cache (nil: the platform's default).
	UseCache          *bool             `json:"use_cache,omitempty"`
	ResponseInclusion ResponseInclusion `json:"response_inclusion,omitzero"`
	// URLSources limits where the URLs the tool may fetch come from (the
	// user's input, client tool results, server tool results), as the
	// platform documents it; nil: from anywhere.
	URLSources     json.RawMessage `json:"url_sources,omitzero"`
	CacheControl   *CacheControl   `json:"cache_control,omitempty"`
	DeferLoading   bool            `json:"defer_loading,omitzero"`
	Strict         bool            `json:"strict,omitzero"`
	AllowedCallers []string        `json:"allowed_callers,omitzero"`
}

// ToolSearchVersion is the type of a ToolSearchTool; it also chooses how
// the tool searches (regular expressions or BM25) and so its name.
type ToolSearchVersion string

// Tool search versions. The undated ones are the platform's current
// version of each kind. The zero Type of ToolSearchTool selects the first.
const (
	ToolSearchRegex20251119 ToolSearchVersion = "tool_search_tool_regex_20251119"
	ToolSearchBM2520251119  ToolSearchVersion = "tool_search_tool_bm25_20251119"
	ToolSearchRegex         ToolSearchVersion = "tool_search_tool_regex"
	ToolSearchBM25          ToolSearchVersion = "tool_search_tool_bm25"
)

// ToolName is the name of the tool of this version: tool_search_tool_regex
// or tool_search_tool_bm25.
func (v ToolSearchVersion) ToolName() string {
	if v == "" {
		v = ToolSearchRegex20251119
	}
	if strings.HasPrefix(string(v), string(ToolSearchBM25)) {
		return string(ToolSearchBM25)
	}
	return string(ToolSearchRegex)
}

// ToolSearchTool lets the model search the tools declared with
// DeferLoading and load the ones it finds (name tool_search_tool_regex or
// tool_search_tool_bm25, as Type says).
type ToolSearchTool struct {
	Type           ToolSearchVersion `json:"type"` // "" is ToolSearchRegex20251119
	CacheControl   *CacheControl     `json:"cache_control,omitempty"`
	DeferLoading   bool              `json:"defer_loading,omitzero"`
	Strict         bool              `json:"strict,omitzero"`
	AllowedCallers []string          `json:"allowed_callers,omitzero"`
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
func (WebFetchTool) isTool()      {}
func (ToolSearchTool) isTool()    {}
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

func (t WebFetchTool) MarshalJSON() ([]byte, error) {
	type plain WebFetchTool
	if t.Type == "" {
		t.Type = WebFetch20250910
	}
	return json.Marshal(struct {
		plain
		Name string `json:"name"`
	}{plain(t), "web_fetch"})
}

func (t ToolSearchTool) MarshalJSON() ([]byte, error) {
	type plain ToolSearchTool
	if t.Type == "" {
		t.Type = ToolSearchRegex20251119
	}
	return json.Marshal(struct {
		plain
		Name string `json:"name"`
	}{plain(t), t.Type.ToolName()})
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
