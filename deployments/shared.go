package deployments

import (
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/hooks"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Rules borrowed through internal/hooks: a deployment names an agent, and
// carries a session's initial events and resources.

// validateAgentRef is the agents package's rule for an agent reference.
func validateAgentRef(field string, ref agents.AgentRef) error { return hooks.AgentRef(field, ref) }

// validateSessionEvents is the sessions package's rule for initial events.
func validateSessionEvents(field string, events []sessions.EventParam) error {
	return hooks.SessionEvents(field, events)
}

// validateSessionResources is the sessions package's rule for resources.
func validateSessionResources(field string, resources []sessions.ResourceParam) error {
	return hooks.SessionResources(field, resources)
}
