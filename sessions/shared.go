package sessions

import (
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/hooks"
)

// Rules shared with other packages through internal/hooks: sessions borrow
// the agents package's rules for the agent a session names or defines, and
// lend theirs for the events and resources a deployment carries.

func init() {
	hooks.SessionEvents = func(field string, events any) error {
		return validateInitialEvents(field, hooks.As[[]EventParam]("SessionEvents", events))
	}
	hooks.SessionResources = func(field string, resources any) error {
		return validateResources(field, hooks.As[[]ResourceParam]("SessionResources", resources))
	}
}

// validateAgentRef is the agents package's rule for an agent reference.
func validateAgentRef(field string, ref agents.AgentRef) error { return hooks.AgentRef(field, ref) }

// validateToolLists is the agents package's rule for a request's tools,
// MCP servers and skills.
func validateToolLists(prefix string, tools []agents.Tool, servers []agents.MCPServer, skills []agents.Skill, matched bool) error {
	return hooks.AgentToolLists(prefix, tools, servers, skills, matched)
}
