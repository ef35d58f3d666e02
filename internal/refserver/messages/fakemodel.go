package messages

import (
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The deterministic fake model behind /v1/messages, count_tokens and chat
// completions (docs/messages-wire.md section 10). Its output depends only on
// the request, the prompt cache, the clock and id source, and the
// thinking-signature key, never on "stream": M1, M2 and M4 share it. This
// file holds the token accounting and the generator; fakemodel_directives.go
// the in-prompt test directives; fakemodel_tools.go the tool calls, schema
// synthesis and citations; fakemodel_state.go the cache, containers,
// signatures and derived ids.

// --- input tokens (10.2) and prompt prefixes (10.4) ---

// promptSegments is the prompt as the cache sees it: one segment per tool,
// MCP server, system block and message block, in that order, with the
// canonical text that identifies it and P, the T-sum up to and including
// it (without the format term).
type promptSegments struct {
	canon []string
	p     []int
	// The prefix tokens at the end of the tools and MCP servers, of the
	// system prompt, and of each message (diagnostics.go).
	toolsEnd, systemEnd int
	messageEnd          []int
}

func (ps *promptSegments) prefixTokens(seg int) int { return ps.p[seg] }

func (ps *promptSegments) digest(seg int) [32]byte {
	h := sha256.New()
	for _, c := range ps.canon[:seg+1] {
		h.Write([]byte(c))
		h.Write([]byte{0})
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

func (r *msgRequest) segments() *promptSegments {
	if r.segs != nil {
		return r.segs
	}
	ps := &promptSegments{}
	sum := 3
	add := func(canon string, cost int) {
		sum += cost
		ps.canon = append(ps.canon, canon)
		ps.p = append(ps.p, sum)
	}
	for _, t := range r.tools {
		c := t.node.without("cache_control").canon()
		add("tool:"+c, tok(c))
	}
	for _, s := range r.mcpServers {
		c := s.node.canon()
		add("mcp:"+c, tok(c))
	}
	base := sum
	var sys []string
	for _, b := range r.system {
		sys = append(sys, b.text)
		ps.canon = append(ps.canon, "system:"+b.text)
		ps.p = append(ps.p, base+tok(strings.Join(sys, "\n")))
	}
	sum = base + tok(strings.Join(sys, "\n"))
	ps.toolsEnd, ps.systemEnd = base, sum
	for _, m := range r.messages {
		sum += 4
		for _, b := range m.content {
			add("m"+strconv.Itoa(m.index)+":"+m.role+":"+b.node.without("cache_control").canon(), blockCost(b))
		}
		ps.messageEnd = append(ps.messageEnd, sum)
	}
	r.segs, r.baseTokens = ps, sum
	return ps
}

// inputTokens is T of 10.2 with the output config of one attempt.
func (r *msgRequest) inputTokens(oc outputCfg) int {
	r.segments()
	t := r.baseTokens
	if oc.format != nil {
		t += tok(oc.format.canon())
	}
	return t
}

// blockCost is cost(block) of 10.2.
func blockCost(b *block) int {
	switch b.typ {
	case "text":
		return tok(b.text)
	case "image":
		return 1000
	case "document":
		n := tok(b.title) + tok(b.context)
		switch b.srcType {
		case "text":
			return n + tok(b.srcData)
		case "content":
			if b.strContent {
				return n + tok(b.contentStr)
			}
			for _, c := range b.content {
				n += blockCost(c)
			}
			return n
		}
		return n + 1500
	case "search_result":
		n := tok(b.source) + tok(b.title)
		for _, c := range b.content {
			n += tok(c.text)
		}
		return n
	case "tool_use":
		return tok(b.name + b.input.canon())
	case "tool_result":
		if b.strContent {
			return tok(b.contentStr)
		}
		n := 0
		for _, c := range b.content {
			n += blockCost(c)
		}
		return n
	case "thinking", "redacted_thinking", "fallback":
		return 0
	}
	return tok(b.node.canon())
}

// --- generation (10.3) ---

// outBlock is one response content block.
type outBlock struct {
	typ string
	// text
	text      string
	citations []citationJSON // nil: null
	// thinking: full is the text the signature and the tokens cover
	full, signature string
	omitted         bool
	// redacted_thinking
	data string
	// tool_use, server_tool_use, mcp_tool_use
	id, name, server string
	input            *jnode
	// result blocks, sent whole
	raw []byte
	// fallback
	from, to string
	// whether a client tool_use, a web search or code ran (for usage)
	search, code bool
}

// cost is the block's share of output_tokens (10.3 step 5).
func (b *outBlock) cost() int {
	switch b.typ {
	case "thinking":
		return tok(b.full)
	case "text":
		return tok(b.text)
	case "tool_use", "server_tool_use", "mcp_tool_use":
		return tok(b.name + b.input.canon())
	}
	return 0
}

// attempt is one model's go at the request (8.3: a hop).
type attempt struct {
	first     bool
	model     *model
	maxTokens int
	thinking  *thinkingCfg
	output    outputCfg
}

// attemptResult is what one attempt produced.
type attemptResult struct {
	content       []*outBlock
	stopReason    string
	stopSequence  *string
	refused       bool
	outputTokens  int
	thinkingToks  int
	searches      int
	containerUsed bool
}

// generation is one request's run of the fake model.
type generation struct {
	s         *Service
	r         *msgRequest
	d         *directives
	workspace string
	seed      [32]byte
	key       []byte
	container *containerJSON
}

// modelResult is the final message, before the id.
type modelResult struct {
	model        string
	content      []*outBlock
	stopReason   string
	stopSequence *string
	stopDetails  *stopDetailsJSON
	container    *containerJSON
	usage        msgUsageJSON
	diag         *diagnosis // nil: the request did not opt in to diagnostics
}

// runModel runs the request through its attempts (the requested model, then
// the fallbacks while attempts refuse) and returns the message. It reads
// and writes the prompt cache of each attempt's model, and starts or
// renews a container when code runs.
func (s *Service) runModel(r *msgRequest, workspace, geo string) *modelResult {
	d, _ := r.directives()
	diag := s.diagnose(r, workspace)
	g := &generation{s: s, r: r, d: d, workspace: workspace, seed: requestSeed(r.root), key: s.signingKey()}
	attempts := []attempt{{first: true, model: r.model, maxTokens: r.maxTokens, thinking: r.thinking,
		output: outputCfg{effort: r.output.effort, format: r.format()}}}
	for _, h := range r.fallbackHops() {
		attempts = append(attempts, attempt{model: h.model, maxTokens: h.maxTokens, thinking: h.thinking, output: h.output})
	}
	declaredServerTool := false
	for _, t := range r.tools {
		declaredServerTool = declaredServerTool || t.serverTool()
	}
	var handoffs []*outBlock
	var iterations []iterationJSON
	for k, a := range attempts {
		total := r.inputTokens(a.output)
		cu := s.usePromptCache(workspace, a.model.ID, r, r.segments())
		written := cu.write5m + cu.write1h
		span := r.span.startAttempt(r, a)
		res := g.attempt(a)
		usage := msgUsageJSON{
			InputTokens:              total - cu.read - written,
			CacheCreationInputTokens: written,
			CacheReadInputTokens:     cu.read,
			CacheCreation:            msgCacheCreationJSON{Ephemeral5m: cu.write5m, Ephemeral1h: cu.write1h},
			OutputTokens:             res.outputTokens,
			ServiceTier:              "standard",
			InferenceGeo:             geo,
			Speed:                    usageSpeed(r),
		}
		if a.thinking.on() {
			usage.OutputTokensDetails = &outputTokensDetailsJSON{ThinkingTokens: res.thinkingToks}
		}
		if declaredServerTool {
			usage.ServerToolUse = &msgServerToolUseJSON{WebSearchRequests: res.searches}
		}
		last := k == len(attempts)-1
		span.done(usage, res.refused && !last)
		if r.fallbacks != nil {
			typ := "message"
			if k > 0 && (last || !res.refused) {
				typ = "fallback_message"
			}
			cc := usage.CacheCreation
			iterations = append(iterations, iterationJSON{Type: typ, Model: a.model.ID, InputTokens: usage.InputTokens,
				OutputTokens: usage.OutputTokens, CacheCreationInputTokens: written, CacheReadInputTokens: cu.read, CacheCreation: &cc})
		}
		if res.refused && !last {
			from := a.model.ID
			if a.first {
				from = r.modelID
			}
			handoffs = append(handoffs, &outBlock{typ: "fallback", from: from, to: attempts[k+1].model.ID})
			continue
		}
		usage.Iterations = iterations
		out := &modelResult{model: a.model.ID, content: append(handoffs, res.content...), stopReason: res.stopReason,
			stopSequence: res.stopSequence, usage: usage}
		if a.first {
			out.model = r.modelID // the requested model string as sent
		}
		if res.refused {
			out.stopDetails = refusalDetails(d.category, r.fallbacks != nil)
		}
		if res.containerUsed {
			out.container = g.container
		}
		if d.stopReason != "" {
			out.stopReason = d.stopReason
		}
		out.diag = diag
		return out
	}
	return nil // unreachable: the last attempt always returns
}

func refusalDetails(category string, withRecommended bool) *stopDetailsJSON {
	sd := &stopDetailsJSON{Type: "refusal"}
	if category != "" {
		expl := refusalExplanations[category]
		sd.Category, sd.Explanation = &category, &expl
	}
	if withRecommended {
		sd.RecommendedModel = []byte("null")
	}
	return sd
}

// requestSeed identifies a request's content, "stream" excepted, for
// derived ids.
func requestSeed(root *jnode) [32]byte {
	return sha256.Sum256([]byte(root.without("stream").canon()))
}

const (
	thinkingPrefix     = "The user asked: "
	thinkingToolResult = "The tool returned a result."
	maxThinkingURunes  = 200
)

// attempt runs steps 1–7 of 10.3 for one model.
func (g *generation) attempt(a attempt) attemptResult {
	r, d := g.r, g.d
	if d.refuse && (a.first || d.refuseAll) {
		return attemptResult{content: []*outBlock{}, stopReason: "refusal", refused: true}
	}
	if a.maxTokens == 0 {
		return attemptResult{content: []*outBlock{}, stopReason: "max_tokens"}
	}
	var blocks []*outBlock
	effort := a.output.effort
	if a.thinking.on() && !(a.thinking.typ == "adaptive" && effort == "low") {
		text := thinkingPrefix + firstRunes(d.u, maxThinkingURunes)
		if d.u == "" && g.lastHoldsToolResults() {
			text = thinkingToolResult
		}
		if a.thinking.typ == "enabled" {
			text = firstRunes(text, a.thinking.budget*4)
		}
		blocks = append(blocks, &outBlock{typ: "thinking", full: text, omitted: a.thinking.display == "omitted"})
		if d.redact {
			sum := sha256.Sum256([]byte(text))
			blocks = append(blocks, &outBlock{typ: "redacted_thinking", data: base64.StdEncoding.EncodeToString(sum[:])})
		}
	}
	body := g.body(a)
	g.continuePrefill(body)
	blocks = append(blocks, body...)
	blocks = dropEmptyText(blocks)

	res := attemptResult{}
	// Step 4: stop sequences, in text blocks only.
	for i, b := range blocks {
		if b.typ != "text" {
			continue
		}
		at, seq := -1, ""
		for _, s := range r.stopSequences {
			if k := strings.Index(b.text, s); k >= 0 && (at < 0 || k < at) {
				at, seq = k, s
			}
		}
		if at < 0 {
			continue
		}
		b.text = b.text[:at]
		if b.text == "" {
			blocks = blocks[:i]
		} else {
			blocks = blocks[:i+1]
		}
		res.stopReason, res.stopSequence = "stop_sequence", &seq
		break
	}
	// Step 5: the token budget.
	budget, contextLimited := a.maxTokens, false
	if room := a.model.MaxInputTokens - r.inputTokens(a.output); room < budget {
		budget, contextLimited = max(room, 0), true
	}
	remaining := budget
	for i, b := range blocks {
		c := b.cost()
		if c <= remaining {
			remaining -= c
			continue
		}
		kept := blocks[:i]
		switch b.typ {
		case "thinking":
			if b.full = firstRunes(b.full, remaining*4); b.full != "" {
				kept = append(kept, b)
			}
		case "text":
			if b.text = firstRunes(b.text, remaining*4); b.text != "" {
				kept = append(kept, b)
			}
		}
		blocks = kept
		res.stopReason, res.stopSequence = "max_tokens", nil
		if contextLimited {
			res.stopReason = "model_context_window_exceeded"
		}
		break
	}
	// Steps 6 and 7.
	clientCall := false
	for _, b := range blocks {
		c := b.cost()
		res.outputTokens += c
		switch {
		case b.typ == "thinking":
			res.thinkingToks += c
			b.signature = signThinking(g.key, a.model.ID, b.full)
		case b.typ == "tool_use":
			clientCall = true
		case b.search:
			res.searches++
		case b.code:
			res.containerUsed = true
		}
	}
	if len(blocks) > 0 && res.outputTokens == 0 {
		res.outputTokens = 1
	}
	if res.stopReason == "" {
		res.stopReason = "end_turn"
		if clientCall {
			res.stopReason = "tool_use"
		}
	}
	if blocks == nil {
		blocks = []*outBlock{}
	}
	res.content = blocks
	return res
}

func dropEmptyText(blocks []*outBlock) []*outBlock {
	out := blocks[:0]
	for _, b := range blocks {
		if b.typ != "text" || b.text != "" {
			out = append(out, b)
		}
	}
	return out
}

// firstRunes returns the first n runes of s.
func firstRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// lastMessage is the conversation's last user or assistant message: the
// system messages after it add instructions, not a turn (a system message
// always follows a user message, so there is one).
func (g *generation) lastMessage() *msgParam {
	for i := len(g.r.messages) - 1; i > 0; i-- {
		if g.r.messages[i].role != "system" {
			return g.r.messages[i]
		}
	}
	return g.r.messages[0]
}

func (g *generation) lastHoldsToolResults() bool {
	l := g.lastMessage()
	for _, b := range l.content {
		if b.typ == "tool_result" {
			return true
		}
	}
	return false
}

// body is step 3 of 10.3: the first rule that applies.
func (g *generation) body(a attempt) []*outBlock {
	d := g.d
	switch {
	case d.say != nil:
		return []*outBlock{outText(*d.say)}
	case g.lastHoldsToolResults():
		return []*outBlock{outText(g.toolResultLines())}
	}
	if calls := g.selectCalls(); len(calls) > 0 {
		return g.runCalls(a, calls)
	}
	if a.output.format != nil {
		return []*outBlock{outText(synth(a.output.format).canon())}
	}
	if doc := g.r.citedDocument(); doc != nil {
		if blocks := citationBlocks(doc); blocks != nil {
			return blocks
		}
	}
	if d.u == "" {
		return []*outBlock{outText("You said nothing.")}
	}
	return []*outBlock{outText("You said: " + d.u)}
}

func outText(s string) *outBlock { return &outBlock{typ: "text", text: s} }

// toolResultLines is 10.3 step 3.2.
func (g *generation) toolResultLines() string {
	names := map[string]string{}
	for _, m := range g.r.messages {
		for _, b := range m.content {
			if b.typ == "tool_use" {
				names[b.id] = b.name
			}
		}
	}
	var lines []string
	for _, b := range g.lastMessage().content {
		if b.typ != "tool_result" {
			continue
		}
		text := b.contentStr
		if !b.strContent {
			var parts []string
			for _, c := range b.content {
				if c.typ == "text" {
					parts = append(parts, c.text)
				} else {
					parts = append(parts, "["+c.typ+"]")
				}
			}
			text = strings.Join(parts, "\n")
		}
		verb := "Result of "
		if b.isError {
			verb = "Error from "
		}
		lines = append(lines, verb+names[b.toolUseID]+": "+text)
	}
	return strings.Join(lines, "\n")
}

// continuePrefill makes the first generated text continue a prefill
// (the final assistant message) without repeating it: when the text
// starts with the prefill's text, that part is left out.
func (g *generation) continuePrefill(body []*outBlock) {
	l := g.lastMessage()
	if l.role != "assistant" {
		return
	}
	var prefill strings.Builder
	for _, b := range l.content {
		if b.typ == "text" {
			prefill.WriteString(b.text)
		}
	}
	p := prefill.String()
	for _, b := range body {
		if b.typ == "text" {
			if p != "" {
				b.text = strings.TrimPrefix(b.text, p)
			}
			return
		}
	}
}

// runeLen is the number of runes of s.
func runeLen(s string) int { return utf8.RuneCountInString(s) }
