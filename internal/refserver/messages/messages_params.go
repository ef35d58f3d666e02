package messages

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/agentplatform/agentplatform-go/internal/apiversion"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The Messages request (docs/messages-wire.md 2, 6) and the first pass of
// its validation: the shape of each top-level member, in body order. The
// second pass (messages_rules.go) checks the rules that relate fields to
// each other, the catalogue and the conversation.

type msgEndpoint uint8

const (
	epCreate msgEndpoint = iota // M1, M2 (and M4 after translation)
	epCount                     // M3
)

// Beta values that unlock request fields (docs/messages-wire.md 7).
const (
	betaMCP            = "mcp-client-2025-11-20"
	betaMCPNext        = "mcp-client-2026-09-15" // treated as betaMCP (question 10)
	betaMCPLegacy      = "mcp-client-2025-04-04"
	betaFiles          = "files-api-2025-04-14"
	betaFallback       = "server-side-fallback-2026-07-01"
	betaFallbackList   = "server-side-fallback-2026-06-01"
	betaStructuredOuts = "structured-outputs-2025-11-13"
)

// betaFields are request fields that other known beta values unlock and
// docs/messages-wire.md does not describe: with one of their betas they are
// accepted and ignored, without it they are unknown (its section 2.1, last
// row).
var betaFields = map[string][]string{
	"context_management": {"context-management-2025-06-27", "compact-2026-01-12", "compact-2026-09-04"},
}

type cacheMark struct {
	ttl string // "5m" or "1h"
}

type thinkingCfg struct {
	typ     string // enabled, adaptive, disabled
	budget  int
	display string // "", summarized, omitted
}

// on reports whether the model thinks (enabled or adaptive).
func (t *thinkingCfg) on() bool { return t != nil && (t.typ == "enabled" || t.typ == "adaptive") }

type toolChoice struct {
	typ             string // auto, any, tool, none
	name            string
	disableParallel bool
}

type outputCfg struct {
	effort string // "" = model default
	format *jnode // the json_schema schema, nil when unset
}

type msgMCPServer struct {
	name, url    string
	node         *jnode // for the token count, without authorization_token
	legacy       bool   // legacy tool_configuration shape
	enabled      bool   // legacy: tool_configuration.enabled
	allowedTools []string
	allowAll     bool
}

type fallbackEntry struct {
	path      string
	model     string
	maxTokens *int
	thinking  *thinkingCfg
	output    *outputCfg
}

type fallbackSpec struct {
	def     bool // "default"
	entries []fallbackEntry
}

// toolDef is one entry of tools.
type toolDef struct {
	path   string // tools.<i>.<tag>
	typ    string // wire type ("custom" for custom tools)
	kind   string // custom, client, web_search, code_execution, bash_code_execution, web_fetch, tool_search, mcp_toolset, member_toolset
	name   string
	node   *jnode
	schema *jnode // custom tools: input_schema
	cache  *cacheMark
	// web_search
	maxUses int // 0: no limit
	// mcp_toolset
	server         string
	defaultEnabled bool
	configs        map[string]bool
	// member_toolset (browser, computer): the enabled members
	members []string
}

// invocable reports whether the fake model can call the tool (10.5).
func (t *toolDef) invocable() bool {
	switch t.kind {
	case "custom", "client", "web_search", "code_execution", "bash_code_execution":
		return true
	}
	return false
}

// serverTool reports whether the tool is a server tool (usage.server_tool_use).
func (t *toolDef) serverTool() bool {
	switch t.kind {
	case "web_search", "code_execution", "bash_code_execution", "web_fetch", "tool_search":
		return true
	}
	return false
}

type fixedTool struct{ name, kind string }

// fixedTools are the tool types with a fixed name (docs/messages-wire.md
// 2.3.2).
var fixedTools = map[string]fixedTool{
	"web_search_20250305":             {"web_search", "web_search"},
	"web_search_20260209":             {"web_search", "web_search"},
	"web_search_20260318":             {"web_search", "web_search"},
	"code_execution_20250522":         {"code_execution", "code_execution"},
	"code_execution_20250825":         {"code_execution", "bash_code_execution"},
	"code_execution_20260120":         {"code_execution", "bash_code_execution"},
	"code_execution_20260521":         {"code_execution", "bash_code_execution"},
	"web_fetch_20250910":              {"web_fetch", "web_fetch"},
	"web_fetch_20260209":              {"web_fetch", "web_fetch"},
	"web_fetch_20260309":              {"web_fetch", "web_fetch"},
	"web_fetch_20260318":              {"web_fetch", "web_fetch"},
	"tool_search_tool_regex_20251119": {"tool_search_tool_regex", "tool_search"},
	"tool_search_tool_bm25_20251119":  {"tool_search_tool_bm25", "tool_search"},
	"tool_search_tool_regex":          {"tool_search_tool_regex", "tool_search"},
	"tool_search_tool_bm25":           {"tool_search_tool_bm25", "tool_search"},
	"memory_20250818":                 {"memory", "client"},
	"bash_20250124":                   {"bash", "client"},
	"text_editor_20250124":            {"str_replace_editor", "client"},
	"text_editor_20250429":            {"str_replace_based_edit_tool", "client"},
	"text_editor_20250728":            {"str_replace_based_edit_tool", "client"},
}

// toolTags is the order the union-tag message lists tool types in.
var toolTags = []string{"custom", "web_search_20250305", "web_search_20260209", "web_search_20260318",
	"code_execution_20250522", "code_execution_20250825", "code_execution_20260120", "code_execution_20260521",
	"web_fetch_20250910", "web_fetch_20260209", "web_fetch_20260309", "web_fetch_20260318",
	"tool_search_tool_regex_20251119", "tool_search_tool_bm25_20251119", "tool_search_tool_regex", "tool_search_tool_bm25",
	"memory_20250818", "bash_20250124", "text_editor_20250124", "text_editor_20250429", "text_editor_20250728",
	"browser_toolset_20260801", "computer_toolset_20260801"}

type msgParam struct {
	index     int
	role      string
	content   []*block
	shorthand bool // content was a string
	str       string
}

// msgRequest is a parsed Messages request.
type msgRequest struct {
	ep      msgEndpoint
	betas   map[string]bool
	version string // the API version whose rules apply (docs/api-versions.md)
	root    *jnode

	pos    map[string]int  // top-level key → its member index
	parsed map[string]bool // keys whose shape is valid

	modelID       string
	model         *model // resolved in pass 2
	maxTokens     int
	messages      []*msgParam
	system        []*block
	tools         []*toolDef
	toolChoice    *toolChoice
	mcpServers    []*msgMCPServer
	temperature   *float64
	topP          *float64
	topK          *int
	stopSequences []string
	thinking      *thinkingCfg
	output        outputCfg
	outputSet     bool // output_config.format was set
	outputFormat  *jnode
	serviceTier   string
	inferenceGeo  string // the request's, "" when omitted or null
	cacheControl  *cacheMark
	container     string           // the container id to reuse, "" for a new one
	skills        []containerSkill // container.skills, in request order
	speed         string           // "", standard or fast
	diagnostics   *diagnosticsReq  // nil: the request did not opt in
	stream        bool
	fallbacks     *fallbackSpec

	span *messageSpan // vendor.messages.create's span state (tracing_messages.go); nil: none

	// computed once, by the fake model
	sigKey     []byte
	dirs       *directives
	segs       *promptSegments
	baseTokens int
}

func (r *msgRequest) has(key string) bool { _, ok := r.pos[key]; return ok }

// format is the JSON output schema in force (output_config.format, or the
// legacy output_format).
func (r *msgRequest) format() *jnode {
	if r.output.format != nil {
		return r.output.format
	}
	return r.outputFormat
}

func (r *msgRequest) mcpBeta() bool    { return r.betas[betaMCP] || r.betas[betaMCPNext] }
func (r *msgRequest) mcpLegacy() bool  { return r.betas[betaMCPLegacy] && !r.mcpBeta() }
func (r *msgRequest) anyMCPBeta() bool { return r.mcpBeta() || r.betas[betaMCPLegacy] }
func (r *msgRequest) fallbackBeta() bool {
	return r.betas[betaFallback] || r.betas[betaFallbackList]
}

// shapeError is the first shape error and the member index it belongs to.
type shapeError struct {
	pos int
	err error
}

// parseMsgRequest runs pass 1: it walks the top-level members in body
// order and stops at the first whose shape is wrong. Missing required keys
// are reported after every member (position len(members)).
func parseMsgRequest(root *jnode, ep msgEndpoint, betas map[string]bool, version string) (*msgRequest, *shapeError) {
	r := &msgRequest{ep: ep, betas: betas, version: version, root: root, pos: map[string]int{}, parsed: map[string]bool{}}
	if root.kind != jObject {
		return r, &shapeError{pos: 0, err: pyErr("", "Input should be a valid dictionary")}
	}
	fields := r.topFields()
	for i, m := range root.obj {
		r.pos[m.key] = i
		fn, ok := fields[m.key]
		if !ok {
			return r, &shapeError{pos: i, err: errExtra(m.key)}
		}
		if err := fn(m.key, m.val); err != nil {
			return r, &shapeError{pos: i, err: err}
		}
		r.parsed[m.key] = true
	}
	required := []string{"model", "messages"}
	if ep == epCreate {
		required = []string{"model", "max_tokens", "messages"}
	}
	for _, k := range required {
		if !r.has(k) {
			return r, &shapeError{pos: len(root.obj), err: errRequired(k)}
		}
	}
	return r, nil
}

func (r *msgRequest) topFields() map[string]fieldFunc {
	f := map[string]fieldFunc{
		"model":         r.fModel,
		"messages":      r.fMessages,
		"system":        r.fSystem,
		"tools":         r.fTools,
		"tool_choice":   r.fToolChoice,
		"thinking":      r.fThinking,
		"output_config": r.fOutputConfig,
		"cache_control": nullable(func(p string, v *jnode) error {
			cm, err := parseCacheControl(p, v)
			r.cacheControl = cm
			return err
		}),
	}
	if r.anyMCPBeta() {
		f["mcp_servers"] = r.fMCPServers
	}
	f["speed"] = func(p string, v *jnode) error {
		s, err := readEnum(p, v, "standard", "fast")
		r.speed = s
		return err
	}
	for field, betas := range betaFields {
		for _, b := range betas {
			if r.betas[b] {
				f[field] = anyValue
			}
		}
	}
	if r.ep == epCount {
		if r.betas[betaStructuredOuts] {
			f["output_format"] = r.fOutputFormat
		}
		return f
	}
	f["max_tokens"] = r.fMaxTokens
	f["output_format"] = r.fOutputFormat
	if apiversion.SamplingParams(r.version) {
		r.samplingFields(f)
	}
	f["stop_sequences"] = r.fStopSequences
	f["service_tier"] = func(p string, v *jnode) error {
		s, err := readEnum(p, v, "auto", "standard_only")
		r.serviceTier = s
		return err
	}
	f["metadata"] = func(p string, v *jnode) error {
		return walkObject(p, v, map[string]fieldFunc{"user_id": nullable(func(p string, v *jnode) error {
			_, err := readStrLen(p, v, 0, 512)
			return err
		})})
	}
	f["inference_geo"] = nullable(func(p string, v *jnode) error {
		s, err := readEnum(p, v, kit.InferenceGeos...)
		r.inferenceGeo = s
		return err
	})
	f["container"] = nullable(r.fContainer)
	f["diagnostics"] = nullable(r.fDiagnostics)
	f["stream"] = func(p string, v *jnode) error {
		b, err := readBool(p, v)
		r.stream = b
		return err
	}
	if r.fallbackBeta() {
		f["fallbacks"] = r.fFallbacks
	}
	return f
}

// samplingFields adds temperature, top_p and top_k, which the versions
// before 2026-10-21 accept; from 2026-10-21 on they are unknown fields,
// refused whatever their value (docs/api-versions.md).
func (r *msgRequest) samplingFields(f map[string]fieldFunc) {
	f["temperature"] = func(p string, v *jnode) error {
		x, err := readRange(p, v, 0, 1)
		r.temperature = &x
		return err
	}
	f["top_p"] = func(p string, v *jnode) error {
		x, err := readRange(p, v, 0, 1)
		r.topP = &x
		return err
	}
	f["top_k"] = func(p string, v *jnode) error {
		k, err := readInt(p, v)
		if err == nil && k < 0 {
			err = pyErr(p, "Input should be greater than or equal to 0")
		}
		r.topK = &k
		return err
	}
}

func readRange(p string, v *jnode, lo, hi float64) (float64, error) {
	x, err := readNumber(p, v)
	if err != nil {
		return 0, err
	}
	if x < lo {
		return 0, pyErr(p, "Input should be greater than or equal to %s", fmtNum(lo))
	}
	if x > hi {
		return 0, pyErr(p, "Input should be less than or equal to %s", fmtNum(hi))
	}
	return x, nil
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func (r *msgRequest) fModel(p string, v *jnode) error {
	s, err := readString(p, v)
	r.modelID = s
	return err
}

func (r *msgRequest) fMaxTokens(p string, v *jnode) error {
	n, err := readInt(p, v)
	if err != nil {
		return err
	}
	if n < 0 {
		return pyErr(p, "Input should be greater than or equal to 0")
	}
	r.maxTokens = n
	return nil
}

const maxMessages = 100000

func (r *msgRequest) fMessages(p string, v *jnode) error {
	items, err := readList(p, v)
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return errMinItems(p, 0)
	}
	if len(items) > maxMessages {
		return errMaxItems(p, maxMessages, len(items))
	}
	r.messages = make([]*msgParam, 0, len(items))
	for i, it := range items {
		mp := joinPath(p, i)
		m := &msgParam{index: i}
		// A system message holds text blocks only, refused as the system
		// field refuses other blocks, wherever role sits in the object.
		system := jstrOf(it.get("role")) == "system"
		err := walkObject(mp, it, map[string]fieldFunc{
			"role": func(p string, v *jnode) error {
				s, err := readEnum(p, v, "user", "assistant", "system")
				m.role = s
				return err
			},
			"content": func(p string, v *jnode) error {
				blocks, shorthand, err := r.parseContent(p, v, system)
				m.content, m.shorthand = blocks, shorthand
				if shorthand {
					m.str = v.str
				}
				return err
			},
		}, "role", "content")
		if err != nil {
			return err
		}
		r.messages = append(r.messages, m)
	}
	return nil
}

func (r *msgRequest) fSystem(p string, v *jnode) error {
	if v.kind == jString {
		r.system = []*block{{typ: "text", text: v.str, node: jobj().set("type", jstr("text")).set("text", v), path: p}}
		return nil
	}
	items, err := readList(p, v)
	if err != nil {
		return err
	}
	r.system = nil
	for i, it := range items {
		b, err := r.parseBlock(joinPath(p, i), it, []string{"text"})
		if err != nil {
			return err
		}
		r.system = append(r.system, b)
	}
	return nil
}

const maxStopSequences = 16

func (r *msgRequest) fStopSequences(p string, v *jnode) error {
	items, err := readList(p, v)
	if err != nil {
		return err
	}
	if len(items) > maxStopSequences {
		return errMaxItems(p, maxStopSequences, len(items))
	}
	r.stopSequences = nil
	for i, it := range items {
		s, err := readString(joinPath(p, i), it)
		if err != nil {
			return err
		}
		if strings.TrimFunc(s, unicode.IsSpace) == "" {
			return pyErr(joinPath(p, i), "must contain a non-whitespace character")
		}
		r.stopSequences = append(r.stopSequences, s)
	}
	return nil
}

func parseCacheControl(p string, v *jnode) (*cacheMark, error) {
	cm := &cacheMark{ttl: "5m"}
	err := walkObject(p, v, map[string]fieldFunc{
		"type": func(p string, v *jnode) error { _, err := readEnum(p, v, "ephemeral"); return err },
		"ttl": func(p string, v *jnode) error {
			s, err := readEnum(p, v, "5m", "1h")
			cm.ttl = s
			return err
		},
	}, "type")
	if err != nil {
		return nil, err
	}
	return cm, nil
}

// --- thinking, tool_choice, output_config ---

func parseThinking(p string, v *jnode) (*thinkingCfg, error) {
	if err := readObject(p, v); err != nil {
		return nil, err
	}
	tag, err := unionTag(p, v, "enabled", "adaptive", "disabled")
	if err != nil {
		return nil, err
	}
	t := &thinkingCfg{typ: tag}
	vp := joinPath(p, tag)
	display := func(p string, v *jnode) error {
		s, err := readEnum(p, v, "summarized", "omitted")
		t.display = s
		return err
	}
	typeField := fieldFunc(nil)
	switch tag {
	case "enabled":
		err = walkObject(vp, v, map[string]fieldFunc{"type": typeField, "display": nullable(display),
			"budget_tokens": func(p string, v *jnode) error {
				n, err := readInt(p, v)
				if err == nil && n < 1024 {
					err = pyErr(p, "Input should be greater than or equal to 1024")
				}
				t.budget = n
				return err
			}}, "budget_tokens")
	case "adaptive":
		err = walkObject(vp, v, map[string]fieldFunc{"type": typeField, "display": nullable(display)})
	default:
		err = walkObject(vp, v, map[string]fieldFunc{"type": typeField})
	}
	return t, err
}

// unionTag reads the type of a tagged union member.
func unionTag(p string, v *jnode, tags ...string) (string, error) {
	tv := v.get("type")
	if tv == nil || tv.kind != jString {
		return "", pyErr(p, "Unable to extract tag using discriminator 'type'")
	}
	for _, t := range tags {
		if tv.str == t {
			return t, nil
		}
	}
	return "", errTag(p, tv.str, tags)
}

func (r *msgRequest) fThinking(p string, v *jnode) error {
	t, err := parseThinking(p, v)
	r.thinking = t
	return err
}

func (r *msgRequest) fToolChoice(p string, v *jnode) error {
	if err := readObject(p, v); err != nil {
		return err
	}
	tag, err := unionTag(p, v, "auto", "any", "tool", "none")
	if err != nil {
		return err
	}
	tc := &toolChoice{typ: tag}
	r.toolChoice = tc
	vp := joinPath(p, tag)
	fields := map[string]fieldFunc{"type": nil}
	if tag != "none" {
		fields["disable_parallel_tool_use"] = func(p string, v *jnode) error {
			b, err := readBool(p, v)
			tc.disableParallel = b
			return err
		}
	}
	if tag == "tool" {
		fields["name"] = func(p string, v *jnode) error {
			s, err := readString(p, v)
			tc.name = s
			return err
		}
		return walkObject(vp, v, fields, "name")
	}
	return walkObject(vp, v, fields)
}

func parseOutputConfig(p string, v *jnode) (*outputCfg, error) {
	oc := &outputCfg{}
	err := walkObject(p, v, map[string]fieldFunc{
		"effort": nullable(func(p string, v *jnode) error {
			s, err := readEnum(p, v, "low", "medium", "high", "xhigh", "max")
			oc.effort = s
			return err
		}),
		"format": nullable(func(p string, v *jnode) error {
			schema, err := parseFormat(p, v)
			oc.format = schema
			return err
		}),
	})
	return oc, err
}

func (r *msgRequest) fOutputConfig(p string, v *jnode) error {
	oc, err := parseOutputConfig(p, v)
	if oc != nil {
		r.output = *oc
		r.outputSet = oc.format != nil
	}
	return err
}

// parseFormat reads {"type":"json_schema","schema":{…}} and returns the
// schema.
func parseFormat(p string, v *jnode) (*jnode, error) {
	var schema *jnode
	err := walkObject(p, v, map[string]fieldFunc{
		"type": func(p string, v *jnode) error { _, err := readEnum(p, v, "json_schema"); return err },
		"schema": func(p string, v *jnode) error {
			schema = v
			return readObject(p, v)
		},
	}, "type", "schema")
	return schema, err
}

func (r *msgRequest) fOutputFormat(p string, v *jnode) error {
	schema, err := parseFormat(p, v)
	r.outputFormat = schema
	return err
}
