package models

import "github.com/agentplatform/agentplatform-go/internal/wire"

// The JSON methods of the wire types: each encodes exactly what the API
// sends, its unknown members (Extra) included, through a method-less copy
// of the type (plainX), so that the struct tags do the work.

type (
	plainModel                       Model
	plainCapability                  Capability
	plainCapabilities                Capabilities
	plainContextManagementCapability ContextManagementCapability
	plainEffortCapability            EffortCapability
	plainServerToolsCapability       ServerToolsCapability
	plainThinkingCapability          ThinkingCapability
	plainThinkingTypes               ThinkingTypes
)

// MarshalJSON writes the value as the API sends it, Extra included.
func (m Model) MarshalJSON() ([]byte, error) { return wire.Marshal(plainModel(m)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (m *Model) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainModel)(m)) }

// MarshalJSON writes the value as the API sends it, Extra included.
func (c Capability) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCapability(c)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (c *Capability) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainCapability)(c))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (c Capabilities) MarshalJSON() ([]byte, error) { return wire.Marshal(plainCapabilities(c)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (c *Capabilities) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainCapabilities)(c))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (c ContextManagementCapability) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainContextManagementCapability(c))
}

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (c *ContextManagementCapability) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainContextManagementCapability)(c))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (e EffortCapability) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainEffortCapability(e))
}

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (e *EffortCapability) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainEffortCapability)(e))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (s ServerToolsCapability) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainServerToolsCapability(s))
}

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (s *ServerToolsCapability) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainServerToolsCapability)(s))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (t ThinkingCapability) MarshalJSON() ([]byte, error) {
	return wire.Marshal(plainThinkingCapability(t))
}

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (t *ThinkingCapability) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainThinkingCapability)(t))
}

// MarshalJSON writes the value as the API sends it, Extra included.
func (t ThinkingTypes) MarshalJSON() ([]byte, error) { return wire.Marshal(plainThinkingTypes(t)) }

// UnmarshalJSON reads the value, keeping unknown members in Extra.
func (t *ThinkingTypes) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainThinkingTypes)(t))
}
