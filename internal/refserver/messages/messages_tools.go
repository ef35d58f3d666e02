package messages

import (
	"regexp"
	"strings"
)

// Tool definitions, MCP servers and fallbacks in Messages requests
// (docs/messages-wire.md 2.3, 8.3): pass 1 of validation, as in
// messages_params.go.

const maxTools = 1000

var (
	toolNamePattern    = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)
	propertyKeyPattern = regexp.MustCompile(`^[a-zA-Z0-9_.-]{1,64}$`)
)

func (r *msgRequest) fTools(p string, v *jnode) error {
	items, err := readList(p, v)
	if err != nil {
		return err
	}
	if len(items) > maxTools {
		return errMaxItems(p, maxTools, len(items))
	}
	r.tools = nil
	for i, it := range items {
		t, err := r.parseTool(joinPath(p, i), it)
		if err != nil {
			return err
		}
		r.tools = append(r.tools, t)
	}
	return nil
}

func (r *msgRequest) parseTool(p string, v *jnode) (*toolDef, error) {
	if err := readObject(p, v); err != nil {
		return nil, err
	}
	typ := "custom"
	if tv := v.get("type"); tv != nil && tv.kind != jNull {
		if tv.kind != jString {
			return nil, errType(joinPath(p, "type"), jString)
		}
		typ = tv.str
	}
	t := &toolDef{typ: typ, node: v, path: joinPath(p, typ)}
	cache := nullable(func(p string, v *jnode) error {
		cm, err := parseCacheControl(p, v)
		t.cache = cm
		return err
	})
	if typ == "custom" {
		t.kind = "custom"
		return t, walkObject(t.path, v, map[string]fieldFunc{
			"type": nil,
			"name": func(p string, v *jnode) error {
				s, err := readStrLen(p, v, 1, 128)
				if err == nil && !toolNamePattern.MatchString(s) {
					err = pyErr(p, "String should match pattern '%s'", toolNamePattern)
				}
				t.name = s
				return err
			},
			"description": isString,
			"input_schema": func(p string, v *jnode) error {
				t.schema = v
				return parseInputSchema(p, v)
			},
			"cache_control":         cache,
			"strict":                isBool,
			"eager_input_streaming": nullable(isBool),
			"defer_loading":         isBool,
			"input_examples":        isListOf(isObject),
			"allowed_callers":       isListOf(isString),
		}, "name", "input_schema")
	}
	if typ == "mcp_toolset" && r.mcpBeta() {
		return t, r.parseToolset(t, v, cache)
	}
	if _, ok := toolsetMembers[typ]; ok {
		return t, parseMemberToolset(t, v, cache)
	}
	fixed, ok := fixedTools[typ]
	if !ok {
		tags := toolTags
		if r.mcpBeta() {
			tags = append(append([]string{}, toolTags...), "mcp_toolset")
		}
		return nil, errTag(p, typ, tags)
	}
	t.kind, t.name = fixed.kind, fixed.name
	nameField := func(p string, v *jnode) error { _, err := readEnum(p, v, fixed.name); return err }
	var allowed, blocked bool
	domains := func(set *bool) fieldFunc {
		return func(p string, v *jnode) error {
			if v.kind == jNull {
				return nil
			}
			*set = true
			return isListOf(isString)(p, v)
		}
	}
	maxUses := nullable(func(p string, v *jnode) error {
		n, err := readInt(p, v)
		if err == nil && n < 1 {
			err = pyErr(p, "Input should be greater than or equal to 1")
		}
		t.maxUses = n
		return err
	})
	common := func(more map[string]fieldFunc) map[string]fieldFunc {
		f := map[string]fieldFunc{"type": nil, "name": nameField, "cache_control": cache,
			"defer_loading": isBool, "strict": isBool, "allowed_callers": isListOf(isString)}
		for k, fn := range more {
			f[k] = fn
		}
		return f
	}
	switch t.kind {
	case "web_search":
		f := common(map[string]fieldFunc{
			"max_uses":        maxUses,
			"allowed_domains": domains(&allowed),
			"blocked_domains": domains(&blocked),
			"user_location": nullable(func(p string, v *jnode) error {
				s := nullable(isString)
				return walkObject(p, v, map[string]fieldFunc{
					"type": func(p string, v *jnode) error { _, err := readEnum(p, v, "approximate"); return err },
					"city": s, "region": s, "country": s, "timezone": s,
				}, "type")
			}),
		})
		if responseInclusionTools[typ] {
			f["response_inclusion"] = responseInclusion
		}
		err := walkObject(t.path, v, f, "name")
		if err == nil && allowed && blocked {
			err = pyErr(t.path, "allowed_domains and blocked_domains cannot both be set")
		}
		return t, err
	case "web_fetch":
		f := common(map[string]fieldFunc{
			"max_uses":           maxUses,
			"max_content_tokens": nullable(func(p string, v *jnode) error { return minInt(p, v, 1) }),
			"allowed_domains":    domains(&allowed),
			"blocked_domains":    domains(&blocked),
			"citations":          nullable(func(p string, v *jnode) error { return walkObject(p, v, map[string]fieldFunc{"enabled": isBool}) }),
			"url_sources":        nullable(isObject),
		})
		if typ != "web_fetch_20250910" && typ != "web_fetch_20260209" {
			f["use_cache"] = nullable(isBool)
		}
		if responseInclusionTools[typ] {
			f["response_inclusion"] = responseInclusion
		}
		err := walkObject(t.path, v, f, "name")
		if err == nil && allowed && blocked {
			err = pyErr(t.path, "allowed_domains and blocked_domains cannot both be set")
		}
		return t, err
	case "code_execution", "bash_code_execution", "tool_search":
		return t, walkObject(t.path, v, common(nil), "name")
	}
	// Other real types: only type and name are checked (docs/messages-wire.md
	// 2.3.2).
	for _, m := range v.obj {
		switch m.key {
		case "name":
			if err := nameField(joinPath(t.path, "name"), m.val); err != nil {
				return nil, err
			}
		case "cache_control":
			if err := cache(joinPath(t.path, "cache_control"), m.val); err != nil {
				return nil, err
			}
		}
	}
	if v.get("name") == nil {
		return nil, errRequired(joinPath(t.path, "name"))
	}
	return t, nil
}

// responseInclusionTools are the tool types that take response_inclusion.
var responseInclusionTools = map[string]bool{"web_search_20260318": true, "web_fetch_20260318": true}

func responseInclusion(p string, v *jnode) error {
	_, err := readEnum(p, v, "full", "excluded")
	return err
}

// minInt checks an integer of at least lo.
func minInt(p string, v *jnode, lo int) error {
	n, err := readInt(p, v)
	if err == nil && n < lo {
		err = pyErr(p, "Input should be greater than or equal to %d", lo)
	}
	return err
}

// parseInputSchema checks a custom tool's input_schema: type "object",
// optional properties (keys by pattern) and required; other keywords are
// kept.
func parseInputSchema(p string, v *jnode) error {
	if err := readObject(p, v); err != nil {
		return err
	}
	for _, m := range v.obj {
		mp := joinPath(p, m.key)
		switch m.key {
		case "type":
			if _, err := readEnum(mp, m.val, "object"); err != nil {
				return err
			}
		case "properties":
			if m.val.kind == jNull {
				continue
			}
			if err := readObject(mp, m.val); err != nil {
				return err
			}
			for _, prop := range m.val.obj {
				if !propertyKeyPattern.MatchString(prop.key) {
					return pyErr(mp, "Property keys should match pattern '%s'", propertyKeyPattern)
				}
			}
		case "required":
			if m.val.kind == jNull {
				continue
			}
			if err := isListOf(isString)(mp, m.val); err != nil {
				return err
			}
		}
	}
	if v.get("type") == nil {
		return errRequired(joinPath(p, "type"))
	}
	return nil
}

func (r *msgRequest) parseToolset(t *toolDef, v *jnode, cache fieldFunc) error {
	t.kind, t.defaultEnabled, t.configs = "mcp_toolset", true, map[string]bool{}
	toolCfg := func(set func(bool)) fieldFunc {
		return func(p string, v *jnode) error {
			return walkObject(p, v, map[string]fieldFunc{
				"enabled":       func(p string, v *jnode) error { b, err := readBool(p, v); set(b); return err },
				"defer_loading": isBool,
			})
		}
	}
	return walkObject(t.path, v, map[string]fieldFunc{
		"type": nil, "cache_control": cache,
		"mcp_server_name": func(p string, v *jnode) error {
			s, err := readString(p, v)
			t.server = s
			return err
		},
		"default_config": toolCfg(func(b bool) { t.defaultEnabled = b }),
		"configs": func(p string, v *jnode) error {
			if err := readObject(p, v); err != nil {
				return err
			}
			for _, m := range v.obj {
				name := m.key
				if err := toolCfg(func(b bool) { t.configs[name] = b })(joinPath(p, name), m.val); err != nil {
					return err
				}
			}
			return nil
		},
	}, "mcp_server_name")
}

func (r *msgRequest) fMCPServers(p string, v *jnode) error {
	items, err := readList(p, v)
	if err != nil {
		return err
	}
	r.mcpServers = nil
	for i, it := range items {
		s := &msgMCPServer{enabled: true, allowAll: true}
		fields := map[string]fieldFunc{
			"type": func(p string, v *jnode) error { _, err := readEnum(p, v, "url"); return err },
			"url": func(p string, v *jnode) error {
				u, err := readString(p, v)
				if err == nil && !strings.HasPrefix(u, "https://") {
					err = pyErr(p, "must start with https://")
				}
				s.url = u
				return err
			},
			"name": func(p string, v *jnode) error {
				n, err := readStrLen(p, v, 1, 64)
				s.name = n
				return err
			},
			"authorization_token": nullable(isString),
		}
		if r.betas[betaMCPLegacy] {
			fields["tool_configuration"] = nullable(func(p string, v *jnode) error {
				s.legacy = true
				return walkObject(p, v, map[string]fieldFunc{
					"enabled": nullable(func(p string, v *jnode) error { b, err := readBool(p, v); s.enabled = b; return err }),
					"allowed_tools": nullable(func(p string, v *jnode) error {
						items, err := readList(p, v)
						if err != nil {
							return err
						}
						s.allowAll = false
						for k, it := range items {
							name, err := readString(joinPath(p, k), it)
							if err != nil {
								return err
							}
							s.allowedTools = append(s.allowedTools, name)
						}
						return nil
					}),
				})
			})
		}
		if err := walkObject(joinPath(p, i), it, fields, "type", "url", "name"); err != nil {
			return err
		}
		s.node = it.without("authorization_token")
		r.mcpServers = append(r.mcpServers, s)
	}
	return nil
}

// --- fallbacks (docs/messages-wire.md 8.3) ---

func (r *msgRequest) fFallbacks(p string, v *jnode) error {
	if v.kind == jString {
		if v.str != "default" {
			return pyErr(p, "Input should be 'default' or a valid list")
		}
		if !r.betas[betaFallback] {
			return pyErr(p, "the `default` form needs the beta `%s`", betaFallback)
		}
		r.fallbacks = &fallbackSpec{def: true}
		return nil
	}
	if v.kind != jArray {
		return pyErr(p, "Input should be 'default' or a valid list")
	}
	if len(v.arr) == 0 {
		return errMinItems(p, 0)
	}
	if len(v.arr) > 3 {
		return errMaxItems(p, 3, len(v.arr))
	}
	fb := &fallbackSpec{}
	for k, it := range v.arr {
		e := fallbackEntry{path: joinPath(p, k)}
		err := walkObject(e.path, it, map[string]fieldFunc{
			"model": func(p string, v *jnode) error { s, err := readString(p, v); e.model = s; return err },
			"max_tokens": func(p string, v *jnode) error {
				n, err := readInt(p, v)
				if err == nil && n < 0 {
					err = pyErr(p, "Input should be greater than or equal to 0")
				}
				e.maxTokens = &n
				return err
			},
			"thinking":      func(p string, v *jnode) error { t, err := parseThinking(p, v); e.thinking = t; return err },
			"output_config": func(p string, v *jnode) error { oc, err := parseOutputConfig(p, v); e.output = oc; return err },
			"speed":         func(p string, v *jnode) error { _, err := readEnum(p, v, "standard", "fast"); return err },
		}, "model")
		if err != nil {
			return err
		}
		fb.entries = append(fb.entries, e)
	}
	r.fallbacks = fb
	return nil
}
