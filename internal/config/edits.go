package config

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
)

// Extra query parameters and body fields: how a caller reaches what the SDK
// does not model yet (option.WithQuery, WithQueryAdd, WithJSONSet,
// WithJSONDel). Like every option they live on the Config, here as edits
// applied in order when a call's query and body are built (encodeQuery,
// encodeBody in request.go); a call without them pays one length check.

// QueryEdit is one parameter to send.
type QueryEdit struct {
	Key, Value string
	Add        bool // keep the values the query already has for key
}

// BodyEdit sets or deletes one field of the JSON body.
type BodyEdit struct {
	Opt   string          // the option's name, for errors
	Path  string          // as the caller wrote it, for errors
	Keys  []string        // object keys, or indexes into arrays the body has
	Value json.RawMessage // the encoded value; nil deletes the field
}

// SetQuery sends key=value, replacing what the call would send for key
// (the SDK's own parameter, an earlier SetQuery); with add, it is sent in
// addition, for a repeatable parameter.
func (c *Config) SetQuery(key, value string, add bool) error {
	if key == "" {
		return &apierror.ValidationError{Field: "query", Rule: "parameter name must not be empty"}
	}
	c.QueryEdits = append(slices.Clip(c.QueryEdits), QueryEdit{Key: key, Value: value, Add: add})
	return nil
}

// EditJSON sets the body field at path to value, JSON already encoded, or
// deletes it when value is nil. opt names the option in errors. The path
// is dotted ("output_config.effort"); a backslash escapes a dot or a
// backslash that is part of a key (`tags.team\.name`).
func (c *Config) EditJSON(opt, path string, value json.RawMessage) error {
	keys, err := splitPath(path)
	if err != nil {
		return &apierror.ValidationError{Field: opt, Rule: fmt.Sprintf("%q: %v", path, err)}
	}
	c.BodyEdits = append(slices.Clip(c.BodyEdits), BodyEdit{Opt: opt, Path: path, Keys: keys, Value: value})
	return nil
}

// splitPath splits a dotted path into keys, none of them empty.
func splitPath(path string) ([]string, error) {
	if path == "" {
		return nil, fmt.Errorf("the path must not be empty")
	}
	var keys []string
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		switch ch := path[i]; ch {
		case '\\':
			if i+1 == len(path) || (path[i+1] != '.' && path[i+1] != '\\') {
				return nil, fmt.Errorf(`a backslash must escape "." or "\"`)
			}
			i++
			b.WriteByte(path[i])
		case '.':
			if b.Len() == 0 {
				return nil, fmt.Errorf("the path has an empty key")
			}
			keys = append(keys, b.String())
			b.Reset()
		default:
			b.WriteByte(ch)
		}
	}
	if b.Len() == 0 {
		return nil, fmt.Errorf("the path has an empty key")
	}
	return append(keys, b.String()), nil
}
