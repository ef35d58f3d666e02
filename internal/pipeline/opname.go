package pipeline

import (
	"strings"
	"sync"
)

// Span names are derived from the endpoint, by the rule of docs/tracing.md,
// so that adding an endpoint needs no tracing code: the path without /v1
// and ids, dotted, then the verb of the platform's official SDKs.

// spanNames caches "vendor."+operation per endpoint: computed once, then a
// read-locked map lookup that allocates nothing on the hot path.
var spanNames = struct {
	sync.RWMutex
	m map[opKey]string
}{m: map[opKey]string{}}

type opKey struct{ method, route string }

// spanName returns the span name of a call: "vendor." plus op, or plus the
// operation the endpoint implies when op is empty.
func spanName(method, route, op string) string {
	if op != "" {
		return "vendor." + op
	}
	k := opKey{method, route}
	spanNames.RLock()
	name, ok := spanNames.m[k]
	spanNames.RUnlock()
	if !ok {
		name = "vendor." + deriveOp(method, route)
		spanNames.Lock()
		spanNames.m[k] = name
		spanNames.Unlock()
	}
	return name
}

// opName is the operation of method on route.
func opName(method, route string) string {
	return spanName(method, route, "")[len("vendor."):]
}

// actions are trailing path segments that name the operation themselves.
var actions = map[string]bool{
	"archive": true, "pause": true, "unpause": true, "run": true, "redact": true,
	"stream": true, "count_tokens": true,
}

func deriveOp(method, route string) string {
	segs := strings.Split(strings.TrimPrefix(route, "/v1/"), "/")
	object := strings.HasPrefix(segs[len(segs)-1], "{")
	names := make([]string, 0, len(segs)+1)
	for _, s := range segs {
		if !strings.HasPrefix(s, "{") {
			names = append(names, s)
		}
	}
	if last := names[len(names)-1]; actions[last] && !object {
		return strings.Join(names, ".")
	}
	verb := ""
	switch {
	case object && method == "GET":
		verb = "retrieve"
	case object && method == "DELETE":
		verb = "delete"
	case object:
		verb = "update"
	case method == "GET":
		verb = "list"
	case strings.HasSuffix(route, "/events"):
		verb = "send" // sending events is vendor.sessions.events.send (docs/tracing.md)
	case strings.HasSuffix(route, "/resources"):
		verb = "add"
	default:
		verb = "create"
	}
	return strings.Join(append(names, verb), ".")
}
