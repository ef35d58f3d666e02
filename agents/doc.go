// Package agents manages agents (docs/managed-agents-wire.md 4): versioned
// agent definitions with a model, a system prompt, tools, MCP servers,
// skills and an optional multi-agent configuration.
//
//	agent, err := client.Agents.Create(ctx, agents.CreateParams{
//		Name:   "Researcher",
//		Model:  agents.ModelConfig{ID: models.VendorOpus55, Effort: agents.EffortHigh},
//		System: "You are a careful research agent.",
//		Tools: []agents.Tool{
//			agents.AgentToolset{Configs: []agents.ToolConfig{
//				{Name: agents.ToolBash, PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)},
//			}},
//			agents.MCPToolset{MCPServerName: "docs"},
//			agents.CustomTool{Name: "lookup_order", Description: "Look up an order.",
//				InputSchema: agents.InputSchema{Properties: map[string]any{"id": map[string]any{"type": "string"}}}},
//		},
//		MCPServers: []agents.MCPServer{{Name: "docs", URL: "https://mcp.example.com/sse"}},
//	})
//
//	// Every change writes a new version; Version makes it conditional.
//	agent, err = client.Agents.Update(ctx, agent.ID, agents.UpdateParams{
//		Version: agent.Version, System: param.Value("Be brief."),
//	})
//	v1, err := client.Agents.Get(ctx, agent.ID, agents.GetParams{Version: 1})
//	for a, err := range client.Agents.All(ctx, agents.ListParams{}) { … }
//
// Unions (Tool, Skill, Multiagent, RosterEntry, Advisor, Delegation,
// ExecutionIdentity) are sealed interfaces: switch on the concrete type.
// Each has an Unknown variant that keeps the JSON of a type newer than this
// SDK, so it is never dropped and marshals back unchanged. Enum-like string
// types (Effort, ToolName, PermissionPolicyType, …) keep unknown values.
//
// Requests are checked locally first: a parameter that breaks a documented
// limit returns an *apierror.ValidationError naming its wire path (for
// example "tools[0].name") and nothing is sent.
//
// FromTools declares tool.Tool values (Go functions with a typed input) as
// custom tools; a toolrunner.Runner then answers the agent's calls of them
// in sessions. DecodeToolInput decodes the input of a built-in tool call
// (bash, edit, glob, grep, read, write) from an agent.tool_use event.
//
// Agents run in sessions (package sessions), in an environment (package
// environments), started by hand or by a deployment (package deployments).
//
// Every call sends the vendor-beta value these endpoints require.
package agents
