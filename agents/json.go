package agents

import (
	"bytes"
	"encoding/json"
	"errors"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentplatform/agentplatform-go/internal/hooks"
	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The JSON of the package's wire types. Each encodes exactly what the API
// sends, unknown members (Extra) included, through a method-less copy of
// the type (plainX), so that the struct tags do the work; union variants
// write their "type" first. The unions are decoded by unions, which every
// decode of a type that holds one passes on.

// unions decodes every union-typed field of the package's types. It is set
// by init, since the decoders refer to it for the unions nested in their
// variants.
var unions wire.Options

func init() {
	decoders := jsonv2.JoinUnmarshalers(
		wire.Union(decodeTool),
		wire.Union(decodeSkill),
		wire.Union(decodeExecutionIdentity),
		wire.Union(decodeMultiagent),
		agentIDEntries, // before the object form of the same union
		wire.Union(decodeRosterEntry),
		wire.Union(decodeAdvisor),
		wire.Union(decodeDelegation),
	)
	unions = wire.Join(decoders)
	hooks.AgentUnions = decoders
}

// agentIDEntries decodes a roster entry that is a bare string, an AgentID;
// other entries are objects, left to decodeRosterEntry.
var agentIDEntries = jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *RosterEntry) error {
	if dec.PeekKind() != '"' {
		return errors.ErrUnsupported // not a string: the next decoder's
	}
	var id string
	if err := jsonv2.UnmarshalDecode(dec, &id); err != nil {
		return err
	}
	*v = AgentID(id)
	return nil
})

// unmarshaler is a pointer to T with its UnmarshalJSON.
type unmarshaler[T any] interface {
	*T
	UnmarshalJSON([]byte) error
}

// decode decodes obj, a variant's object, with the variant's UnmarshalJSON.
func decode[T any, P unmarshaler[T]](obj []byte) (T, error) {
	var v T
	err := P(&v).UnmarshalJSON(obj)
	return v, err
}

// variant encodes v, a variant's method-less copy, with "type": typ first.
func variant(typ string, v any) ([]byte, error) {
	body, err := wire.Marshal(v)
	if err != nil {
		return nil, err
	}
	return wire.WithType(typ, body)
}

// unknown writes an Unknown variant back as received; one built by hand
// without JSON is written as {"type": typ}.
func unknown(typ string, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return wire.WithType(typ, []byte("{}"))
	}
	return raw, nil
}

// keep copies obj, which the decoder may reuse, for an Unknown variant.
func keep(obj []byte) json.RawMessage { return bytes.Clone(obj) }

func decodeTool(typ string, obj []byte) (Tool, error) {
	switch typ {
	case agentToolsetType:
		return decode[AgentToolset](obj)
	case "mcp_toolset":
		return decode[MCPToolset](obj)
	case "custom":
		return decode[CustomTool](obj)
	}
	return UnknownTool{Type: typ, JSON: keep(obj)}, nil
}

func decodeSkill(typ string, obj []byte) (Skill, error) {
	switch typ {
	case "vendor":
		return decode[VendorSkill](obj)
	case "custom":
		return decode[CustomSkill](obj)
	}
	return UnknownSkill{Type: typ, JSON: keep(obj)}, nil
}

func decodeExecutionIdentity(typ string, obj []byte) (ExecutionIdentity, error) {
	switch typ {
	case "service_account":
		return decode[ServiceAccount](obj)
	case "cloud_role":
		return decode[CloudRole](obj)
	case "aws_role":
		return decode[AWSRole](obj)
	}
	return UnknownExecutionIdentity{Type: typ, JSON: keep(obj)}, nil
}

func decodeMultiagent(typ string, obj []byte) (Multiagent, error) {
	switch typ {
	case "coordinator":
		return decode[Coordinator](obj)
	case multiagentType20261001:
		return decode[Multiagent20261001](obj)
	}
	return UnknownMultiagent{Type: typ, JSON: keep(obj)}, nil
}

func decodeRosterEntry(typ string, obj []byte) (RosterEntry, error) {
	switch typ {
	case "agent":
		if isDefinition(obj) {
			return decode[RosterAgent](obj)
		}
		return decode[AgentReference](obj)
	case "self":
		return decode[SelfEntry](obj)
	case "advisor":
		return decode[AdvisorEntry](obj)
	}
	return UnknownRosterEntry{Type: typ, JSON: keep(obj)}, nil
}

// isDefinition reports whether obj, a roster entry of type "agent", is an
// agent's definition (RosterAgent) rather than a reference: only a
// definition has a "name". RosterAgent always writes one, so a definition
// decodes back as a definition.
func isDefinition(obj []byte) bool {
	var probe struct {
		Name json.RawMessage `json:"name"`
	}
	return wire.Unmarshal(obj, &probe) == nil && probe.Name != nil
}

func decodeAdvisor(typ string, obj []byte) (Advisor, error) {
	switch typ {
	case "enabled":
		return decode[AdvisorEnabled](obj)
	case "disabled":
		return decode[AdvisorDisabled](obj)
	}
	return UnknownAdvisor{Type: typ, JSON: keep(obj)}, nil
}

func decodeDelegation(typ string, obj []byte) (Delegation, error) {
	switch typ {
	case "enabled":
		return decode[DelegationEnabled](obj)
	case "disabled":
		return decode[DelegationDisabled](obj)
	}
	return UnknownDelegation{Type: typ, JSON: keep(obj)}, nil
}

type (
	plainAgent          Agent
	plainAgentReference AgentReference
	plainModelConfig    ModelConfig
)

// MarshalJSON writes the agent as the API sends it, Extra included.
func (a Agent) MarshalJSON() ([]byte, error) { return wire.Marshal(plainAgent(a)) }

// UnmarshalJSON reads an agent, its unions included.
func (a *Agent) UnmarshalJSON(data []byte) error {
	*a = Agent{}
	return wire.Unmarshal(data, (*plainAgent)(a), unions)
}

// MarshalJSON writes {"type": "agent", "id", "version"}; a zero Version
// (the latest, in a request) is not sent.
func (r AgentReference) MarshalJSON() ([]byte, error) {
	return variant("agent", plainAgentReference(r))
}

// UnmarshalJSON reads a reference; its "type" is not kept in Extra.
func (r *AgentReference) UnmarshalJSON(data []byte) error {
	*r = AgentReference{}
	return wire.Variant(data, (*plainAgentReference)(r), &r.Extra)
}

// MarshalJSON writes the model config as the API sends it, Extra included.
func (m ModelConfig) MarshalJSON() ([]byte, error) { return wire.Marshal(plainModelConfig(m)) }

// UnmarshalJSON reads the object form, or a bare model id string (the
// request form).
func (m *ModelConfig) UnmarshalJSON(data []byte) error {
	*m = ModelConfig{}
	if len(data) > 0 && data[0] == '"' {
		return wire.Unmarshal(data, &m.ID)
	}
	return wire.Unmarshal(data, (*plainModelConfig)(m))
}
