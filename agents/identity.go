package agents

import "encoding/json"

// ExecutionIdentity is the identity the agent's tools act as:
// ServiceAccount (the default), CloudRole, AWSRole, or
// UnknownExecutionIdentity.
type ExecutionIdentity interface{ isExecutionIdentity() }

// ServiceAccount runs the agent as the platform's service account (type
// "service_account").
type ServiceAccount struct {
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CloudRole runs the agent as a cloud role (type "cloud_role").
type CloudRole struct {
	RoleARN string `json:"role_arn"` // 1 to 2048 characters
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// AWSRole runs the agent as an AWS IAM role (type "aws_role"): the name
// current official clients use for what this SDK documents as CloudRole.
// The same rules apply; a response echoes the type the request used.
type AWSRole struct {
	RoleARN string `json:"role_arn"` // 1 to 2048 characters
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownExecutionIdentity is an identity type this SDK does not know, kept as received.
type UnknownExecutionIdentity struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (ServiceAccount) isExecutionIdentity()           {}
func (CloudRole) isExecutionIdentity()                {}
func (AWSRole) isExecutionIdentity()                  {}
func (UnknownExecutionIdentity) isExecutionIdentity() {}
