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
