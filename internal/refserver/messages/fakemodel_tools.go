package messages

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The fake model's tool calls (docs/messages-wire.md 10.5), schema
// synthesis (10.8) and citations (10.6).

// modelCall is one call the model decided to make.
type modelCall struct {
	at, end int      // the mention in U; at is -1 when the call is forced without one
	tool    *toolDef // nil for an MCP tool
	server  string   // MCP server
	name    string
	input   *jnode // the JSON object written after the mention, if any
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// wholeWord returns the index of the first occurrence of w in s whose
// neighbours are not in [A-Za-z0-9_-], or -1.
func wholeWord(s, w string) int {
	if w == "" {
		return -1
	}
	for from := 0; from <= len(s); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
			return i
		}
		from = i + 1
	}
	return -1
}

// jsonAfter returns the JSON object that follows position pos of s after
// spaces, or nil.
func jsonAfter(s string, pos int) *jnode {
	rest := strings.TrimLeftFunc(s[pos:], unicode.IsSpace)
	if !strings.HasPrefix(rest, "{") {
		return nil
	}
	var raw json.RawMessage
	if err := json.NewDecoder(strings.NewReader(rest)).Decode(&raw); err != nil {
		return nil
	}
	n, err := parseJSON(raw)
	if err != nil || n.kind != jObject {
		return nil
	}
	return n
}

var mcpMention = regexp.MustCompile(`mcp:([^\s/]+)/([A-Za-z0-9_-]+)`)

// selectCalls applies the candidates, mentions and tool_choice of 10.5.
func (g *generation) selectCalls() []modelCall {
	r, u := g.r, g.d.u
	choice := "auto"
	if r.toolChoice != nil {
		choice = r.toolChoice.typ
	}
	if choice == "none" {
		return nil
	}
	var mentioned []modelCall
	for _, t := range r.tools {
		if !t.invocable() {
			continue
		}
		if at := wholeWord(u, t.name); at >= 0 {
			end := at + len(t.name)
			mentioned = append(mentioned, modelCall{at: at, end: end, tool: t, name: t.name, input: jsonAfter(u, end)})
		}
	}
	seen := map[string]bool{}
	for _, m := range mcpMention.FindAllStringSubmatchIndex(u, -1) {
		if m[0] > 0 && isWordByte(u[m[0]-1]) {
			continue
		}
		server, tool := u[m[2]:m[3]], u[m[4]:m[5]]
		if seen[server+"/"+tool] || !r.mcpToolEnabled(server, tool) {
			continue
		}
		seen[server+"/"+tool] = true
		mentioned = append(mentioned, modelCall{at: m[0], end: m[1], server: server, name: tool, input: jsonAfter(u, m[1])})
	}
	slices.SortStableFunc(mentioned, func(a, b modelCall) int { return a.at - b.at })

	var calls []modelCall
	switch choice {
	case "auto":
		calls = mentioned
	case "any":
		calls = mentioned
		if len(calls) == 0 {
			for _, t := range r.tools {
				if t.invocable() {
					calls = []modelCall{{at: -1, tool: t, name: t.name}}
					break
				}
			}
		}
	case "tool":
		for _, c := range mentioned {
			if c.tool != nil && c.name == r.toolChoice.name {
				calls = []modelCall{c}
				break
			}
		}
		if t := r.toolNamed(r.toolChoice.name); calls == nil && t != nil && t.invocable() {
			calls = []modelCall{{at: -1, tool: t, name: t.name}}
		}
	}
	if r.toolChoice != nil && r.toolChoice.disableParallel && len(calls) > 1 {
		calls = calls[:1]
	}
	return calls
}

// mcpToolEnabled reports whether an MCP server's tool may be called: by its
// toolset's configs and default_config, or by the legacy
// tool_configuration.
func (r *msgRequest) mcpToolEnabled(server, tool string) bool {
	s := r.mcpServerNamed(server)
	if s == nil {
		return false
	}
	if s.legacy || r.mcpLegacy() {
		return s.enabled && (s.allowAll || slices.Contains(s.allowedTools, tool))
	}
	for _, t := range r.tools {
		if t.kind == "mcp_toolset" && t.server == server {
			if enabled, ok := t.configs[tool]; ok {
				return enabled
			}
			return t.defaultEnabled
		}
	}
	return false
}

// withoutMention is U without the call's mention, trimmed.
func (g *generation) withoutMention(c modelCall) string {
	u := g.d.u
	if c.at >= 0 {
		u = u[:c.at] + u[c.end:]
	}
	return strings.TrimSpace(u)
}

const maxQueryRunes = 100

// runCalls turns the calls into blocks: a preface under auto, client calls
// that end the turn, server and MCP calls that run inline with their
// results, and a closing text when only those ran.
func (g *generation) runCalls(a attempt, calls []modelCall) []*outBlock {
	var blocks []*outBlock
	if g.r.toolChoice == nil || g.r.toolChoice.typ == "auto" {
		names := make([]string, len(calls))
		for i, c := range calls {
			names[i] = c.name
		}
		blocks = append(blocks, outText("I'll use "+strings.Join(names, ", ")+"."))
	}
	client := false
	var closing []string
	for i, c := range calls {
		idx := strconv.Itoa(i)
		switch {
		case c.tool == nil: // MCP
			id := detID("mcptoolu_", g.seed, a.model.ID, idx)
			input := c.input
			if input == nil {
				input = jobj()
			}
			blocks = append(blocks, &outBlock{typ: "mcp_tool_use", id: id, name: c.name, server: c.server, input: input})
			blocks = append(blocks, &outBlock{typ: "mcp_tool_result", raw: mcpResult(id, c.name)})
			closing = append(closing, c.name+" returned: "+c.name+" ok")
		case c.tool.kind == "web_search":
			q := firstRunes(g.withoutMention(c), maxQueryRunes)
			id := detID("srvtoolu_", g.seed, a.model.ID, idx)
			blocks = append(blocks, &outBlock{typ: "server_tool_use", id: id, name: "web_search", input: jobj().set("query", jstr(q))})
			result, ok := g.searchResult(c.tool, id, q)
			blocks = append(blocks, result)
			if ok {
				closing = append(closing, "I found 2 results for "+q+".")
			} else {
				closing = append(closing, "The search failed: max_uses_exceeded.")
			}
		case c.tool.kind == "code_execution" || c.tool.kind == "bash_code_execution":
			code := g.withoutMention(c)
			id := detID("srvtoolu_", g.seed, a.model.ID, idx)
			g.startContainer(a)
			name, key, result, resultType := "code_execution", "code", "code_execution_tool_result", "code_execution_result"
			if c.tool.kind == "bash_code_execution" {
				name, key, result, resultType = "bash_code_execution", "command", "bash_code_execution_tool_result", "bash_code_execution_result"
			}
			blocks = append(blocks, &outBlock{typ: "server_tool_use", id: id, name: name, input: jobj().set(key, jstr(code))})
			raw := jobj().set("type", jstr(result)).set("tool_use_id", jstr(id)).set("content",
				jobj().set("type", jstr(resultType)).set("stdout", jstr(code+"\n")).set("stderr", jstr("")).
					set("return_code", jint(0)).set("content", jarr()))
			blocks = append(blocks, &outBlock{typ: result, raw: raw.compact(), code: true})
			closing = append(closing, "The code ran with exit code 0.")
		default: // a client tool
			input := c.input
			if input == nil {
				input = jobj()
				if c.tool.kind == "custom" {
					input = synth(c.tool.schema)
				}
			}
			blocks = append(blocks, &outBlock{typ: "tool_use", id: detID("toolu_", g.seed, a.model.ID, idx), name: c.name, input: input})
			client = true
		}
	}
	if !client {
		blocks = append(blocks, outText(strings.Join(closing, " ")))
	}
	return blocks
}

func mcpResult(id, name string) []byte {
	return jobj().set("type", jstr("mcp_tool_result")).set("tool_use_id", jstr(id)).set("is_error", jbool(false)).
		set("content", jarr().push(jobj().set("type", jstr("text")).set("text", jstr(name+" ok")))).compact()
}

// searchResult is a web_search_tool_result for query q: two results, or
// max_uses_exceeded when the searches already made in the assistant turn
// being continued (a pause_turn prefill) reach max_uses.
func (g *generation) searchResult(t *toolDef, id, q string) (*outBlock, bool) {
	res := jobj().set("type", jstr("web_search_tool_result")).set("tool_use_id", jstr(id))
	if t.maxUses > 0 && g.priorSearches()+1 > t.maxUses {
		res.set("content", jobj().set("type", jstr("web_search_tool_result_error")).set("error_code", jstr("max_uses_exceeded")))
		res.set("caller", jobj().set("type", jstr("direct")))
		return &outBlock{typ: "web_search_tool_result", raw: res.compact()}, false
	}
	results := jarr()
	for n := 1; n <= 2; n++ {
		ns := strconv.Itoa(n)
		results.push(jobj().set("type", jstr("web_search_result")).
			set("url", jstr("https://example.com/search/"+ns+"?q="+url.QueryEscape(q))).
			set("title", jstr("Result "+ns+" for "+q)).
			set("encrypted_content", jstr(base64.StdEncoding.EncodeToString([]byte(q+"#"+ns)))).
			set("page_age", jnull()))
	}
	res.set("content", results).set("caller", jobj().set("type", jstr("direct")))
	return &outBlock{typ: "web_search_tool_result", raw: res.compact(), search: true}, true
}

func (g *generation) priorSearches() int {
	l := g.lastMessage()
	n := 0
	if l.role == "assistant" {
		for _, b := range l.content {
			if b.typ == "server_tool_use" && b.name == "web_search" {
				n++
			}
		}
	}
	return n
}

// startContainer starts (or renews) the attempt's code-execution container:
// the request's container, or a new one derived from the request.
func (g *generation) startContainer(a attempt) {
	id := g.r.container
	if id == "" {
		id = detID("container_", g.seed, a.model.ID)
	}
	exp := g.s.touchContainer(g.workspace, id)
	skills := g.r.skills
	if skills == nil {
		skills = []containerSkill{}
	}
	g.container = &containerJSON{ID: id, ExpiresAt: kit.Timestamp(exp), Skills: skills}
}

// synth is 10.8's schema synthesis.
func synth(schema *jnode) *jnode {
	if schema == nil || schema.kind != jObject {
		return jnull()
	}
	if c := schema.get("const"); c != nil {
		return c
	}
	if e := schema.get("enum"); e != nil && e.kind == jArray && len(e.arr) > 0 {
		return e.arr[0]
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if v := schema.get(k); v != nil && v.kind == jArray && len(v.arr) > 0 {
			return synth(v.arr[0])
		}
	}
	typ := ""
	if t := schema.get("type"); t != nil {
		switch t.kind {
		case jString:
			typ = t.str
		case jArray:
			for _, x := range t.arr {
				if x.kind == jString && (typ == "" || typ == "null") {
					typ = x.str
				}
			}
		}
	}
	switch typ {
	case "object":
		out := jobj()
		required := schema.get("required")
		if required == nil || required.kind != jArray {
			return out
		}
		want := map[string]bool{}
		for _, x := range required.arr {
			if x.kind == jString {
				want[x.str] = true
			}
		}
		done := map[string]bool{}
		if props := schema.get("properties"); props != nil && props.kind == jObject {
			for _, m := range props.obj {
				if want[m.key] && !done[m.key] {
					out.set(m.key, synth(m.val))
					done[m.key] = true
				}
			}
		}
		for _, x := range required.arr {
			if x.kind == jString && !done[x.str] {
				out.set(x.str, jnull())
				done[x.str] = true
			}
		}
		return out
	case "string":
		if f := schema.get("format"); f != nil && f.kind == jString && formatExamples[f.str] != "" {
			return jstr(formatExamples[f.str])
		}
		return jstr("example")
	case "integer", "number":
		return jint(0)
	case "boolean":
		return jbool(false)
	case "array":
		out := jarr()
		if m := schema.get("minItems"); m != nil && m.kind == jNumber {
			n, _ := m.num.Int64()
			for range min(n, maxSynthItems) {
				out.push(synth(schema.get("items")))
			}
		}
		return out
	}
	return jnull()
}

// formatExamples are the strings synth writes for the string formats
// structured outputs accept, each valid for its format, so that a JSON
// output decodes into the types those formats stand for (a date-time into
// a time, say).
var formatExamples = map[string]string{
	"date-time": "1970-01-01T00:00:00Z",
	"date":      "1970-01-01",
	"time":      "00:00:00Z",
	"duration":  "P1D",
	"email":     "user@example.com",
	"hostname":  "example.com",
	"uri":       "https://example.com/",
	"ipv4":      "192.0.2.1",
	"ipv6":      "2001:db8::1",
	"uuid":      "00000000-0000-4000-8000-000000000000",
}

// maxSynthItems bounds the items synth writes for minItems.
const maxSynthItems = 16

// --- citations (10.6) ---

const maxCitedRunes = 200

// citationBlocks quotes the first sentence of the cited document, or
// returns nil when it has no text.
func citationBlocks(doc *citedDoc) []*outBlock {
	b := doc.b
	text := b.srcData
	loc := "char_location"
	if b.srcType == "content" {
		loc = "content_block_location"
		text = b.contentStr
		if !b.strContent {
			text = ""
			for _, c := range b.content {
				if c.typ == "text" {
					text = c.text
					break
				}
			}
		}
	}
	q := firstSentence(text)
	if q == "" {
		return nil
	}
	var title *string
	if t := b.node.get("title"); t != nil && t.kind == jString {
		title = &t.str
	}
	c := citationJSON{Type: loc, CitedText: q, DocumentIndex: doc.index, DocumentTitle: title, End: runeLen(q)}
	if loc == "content_block_location" {
		c.End = 1
	}
	return []*outBlock{outText("The document says: "), {typ: "text", text: q, citations: []citationJSON{c}}}
}

// firstSentence is text up to and including the first '.', '!' or '?', at
// most 200 runes.
func firstSentence(text string) string {
	n := 0
	for i, r := range text {
		if n == maxCitedRunes {
			return text[:i]
		}
		n++
		if r == '.' || r == '!' || r == '?' {
			return text[:i+1]
		}
	}
	return text
}
