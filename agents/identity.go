package agents

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// ExecutionIdentity is the identity the agent's tools act as:
// ServiceAccount (the default), CloudRole, or UnknownExecutionIdentity.
type ExecutionIdentity interface{ isExecutionIdentity() }

// ServiceAccount runs the agent as the platform's service account (type
// "service_account").
type ServiceAccount struct{}

// CloudRole runs the agent as a cloud role (type "cloud_role").
type CloudRole struct {
	RoleARN string `json:"role_arn"` // 1 to 2048 characters
}

// UnknownExecutionIdentity is an identity type this SDK does not know, kept
// as received.
type UnknownExecutionIdentity struct{ union.Raw }

func (ServiceAccount) isExecutionIdentity()           {}
func (CloudRole) isExecutionIdentity()                {}
func (UnknownExecutionIdentity) isExecutionIdentity() {}

func (ServiceAccount) MarshalJSON() ([]byte, error) {
	return union.Marshal("service_account", struct{}{})
}

func (c CloudRole) MarshalJSON() ([]byte, error) {
	type plain CloudRole
	return union.Marshal("cloud_role", plain(c))
}

func decodeExecutionIdentity(data []byte) (ExecutionIdentity, error) {
	if string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "service_account":
		return ServiceAccount{}, nil
	case "cloud_role":
		var c CloudRole
		return c, json.Unmarshal(data, &c)
	}
	return UnknownExecutionIdentity{union.NewRaw(typ, data)}, nil
}
