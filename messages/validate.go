package messages

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/apiversion"
)

// Local checks (docs/messages-wire.md 2, 6 and 12). Each names the field
// with its dotted path in that document, union tags included
// ("tools.2.custom.name", "messages.1.content.0.tool_use.id",
// "thinking.enabled.budget_tokens"), and words the rule as the server does
// (docs/messages-wire.md 1.5), so that a local and a remote refusal read
// the same; nothing is sent. Where the server's message names no field, the
// local one names the field the rule is about. The rules that need server
// state (the model catalogue, the workspace, signatures, tool pairing) are
// left to the server.

const (
	maxMessages      = 100000
	maxTools         = 1000
	maxStopSequences = 16
	maxUserID        = 512
	minThinkBudget   = 1024
	maxFallbacks     = 3
	maxMCPName       = 64
	maxToolName      = 128
	maxToolUseID     = 256
)

var (
	toolNameRule    = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)
	toolUseIDRule   = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	propertyKeyRule = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)
)

func invalid(field, rule string) error { return &apierror.ValidationError{Field: field, Rule: rule} }

// The server's wording of the common rules (docs/messages-wire.md 1.5).
const (
	fieldRequired     = "Field required"
	notADictionary    = "Input should be a valid dictionary"
	emptyText         = "text content blocks must be non-empty"
	emptyMessage      = "all messages must have non-empty content except for the optional final assistant message"
	trailingSpace     = "final assistant content cannot end with trailing whitespace"
	budgetAboveTokens = "`max_tokens` must be greater than `thinking.budget_tokens`"
	systemPlacement   = "a `system` message must come immediately after a `user` message; " +
		"put the instructions that open the conversation in the top-level `system` field"
	userCitations = "citations are not allowed on text in `user` messages since vendor-version " + apiversion.V20261021 +
		"; send citations back only on `assistant` text"
)

func atLeast(n string) string { return "Input should be greater than or equal to " + n }
func atMost(n string) string  { return "Input should be less than or equal to " + n }

func tooFew(n int) string {
	return "List should have at least 1 item after validation, not " + strconv.Itoa(n)
}

func tooMany(max, n int) string {
	return "List should have at most " + strconv.Itoa(max) + " items after validation, not " + strconv.Itoa(n)
}

// checkString is the server's string rule: min to max characters, then
// pattern when there is one.
func checkString(field, s string, min, max int, pattern *regexp.Regexp) error {
	n := utf8.RuneCountInString(s)
	switch {
	case n < min && min == 1:
		return invalid(field, "String should have at least 1 character")
	case n < min:
		return invalid(field, "String should have at least "+strconv.Itoa(min)+" characters")
	case n > max:
		return invalid(field, "String should have at most "+strconv.Itoa(max)+" characters")
	case pattern != nil && !pattern.MatchString(s):
		return invalid(field, "String should match pattern '"+pattern.String()+"'")
	}
	return nil
}

func idx(prefix string, i int) string { return prefix + "." + strconv.Itoa(i) }

// validate checks p by the rules of API version v ("" for the default).
func (p *MessageParams) validate(v string) error {
	if p.Model == "" {
		return invalid("model", fieldRequired)
	}
	if p.MaxTokens < 0 {
		return invalid("max_tokens", atLeast("0"))
	}
	if err := validateMessages(p.Messages, v); err != nil {
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
	if err := validateMCPServers(p.MCPServers, p.Tools); err != nil {
		return err
	}
	if err := checkSampling(p, v); err != nil {
		return err
	}
	if err := unit("temperature", p.Temperature); err != nil {
		return err
	}
	if err := unit("top_p", p.TopP); err != nil {
		return err
	}
	if p.TopK != nil && *p.TopK < 0 {
		return invalid("top_k", atLeast("0"))
	}
	if len(p.StopSequences) > maxStopSequences {
		return invalid("stop_sequences", tooMany(maxStopSequences, len(p.StopSequences)))
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
			return invalid("temperature", "`temperature` may only be set to 1 when thinking is enabled")
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
		return invalid("metadata.user_id", "String should have at most "+strconv.Itoa(maxUserID)+" characters")
	}
	if err := p.validatePlatform(); err != nil {
		return err
	}
	return validateFallbacks(p.Fallbacks, p.Model, p.MaxTokens)
}

// validate checks p by the rules of API version v ("" for the default).
func (p *CountTokensParams) validate(v string) error {
	if p.Model == "" {
		return invalid("model", fieldRequired)
	}
	if err := validateMessages(p.Messages, v); err != nil {
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
	if err := validateMCPServers(p.MCPServers, p.Tools); err != nil {
		return err
	}
	if err := validateThinking(p.Thinking, 0, false); err != nil {
		return err
	}
	if err := validSpeed(p.Speed); err != nil {
		return err
	}
	return validateOutput(p.OutputConfig)
}

func unit(field string, v *float64) error {
	return numberIn(field, v, 0, 1)
}

// numberIn checks an optional number against [min, max].
func numberIn(field string, v *float64, min, max float64) error {
	switch {
	case v == nil:
	case *v < min:
		return invalid(field, atLeast(strconv.FormatFloat(min, 'f', -1, 64)))
	case *v > max:
		return invalid(field, atMost(strconv.FormatFloat(max, 'f', -1, 64)))
	}
	return nil
}

// checkSampling refuses temperature, top_p and top_k, whatever their
// value, under a version that removed them.
func checkSampling(p *MessageParams, v string) error {
	if apiversion.SamplingParams(v) {
		return nil
	}
	var field string
	switch {
	case p.Temperature != nil:
		field = "temperature"
	case p.TopP != nil:
		field = "top_p"
	case p.TopK != nil:
		field = "top_k"
	default:
		return nil
	}
	return invalid(field, "Extra inputs are not permitted: not accepted in API version "+apiversion.V20261021+" and later, whatever the value")
}

func validateMessages(msgs []MessageParam, v string) error {
	if len(msgs) == 0 {
		return invalid("messages", tooFew(0))
	}
	if len(msgs) > maxMessages {
		return invalid("messages", tooMany(maxMessages, len(msgs)))
	}
	for i, m := range msgs {
		path := idx("messages", i)
		switch m.Role {
		case RoleUser, RoleAssistant:
		case RoleSystem:
			if i == 0 || msgs[i-1].Role != RoleUser {
				return invalid(path, systemPlacement)
			}
			if err := validateSystemMessage(path, m.Content); err != nil {
				return err
			}
			continue
		default:
			return invalid(path+".role", "Input should be 'user', 'assistant' or 'system'")
		}
		final := i == len(msgs)-1 && m.Role == RoleAssistant
		if err := validateContent(path, m.Role, m.Content, final, v); err != nil {
			return err
		}
	}
	return checkToolPairing(msgs)
}

// The server's wording of the tool-pairing rule (docs/messages-wire.md 2.2).
const (
	missingResults = "`tool_use` ids were found without `tool_result` blocks immediately after: %s. " +
		"Each `tool_use` block must have a corresponding `tool_result` block in the next message."
	unexpectedResult = "unexpected `tool_use_id` found in `tool_result` blocks: %s. " +
		"Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
)

// checkToolPairing applies the tool-pairing rule to turns, as the server
// does: consecutive messages of one role form one turn, every tool_use of
// an assistant turn needs a tool_result in the next turn, and every
// tool_result answers a tool_use of the previous turn. A conversation with
// tool blocks this SDK does not model is left to the server.
func checkToolPairing(msgs []MessageParam) error {
	type use struct {
		id  string
		msg int
	}
	for _, m := range msgs {
		for _, b := range blocksOf(m.Content) {
			if u, ok := b.(UnknownBlock); ok && (u.Type == "tool_use" || u.Type == "tool_result") {
				return nil
			}
		}
	}
	var pending []use // tool_use ids of the previous assistant turn
	prevAssistant := false
	flush := func(results map[string]bool) error {
		var missing []string
		at := -1
		for _, u := range pending {
			if !results[u.id] {
				if at < 0 {
					at = u.msg
				}
				missing = append(missing, u.id)
			}
		}
		if len(missing) > 0 {
			return invalid(idx("messages", at), fmt.Sprintf(missingResults, strings.Join(missing, ", ")))
		}
		return nil
	}
	// System messages are not part of a turn: a turn runs on through them
	// (they hold text only, so they add nothing to it).
	for i := 0; i < len(msgs); {
		role := msgs[i].Role
		if role == RoleSystem {
			i++
			continue
		}
		j := i
		for j < len(msgs) && (msgs[j].Role == role || msgs[j].Role == RoleSystem) {
			j++
		}
		if role == RoleAssistant {
			pending, prevAssistant = nil, true
			for k := i; k < j; k++ {
				for _, b := range blocksOf(msgs[k].Content) {
					if u, ok := b.(ToolUseBlock); ok {
						pending = append(pending, use{u.ID, k})
					}
				}
			}
		} else {
			results := map[string]bool{}
			for k := i; k < j; k++ {
				for _, b := range blocksOf(msgs[k].Content) {
					if r, ok := b.(ToolResultBlock); ok {
						results[r.ToolUseID] = true
					}
				}
			}
			if err := flush(results); err != nil {
				return err
			}
			known := map[string]bool{}
			for _, u := range pending {
				known[u.id] = true
			}
			for k := i; k < j; k++ {
				for n, b := range blocksOf(msgs[k].Content) {
					if r, ok := b.(ToolResultBlock); ok && (!prevAssistant || !known[r.ToolUseID]) {
						return invalid(idx(idx("messages", k)+".content", n), fmt.Sprintf(unexpectedResult, r.ToolUseID))
					}
				}
			}
			pending, prevAssistant = nil, false
		}
		i = j
	}
	return flush(nil)
}

// blocksOf returns the blocks of content; the text shorthand has no tool
// blocks.
func blocksOf(c Content) Blocks {
	b, _ := c.(Blocks)
	return b
}

// validateContent checks one message's content. Only a final assistant
// message (a prefill) may be empty, and it must not end with white space.
func validateContent(path string, role Role, c Content, prefill bool, v string) error {
	var last ContentBlock
	switch c := c.(type) {
	case nil:
		if !prefill {
			return invalid(path+".content", fieldRequired)
		}
	case Text:
		if c == "" && !prefill {
			return invalid(path, emptyMessage)
		}
		last = TextBlock{Text: string(c)}
	case Blocks:
		if len(c) == 0 && !prefill {
			return invalid(path, emptyMessage)
		}
		for j, b := range c {
			bp := idx(path+".content", j)
			if err := validateBlock(bp, b); err != nil {
				return err
			}
			if err := checkPlacement(bp, role, b, v); err != nil {
				return err
			}
			if role == RoleUser && !apiversion.UserCitations(v) {
				if err := checkUserCitations(bp, b); err != nil {
					return err
				}
			}
		}
		if len(c) > 0 {
			last = c[len(c)-1]
		}
	}
	if t, ok := last.(TextBlock); ok && prefill && t.Text != "" {
		if r, _ := utf8.DecodeLastRuneInString(t.Text); unicode.IsSpace(r) {
			return invalid("messages", trailingSpace)
		}
	}
	return nil
}

// checkPlacement refuses a block of one role's kind in the other role's
// message (docs/messages-wire.md 2.2): what the model produces goes in
// assistant messages, what the user supplies in user messages. A document
// may also sit in an assistant message under the versions that allow it
// (docs/api-versions.md).
func checkPlacement(path string, role Role, b ContentBlock, v string) error {
	var typ string
	var onlyIn Role
	switch b.(type) {
	case ToolUseBlock:
		typ, onlyIn = "tool_use", RoleAssistant
	case ThinkingBlock:
		typ, onlyIn = "thinking", RoleAssistant
	case RedactedThinkingBlock:
		typ, onlyIn = "redacted_thinking", RoleAssistant
	case FallbackBlock:
		typ, onlyIn = "fallback", RoleAssistant
	case ServerToolUseBlock:
		typ, onlyIn = "server_tool_use", RoleAssistant
	case MCPToolUseBlock:
		typ, onlyIn = "mcp_tool_use", RoleAssistant
	case MCPToolResultBlock:
		typ, onlyIn = "mcp_tool_result", RoleAssistant
	case WebSearchToolResultBlock:
		typ, onlyIn = "web_search_tool_result", RoleAssistant
	case CodeExecutionToolResultBlock:
		typ, onlyIn = "code_execution_tool_result", RoleAssistant
	case BashCodeExecutionToolResultBlock:
		typ, onlyIn = "bash_code_execution_tool_result", RoleAssistant
	case WebFetchToolResultBlock, ToolSearchToolResultBlock, TextEditorCodeExecutionToolResultBlock, ContainerUploadBlock:
		typ, onlyIn = blockType(b), RoleAssistant
	case ToolResultBlock:
		typ, onlyIn = "tool_result", RoleUser
	case ImageBlock:
		typ, onlyIn = "image", RoleUser
	case DocumentBlock:
		if apiversion.AssistantDocuments(v) {
			return nil
		}
		typ, onlyIn = "document", RoleUser
	case SearchResultBlock:
		typ, onlyIn = "search_result", RoleUser
	default:
		return nil
	}
	if role != onlyIn {
		return invalid(path, "`"+typ+"` blocks are not allowed in `"+string(role)+"` messages")
	}
	return nil
}

// checkUserCitations refuses a non-empty citations list on the text of a
// user message, directly or inside a search result, under the versions
// that do (docs/api-versions.md).
func checkUserCitations(path string, b ContentBlock) error {
	switch b := b.(type) {
	case TextBlock:
		if len(b.Citations) > 0 {
			return invalid(path+".citations", userCitations)
		}
	case SearchResultBlock:
		for k, t := range b.Content {
			if len(t.Citations) > 0 {
				return invalid(idx(path+".search_result.content", k)+".citations", userCitations)
			}
		}
	}
	return nil
}

// validateSystemMessage checks the content of a system message: a string,
// or text blocks only, each with text and without citations.
func validateSystemMessage(path string, c Content) error {
	switch c := c.(type) {
	case nil:
		return invalid(path+".content", fieldRequired)
	case Text:
		if c == "" {
			return invalid(path, emptyMessage)
		}
	case Blocks:
		if len(c) == 0 {
			return invalid(path, emptyMessage)
		}
		for j, b := range c {
			bp := idx(path+".content", j)
			t, ok := b.(TextBlock)
			switch {
			case b == nil:
				return invalid(bp, notADictionary)
			case !ok:
				return invalid(bp, "Input tag '"+blockType(b)+"' found using 'type' does not match any of the expected tags: 'text'")
			case t.Text == "":
				return invalid("messages", emptyText)
			case len(t.Citations) > 0:
				return invalid(bp+".citations", "citations are not allowed in `system` messages")
			}
		}
	}
	return nil
}

// blockType is the type of b as sent, for an error message.
func blockType(b ContentBlock) string {
	data, err := json.Marshal(b)
	if err != nil {
		return fmt.Sprintf("%T", b)
	}
	var t struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(data, &t)
	return t.Type
}

func validateBlock(path string, b ContentBlock) error {
	switch b := b.(type) {
	case nil:
		return invalid(path, notADictionary)
	case TextBlock:
		if b.Text == "" {
			return invalid("messages", emptyText)
		}
	case ToolUseBlock:
		if err := checkString(path+".tool_use.id", b.ID, 1, maxToolUseID, toolUseIDRule); err != nil {
			return err
		}
		if b.Name == "" {
			return invalid(path+".tool_use.name", fieldRequired)
		}
		if len(b.Input) > 0 && !isObject(b.Input) {
			return invalid(path+".tool_use.input", notADictionary)
		}
	case ToolResultBlock:
		if err := checkString(path+".tool_result.tool_use_id", b.ToolUseID, 1, maxToolUseID, toolUseIDRule); err != nil {
			return err
		}
		if blocks, ok := b.Content.(Blocks); ok {
			for j, c := range blocks {
				if err := validateBlock(idx(path+".tool_result.content", j), c); err != nil {
					return err
				}
			}
		}
	case ImageBlock:
		if b.Source == nil {
			return invalid(path+".image.source", fieldRequired)
		}
		return validateImageTransformations(path, b.Transformations)
	case ToolReferenceBlock:
		if b.ToolName == "" {
			return invalid(path+".tool_reference.tool_name", fieldRequired)
		}
	case DocumentBlock:
		if b.Source == nil {
			return invalid(path+".document.source", fieldRequired)
		}
	}
	return nil
}

// validateSystem refuses empty text blocks. A system string may be empty,
// as the server accepts it: it is not a block.
func validateSystem(s System) error {
	switch s := s.(type) {
	case SystemBlocks:
		for _, b := range s {
			if b.Text == "" {
				return invalid("system", emptyText)
			}
		}
	}
	return nil
}

func validateTools(tools []Tool, servers []MCPServer) error {
	if len(tools) > maxTools {
		return invalid("tools", tooMany(maxTools, len(tools)))
	}
	names := make(map[string]bool, len(tools))
	unique := func(name string) error {
		if names[name] {
			return invalid("tools", "Tool names must be unique.")
		}
		names[name] = true
		return nil
	}
	for i, t := range tools {
		path := idx("tools", i)
		switch t := t.(type) {
		case nil:
			return invalid(path, notADictionary)
		case CustomTool:
			if err := checkString(path+".custom.name", t.Name, 1, maxToolName, toolNameRule); err != nil {
				return err
			}
			if err := checkInputSchema(path+".custom.input_schema", t.InputSchema); err != nil {
				return err
			}
			if err := unique(t.Name); err != nil {
				return err
			}
		case WebSearchTool:
			typ := string(t.Type)
			if typ == "" {
				typ = string(WebSearch20250305)
			}
			if t.MaxUses < 0 {
				return invalid(path+"."+typ+".max_uses", atLeast("1"))
			}
			if t.AllowedDomains != nil && t.BlockedDomains != nil {
				return invalid(path+"."+typ, "allowed_domains and blocked_domains cannot both be set")
			}
			if err := checkResponseInclusion(path+"."+typ, t.ResponseInclusion); err != nil {
				return err
			}
			if err := unique("web_search"); err != nil {
				return err
			}
		case WebFetchTool, ToolSearchTool:
			if err := validateNewerTool(path, t); err != nil {
				return err
			}
			if err := unique(serverToolName(t)); err != nil {
				return err
			}
		case CodeExecutionTool:
			if err := unique("code_execution"); err != nil {
				return err
			}
		case BrowserToolset, ComputerToolset:
			if err := validateToolset(path, t); err != nil {
				return err
			}
		case MCPToolset:
			found := false
			for _, s := range servers {
				found = found || s.Name == t.MCPServerName
			}
			if !found {
				return invalid(path+".mcp_toolset.mcp_server_name", "no MCP server named `"+t.MCPServerName+"`")
			}
		}
	}
	return nil
}

// checkInputSchema checks what the server checks of a custom tool's
// schema: an object whose type is "object", whose properties (when set) is
// an object with keys of the allowed form.
func checkInputSchema(path string, raw json.RawMessage) error {
	if !isObject(raw) {
		return invalid(path, notADictionary)
	}
	var schema map[string]json.RawMessage
	if err := json.Unmarshal(raw, &schema); err != nil {
		return invalid(path, notADictionary)
	}
	typ, ok := schema["type"]
	if !ok {
		return invalid(path+".type", fieldRequired)
	}
	if string(bytes.TrimSpace(typ)) != `"object"` {
		return invalid(path+".type", "Input should be 'object'")
	}
	props, ok := schema["properties"]
	if !ok || string(bytes.TrimSpace(props)) == "null" {
		return nil
	}
	var keys map[string]json.RawMessage
	if !isObject(props) || json.Unmarshal(props, &keys) != nil {
		return invalid(path+".properties", notADictionary)
	}
	for k := range keys {
		if !propertyKeyRule.MatchString(k) {
			return invalid(path+".properties", "Property keys should match pattern '"+propertyKeyRule.String()+"'")
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
		if len(tools) > 0 && !hasTool(tools, c.Name) {
			return invalid("tool_choice.tool.name", "tool `"+c.Name+"` is not in `tools`")
		}
	}
	if forced && len(tools) == 0 {
		return invalid("tool_choice", "requires at least one tool in `tools`")
	}
	if forced && thinkingOn(thinking) {
		return invalid("tool_choice", "Thinking may not be enabled when tool_choice forces tool use")
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
		case WebFetchTool, ToolSearchTool:
			if name == serverToolName(t) {
				return true
			}
		case BrowserToolset, ComputerToolset:
			if toolsetHas(t, name) {
				return true
			}
		case UnknownTool:
			return true
		}
	}
	return false
}

func validateMCPServers(servers []MCPServer, tools []Tool) error {
	seen := make(map[string]bool, len(servers))
	for i, s := range servers {
		path := idx("mcp_servers", i)
		if err := checkString(path+".name", s.Name, 1, maxMCPName, nil); err != nil {
			return err
		}
		if !strings.HasPrefix(s.URL, "https://") {
			return invalid(path+".url", "must start with https://")
		}
	}
	for i, s := range servers {
		if seen[s.Name] {
			return invalid(idx("mcp_servers", i)+".name", "duplicate MCP server name `"+s.Name+"`")
		}
		seen[s.Name] = true
	}
	for i, s := range servers {
		refs := 0
		for _, t := range tools {
			if ts, ok := t.(MCPToolset); ok && ts.MCPServerName == s.Name {
				refs++
			}
		}
		if refs != 1 {
			return invalid(idx("mcp_servers", i), "MCP server `"+s.Name+"` must be referenced by exactly one mcp_toolset")
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
		return invalid("thinking.enabled.budget_tokens", atLeast(strconv.Itoa(minThinkBudget)))
	}
	if create && budget >= maxTokens {
		return invalid("thinking.enabled.budget_tokens", budgetAboveTokens+" ("+strconv.Itoa(maxTokens)+")")
	}
	return nil
}

func validateOutput(c *OutputConfig) error {
	if c != nil && c.Format != nil && !isObject(c.Format.Schema) {
		return invalid("output_config.format.schema", notADictionary)
	}
	return nil
}

func validateFallbacks(f Fallbacks, model string, maxTokens int) error {
	list, ok := f.(FallbackList)
	if !ok {
		return nil
	}
	if len(list) < 1 {
		return invalid("fallbacks", tooFew(len(list)))
	}
	if len(list) > maxFallbacks {
		return invalid("fallbacks", tooMany(maxFallbacks, len(list)))
	}
	seen := map[string]bool{model: true}
	for i, fb := range list {
		if fb.Model == "" {
			return invalid(idx("fallbacks", i)+".model", fieldRequired)
		}
		if seen[fb.Model] {
			return invalid(idx("fallbacks", i)+".model", "duplicate model `"+fb.Model+"`")
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
