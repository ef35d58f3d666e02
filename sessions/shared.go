package sessions

import (
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// Rules shared with other packages through internal/check: sessions borrow
// the agents package's rules for the agent a session names or defines, and
// lend theirs for the events and resources a deployment carries.
var (
	validateAgentRef  = check.Shared[func(field string, ref agents.AgentRef) error]()
	validateToolLists = check.Shared[func(prefix string, tools []agents.Tool, servers []agents.MCPServer,
		skills []agents.Skill, matched bool) error]()

	_ = check.Share(validateInitialEvents)
	_ = check.Share(validateResources)
)
