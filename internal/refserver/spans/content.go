package spans

import (
	"go.opentelemetry.io/otel/attribute"

	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/genai"
)

// Content mode (docs/tracing.md, "Content mode"): messages as JSON strings
// in the OpenTelemetry GenAI message format. internal/genai maps the blocks
// and shortens oversized attributes, for the SDK and the server alike; the
// server's parsed JSON crosses over as a genai tree (messages.GenaiTree),
// in content mode only.

// AgentContent maps content on managed-agent spans: they show no
// reasoning.
var AgentContent = genai.Options{OmitReasoning: true}

// Content collects content attributes (content mode, docs/tracing.md)
// and whether one was shortened.
type Content struct {
	attrs     []attribute.KeyValue
	truncated bool
}

// Add records v, a genai tree, within the content limit.
func (ca *Content) Add(key attribute.Key, v any) {
	s, cut := genai.Encode(v, genai.Limit())
	ca.attrs = append(ca.attrs, key.String(s))
	ca.truncated = ca.truncated || cut
}

// KVs returns the attributes, with vendor.content.truncated when one was
// shortened.
func (ca *Content) KVs() []attribute.KeyValue {
	if ca.truncated {
		return append(ca.attrs, attr.ContentTruncated.Bool(true))
	}
	return ca.attrs
}
