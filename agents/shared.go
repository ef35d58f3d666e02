package agents

import "github.com/agentplatform/agentplatform-go/internal/check"

// Rules the sessions and deployments packages borrow, since their requests
// carry agent references and tool lists (internal/check, "Rules that one
// package's requests borrow").
var (
	_ = check.Share(validateAgentRef)
	_ = check.Share(validateToolLists)
)
