package agents

import (
	"bytes"
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// URLSources (web_fetch) says which parts of the conversation may supply
// the URLs the tool fetches. Each member narrows one source; nil means unset,
// which allows every URL from that source. The API refuses all three set to
// URLSourceNone.
//
// The API accepts each member either as a shorthand string ("all", "none")
// or as an object; a response always uses the object form. One struct,
// URLSourceFilter, covers both: it reads either form and writes the object.
type URLSources struct {
	// UserInput: URLs in the text of user messages (URLSourceAll or
	// URLSourceNone only).
	UserInput *URLSourceFilter `json:"user_input,omitzero"`
	// ClientToolResults: URLs in the results of custom tools. The names of
	// an only or except list must be custom tools of the same agent.
	ClientToolResults *URLSourceFilter `json:"client_tool_results,omitzero"`
	// ServerToolResults: URLs in web_search and web_fetch results. The names
	// of an only or except list must be "web_search" or "web_fetch".
	ServerToolResults *URLSourceFilter `json:"server_tool_results,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// URLSourceType is the kind of a URLSourceFilter. Unknown values are kept.
type URLSourceType string

const (
	// URLSourceAll allows every URL from the source (the default).
	URLSourceAll URLSourceType = "all"
	// URLSourceNone allows no URL from the source.
	URLSourceNone URLSourceType = "none"
	// URLSourceOnly allows URLs from the results of the listed tools only.
	URLSourceOnly URLSourceType = "only"
	// URLSourceExcept allows URLs from every tool's results but the listed ones.
	URLSourceExcept URLSourceType = "except"
)

// URLSourceFilter is one member of URLSources. The wire value is a small
// union ({"type": "all"|"none"|"only"|"except", …}) whose variants differ
// only in having Tools, so it is one struct with a Type, as
// PermissionPolicy is.
type URLSourceFilter struct {
	Type URLSourceType `json:"type"`
	// Tools lists 1 to 128 tools with different names; only for
	// URLSourceOnly and URLSourceExcept.
	Tools []URLSourceTool `json:"tools,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// URLSourceTool names one tool of an only or except list (type
// "tool_reference"). Names compare exactly, case included.
type URLSourceTool struct {
	Name string `json:"name"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// URLSourceOf returns a filter of type t over the named tools, for
// request fields: URLSourceOf(URLSourceNone) or
// URLSourceOf(URLSourceOnly, "web_search").
func URLSourceOf(t URLSourceType, tools ...string) *URLSourceFilter {
	f := &URLSourceFilter{Type: t}
	for _, name := range tools {
		f.Tools = append(f.Tools, URLSourceTool{Name: name})
	}
	return f
}

type (
	plainURLSources      URLSources
	plainURLSourceFilter URLSourceFilter
	plainURLSourceTool   URLSourceTool
)

// MarshalJSON writes the object.
func (u URLSources) MarshalJSON() ([]byte, error) { return wire.Marshal(plainURLSources(u)) }

// UnmarshalJSON reads the object.
func (u *URLSources) UnmarshalJSON(data []byte) error {
	*u = URLSources{}
	return wire.Unmarshal(data, (*plainURLSources)(u))
}

// MarshalJSON writes the object form, which the API accepts everywhere
// the shorthand is.
func (f URLSourceFilter) MarshalJSON() ([]byte, error) { return wire.Marshal(plainURLSourceFilter(f)) }

// UnmarshalJSON reads the object form or the shorthand string ("all" is
// {"type": "all"}).
func (f *URLSourceFilter) UnmarshalJSON(data []byte) error {
	*f = URLSourceFilter{}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '"' {
		return wire.Unmarshal(data, (*string)(&f.Type))
	}
	return wire.Unmarshal(data, (*plainURLSourceFilter)(f))
}

// MarshalJSON writes {"type": "tool_reference", "name": …}.
func (t URLSourceTool) MarshalJSON() ([]byte, error) {
	return variant("tool_reference", plainURLSourceTool(t))
}

// UnmarshalJSON reads the reference; its "type" is not kept in Extra.
func (t *URLSourceTool) UnmarshalJSON(data []byte) error {
	*t = URLSourceTool{}
	return wire.Variant(data, (*plainURLSourceTool)(t), &t.Extra)
}
