package pipeline

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/config"
)

// editQuery applies edits to q, an encoded query. The caller's keys are
// escaped, brackets aside, which the API reads literally
// ("created_at[gte]", as the SDK itself sends them); a replacing edit
// drops every earlier pair whose key, unescaped, is the same.
func editQuery(q string, edits []config.QueryEdit) string {
	for _, e := range edits {
		if !e.Add {
			q = withoutKey(q, e.Key)
		}
		if q != "" {
			q += "&"
		}
		q += queryKeyEscaper.Replace(url.QueryEscape(e.Key)) + "=" + url.QueryEscape(e.Value)
	}
	return q
}

var queryKeyEscaper = strings.NewReplacer("%5B", "[", "%5D", "]")

// withoutKey is q without its pairs for key.
func withoutKey(q, key string) string {
	kept := make([]string, 0, strings.Count(q, "&")+1)
	for pair := range strings.SplitSeq(q, "&") {
		k, _, _ := strings.Cut(pair, "=")
		if uk, err := url.QueryUnescape(k); pair == "" || k == key || (err == nil && uk == key) {
			continue
		}
		kept = append(kept, pair)
	}
	return strings.Join(kept, "&")
}

// editBody applies edits to b, the JSON body of a call, which must be an
// object; nil (a POST without a body) starts from an empty one. Every
// failure is an *apierror.ValidationError naming the option.
func editBody(b []byte, edits []config.BodyEdit) ([]byte, error) {
	if b == nil {
		b = []byte("{}")
	}
	if kind := jsonKind(b); kind != '{' {
		e := edits[0]
		return nil, &apierror.ValidationError{Field: e.Opt, Rule: fmt.Sprintf("%q: the request body is %s, not a JSON object", e.Path, kindName(kind))}
	}
	for _, e := range edits {
		out, err := editValue(b, e.Keys, 0, e.Value)
		if err != nil {
			return nil, &apierror.ValidationError{Field: e.Opt, Rule: fmt.Sprintf("%q: %v", e.Path, err)}
		}
		b = out
	}
	return b, nil
}

// editValue sets (or, value nil, deletes) keys[i:] inside data, an object
// or array. Keys on an object name members; a missing or null member
// becomes an object when there is more of the path to go. Keys on an array
// are indexes of elements it has: the path never grows an array.
func editValue(data []byte, keys []string, i int, value json.RawMessage) ([]byte, error) {
	key, last := keys[i], i == len(keys)-1
	switch kind := jsonKind(data); kind {
	case '{':
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, err
		}
		child, ok := m[key]
		switch {
		case last && value == nil:
			if !ok {
				return data, nil
			}
			delete(m, key)
		case last:
			m[key] = value
		default:
			if !ok || isNull(child) {
				if value == nil {
					return data, nil // nothing there to delete
				}
				child = json.RawMessage("{}")
			}
			out, err := editValue(child, keys, i+1, value)
			if err != nil {
				return nil, err
			}
			m[key] = out
		}
		return json.Marshal(m)
	case '[':
		var a []json.RawMessage
		if err := json.Unmarshal(data, &a); err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(key)
		if err != nil || n < 0 || n >= len(a) {
			return nil, fmt.Errorf("%q is an array of %d elements there, and %q is not one of its indexes", strings.Join(keys[:i], "."), len(a), key)
		}
		switch {
		case last && value == nil:
			a = slices.Delete(a, n, n+1)
		case last:
			a[n] = value
		default:
			out, err := editValue(a[n], keys, i+1, value)
			if err != nil {
				return nil, err
			}
			a[n] = out
		}
		return json.Marshal(a)
	default:
		return nil, fmt.Errorf("%q is %s, not an object or array", strings.Join(keys[:i], "."), kindName(kind))
	}
}

// jsonKind is the first byte of a JSON value, white space aside.
func jsonKind(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
		default:
			return c
		}
	}
	return 0
}

func kindName(kind byte) string {
	switch kind {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case 0:
		return "empty"
	}
	return "a number"
}
