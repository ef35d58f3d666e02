package deployments

import (
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Rules borrowed through internal/check: a deployment names an agent, and
// carries a session's initial events and resources.
var (
	validateAgentRef         = check.Shared[func(field string, ref agents.AgentRef) error]()
	validateSessionEvents    = check.Shared[func(field string, events []sessions.EventParam) error]()
	validateSessionResources = check.Shared[func(field string, resources []sessions.ResourceParam) error]()
)
