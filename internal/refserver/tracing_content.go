package refserver

import (
	"github.com/agentplatform/agentplatform-go/internal/genai"
)

// Content mode (docs/tracing.md, "Content mode"): messages as
// JSON strings in the OpenTelemetry GenAI message format. internal/genai
// maps the blocks and shortens oversized attributes, for the SDK and the
// server alike; the server's parsed JSON (jnode) crosses over through
// genaiTree, in content mode only. Managed-agent spans use agentContent:
// they show no reasoning.

// agentContent maps content on managed-agent spans.
var agentContent = genai.Options{OmitReasoning: true}

// genaiTree is n as a genai tree, members in order; nil for no node.
func genaiTree(n *jnode) any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case jBool:
		return n.b
	case jNumber:
		return n.num
	case jString:
		return n.str
	case jArray:
		a := make([]any, len(n.arr))
		for i, x := range n.arr {
			a[i] = genaiTree(x)
		}
		return a
	case jObject:
		o := make(genai.Object, len(n.obj))
		for i, m := range n.obj {
			o[i] = genai.Member{Key: m.key, Value: genaiTree(m.val)}
		}
		return o
	}
	return nil
}
