package messages

import (
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentplatform/agentplatform-go/internal/apiversion"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Pass 2 of Messages validation (docs/messages-wire.md 2, 3.3, 8.3): the
// rules that relate a field to other fields, to the catalogue, to the
// workspace or to the rest of the conversation.
//
// "The first broken rule in body order" (1.5) is read like this: every rule
// is anchored at one top-level key (tool_choice's rules at tool_choice,
// thinking's at thinking, and so on); a rule runs when its anchor and the
// keys it reads have a valid shape. The error reported is the one whose
// anchor comes first in the body; a shape error counts at its own key, and
// a missing required key after every member. Rules that span the whole
// prompt (the cache_control limits and the prompt size) come last.

type msgRule struct {
	anchor string
	deps   []string
	check  func() error
}

// validateMessages parses and validates a Messages body for ep by the
// rules of API version version and returns the request. workspaceID is
// where the request runs (inference_geo, containers).
func (s *Service) validateMessages(root *jnode, ep msgEndpoint, betas map[string]bool, version, workspaceID string) (*msgRequest, error) {
	r, shape := parseMsgRequest(root, ep, betas, version)
	r.sigKey = s.signingKey()
	bestPos, bestErr := len(root.obj)+1, error(nil)
	if shape != nil {
		bestPos, bestErr = shape.pos, shape.err
	}
	if r.parsed["model"] {
		r.model = lookupModel(r.modelID)
	}
	for _, rule := range s.msgRules(r, workspaceID) {
		at, ok := r.pos[rule.anchor]
		if !ok || !r.parsed[rule.anchor] || at >= bestPos || !r.depsReady(rule.deps) {
			continue
		}
		if err := rule.check(); err != nil {
			bestPos, bestErr = at, err
		}
	}
	if bestErr != nil {
		return nil, bestErr
	}
	if err := r.checkCacheControls(); err != nil {
		return nil, err
	}
	if err := r.checkPromptSize(r.model, "", r.output); err != nil {
		return nil, err
	}
	return r, nil
}

// depsReady reports whether every key a rule reads is absent or valid;
// "model" must also name a catalogue model.
func (r *msgRequest) depsReady(deps []string) bool {
	for _, d := range deps {
		if r.has(d) && !r.parsed[d] {
			return false
		}
		if d == "model" && r.model == nil {
			return false
		}
	}
	return true
}

func (s *Service) msgRules(r *msgRequest, workspaceID string) []msgRule {
	return []msgRule{
		{"model", nil, func() error {
			if r.model == nil {
				return kit.NotFound("model: %s", r.modelID)
			}
			return nil
		}},
		{"max_tokens", []string{"model"}, func() error { return r.checkMaxTokens(r.model, "max_tokens", r.maxTokens) }},
		{"messages", nil, r.checkConversation},
		{"system", nil, func() error {
			for _, b := range r.system {
				if b.text == "" && b.path != "system" {
					return pyErr("system", "text content blocks must be non-empty")
				}
			}
			return nil
		}},
		{"tools", []string{"mcp_servers"}, r.checkTools},
		{"mcp_servers", []string{"tools"}, r.checkMCPServers},
		{"tool_choice", []string{"tools", "thinking"}, func() error { return r.checkToolChoice(r.thinking) }},
		{"thinking", []string{"max_tokens", "model"}, func() error {
			return r.checkThinking(r.model, r.thinking, r.maxTokens, "thinking")
		}},
		{"temperature", []string{"thinking"}, func() error { return r.checkSampling("temperature", r.thinking) }},
		{"top_p", []string{"thinking"}, func() error { return r.checkSampling("top_p", r.thinking) }},
		{"top_k", []string{"thinking"}, func() error { return r.checkSampling("top_k", r.thinking) }},
		{"output_config", []string{"model", "messages"}, func() error { return r.checkOutput(r.model, r.output, "output_config.effort") }},
		{"output_format", []string{"output_config", "messages"}, func() error {
			if r.outputSet {
				return pyErr("output_format", "cannot be combined with output_config.format")
			}
			return r.checkOutput(nil, outputCfg{format: r.outputFormat}, "")
		}},
		{"inference_geo", nil, func() error { return s.checkInferenceGeo(r, workspaceID) }},
		{"container", nil, func() error {
			if r.container != "" && !s.containerExists(workspaceID, r.container) {
				return pyErr("container", "container `%s` not found or expired", r.container)
			}
			return nil
		}},
		{"fallbacks", []string{"model", "max_tokens", "messages", "system", "tools", "tool_choice", "thinking",
			"temperature", "top_p", "top_k", "output_config", "output_format", "mcp_servers"}, r.checkFallbacks},
	}
}

func (r *msgRequest) checkMaxTokens(m *model, path string, n int) error {
	if r.ep == epCreate && n > m.MaxTokens {
		return pyErr(path, "%d > %d, which is the maximum allowed number of output tokens for %s", n, m.MaxTokens, m.ID)
	}
	return nil
}

func (r *msgRequest) checkThinking(m *model, t *thinkingCfg, maxTokens int, path string) error {
	if t == nil {
		return nil
	}
	types := m.Capabilities.Thinking.Types
	supported := map[string]bool{"enabled": types.Enabled.Supported, "adaptive": types.Adaptive.Supported, "disabled": true}
	if !supported[t.typ] {
		return pyErr(path, "%s thinking is not supported by %s", t.typ, m.ID)
	}
	if t.typ == "enabled" && r.ep == epCreate && r.has("max_tokens") && t.budget >= maxTokens {
		return kit.InvalidRequest("`max_tokens` must be greater than `thinking.budget_tokens`.")
	}
	return nil
}

func (r *msgRequest) checkToolChoice(t *thinkingCfg) error {
	tc := r.toolChoice
	if tc == nil {
		return nil
	}
	forced := tc.typ == "any" || tc.typ == "tool"
	if forced && len(r.tools) == 0 {
		return pyErr("tool_choice", "requires at least one tool in `tools`")
	}
	if tc.typ == "tool" && r.toolNamed(tc.name) == nil && !r.toolsetMember(tc.name) {
		return pyErr("tool_choice.tool.name", "tool `%s` is not in `tools`", tc.name)
	}
	if forced && t.on() {
		return kit.InvalidRequest("Thinking may not be enabled when tool_choice forces tool use.")
	}
	return nil
}

func (r *msgRequest) toolNamed(name string) *toolDef {
	for _, t := range r.tools {
		if t.name != "" && t.name == name {
			return t
		}
	}
	return nil
}

func (r *msgRequest) checkSampling(field string, t *thinkingCfg) error {
	if !t.on() {
		return nil
	}
	switch field {
	case "temperature":
		if r.temperature != nil && *r.temperature != 1 {
			return kit.InvalidRequest("`temperature` may only be set to 1 when thinking is enabled.")
		}
	case "top_p":
		if r.topP != nil && *r.topP < 0.95 {
			return pyErr("top_p", "must be at least 0.95 when thinking is enabled")
		}
	case "top_k":
		if r.topK != nil {
			return pyErr("top_k", "cannot be set when thinking is enabled")
		}
	}
	return nil
}

// checkOutput checks effort support (when m is set) and the format-with-
// citations rule.
func (r *msgRequest) checkOutput(m *model, oc outputCfg, effortPath string) error {
	if m != nil && oc.effort != "" && !effortSupported(m, oc.effort) {
		return pyErr(effortPath, "effort `%s` is not supported by %s", oc.effort, m.ID)
	}
	if oc.format != nil && r.citedDocument() != nil {
		return pyErr("output_config.format", "cannot be used with citations")
	}
	return nil
}

func (s *Service) checkInferenceGeo(r *msgRequest, workspaceID string) error {
	if r.inferenceGeo == "" {
		return nil
	}
	if _, allowed, ok := s.deps.Residency(workspaceID); ok && allowed != nil {
		for _, g := range allowed {
			if g == r.inferenceGeo {
				return nil
			}
		}
		return pyErr("inference_geo", "`%s` is not allowed in this workspace", r.inferenceGeo)
	}
	return nil
}

func (r *msgRequest) checkTools() error {
	seen := map[string]bool{}
	for _, t := range r.tools {
		if t.name == "" {
			continue
		}
		if seen[t.name] {
			return pyErr("tools", "Tool names must be unique.").WithCode("tool_name_conflict", nil)
		}
		seen[t.name] = true
	}
	for _, t := range r.tools {
		if t.kind == "mcp_toolset" && r.mcpServerNamed(t.server) == nil {
			return pyErr(joinPath(t.path, "mcp_server_name"), "no MCP server named `%s`", t.server)
		}
	}
	return nil
}

func (r *msgRequest) mcpServerNamed(name string) *msgMCPServer {
	for _, s := range r.mcpServers {
		if s.name == name {
			return s
		}
	}
	return nil
}

func (r *msgRequest) checkMCPServers() error {
	seen := map[string]bool{}
	for i, s := range r.mcpServers {
		if seen[s.name] {
			return pyErr(joinPath("mcp_servers", i, "name"), "duplicate MCP server name `%s`", s.name)
		}
		seen[s.name] = true
	}
	if !r.mcpBeta() {
		return nil // the legacy shape has no toolsets
	}
	for i, s := range r.mcpServers {
		refs := 0
		for _, t := range r.tools {
			if t.kind == "mcp_toolset" && t.server == s.name {
				refs++
			}
		}
		if refs != 1 && !s.legacy {
			return pyErr(joinPath("mcp_servers", i), "MCP server `%s` must be referenced by exactly one mcp_toolset", s.name)
		}
	}
	return nil
}

// --- conversation (2.2) ---

var assistantOnlyBlocks = map[string]bool{"thinking": true, "redacted_thinking": true, "tool_use": true,
	"server_tool_use": true, "mcp_tool_use": true, "mcp_tool_result": true, "web_search_tool_result": true,
	"code_execution_tool_result": true, "bash_code_execution_tool_result": true,
	"text_editor_code_execution_tool_result": true, "web_fetch_tool_result": true, "tool_search_tool_result": true,
	"container_upload": true, "fallback": true}

var userOnlyBlocks = map[string]bool{"tool_result": true, "image": true, "document": true, "search_result": true}

func (r *msgRequest) checkConversation() error {
	n := len(r.messages)
	for i, m := range r.messages {
		if len(m.content) == 0 && (i != n-1 || m.role != "assistant") {
			return pyErr(joinPath("messages", i), "all messages must have non-empty content except for the optional final assistant message")
		}
		if m.role == "system" && (i == 0 || r.messages[i-1].role != "user") {
			return pyErr(joinPath("messages", i), msgSystemPlacement)
		}
		hopModel := r.modelID
		for _, b := range m.content {
			if err := checkNonEmptyText(b); err != nil {
				return err
			}
			if r.misplaced(m.role, b.typ) {
				return pyErr(b.path, "`%s` blocks are not allowed in `%s` messages", b.typ, m.role)
			}
			if err := r.checkCitations(m.role, b); err != nil {
				return err
			}
			switch b.typ {
			case "fallback":
				hopModel = b.toModel
			case "thinking":
				if !r.verifySignature(hopModel, b.thinking, b.signature) {
					return pyErr(b.path, "Invalid `signature` in `thinking` block")
				}
			}
		}
	}
	if err := r.checkToolPairing(); err != nil {
		return err
	}
	if last := r.messages[n-1]; last.role == "assistant" {
		text := last.str
		if !last.shorthand && len(last.content) > 0 && last.content[len(last.content)-1].typ == "text" {
			text = last.content[len(last.content)-1].text
		}
		if r, _ := utf8.DecodeLastRuneInString(text); text != "" && unicode.IsSpace(r) {
			return pyErr("messages", "final assistant content cannot end with trailing whitespace")
		}
	}
	_, err := r.directives()
	return err
}

// msgSystemPlacement is the rule a system message breaks when it does not
// follow a user message.
const msgSystemPlacement = "a `system` message must come immediately after a `user` message; put the instructions that open the conversation in the top-level `system` field"

// misplaced reports whether a block of type typ may not sit directly in a
// message of role. A document directly in an assistant message is accepted
// until 2026-10-21 (docs/api-versions.md).
func (r *msgRequest) misplaced(role, typ string) bool {
	switch role {
	case "user":
		return assistantOnlyBlocks[typ]
	case "assistant":
		if typ == "document" {
			return !apiversion.AssistantDocuments(r.version)
		}
		return userOnlyBlocks[typ]
	}
	return false // system messages are text only (pass 1)
}

// checkCitations refuses citations where they may not be: on the text of a
// system message in every version, and from 2026-10-21 on the text of a
// user message, directly or inside a search_result block
// (docs/api-versions.md). An empty list is no citation.
func (r *msgRequest) checkCitations(role string, b *block) error {
	switch {
	case role == "system" && b.textCites > 0:
		return pyErr(joinPath(b.path, "citations"), "citations are not allowed in `system` messages")
	case role != "user" || apiversion.UserCitations(r.version):
		return nil
	}
	check := func(b *block) error {
		if b.textCites > 0 {
			return pyErr(joinPath(b.path, "citations"), "citations are not allowed on text in `user` messages since vendor-version %s; send citations back only on `assistant` text", apiversion.V20261021)
		}
		return nil
	}
	if b.typ == "search_result" {
		for _, c := range b.content {
			if err := check(c); err != nil {
				return err
			}
		}
		return nil
	}
	return check(b)
}

func checkNonEmptyText(b *block) error {
	if b.typ == "text" && b.text == "" {
		return pyErr("messages", "text content blocks must be non-empty")
	}
	for _, c := range b.content {
		if err := checkNonEmptyText(c); err != nil {
			return err
		}
	}
	return nil
}

const (
	msgMissingResults = "`tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message."
	msgUnexpectedID   = "unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
)

// checkToolPairing applies the tool-pairing rule to turns: consecutive
// messages of one role form one turn (2.2), so "the next message" is the
// next turn. System messages are not part of any turn: the rule looks
// through them.
func (r *msgRequest) checkToolPairing() error {
	convo := make([]*msgParam, 0, len(r.messages))
	for _, m := range r.messages {
		if m.role != "system" {
			convo = append(convo, m)
		}
	}
	type use struct {
		id  string
		msg int
	}
	var pending []use // tool_use ids of the previous assistant turn
	prevAssistant := false
	flushMissing := func(results map[string]bool) error {
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
			return pyErr(joinPath("messages", at), msgMissingResults, strings.Join(missing, ", "))
		}
		return nil
	}
	for i := 0; i < len(convo); {
		role := convo[i].role
		j := i
		for j < len(convo) && convo[j].role == role {
			j++
		}
		turn := convo[i:j]
		if role == "assistant" {
			pending, prevAssistant = nil, true
			for _, m := range turn {
				for _, b := range m.content {
					if b.typ == "tool_use" {
						pending = append(pending, use{b.id, m.index})
					}
				}
			}
		} else {
			results := map[string]bool{}
			for _, m := range turn {
				for _, b := range m.content {
					if b.typ == "tool_result" {
						results[b.toolUseID] = true
					}
				}
			}
			if err := flushMissing(results); err != nil {
				return err
			}
			known := map[string]bool{}
			for _, u := range pending {
				known[u.id] = true
			}
			for _, m := range turn {
				for _, b := range m.content {
					if b.typ == "tool_result" && (!prevAssistant || !known[b.toolUseID]) {
						return pyErr(b.path, msgUnexpectedID, b.toolUseID)
					}
				}
			}
			pending, prevAssistant = nil, false
		}
		i = j
	}
	return flushMissing(map[string]bool{})
}

// --- cache_control (3.3) ---

// breakpoint is a cache breakpoint in prompt order.
type breakpoint struct {
	ttl string
	seg int // index of the prompt segment it ends (fakemodel.go)
}

// breakpoints lists the request's breakpoints in prompt order (tools,
// system, messages), the top-level one last, and how many were declared
// (a top-level one on a block that has its own counts twice).
func (r *msgRequest) breakpoints() ([]breakpoint, int) {
	var out []breakpoint
	declared := 0
	seg := 0
	add := func(cm *cacheMark) {
		if cm != nil {
			declared++
			out = append(out, breakpoint{ttl: cm.ttl, seg: seg})
		}
	}
	for _, t := range r.tools {
		add(t.cache)
		seg++
	}
	seg += len(r.mcpServers)
	for _, b := range r.system {
		add(b.cache)
		seg++
	}
	lastCacheable := -1
	for _, m := range r.messages {
		for _, b := range m.content {
			add(b.cache)
			for _, c := range b.content {
				add(c.cache) // a nested breakpoint ends the prefix at its block
			}
			if !noCacheControl[b.typ] {
				lastCacheable = seg
			}
			seg++
		}
	}
	if r.cacheControl != nil {
		declared++
		if lastCacheable >= 0 {
			if len(out) > 0 && out[len(out)-1].seg == lastCacheable {
				// The block's own breakpoint stands for both.
			} else {
				out = append(out, breakpoint{ttl: r.cacheControl.ttl, seg: lastCacheable})
			}
		}
	}
	return out, declared
}

func (r *msgRequest) checkCacheControls() error {
	bps, declared := r.breakpoints()
	if declared > 4 {
		return kit.InvalidRequest("A maximum of 4 blocks with cache_control may be provided. Found %d.", declared)
	}
	seen5m := false
	for _, bp := range bps {
		if bp.ttl == "1h" && seen5m {
			return pyErr("cache_control", "a ttl of 1h must not follow a ttl of 5m")
		}
		seen5m = seen5m || bp.ttl == "5m"
	}
	return nil
}

// checkPromptSize is the Size rule of 2.2 for model m.
func (r *msgRequest) checkPromptSize(m *model, prefix string, oc outputCfg) error {
	if m == nil {
		return nil
	}
	if t := r.inputTokens(oc); t > m.MaxInputTokens {
		return kit.InvalidRequest("%sprompt is too long: %d tokens > %d maximum", prefix, t, m.MaxInputTokens)
	}
	return nil
}

// --- fallbacks (8.3) ---

// fallbackHop is one attempt after the requested model.
type fallbackHop struct {
	path      string // fallbacks.<k>, or fallbacks for the default form
	model     *model
	maxTokens int
	thinking  *thinkingCfg
	output    outputCfg
}

var defaultFallbackChain = []string{"vendor-opus-5-5", "vendor-sonnet-5-5", "vendor-haiku-5-5"}

// fallbackHops resolves the fallback attempts (valid requests only).
func (r *msgRequest) fallbackHops() []fallbackHop {
	if r.fallbacks == nil {
		return nil
	}
	var hops []fallbackHop
	if r.fallbacks.def {
		after := false
		for _, id := range defaultFallbackChain {
			if after {
				hops = append(hops, fallbackHop{path: "fallbacks", model: lookupModel(id), maxTokens: r.maxTokens, thinking: r.thinking, output: r.output})
			}
			after = after || id == r.model.ID
		}
		return hops
	}
	for _, e := range r.fallbacks.entries {
		h := fallbackHop{path: e.path, model: lookupModel(e.model), maxTokens: r.maxTokens, thinking: r.thinking, output: r.output}
		if e.maxTokens != nil {
			h.maxTokens = *e.maxTokens
		}
		if e.thinking != nil {
			h.thinking = e.thinking
		}
		if e.output != nil {
			h.output = *e.output
			if h.output.format == nil && r.outputFormat != nil {
				h.output.format = r.outputFormat
			}
		}
		hops = append(hops, h)
	}
	return hops
}

func (r *msgRequest) checkFallbacks() error {
	if !r.fallbacks.def {
		seen := map[string]bool{r.modelID: true}
		for _, e := range r.fallbacks.entries {
			if seen[e.model] {
				return pyErr(joinPath(e.path, "model"), "duplicate model `%s`", e.model)
			}
			seen[e.model] = true
			if lookupModel(e.model) == nil {
				return pyErr(joinPath(e.path, "model"), "`%s` is not a permitted fallback model", e.model)
			}
		}
	}
	// The request must be valid for every model named (checked up front).
	for _, h := range r.fallbackHops() {
		prefix := h.path + ": "
		checks := []func() error{
			func() error { return r.checkMaxTokens(h.model, "", h.maxTokens) },
			func() error { return r.checkThinking(h.model, h.thinking, h.maxTokens, "") },
			func() error { return r.checkToolChoice(h.thinking) },
			func() error { return r.checkSampling("temperature", h.thinking) },
			func() error { return r.checkSampling("top_p", h.thinking) },
			func() error { return r.checkSampling("top_k", h.thinking) },
			func() error { return r.checkOutput(h.model, h.output, "") },
			func() error { return r.checkPromptSize(h.model, "", h.output) },
		}
		for _, check := range checks {
			if err := check(); err != nil {
				ae := err.(*kit.APIError)
				return &kit.APIError{Status: http.StatusBadRequest, Type: kit.ErrInvalidRequest, Message: prefix + ae.Message}
			}
		}
	}
	return nil
}

// citedDocument returns the first document with citations enabled and a
// text or content source, and its index among all documents (10.6).
func (r *msgRequest) citedDocument() *citedDoc {
	d := 0
	var found *citedDoc
	var visit func(bs []*block)
	visit = func(bs []*block) {
		for _, b := range bs {
			if found != nil {
				return
			}
			if b.typ == "document" {
				if b.citations && (b.srcType == "text" || b.srcType == "content") {
					found = &citedDoc{b: b, index: d}
					return
				}
				d++
			}
			if b.typ == "tool_result" {
				visit(b.content)
			}
		}
	}
	for _, m := range r.messages {
		visit(m.content)
	}
	return found
}

type citedDoc struct {
	b     *block
	index int
}
