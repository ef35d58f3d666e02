package messages

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode"

	"github.com/agentplatform/agentplatform-go/internal/apiversion"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// POST /v1/chat/completions, the OpenAI-compatible layer
// (docs/messages-wire.md 9): the request is translated into a Messages
// request, validated by the Messages rules (with the translated request's
// paths), run through the same fake model, and translated back. Unknown
// keys are ignored, vendor-beta is ignored after the list check, and every
// error on this path has the OpenAI shape.

const openAIVersion = "2020-10-01"

// markChatCompletions gives every response on the chat-completions path
// its openai-version header and the OpenAI error shape (9.5), from
// authentication failures and injected faults to validation.
func markChatCompletions(r *http.Request, rb *kit.ResponseBuffer) {
	if r.URL.Path == pathChatCompletions {
		rb.Header().Set("openai-version", openAIVersion)
		rb.OpenAIErrors = true
	}
}

// chatRequest is what the translation keeps besides the Messages request.
type chatRequest struct {
	stream       bool
	includeUsage bool
}

func (s *Service) chatCompletions(c *kit.Call) error {
	root, err := parseBody(c.Ex.Body)
	if err != nil {
		return err
	}
	translated, cr, err := translateChat(root)
	if err != nil {
		return err
	}
	r, err := s.validateMessages(translated, epCreate, map[string]bool{}, apiversion.Default, c.WorkspaceID)
	if err != nil {
		return err
	}
	d, err := r.directives()
	if err != nil {
		return err
	}
	geo := s.resolveGeo(r, c.WorkspaceID)
	if cr.stream && (d.errType == "" || d.errAfter >= 0) {
		s.streamChat(c, r, d, geo, cr)
		return nil
	}
	if !s.sleep(c.R.Context(), d.delay, 0, nil) {
		return nil
	}
	if d.errType != "" {
		return directiveError(d.errType)
	}
	res := s.runModel(r, c.WorkspaceID, geo)
	return c.OK(chatCompletion(res, s.cfg.ids("msg_"), s.now().Unix()))
}

// --- request translation (9.1, 9.2) ---

// translateChat builds the Messages request. Its members are in a fixed
// order: model, max_tokens, system, messages, tools, tool_choice,
// temperature, top_p, stop_sequences, thinking.
func translateChat(root *jnode) (*jnode, chatRequest, error) {
	var cr chatRequest
	if root.kind != jObject {
		return nil, cr, pyErr("", "Input should be a valid dictionary")
	}
	present := func(key string) *jnode {
		if v := root.get(key); v != nil && v.kind != jNull {
			return v
		}
		return nil
	}
	if v := present("n"); v != nil {
		if n, err := readInt("n", v); err != nil || n != 1 {
			return nil, cr, pyErr("n", "must be 1")
		}
	}
	if v := present("stream"); v != nil {
		b, err := readBool("stream", v)
		if err != nil {
			return nil, cr, err
		}
		cr.stream = b
	}
	if v := present("stream_options"); v != nil {
		if err := readObject("stream_options", v); err != nil {
			return nil, cr, err
		}
		if iu := v.get("include_usage"); iu != nil && iu.kind != jNull {
			b, err := readBool("stream_options.include_usage", iu)
			if err != nil {
				return nil, cr, err
			}
			cr.includeUsage = b
		}
	}

	out := jobj()
	model := root.get("model")
	if model != nil {
		out.set("model", model)
	}
	switch {
	case present("max_completion_tokens") != nil:
		out.set("max_tokens", present("max_completion_tokens"))
	case present("max_tokens") != nil:
		out.set("max_tokens", present("max_tokens"))
	default:
		def := 4096
		if model != nil && model.kind == jString {
			if m := lookupModel(model.str); m != nil {
				def = min(def, m.MaxTokens)
			}
		}
		out.set("max_tokens", jint(def))
	}
	system, messages, err := translateChatMessages(root.get("messages"))
	if err != nil {
		return nil, cr, err
	}
	if system != nil {
		out.set("system", system)
	}
	if messages != nil {
		out.set("messages", messages)
	}
	tools, err := translateChatTools(present("tools"), present("functions"))
	if err != nil {
		return nil, cr, err
	}
	if tools != nil {
		out.set("tools", tools)
	}
	choice, err := translateChatToolChoice(present("tool_choice"), present("parallel_tool_calls"))
	if err != nil {
		return nil, cr, err
	}
	if choice != nil {
		out.set("tool_choice", choice)
	}
	if v := present("temperature"); v != nil {
		if v.kind == jNumber {
			f, _ := v.num.Float64()
			if f > 2 {
				return nil, cr, pyErr("temperature", "Input should be less than or equal to 2")
			}
			if f > 1 {
				v = jint(1) // capped (9.1)
			}
		}
		out.set("temperature", v)
	}
	if v := present("top_p"); v != nil {
		out.set("top_p", v)
	}
	stops, err := translateStop(present("stop"))
	if err != nil {
		return nil, cr, err
	}
	if stops != nil {
		out.set("stop_sequences", stops)
	}
	if v := present("thinking"); v != nil {
		out.set("thinking", v)
	}
	return out, cr, nil
}

func translateStop(v *jnode) (*jnode, error) {
	if v == nil {
		return nil, nil
	}
	var values []*jnode
	switch v.kind {
	case jString:
		values = []*jnode{v}
	case jArray:
		values = v.arr
	default:
		return nil, pyErr("stop", "Input should be a valid string or a valid list")
	}
	out := jarr()
	for k, s := range values {
		if s.kind != jString {
			return nil, errType(joinPath("stop", k), jString)
		}
		if strings.TrimFunc(s.str, unicode.IsSpace) != "" {
			out.push(s)
		}
	}
	if len(out.arr) == 0 {
		return nil, nil
	}
	return out, nil
}

func translateChatTools(tools, functions *jnode) (*jnode, error) {
	if tools == nil && functions == nil {
		return nil, nil
	}
	out := jarr()
	convert := func(p string, fn *jnode) error {
		if err := readObject(p, fn); err != nil {
			return err
		}
		t := jobj()
		if name := fn.get("name"); name != nil {
			t.set("name", name)
		}
		if desc := fn.get("description"); desc != nil && desc.kind != jNull {
			t.set("description", desc)
		}
		schema := fn.get("parameters")
		if schema == nil || schema.kind == jNull {
			schema = jobj().set("type", jstr("object"))
		}
		out.push(t.set("input_schema", schema)) // strict is ignored (9.1)
		return nil
	}
	if tools != nil {
		items, err := readList("tools", tools)
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			p := joinPath("tools", i)
			if err := readObject(p, it); err != nil {
				return nil, err
			}
			typ := it.get("type")
			if typ == nil {
				return nil, errRequired(joinPath(p, "type"))
			}
			if _, err := readEnum(joinPath(p, "type"), typ, "function"); err != nil {
				return nil, err
			}
			fn := it.get("function")
			if fn == nil {
				return nil, errRequired(joinPath(p, "function"))
			}
			if err := convert(joinPath(p, "function"), fn); err != nil {
				return nil, err
			}
		}
	}
	if functions != nil {
		items, err := readList("functions", functions)
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			if err := convert(joinPath("functions", i), it); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func translateChatToolChoice(choice, parallel *jnode) (*jnode, error) {
	var out *jnode
	if choice != nil {
		if choice.kind == jString {
			s, err := readEnum("tool_choice", choice, "none", "auto", "required")
			if err != nil {
				return nil, err
			}
			out = jobj().set("type", jstr(map[string]string{"none": "none", "auto": "auto", "required": "any"}[s]))
		} else {
			if err := readObject("tool_choice", choice); err != nil {
				return nil, err
			}
			if _, err := readEnum("tool_choice.type", orNull(choice.get("type")), "function"); err != nil {
				return nil, err
			}
			fn := orNull(choice.get("function"))
			if err := readObject("tool_choice.function", fn); err != nil {
				return nil, err
			}
			name := fn.get("name")
			if name == nil {
				return nil, errRequired("tool_choice.function.name")
			}
			out = jobj().set("type", jstr("tool")).set("name", name)
		}
	}
	if parallel != nil {
		p, err := readBool("parallel_tool_calls", parallel)
		if err != nil {
			return nil, err
		}
		if !p {
			if out == nil {
				out = jobj().set("type", jstr("auto"))
			}
			if out.get("type").str != "none" {
				out.set("disable_parallel_tool_use", jbool(true))
			}
		}
	}
	return out, nil
}

func orNull(v *jnode) *jnode {
	if v == nil {
		return jnull()
	}
	return v
}

var chatRoles = []string{"system", "developer", "user", "assistant", "tool"}

// translateChatMessages hoists system and developer messages into one
// system string and turns the others into Messages messages.
func translateChatMessages(v *jnode) (*jnode, *jnode, error) {
	if v == nil {
		return nil, nil, nil // "messages: Field required" comes from validation
	}
	items, err := readList("messages", v)
	if err != nil {
		return nil, nil, err
	}
	var system []string
	out := jarr()
	lastWasTool := false
	for i, m := range items {
		p := joinPath("messages", i)
		if err := readObject(p, m); err != nil {
			return nil, nil, err
		}
		roleNode := m.get("role")
		if roleNode == nil {
			return nil, nil, errRequired(joinPath(p, "role"))
		}
		role, err := readString(joinPath(p, "role"), roleNode)
		if err != nil {
			return nil, nil, err
		}
		content := m.get("content")
		switch role {
		case "system", "developer":
			text, err := chatText(joinPath(p, "content"), content)
			if err != nil {
				return nil, nil, err
			}
			system = append(system, text)
			lastWasTool = false
		case "user":
			blocks, err := chatUserContent(joinPath(p, "content"), content)
			if err != nil {
				return nil, nil, err
			}
			out.push(jobj().set("role", jstr("user")).set("content", blocks))
			lastWasTool = false
		case "assistant":
			blocks, err := chatAssistantContent(p, m)
			if err != nil {
				return nil, nil, err
			}
			out.push(jobj().set("role", jstr("assistant")).set("content", blocks))
			lastWasTool = false
		case "tool":
			id := m.get("tool_call_id")
			if id == nil {
				return nil, nil, errRequired(joinPath(p, "tool_call_id"))
			}
			text, err := chatText(joinPath(p, "content"), content)
			if err != nil {
				return nil, nil, err
			}
			result := jobj().set("type", jstr("tool_result")).set("tool_use_id", id).set("content", jstr(text))
			if lastWasTool {
				prev := out.arr[len(out.arr)-1].get("content")
				prev.push(result)
			} else {
				out.push(jobj().set("role", jstr("user")).set("content", jarr().push(result)))
			}
			lastWasTool = true
		case "function":
			return nil, nil, pyErr(joinPath(p, "role"), "unsupported role `function`")
		default:
			return nil, nil, errEnum(joinPath(p, "role"), chatRoles...)
		}
	}
	var sys *jnode
	if len(system) > 0 {
		sys = jstr(strings.Join(system, "\n"))
	}
	return sys, out, nil
}

// chatText reads content that must be text: a string or text parts,
// joined with "\n".
func chatText(p string, v *jnode) (string, error) {
	if v == nil || v.kind == jNull {
		return "", nil
	}
	if v.kind == jString {
		return v.str, nil
	}
	items, err := readList(p, v)
	if err != nil {
		return "", err
	}
	var parts []string
	for j, part := range items {
		pp := joinPath(p, j)
		if err := readObject(pp, part); err != nil {
			return "", err
		}
		typ := orNull(part.get("type"))
		if typ.kind != jString || typ.str != "text" {
			return "", pyErr(joinPath(pp, "type"), "unsupported content part `%s`", typ.str)
		}
		text, err := readString(joinPath(pp, "text"), orNull(part.get("text")))
		if err != nil {
			return "", err
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n"), nil
}

func chatUserContent(p string, v *jnode) (*jnode, error) {
	if v == nil {
		return nil, errRequired(p)
	}
	if v.kind == jString {
		return v, nil
	}
	items, err := readList(p, v)
	if err != nil {
		return nil, err
	}
	out := jarr()
	for j, part := range items {
		pp := joinPath(p, j)
		if err := readObject(pp, part); err != nil {
			return nil, err
		}
		typ := orNull(part.get("type"))
		switch {
		case typ.kind == jString && typ.str == "text":
			out.push(jobj().set("type", jstr("text")).set("text", orNull(part.get("text"))))
		case typ.kind == jString && typ.str == "image_url":
			img := orNull(part.get("image_url"))
			if err := readObject(joinPath(pp, "image_url"), img); err != nil {
				return nil, err
			}
			u, err := readString(joinPath(pp, "image_url", "url"), orNull(img.get("url")))
			if err != nil {
				return nil, err
			}
			out.push(jobj().set("type", jstr("image")).set("source", imageURLSource(u)))
		case typ.kind == jString && typ.str == "input_audio":
			// stripped (9.2)
		default:
			return nil, pyErr(joinPath(pp, "type"), "unsupported content part `%s`", typ.str)
		}
	}
	return out, nil
}

// imageURLSource turns an image_url into an image source: a data: URL
// becomes base64, anything else a url source.
func imageURLSource(u string) *jnode {
	if rest, ok := strings.CutPrefix(u, "data:"); ok {
		if meta, data, ok := strings.Cut(rest, ","); ok {
			media, _, _ := strings.Cut(meta, ";")
			return jobj().set("type", jstr("base64")).set("media_type", jstr(media)).set("data", jstr(data))
		}
	}
	return jobj().set("type", jstr("url")).set("url", jstr(u))
}

// chatAssistantContent is a text block, then one tool_use per tool call.
// function_call (deprecated) is ignored: its answer, a `function`
// message, is not supported.
func chatAssistantContent(p string, m *jnode) (*jnode, error) {
	out := jarr()
	text, err := chatText(joinPath(p, "content"), m.get("content"))
	if err != nil {
		return nil, err
	}
	if text != "" {
		out.push(jobj().set("type", jstr("text")).set("text", jstr(text)))
	}
	calls := m.get("tool_calls")
	if calls == nil || calls.kind == jNull {
		return out, nil
	}
	items, err := readList(joinPath(p, "tool_calls"), calls)
	if err != nil {
		return nil, err
	}
	for k, tc := range items {
		cp := joinPath(p, "tool_calls", k)
		if err := readObject(cp, tc); err != nil {
			return nil, err
		}
		id := tc.get("id")
		if id == nil {
			return nil, errRequired(joinPath(cp, "id"))
		}
		fn := tc.get("function")
		if fn == nil {
			return nil, errRequired(joinPath(cp, "function"))
		}
		if err := readObject(joinPath(cp, "function"), fn); err != nil {
			return nil, err
		}
		args, err := readString(joinPath(cp, "function", "arguments"), orNull(fn.get("arguments")))
		if err != nil {
			return nil, err
		}
		var input *jnode
		if json.Valid([]byte(args)) {
			input, _ = parseJSON([]byte(args))
		}
		if input == nil || input.kind != jObject {
			return nil, pyErr(joinPath(cp, "function", "arguments"), "must be a JSON object")
		}
		out.push(jobj().set("type", jstr("tool_use")).set("id", id).set("name", orNull(fn.get("name"))).set("input", input))
	}
	return out, nil
}
