package environments

import (
	"bytes"
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// The JSON methods of the wire types: each encodes exactly what the API
// sends, unknown members (Extra) included, through a method-less copy of
// the type (plainX), so that the struct tags do the work. Union variants
// write their "type" first; the config and networking unions are decoded
// by unions, which every decode of a type holding them passes on.

type (
	plainEnvironment            Environment
	plainCloudConfig            CloudConfig
	plainSelfHostedConfig       SelfHostedConfig
	plainUnrestrictedNetworking UnrestrictedNetworking
	plainLimitedNetworking      LimitedNetworking
	plainPackages               Packages
)

// unions decodes the Config and Networking fields. It is set by init,
// since its decoders refer to it for the values nested in a variant.
var unions wire.Options

func init() {
	unions = wire.Join(wire.Union(decodeConfig), wire.Union(decodeNetworking))
}

func decodeConfig(typ string, obj []byte) (Config, error) {
	switch typ {
	case "cloud":
		var c CloudConfig
		err := wire.Variant(obj, (*plainCloudConfig)(&c), &c.Extra, unions)
		return c, err
	case "self_hosted":
		var c SelfHostedConfig
		err := wire.Variant(obj, (*plainSelfHostedConfig)(&c), &c.Extra)
		return c, err
	}
	return UnknownConfig{Type: typ, JSON: bytes.Clone(obj)}, nil
}

func decodeNetworking(typ string, obj []byte) (Networking, error) {
	switch typ {
	case "unrestricted":
		var n UnrestrictedNetworking
		err := wire.Variant(obj, (*plainUnrestrictedNetworking)(&n), &n.Extra)
		return n, err
	case "limited":
		var n LimitedNetworking
		err := wire.Variant(obj, (*plainLimitedNetworking)(&n), &n.Extra)
		return n, err
	}
	return UnknownNetworking{Type: typ, JSON: bytes.Clone(obj)}, nil
}

// variant encodes v, a variant's method-less copy, with "type": typ first.
func variant(typ string, v any) ([]byte, error) {
	body, err := wire.Marshal(v, unions)
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

// MarshalJSON writes the environment as the API sends it, Extra included.
func (e Environment) MarshalJSON() ([]byte, error) { return wire.Marshal(plainEnvironment(e)) }

// UnmarshalJSON reads an environment, its config union included.
func (e *Environment) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainEnvironment)(e), unions)
}

// MarshalJSON writes {"type": "cloud", …}.
func (c CloudConfig) MarshalJSON() ([]byte, error) { return variant("cloud", plainCloudConfig(c)) }

// UnmarshalJSON reads a cloud config; its "type" is not kept in Extra.
func (c *CloudConfig) UnmarshalJSON(data []byte) error {
	*c = CloudConfig{}
	return wire.Variant(data, (*plainCloudConfig)(c), &c.Extra, unions)
}

// MarshalJSON writes {"type": "self_hosted", …}.
func (c SelfHostedConfig) MarshalJSON() ([]byte, error) {
	return variant("self_hosted", plainSelfHostedConfig(c))
}

// UnmarshalJSON reads a self-hosted config; its "type" is not kept in Extra.
func (c *SelfHostedConfig) UnmarshalJSON(data []byte) error {
	*c = SelfHostedConfig{}
	return wire.Variant(data, (*plainSelfHostedConfig)(c), &c.Extra)
}

// MarshalJSON writes the config back as received.
func (u UnknownConfig) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }

// MarshalJSON writes {"type": "unrestricted", …}.
func (n UnrestrictedNetworking) MarshalJSON() ([]byte, error) {
	return variant("unrestricted", plainUnrestrictedNetworking(n))
}

// UnmarshalJSON reads unrestricted networking; its "type" is not kept in Extra.
func (n *UnrestrictedNetworking) UnmarshalJSON(data []byte) error {
	*n = UnrestrictedNetworking{}
	return wire.Variant(data, (*plainUnrestrictedNetworking)(n), &n.Extra)
}

// MarshalJSON writes {"type": "limited", …}.
func (n LimitedNetworking) MarshalJSON() ([]byte, error) {
	return variant("limited", plainLimitedNetworking(n))
}

// UnmarshalJSON reads limited networking; its "type" is not kept in Extra.
func (n *LimitedNetworking) UnmarshalJSON(data []byte) error {
	*n = LimitedNetworking{}
	return wire.Variant(data, (*plainLimitedNetworking)(n), &n.Extra)
}

// MarshalJSON writes the networking back as received.
func (u UnknownNetworking) MarshalJSON() ([]byte, error) { return unknown(u.Type, u.JSON) }

// MarshalJSON writes {"type": "packages", …}, the one type of packages.
func (p Packages) MarshalJSON() ([]byte, error) { return variant("packages", plainPackages(p)) }

// UnmarshalJSON reads packages; their "type" is not kept in Extra.
func (p *Packages) UnmarshalJSON(data []byte) error {
	*p = Packages{}
	return wire.Variant(data, (*plainPackages)(p), &p.Extra)
}
