package agents

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The web_fetch config's url_sources (docs/managed-agents-wire.md 3.4):
// which parts of the conversation may supply the URLs the tool fetches.
// A request gives each member as a shorthand string ("all", "none") or an
// object; a response always writes the object form, with null for an
// unset member, and "url_sources": null when the config has none (a
// current official client requires the member).

const maxURLSourceTools = 128

// urlSources is a parsed url_sources; a nil member is unset.
type urlSources struct {
	userInput, clientToolResults, serverToolResults *urlSourceFilter
}

type urlSourceFilter struct {
	typ   string   // all, none, only, except
	tools []string // only, except
}

type urlSourcesJSON struct {
	UserInput         *urlSourceFilterJSON `json:"user_input"`
	ClientToolResults *urlSourceFilterJSON `json:"client_tool_results"`
	ServerToolResults *urlSourceFilterJSON `json:"server_tool_results"`
}

type urlSourceFilterJSON struct {
	Type  string              `json:"type"`
	Tools []toolReferenceJSON `json:"tools,omitempty"`
}

type toolReferenceJSON struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

func (u *urlSources) view() *urlSourcesJSON {
	if u == nil {
		return nil
	}
	return &urlSourcesJSON{u.userInput.view(), u.clientToolResults.view(), u.serverToolResults.view()}
}

func (f *urlSourceFilter) view() *urlSourceFilterJSON {
	if f == nil {
		return nil
	}
	v := &urlSourceFilterJSON{Type: f.typ}
	for _, name := range f.tools {
		v.Tools = append(v.Tools, toolReferenceJSON{Type: "tool_reference", Name: name})
	}
	return v
}

type urlSourcesBody struct {
	UserInput         kit.Optional[json.RawMessage] `json:"user_input"`
	ClientToolResults kit.Optional[json.RawMessage] `json:"client_tool_results"`
	ServerToolResults kit.Optional[json.RawMessage] `json:"server_tool_results"`
}

// parseURLSources reads a url_sources object; null is unset (nil), as a
// response writes it. Names in client_tool_results are checked against
// the custom tools later, by checkURLSourceClients, once the whole tools
// list is read.
func parseURLSources(path string, raw json.RawMessage) (*urlSources, error) {
	if kit.IsNull(raw) {
		return nil, nil
	}
	var body urlSourcesBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	u := &urlSources{}
	var err error
	if u.userInput, err = parseURLSourceFilter(kit.JoinPath(path, "user_input"), body.UserInput, false, nil); err != nil {
		return nil, err
	}
	if u.clientToolResults, err = parseURLSourceFilter(kit.JoinPath(path, "client_tool_results"), body.ClientToolResults, true, nil); err != nil {
		return nil, err
	}
	server := func(p, name string) error { return kit.OneOf(p, name, "web_search", "web_fetch") }
	if u.serverToolResults, err = parseURLSourceFilter(kit.JoinPath(path, "server_tool_results"), body.ServerToolResults, true, server); err != nil {
		return nil, err
	}
	none := func(f *urlSourceFilter) bool { return f != nil && f.typ == "none" }
	if none(u.userInput) && none(u.clientToolResults) && none(u.serverToolResults) {
		return nil, kit.InvalidField(path, "must not set every source to `none`")
	}
	return u, nil
}

type urlSourceFilterBody struct {
	Type  kit.Optional[string]            `json:"type"`
	Tools kit.Optional[[]json.RawMessage] `json:"tools"`
}

type toolReferenceBody struct {
	Type kit.Optional[string] `json:"type"`
	Name kit.Optional[string] `json:"name"`
}

// parseURLSourceFilter reads one member: omitted or null is unset; a
// string is the shorthand of {"type": …} (all or none); lists allows only
// and except, whose names check vets.
func parseURLSourceFilter(path string, o kit.Optional[json.RawMessage], lists bool, check func(path, name string) error) (*urlSourceFilter, error) {
	if !o.Present() {
		return nil, nil
	}
	types := []string{"all", "none"}
	if lists {
		types = append(types, "only", "except")
	}
	if kit.JSONKind(o.Value) == '"' {
		var s string
		if err := json.Unmarshal(o.Value, &s); err != nil {
			return nil, kit.InvalidField(path, "must be a string or an object")
		}
		if err := kit.OneOf(path, s, "all", "none"); err != nil {
			return nil, err
		}
		return &urlSourceFilter{typ: s}, nil
	}
	if kit.JSONKind(o.Value) != '{' {
		return nil, kit.InvalidField(path, "must be a string or an object")
	}
	typ, err := kit.TypeAt(path, o.Value)
	if err != nil {
		return nil, err
	}
	if err := kit.OneOf(kit.JoinPath(path, "type"), typ, types...); err != nil {
		return nil, err
	}
	var body urlSourceFilterBody
	if err := kit.DecodeAt(path, o.Value, &body); err != nil {
		return nil, err
	}
	f := &urlSourceFilter{typ: typ}
	tp := kit.JoinPath(path, "tools")
	if typ == "all" || typ == "none" {
		if body.Tools.Set {
			return nil, kit.InvalidField(tp, "unknown field")
		}
		return f, nil
	}
	if err := kit.Required(tp, body.Tools); err != nil {
		return nil, err
	}
	if err := kit.CheckCount(tp, len(body.Tools.Value), 1, maxURLSourceTools); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, item := range body.Tools.Value {
		p := kit.IndexPath(tp, i)
		rt, err := kit.TypeAt(p, item)
		if err != nil {
			return nil, err
		}
		if rt != "tool_reference" {
			return nil, kit.BadType(p, "tool_reference")
		}
		var ref toolReferenceBody
		if err := kit.DecodeAt(p, item, &ref); err != nil {
			return nil, err
		}
		np := kit.JoinPath(p, "name")
		if err := kit.Required(np, ref.Name); err != nil {
			return nil, err
		}
		if err := kit.CheckLength(np, ref.Name.Value, 1, 128); err != nil {
			return nil, err
		}
		if check != nil {
			if err := check(np, ref.Name.Value); err != nil {
				return nil, err
			}
		}
		if seen[ref.Name.Value] {
			return nil, kit.InvalidField(np, "duplicate tool `%s`", ref.Name.Value)
		}
		seen[ref.Name.Value] = true
		f.tools = append(f.tools, ref.Name.Value)
	}
	return f, nil
}

// checkURLSourceClients checks that every name of a client_tool_results
// list is a custom tool of the same tools list.
func checkURLSourceClients(path string, tools []Tool) error {
	customs := map[string]bool{}
	for _, t := range tools {
		if t.Custom != nil {
			customs[t.Custom.Name] = true
		}
	}
	for i, t := range tools {
		if t.Toolset == nil {
			continue
		}
		for j, c := range t.Toolset.Configs {
			if c.urlSources == nil || c.urlSources.clientToolResults == nil {
				continue
			}
			for k, name := range c.urlSources.clientToolResults.tools {
				if !customs[name] {
					p := kit.JoinPath(kit.IndexPath(kit.JoinPath(kit.IndexPath(kit.JoinPath(kit.IndexPath(path, i), "configs"), j),
						"url_sources.client_tool_results.tools"), k), "name")
					return kit.InvalidField(p, "no custom tool named `%s`", name)
				}
			}
		}
	}
	return nil
}
