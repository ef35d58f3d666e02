package agents

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
)

// AgentRef is a request-side reference to an agent, as sessions and
// deployments send it: an AgentID (the latest version, pinned when the
// request is processed) or an AgentReference (a chosen version).
type AgentRef interface{ isAgentRef() }

// AgentID refers to an agent by id; the latest version is used. On the
// wire it is a bare JSON string.
type AgentID string

// AgentReference refers to one version of an agent: {"type": "agent", id,
// version}. Responses always carry the resolved version; in a request a
// zero Version means the latest.
type AgentReference struct {
	ID      string `json:"id"`               // 1 to 128 characters
	Version int    `json:"version,omitzero"` // at least 1; 0 means latest in requests
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

func (AgentID) isAgentRef()        {}
func (AgentReference) isAgentRef() {}

// validateAgentRef checks ref locally, reporting problems at field (the
// wire path of the reference, such as "agent"). Sessions and deployments
// send references too, and borrow it (shared.go).
func validateAgentRef(field string, ref AgentRef) error {
	switch r := ref.(type) {
	case nil:
		return &apierror.ValidationError{Field: field, Rule: "is required"}
	case AgentID:
		return check.Length(field, string(r), 1, 128)
	case AgentReference:
		if err := check.Length(field+".id", r.ID, 1, 128); err != nil {
			return err
		}
		return checkVersion(field+".version", r.Version)
	}
	return nil
}

// checkVersion accepts 0 (not sent) or an int32 of at least 1.
func checkVersion(field string, v int) error {
	if v < 0 {
		return &apierror.ValidationError{Field: field, Rule: "must be at least 1"}
	}
	if v > 1<<31-1 {
		return &apierror.ValidationError{Field: field, Rule: "must be between 1 and 2147483647"}
	}
	return nil
}
