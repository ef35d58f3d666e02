package refserver

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"

	"github.com/agentplatform/agentplatform-go/tracing"
)

// Content mode (SPEC 6.3; docs/tracing.md, "Content mode"): messages as
// JSON strings in the OpenTelemetry GenAI message format. A message is
// {role, parts}, an output message adds finish_reason; system instructions
// are a list of parts. Blocks map as:
//
//	text                         {type: text, content}
//	tool_use, server_tool_use    {type: tool_call, id, name, arguments}
//	mcp_tool_use                 the same, plus vendor_mcp_server_name
//	tool_result, *_tool_result   {type: tool_call_response, id, response}: the
//	                             text or the parts of the blocks of a
//	                             tool_result or mcp_tool_result, a server
//	                             tool result's content as it is
//	thinking                     {type: reasoning, content}, no signature;
//	                             left out on managed-agent spans
//	any other block              {type: vendor_<type>, its other members}
//
// The server keeps its own mapping, on the parsed JSON it already has
// (jnode), with the rules and the truncation the SDK documents.

// contentLimit is the largest content attribute, in bytes of JSON: 64 KiB,
// or the OpenTelemetry attribute length limit of the environment when that
// is lower (the server's TracerProvider applies it, and would cut an
// attribute mid-token), at least 1 KiB.
var contentLimit = sync.OnceValue(func() int {
	v := os.Getenv("OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT")
	if v == "" {
		v = os.Getenv("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT")
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < maxContentBytes {
		return max(n, 1<<10)
	}
	return maxContentBytes
})

const (
	maxContentBytes = 64 << 10
	// minCut is the length up to which strings are never cut: ids,
	// names, roles and part types stay whole.
	minCut   = 64
	ellipsis = "…"
)

// jstrOf is a string node's value, "" for anything else.
func jstrOf(n *jnode) string {
	if n == nil || n.kind != jString {
		return ""
	}
	return n.str
}

func textPart(text string) *jnode {
	return jobj().set("type", jstr("text")).set("content", jstr(text))
}

// toolCallPart is a tool call; a call without input has the arguments {}.
func toolCallPart(id, name string, args *jnode) *jnode {
	if args.isNull() {
		args = jobj()
	}
	return jobj().set("type", jstr("tool_call")).set("id", jstr(id)).set("name", jstr(name)).set("arguments", args)
}

func toolResponsePart(id string, response *jnode) *jnode {
	return jobj().set("type", jstr("tool_call_response")).set("id", jstr(id)).set("response", orNull(response))
}

func genaiMessage(role string, parts *jnode) *jnode {
	return jobj().set("role", jstr(role)).set("parts", parts)
}

func isToolResult(typ string) bool {
	return typ == "tool_result" || strings.HasSuffix(typ, "_tool_result")
}

// toolResponse is the response of a tool result block: the text or the
// blocks' parts of a tool_result or mcp_tool_result, a server tool
// result's content as it is.
func toolResponse(b *jnode, reasoning bool) *jnode {
	c := b.get("content")
	if t := jstrOf(b.get("type")); (t == "tool_result" || t == "mcp_tool_result") && c != nil && c.kind == jArray {
		return genaiParts(c, reasoning)
	}
	return c
}

// genaiPart maps one content block; nil drops it (thinking without
// reasoning).
func genaiPart(b *jnode, reasoning bool) *jnode {
	typ := jstrOf(b.get("type"))
	switch {
	case typ == "text":
		return textPart(jstrOf(b.get("text")))
	case typ == "thinking":
		if !reasoning {
			return nil
		}
		return jobj().set("type", jstr("reasoning")).set("content", jstr(jstrOf(b.get("thinking"))))
	case typ == "tool_use" || typ == "server_tool_use":
		return toolCallPart(jstrOf(b.get("id")), jstrOf(b.get("name")), b.get("input"))
	case typ == "mcp_tool_use":
		return toolCallPart(jstrOf(b.get("id")), jstrOf(b.get("name")), b.get("input")).
			set("vendor_mcp_server_name", jstr(jstrOf(b.get("server_name"))))
	case isToolResult(typ):
		return toolResponsePart(jstrOf(b.get("tool_use_id")), toolResponse(b, reasoning))
	}
	p := jobj().set("type", jstr("vendor_"+typ))
	if b != nil {
		for _, m := range b.obj {
			if m.key != "type" {
				p.set(m.key, m.val)
			}
		}
	}
	return p
}

// genaiParts maps a content value: a string (one text part) or a list of
// blocks.
func genaiParts(content *jnode, reasoning bool) *jnode {
	parts := jarr()
	switch {
	case content == nil:
	case content.kind == jString:
		parts.push(textPart(content.str))
	case content.kind == jArray:
		for _, b := range content.arr {
			if p := genaiPart(b, reasoning); p != nil {
				parts.push(p)
			}
		}
	}
	return parts
}

// genaiInputMessages maps a Messages request's messages.
func genaiInputMessages(messages *jnode) *jnode {
	out := jarr()
	if messages == nil {
		return out
	}
	for _, m := range messages.arr {
		out.push(genaiMessage(jstrOf(m.get("role")), genaiParts(m.get("content"), true)))
	}
	return out
}

// genaiFinishReason is a stop reason as a GenAI finish reason: the
// convention's value where one means the same, else the stop reason itself.
func genaiFinishReason(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence":
		return "stop"
	case "max_tokens", "model_context_window_exceeded":
		return "length"
	case "tool_use":
		return "tool_call"
	case "refusal":
		return "content_filter"
	case "":
		return "error"
	}
	return stop
}

// contentAttrs collects content attributes and whether one was cut.
type contentAttrs struct {
	attrs     []attribute.KeyValue
	truncated bool
}

func (ca *contentAttrs) add(key attribute.Key, v *jnode) {
	s, cut := fitContent(v, contentLimit())
	ca.attrs = append(ca.attrs, key.String(s))
	ca.truncated = ca.truncated || cut
}

// kvs returns the attributes, with vendor.content.truncated when one was
// shortened.
func (ca *contentAttrs) kvs() []attribute.KeyValue {
	if ca.truncated {
		return append(ca.attrs, tracing.ContentTruncated.Bool(true))
	}
	return ca.attrs
}

// shape says how a value is written: strings longer than cut bytes are cut
// (cut < 0: none), and arrays below the top level keep their first keep
// elements (keep < 0: all).
type shape struct{ cut, keep int }

var whole = shape{cut: -1, keep: -1}

// fitContent writes v as JSON of at most limit bytes, shortened inside the
// structure so that it stays valid JSON (docs/tracing.md, "Truncation"):
//
//  1. string values longer than a common length are cut to it, at a UTF-8
//     boundary, and end with "…"; the length is the largest that fits, and
//     strings of up to minCut bytes are never cut;
//  2. if that is not enough, the oldest elements of the top-level list
//     (the first messages) are dropped, keeping at least one;
//  3. then every nested list keeps only its first n elements, n the
//     largest that fits (and step 1 runs again);
//  4. failing all that, the value is [] (or {}).
//
// It reports whether anything was shortened. v is not changed.
func fitContent(v *jnode, limit int) (string, bool) {
	if out := render(nil, v, whole, 0); len(out) <= limit {
		return string(out), false
	}
	size := func(sh shape) int { return len(render(nil, v, sh, 0)) }
	sh := shape{cut: minCut, keep: -1}
	if size(sh) > limit {
		v = dropOldest(v, sh, limit)
		if size(sh) > limit {
			keep, ok := search(0, longestList(v, 0), func(n int) bool { return size(shape{cut: minCut, keep: n}) <= limit })
			if !ok {
				if v.kind == jObject {
					return "{}", true
				}
				return "[]", true
			}
			sh.keep = keep
		}
	}
	sh.cut, _ = search(minCut, longestString(v), func(n int) bool { return size(shape{cut: n, keep: sh.keep}) <= limit })
	return string(render(make([]byte, 0, limit), v, sh, 0)), true
}

// search returns the largest n in [lo, hi] for which fits holds (fits is
// true up to some n, then false), and whether there is one.
func search(lo, hi int, fits func(int) bool) (int, bool) {
	hi = max(hi, lo)
	if !fits(lo) {
		return 0, false
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}

// dropOldest drops the first elements of a top-level list until it fits
// under sh, keeping at least one; v is not changed.
func dropOldest(v *jnode, sh shape, limit int) *jnode {
	if v.kind != jArray || len(v.arr) < 2 {
		return v
	}
	total := len(render(nil, v, sh, 0))
	i := 0
	for ; total > limit && i < len(v.arr)-1; i++ {
		total -= len(render(nil, v.arr[i], sh, 1)) + 1 // the element and its comma
	}
	return &jnode{kind: jArray, arr: v.arr[i:]}
}

func longestString(n *jnode) int {
	switch n.kind {
	case jString:
		return len(n.str)
	case jArray:
		m := 0
		for _, x := range n.arr {
			m = max(m, longestString(x))
		}
		return m
	case jObject:
		m := 0
		for _, x := range n.obj {
			m = max(m, longestString(x.val))
		}
		return m
	}
	return 0
}

func longestList(n *jnode, depth int) int {
	m := 0
	switch n.kind {
	case jArray:
		if depth > 0 {
			m = len(n.arr)
		}
		for _, x := range n.arr {
			m = max(m, longestList(x, depth+1))
		}
	case jObject:
		for _, x := range n.obj {
			m = max(m, longestList(x.val, depth+1))
		}
	}
	return m
}

// render appends n as compact JSON shaped by sh; strings are escaped
// without HTML escaping.
func render(b []byte, n *jnode, sh shape, depth int) []byte {
	switch n.kind {
	case jBool:
		return strconv.AppendBool(b, n.b)
	case jNumber:
		return append(b, n.num...)
	case jString:
		s, cut := n.str, false
		if sh.cut >= 0 && len(s) > sh.cut {
			k := max(sh.cut-len(ellipsis), 0)
			for k > 0 && !utf8.RuneStart(s[k]) {
				k--
			}
			s, cut = s[:k], true
		}
		b = appendEscaped(append(b, '"'), s)
		if cut {
			b = append(b, ellipsis...)
		}
		return append(b, '"')
	case jArray:
		items := n.arr
		if depth > 0 && sh.keep >= 0 && len(items) > sh.keep {
			items = items[:sh.keep]
		}
		b = append(b, '[')
		for i, x := range items {
			if i > 0 {
				b = append(b, ',')
			}
			b = render(b, x, sh, depth+1)
		}
		return append(b, ']')
	case jObject:
		b = append(b, '{')
		for i, m := range n.obj {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendEscaped(append(b, '"'), m.key), '"', ':')
			b = render(b, m.val, sh, depth+1)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

const hexDigits = "0123456789abcdef"

// appendEscaped writes s as the inside of a JSON string: quotes,
// backslashes and control characters escaped, invalid UTF-8 replaced by
// U+FFFD.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+w]...)
		}
		i += w
	}
	return b
}
