package messages

import (
	"encoding/base64"
	"regexp"
)

// Content blocks in Messages requests (docs/messages-wire.md 3): a union
// on type. Field errors name the variant in the path, as the real API does
// (messages.0.content.1.image.source.base64.media_type).

// block is one parsed request content block.
type block struct {
	typ   string
	path  string // messages.<i>.content.<j> (or the content path of a string)
	node  *jnode
	cache *cacheMark
	// text
	text      string
	textCites int // text: how many citations the block carries
	// tool_use, server_tool_use, mcp_tool_use
	id, name, server string
	input            *jnode
	// tool_result, mcp_tool_result
	toolUseID  string
	isError    bool
	content    []*block
	contentStr string // a string content (shorthand)
	strContent bool
	// thinking, redacted_thinking
	thinking, signature string
	// image, document
	srcType, srcData string
	title, context   string
	citations        bool // document citations.enabled
	// search_result
	source string
	// fallback
	toModel string
}

// Tags accepted in message content; the beta ones are added when their
// beta is sent.
var contentTags = []string{"text", "image", "document", "search_result", "tool_use", "tool_result",
	"thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result", "code_execution_tool_result",
	"bash_code_execution_tool_result", "text_editor_code_execution_tool_result", "web_fetch_tool_result",
	"tool_search_tool_result", "container_upload"}

// uncheckedBlocks are accepted back without checks (docs/messages-wire.md
// 3.1).
var uncheckedBlocks = map[string]bool{"text_editor_code_execution_tool_result": true, "web_fetch_tool_result": true,
	"tool_search_tool_result": true, "container_upload": true}

// noCacheControl are the blocks that cannot be cache breakpoints (3.1).
var noCacheControl = map[string]bool{"thinking": true, "redacted_thinking": true, "fallback": true}

func (r *msgRequest) messageTags() []string {
	tags := contentTags
	if r.mcpBeta() || r.betas[betaMCPLegacy] {
		tags = append(append([]string{}, tags...), "mcp_tool_use", "mcp_tool_result")
	}
	if r.fallbackBeta() {
		tags = append(append([]string{}, tags...), "fallback")
	}
	return tags
}

var (
	resultContentTags  = []string{"text", "image", "document", "search_result", "tool_reference", "browser_state"}
	docContentTags     = []string{"text", "image"}
	textOnly           = []string{"text"}
	toolUseIDPattern   = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	imageMediaTypes    = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}
	serverToolUseNames = []string{"web_search", "web_fetch", "code_execution", "bash_code_execution", "text_editor_code_execution", "tool_search_tool_regex", "tool_search_tool_bm25"}
	maxToolUseIDLength = 256
)

// parseContent reads a message's content: a string (shorthand for one text
// block) or a list of blocks (text blocks only in a system message).
func (r *msgRequest) parseContent(p string, v *jnode, system bool) ([]*block, bool, error) {
	if v.kind == jString {
		if v.str == "" {
			return nil, true, nil
		}
		return []*block{{typ: "text", text: v.str, path: p, node: jobj().set("type", jstr("text")).set("text", v)}}, true, nil
	}
	tags := r.messageTags()
	if system {
		tags = textOnly
	}
	blocks, err := r.parseBlocks(p, v, tags)
	return blocks, false, err
}

func (r *msgRequest) parseBlocks(p string, v *jnode, tags []string) ([]*block, error) {
	items, err := readList(p, v)
	if err != nil {
		return nil, err
	}
	out := make([]*block, 0, len(items))
	for j, it := range items {
		b, err := r.parseBlock(joinPath(p, j), it, tags)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func readToolUseID(p string, v *jnode) (string, error) {
	s, err := readStrLen(p, v, 1, maxToolUseIDLength)
	if err == nil && !toolUseIDPattern.MatchString(s) {
		err = pyErr(p, "String should match pattern '%s'", toolUseIDPattern)
	}
	return s, err
}

// parseBlock reads one block whose type must be one of tags.
func (r *msgRequest) parseBlock(p string, v *jnode, tags []string) (*block, error) {
	if err := readObject(p, v); err != nil {
		return nil, err
	}
	tag, err := unionTag(p, v, tags...)
	if err != nil {
		return nil, err
	}
	b := &block{typ: tag, path: p, node: v}
	vp := joinPath(p, tag)
	if uncheckedBlocks[tag] {
		if cc := v.get("cache_control"); cc != nil && cc.kind != jNull {
			cm, err := parseCacheControl(joinPath(vp, "cache_control"), cc)
			b.cache = cm
			return b, err
		}
		return b, nil
	}
	f := map[string]fieldFunc{"type": nil}
	if !noCacheControl[tag] {
		f["cache_control"] = nullable(func(p string, v *jnode) error {
			cm, err := parseCacheControl(p, v)
			b.cache = cm
			return err
		})
	}
	str := func(dst *string) fieldFunc {
		return func(p string, v *jnode) error { s, err := readString(p, v); *dst = s; return err }
	}
	id := func(dst *string) fieldFunc {
		return func(p string, v *jnode) error { s, err := readToolUseID(p, v); *dst = s; return err }
	}
	input := func(p string, v *jnode) error { b.input = v; return readObject(p, v) }
	var required []string
	switch tag {
	case "text":
		f["text"] = str(&b.text)
		f["citations"] = nullable(func(p string, v *jnode) error {
			b.textCites = len(v.arr)
			return isListOf(isObject)(p, v)
		})
		required = []string{"text"}
	case "image":
		f["source"] = r.imageSource(b)
		f["transformations"] = nullable(func(p string, v *jnode) error {
			return walkObject(p, v, map[string]fieldFunc{"oversized_image": nullable(func(p string, v *jnode) error {
				_, err := readEnum(p, v, "downsize", "error")
				return err
			})})
		})
		required = []string{"source"}
	case "document":
		f["source"] = r.documentSource(b)
		f["title"] = nullable(str(&b.title))
		f["context"] = nullable(str(&b.context))
		f["citations"] = nullable(func(p string, v *jnode) error {
			return walkObject(p, v, map[string]fieldFunc{"enabled": func(p string, v *jnode) error {
				e, err := readBool(p, v)
				b.citations = e
				return err
			}})
		})
		required = []string{"source"}
	case "search_result":
		f["source"] = str(&b.source)
		f["title"] = str(&b.title)
		f["content"] = func(p string, v *jnode) error {
			blocks, err := r.parseBlocks(p, v, textOnly)
			b.content = blocks
			return err
		}
		f["citations"] = func(p string, v *jnode) error {
			return walkObject(p, v, map[string]fieldFunc{"enabled": isBool})
		}
		required = []string{"source", "title", "content"}
	case "tool_use":
		f["id"], f["name"], f["input"], f["caller"] = id(&b.id), str(&b.name), input, isObject
		f["toolset_name"] = nullable(isString)
		required = []string{"id", "name", "input"}
	case "server_tool_use":
		f["id"], f["input"], f["caller"] = id(&b.id), input, isObject
		f["name"] = func(p string, v *jnode) error {
			s, err := readEnum(p, v, serverToolUseNames...)
			b.name = s
			return err
		}
		required = []string{"id", "name", "input"}
	case "mcp_tool_use":
		f["id"], f["name"], f["server_name"], f["input"] = id(&b.id), str(&b.name), str(&b.server), input
		required = []string{"id", "name", "server_name", "input"}
	case "tool_result":
		f["tool_use_id"] = id(&b.toolUseID)
		f["is_error"] = func(p string, v *jnode) error { e, err := readBool(p, v); b.isError = e; return err }
		f["content"] = r.resultContent(b, resultContentTags)
		f["toolset_name"] = nullable(isString)
		required = []string{"tool_use_id"}
	case "tool_reference":
		f["tool_name"] = str(&b.name)
		required = []string{"tool_name"}
	case "browser_state":
		f["tabs"] = isListOf(func(p string, v *jnode) error {
			return walkObject(p, v, map[string]fieldFunc{"tab_id": isString, "title": isString, "url": isString,
				"active": nullable(isBool)}, "tab_id", "title", "url")
		})
		f["state_changes"] = nullable(isListOf(browserStateChange))
		required = []string{"tabs"}
	case "mcp_tool_result":
		f["tool_use_id"] = id(&b.toolUseID)
		f["is_error"] = func(p string, v *jnode) error { e, err := readBool(p, v); b.isError = e; return err }
		f["content"] = r.resultContent(b, textOnly)
		required = []string{"tool_use_id"}
	case "web_search_tool_result":
		f["tool_use_id"], f["caller"] = id(&b.toolUseID), isObject
		f["content"] = func(p string, v *jnode) error {
			if v.kind == jObject {
				return nil
			}
			return isListOf(isObject)(p, v)
		}
		required = []string{"tool_use_id", "content"}
	case "code_execution_tool_result", "bash_code_execution_tool_result":
		f["tool_use_id"], f["content"] = id(&b.toolUseID), isObject
		required = []string{"tool_use_id", "content"}
	case "thinking":
		f["thinking"], f["signature"] = str(&b.thinking), str(&b.signature)
		required = []string{"thinking", "signature"}
	case "redacted_thinking":
		f["data"] = isString
		required = []string{"data"}
	case "fallback":
		model := func(dst *string) fieldFunc {
			return func(p string, v *jnode) error {
				return walkObject(p, v, map[string]fieldFunc{"model": str(dst)}, "model")
			}
		}
		var from string
		f["from"], f["to"] = model(&from), model(&b.toModel)
		required = []string{"from", "to"}
	}
	return b, walkObject(vp, v, f, required...)
}

// browserStateChange checks one change of a browser_state block: a union
// on type.
func browserStateChange(p string, v *jnode) error {
	if err := readObject(p, v); err != nil {
		return err
	}
	tag, err := unionTag(p, v, "tab_opened", "download_started", "download_completed", "download_failed")
	if err != nil {
		return err
	}
	f := map[string]fieldFunc{"type": nil}
	required := []string{"download_id", "url"}
	switch tag {
	case "tab_opened":
		f["tab_id"], required = isString, []string{"tab_id"}
	case "download_started":
		f["download_id"], f["url"] = isString, isString
	case "download_completed":
		f["download_id"], f["url"], f["path"], f["size_bytes"] = isString, isString, nullable(isString), nullable(func(p string, v *jnode) error { _, err := readInt(p, v); return err })
	case "download_failed":
		f["download_id"], f["url"], f["error"] = isString, isString, nullable(isString)
	}
	return walkObject(joinPath(p, tag), v, f, required...)
}

// resultContent reads tool_result content: a string or blocks of tags.
func (r *msgRequest) resultContent(b *block, tags []string) fieldFunc {
	return func(p string, v *jnode) error {
		if v.kind == jString {
			b.contentStr, b.strContent = v.str, true
			return nil
		}
		if v.kind != jArray {
			return errType(p, jList)
		}
		blocks, err := r.parseBlocks(p, v, tags)
		b.content = blocks
		return err
	}
}

func (r *msgRequest) sourceTags(tags ...string) []string {
	if r.betas[betaFiles] {
		return append(tags, "file")
	}
	return tags
}

func base64Data(b *block) fieldFunc {
	return func(p string, v *jnode) error {
		s, err := readString(p, v)
		if err != nil {
			return err
		}
		if _, err := base64.StdEncoding.DecodeString(s); err != nil {
			return pyErr(p, "must be base64")
		}
		b.srcData = s
		return nil
	}
}

func (r *msgRequest) imageSource(b *block) fieldFunc {
	return func(p string, v *jnode) error {
		if err := readObject(p, v); err != nil {
			return err
		}
		tag, err := unionTag(p, v, r.sourceTags("base64", "url")...)
		if err != nil {
			return err
		}
		b.srcType = tag
		vp := joinPath(p, tag)
		switch tag {
		case "base64":
			return walkObject(vp, v, map[string]fieldFunc{"type": nil,
				"media_type": func(p string, v *jnode) error { _, err := readEnum(p, v, imageMediaTypes...); return err },
				"data":       base64Data(b)}, "media_type", "data")
		case "url":
			return walkObject(vp, v, map[string]fieldFunc{"type": nil, "url": isString}, "url")
		}
		return walkObject(vp, v, map[string]fieldFunc{"type": nil, "file_id": isString}, "file_id")
	}
}

func (r *msgRequest) documentSource(b *block) fieldFunc {
	return func(p string, v *jnode) error {
		if err := readObject(p, v); err != nil {
			return err
		}
		tag, err := unionTag(p, v, r.sourceTags("base64", "text", "content", "url")...)
		if err != nil {
			return err
		}
		b.srcType = tag
		vp := joinPath(p, tag)
		switch tag {
		case "base64":
			return walkObject(vp, v, map[string]fieldFunc{"type": nil,
				"media_type": func(p string, v *jnode) error { _, err := readEnum(p, v, "application/pdf"); return err },
				"data":       base64Data(b)}, "media_type", "data")
		case "text":
			return walkObject(vp, v, map[string]fieldFunc{"type": nil,
				"media_type": func(p string, v *jnode) error { _, err := readEnum(p, v, "text/plain"); return err },
				"data":       func(p string, v *jnode) error { s, err := readString(p, v); b.srcData = s; return err },
			}, "media_type", "data")
		case "content":
			return walkObject(vp, v, map[string]fieldFunc{"type": nil,
				"content": func(p string, v *jnode) error {
					if v.kind == jString {
						b.contentStr, b.strContent = v.str, true
						return nil
					}
					if v.kind != jArray {
						return errType(p, jList)
					}
					blocks, err := r.parseBlocks(p, v, docContentTags)
					b.content = blocks
					return err
				}}, "content")
		case "url":
			return walkObject(vp, v, map[string]fieldFunc{"type": nil, "url": isString}, "url")
		}
		return walkObject(vp, v, map[string]fieldFunc{"type": nil, "file_id": isString}, "file_id")
	}
}
