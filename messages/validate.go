package messages

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Local checks (contract 2, 6, 12). Each names the field with the
// contract's dotted path ("messages.0.content.1.text", "tools.2.custom.name",
// "thinking.enabled.budget_tokens") and nothing is sent. The rules that
// need server state (the model catalogue, the workspace, signatures, tool
// pairing) are left to the server.

const (
	maxMessages      = 100000
	maxTools         = 1000
	maxStopSequences = 16
	maxUserID        = 512
	minThinkBudget   = 1024
	maxFallbacks     = 3
	maxMCPName       = 64
)

var (
	toolNameRule  = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)
	toolUseIDRule = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)
)

func invalid(field, rule string) error { return apierror.Invalid(field, rule) }

func idx(prefix string, i int) string { return prefix + "." + strconv.Itoa(i) }

func (p *MessageParams) validate() error {
	if p.Model == "" {
		return invalid("model", "is required")
	}
	if p.MaxTokens < 0 {
		return invalid("max_tokens", "must be at least 0")
	}
	if err := validateMessages(p.Messages); err != nil {
		return err
	}
	if err := validateSystem(p.System); err != nil {
		return err
	}
	if err := validateTools(p.Tools, p.MCPServers); err != nil {
		return err
	}
	if err := validateToolChoice(p.ToolChoice, p.Tools, p.Thinking); err != nil {
		return err
	}
	if err := validateMCPServers(p.MCPServers); err != nil {
		return err
	}
	if err := unit("temperature", p.Temperature); err != nil {
		return err
	}
	if err := unit("top_p", p.TopP); err != nil {
		return err
	}
	if p.TopK != nil && *p.TopK < 0 {
		return invalid("top_k", "must be at least 0")
	}
	if len(p.StopSequences) > maxStopSequences {
		return invalid("stop_sequences", "must have at most "+strconv.Itoa(maxStopSequences)+" items")
	}
	for i, s := range p.StopSequences {
		if strings.TrimSpace(s) == "" {
			return invalid(idx("stop_sequences", i), "must contain a non-whitespace character")
		}
	}
	if err := validateThinking(p.Thinking, p.MaxTokens, true); err != nil {
		return err
	}
	if thinkingOn(p.Thinking) {
		switch {
		case p.Temperature != nil && *p.Temperature != 1:
			return invalid("temperature", "may only be set to 1 when thinking is enabled")
		case p.TopP != nil && *p.TopP < 0.95:
			return invalid("top_p", "must be at least 0.95 when thinking is enabled")
		case p.TopK != nil:
			return invalid("top_k", "cannot be set when thinking is enabled")
		}
	}
	if err := validateOutput(p.OutputConfig); err != nil {
		return err
	}
	if p.OutputFormat != nil && p.OutputConfig != nil && p.OutputConfig.Format != nil {
		return invalid("output_format", "cannot be combined with output_config.format")
	}
	if p.Metadata != nil && utf8.RuneCountInString(p.Metadata.UserID) > maxUserID {
		return invalid("metadata.user_id", "must be at most "+strconv.Itoa(maxUserID)+" characters")
	}
	return validateFallbacks(p.Fallbacks, p.Model, p.MaxTokens)
}

func (p *CountTokensParams) validate() error {
	if p.Model == "" {
		return invalid("model", "is required")
	}
	if err := validateMessages(p.Messages); err != nil {
		return err
	}
	if err := validateSystem(p.System); err != nil {
		return err
	}
	if err := validateTools(p.Tools, p.MCPServers); err != nil {
		return err
	}
	if err := validateToolChoice(p.ToolChoice, p.Tools, p.Thinking); err != nil {
		return err
	}
	if err := validateMCPServers(p.MCPServers); err != nil {
		return err
	}
	if err := validateThinking(p.Thinking, 0, false); err != nil {
		return err
	}
	return validateOutput(p.OutputConfig)
}

func unit(field string, v *float64) error {
	if v != nil && (*v < 0 || *v > 1) {
		return invalid(field, "must be between 0 and 1")
	}
	return nil
}

func validateMessages(msgs []MessageParam) error {
	if len(msgs) == 0 {
		return invalid("messages", "must have at least 1 item")
	}
	if len(msgs) > maxMessages {
		return invalid("messages", "must have at most "+strconv.Itoa(maxMessages)+" items")
	}
	for i, m := range msgs {
		path := idx("messages", i)
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return invalid(path+".role", "must be user or assistant")
		}
		final := i == len(msgs)-1 && m.Role == RoleAssistant
		if err := validateContent(path, m.Content, final); err != nil {
			return err
		}
	}
	return nil
}

// validateContent checks one message's content. Only a final assistant
// message (a prefill) may be empty, and it must not end with white space.
func validateContent(path string, c Content, prefill bool) error {
	var last ContentBlock
	switch c := c.(type) {
	case nil:
		if !prefill {
			return invalid(path+".content", "is required")
		}
	case Text:
		if c == "" && !prefill {
			return invalid(path+".content", "must be non-empty")
		}
		last = TextBlock{Text: string(c)}
	case Blocks:
		if len(c) == 0 && !prefill {
			return invalid(path+".content", "must be non-empty")
		}
		for j, b := range c {
			if err := validateBlock(idx(path+".content", j), b); err != nil {
				return err
			}
		}
		if len(c) > 0 {
			last = c[len(c)-1]
		}
	}
	if t, ok := last.(TextBlock); ok && prefill && t.Text != "" {
		if r, _ := utf8.DecodeLastRuneInString(t.Text); unicode.IsSpace(r) {
			return invalid(path+".content", "final assistant content cannot end with trailing whitespace")
		}
	}
	return nil
}

func validateBlock(path string, b ContentBlock) error {
	switch b := b.(type) {
	case nil:
		return invalid(path, "must not be nil")
	case TextBlock:
		if b.Text == "" {
			return invalid(path+".text", "must be non-empty")
		}
	case ToolUseBlock:
		if !toolUseIDRule.MatchString(b.ID) {
			return invalid(path+".id", "must be 1 to 256 letters, digits, underscores or hyphens")
		}
		if b.Name == "" {
			return invalid(path+".name", "is required")
		}
		if len(b.Input) > 0 && !isObject(b.Input) {
			return invalid(path+".input", "must be a JSON object")
		}
	case ToolResultBlock:
		if !toolUseIDRule.MatchString(b.ToolUseID) {
			return invalid(path+".tool_use_id", "must be 1 to 256 letters, digits, underscores or hyphens")
		}
		if blocks, ok := b.Content.(Blocks); ok {
			for j, c := range blocks {
				if err := validateBlock(idx(path+".content", j), c); err != nil {
					return err
				}
			}
		}
	case ImageBlock:
		if b.Source == nil {
			return invalid(path+".source", "is required")
		}
	case DocumentBlock:
		if b.Source == nil {
			return invalid(path+".source", "is required")
		}
	}
	return nil
}

func validateSystem(s System) error {
	switch s := s.(type) {
	case Text:
		if s == "" {
			return invalid("system", "text content blocks must be non-empty")
		}
	case SystemBlocks:
		for i, b := range s {
			if b.Text == "" {
				return invalid(idx("system", i)+".text", "must be non-empty")
			}
		}
	}
	return nil
}

func validateTools(tools []Tool, servers []MCPServer) error {
	if len(tools) > maxTools {
		return invalid("tools", "must have at most "+strconv.Itoa(maxTools)+" items")
	}
	names := make(map[string]bool, len(tools))
	unique := func(name string) error {
		if names[name] {
			return invalid("tools", "tool names must be unique: "+strconv.Quote(name)+" is repeated")
		}
		names[name] = true
		return nil
	}
	for i, t := range tools {
		path := idx("tools", i)
		switch t := t.(type) {
		case nil:
			return invalid(path, "must not be nil")
		case CustomTool:
			if !toolNameRule.MatchString(t.Name) {
				return invalid(path+".custom.name", "must be 1 to 128 letters, digits, underscores or hyphens")
			}
			if len(t.InputSchema) == 0 {
				return invalid(path+".custom.input_schema", "is required")
			}
			if !isObject(t.InputSchema) {
				return invalid(path+".custom.input_schema", "must be a JSON object")
			}
			if err := unique(t.Name); err != nil {
				return err
			}
		case WebSearchTool:
			typ := t.Type
			if typ == "" {
				typ = WebSearch20250305
			}
			if t.AllowedDomains != nil && t.BlockedDomains != nil {
				return invalid(path+"."+typ, "allowed_domains and blocked_domains cannot both be set")
			}
			if t.MaxUses < 0 {
				return invalid(path+"."+typ+".max_uses", "must be at least 1")
			}
			if err := unique("web_search"); err != nil {
				return err
			}
		case CodeExecutionTool:
			if err := unique("code_execution"); err != nil {
				return err
			}
		case MCPToolset:
			found := false
			for _, s := range servers {
				found = found || s.Name == t.MCPServerName
			}
			if !found {
				return invalid(path+".mcp_toolset.mcp_server_name", "no MCP server named "+strconv.Quote(t.MCPServerName))
			}
		}
	}
	return nil
}

func validateToolChoice(c ToolChoice, tools []Tool, thinking Thinking) error {
	forced := false
	switch c := c.(type) {
	case ToolChoiceAny:
		forced = true
	case ToolChoiceTool:
		forced = true
		if c.Name == "" {
			return invalid("tool_choice.tool.name", "is required")
		}
		if !hasTool(tools, c.Name) {
			return invalid("tool_choice.tool.name", "tool "+strconv.Quote(c.Name)+" is not in tools")
		}
	}
	if forced && len(tools) == 0 {
		return invalid("tool_choice", "requires at least one tool in tools")
	}
	if forced && thinkingOn(thinking) {
		return invalid("tool_choice", "cannot force tool use when thinking is enabled")
	}
	return nil
}

// hasTool reports whether tools defines a tool the model can call as name.
// Unknown tool types are given the benefit of the doubt.
func hasTool(tools []Tool, name string) bool {
	for _, t := range tools {
		switch t := t.(type) {
		case CustomTool:
			if t.Name == name {
				return true
			}
		case WebSearchTool:
			if name == "web_search" {
				return true
			}
		case CodeExecutionTool:
			if name == "code_execution" {
				return true
			}
		case UnknownTool:
			return true
		}
	}
	return false
}

func validateMCPServers(servers []MCPServer) error {
	seen := make(map[string]bool, len(servers))
	for i, s := range servers {
		path := idx("mcp_servers", i)
		if n := utf8.RuneCountInString(s.Name); n < 1 || n > maxMCPName {
			return invalid(path+".name", "must be 1 to "+strconv.Itoa(maxMCPName)+" characters")
		}
		if seen[s.Name] {
			return invalid(path+".name", "must be unique: "+strconv.Quote(s.Name)+" is repeated")
		}
		seen[s.Name] = true
		if !strings.HasPrefix(s.URL, "https://") {
			return invalid(path+".url", "must start with https://")
		}
	}
	return nil
}

// validateThinking checks the budget: at least 1024 and, when there is a
// max_tokens to compare with, less than it.
func validateThinking(t Thinking, maxTokens int, create bool) error {
	var budget int
	switch t := t.(type) {
	case ThinkingEnabled:
		budget = t.BudgetTokens
	case *ThinkingEnabled:
		budget = t.BudgetTokens
	default:
		return nil
	}
	if budget < minThinkBudget {
		return invalid("thinking.enabled.budget_tokens", "must be at least "+strconv.Itoa(minThinkBudget))
	}
	if create && budget >= maxTokens {
		return invalid("thinking.enabled.budget_tokens", "must be less than max_tokens ("+strconv.Itoa(maxTokens)+")")
	}
	return nil
}

func validateOutput(c *OutputConfig) error {
	if c != nil && c.Format != nil && !isObject(c.Format.Schema) {
		return invalid("output_config.format.schema", "must be a JSON object")
	}
	return nil
}

func validateFallbacks(f Fallbacks, model string, maxTokens int) error {
	list, ok := f.(FallbackList)
	if !ok {
		return nil
	}
	if len(list) < 1 || len(list) > maxFallbacks {
		return invalid("fallbacks", "must have 1 to "+strconv.Itoa(maxFallbacks)+" items")
	}
	seen := map[string]bool{model: true}
	for i, fb := range list {
		if fb.Model == "" {
			return invalid(idx("fallbacks", i)+".model", "is required")
		}
		if seen[fb.Model] {
			return invalid(idx("fallbacks", i)+".model", "duplicate model "+strconv.Quote(fb.Model))
		}
		seen[fb.Model] = true
		limit := maxTokens
		if fb.MaxTokens > 0 {
			limit = fb.MaxTokens
		}
		if err := validateThinking(fb.Thinking, limit, true); err != nil {
			return invalid(idx("fallbacks", i)+".thinking.enabled.budget_tokens", err.(*apierror.ValidationError).Rule)
		}
	}
	return nil
}

// isObject reports whether raw is one JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}
