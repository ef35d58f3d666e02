package agents

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/tool"
)

// FromTool returns the definition of t as a custom tool of an agent: its
// name, description and input schema. The same tool.Tool values then answer
// the agent's calls, with toolrunner:
//
//	lookup := tool.Must(tool.New("lookup_order", "Look up an order by its id.", lookupOrder))
//	agent, err := client.Agents.Create(ctx, agents.CreateParams{
//		Name:  "Support",
//		Model: agents.ModelID(models.VendorHaiku55),
//		Tools: agents.FromTools(lookup),
//	})
//	runner, err := toolrunner.New(client.Sessions, []tool.Tool{lookup})
//
// The schema's keywords other than properties and required (for example
// additionalProperties, or $defs) are kept in InputSchema.Extra and sent
// unchanged. FromTool does not check t: a zero tool.Tool gives an empty
// definition, which Create refuses, naming the field.
func FromTool(t tool.Tool) CustomTool {
	var schema InputSchema
	if raw := t.InputSchema(); len(raw) > 0 {
		// A tool's schema is a JSON object: tool.New generates it and
		// tool.NewRaw checks it, so this cannot fail for a built tool.
		_ = json.Unmarshal(raw, &schema)
	}
	return CustomTool{Name: t.Name(), Description: t.Description(), InputSchema: schema}
}

// FromTools returns the custom tool definitions of ts, in order, ready for
// CreateParams.Tools (append them to the agent's other tools as needed).
func FromTools(ts ...tool.Tool) []Tool {
	out := make([]Tool, len(ts))
	for i, t := range ts {
		out[i] = FromTool(t)
	}
	return out
}
