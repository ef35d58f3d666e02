package agents

import "github.com/agentplatform/agentplatform-go/internal/hooks"

// Rules the sessions and deployments packages borrow, since their requests
// carry agent references and tool lists (see internal/hooks).
func init() {
	hooks.AgentRef = func(field string, ref any) error {
		return validateAgentRef(field, hooks.As[AgentRef]("AgentRef", ref))
	}
	hooks.AgentToolLists = func(prefix string, tools, servers, skills any, matched bool) error {
		return validateToolLists(prefix, hooks.As[[]Tool]("AgentToolLists", tools),
			hooks.As[[]MCPServer]("AgentToolLists", servers), hooks.As[[]Skill]("AgentToolLists", skills), matched)
	}
}
