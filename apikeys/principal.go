package apikeys

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Principal is whom a key acts as: *UserActor (a personal key),
// *ServiceAccountActor or, for kinds newer than this SDK,
// *UnknownPrincipal. It is nil for a key bound to no principal (a legacy
// workspace key, which acts as nobody).
//
//	switch p := key.Principal.(type) {
//	case *apikeys.UserActor:
//		fmt.Println("personal key of", p.UserID)
//	case *apikeys.ServiceAccountActor:
//		fmt.Println("key of service account", p.ServiceAccountID)
//	case nil:
//		fmt.Println("legacy workspace key")
//	}
type Principal interface{ isPrincipal() }

// UserActor is a user a key acts as (type "user_actor").
type UserActor struct {
	UserID string `json:"user_id"` // "user_…"
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ServiceAccountActor is a service account a key acts as (type
// "service_account_actor").
type ServiceAccountActor struct {
	ServiceAccountID string `json:"service_account_id"` // "svcacct_…"
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownPrincipal is a principal of a kind this SDK does not know. It
// keeps the object as received.
type UnknownPrincipal struct {
	Type string          // the principal's "type"
	JSON json.RawMessage // the whole object
}

func (*UserActor) isPrincipal()           {}
func (*ServiceAccountActor) isPrincipal() {}
func (*UnknownPrincipal) isPrincipal()    {}

const (
	principalUser           = "user_actor"
	principalServiceAccount = "service_account_actor"
)

type (
	plainUserActor           UserActor
	plainServiceAccountActor ServiceAccountActor
)

// MarshalJSON writes the principal with its type first.
func (p UserActor) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(principalUser, plainUserActor(p))
}

// MarshalJSON writes the principal with its type first.
func (p ServiceAccountActor) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(principalServiceAccount, plainServiceAccountActor(p))
}

// MarshalJSON writes the object back as it was received or, when built by
// hand without one, an object holding only its type.
func (p UnknownPrincipal) MarshalJSON() ([]byte, error) {
	if len(p.JSON) == 0 {
		return wire.WithType(p.Type, []byte("{}"))
	}
	return p.JSON, nil
}

// UnmarshalJSON decodes the principal's members; its "type" is not read.
func (p *UserActor) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainUserActor)(p), &p.Extra)
}

// UnmarshalJSON decodes the principal's members; its "type" is not read.
func (p *ServiceAccountActor) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainServiceAccountActor)(p), &p.Extra)
}

// principals decodes the Principal field of a key.
var principals = wire.Join(wire.Union(decodePrincipal))

func decodePrincipal(typ string, obj []byte) (Principal, error) {
	var p interface {
		Principal
		json.Unmarshaler
	}
	switch typ {
	case principalUser:
		p = new(UserActor)
	case principalServiceAccount:
		p = new(ServiceAccountActor)
	default:
		return &UnknownPrincipal{Type: typ, JSON: bytes.Clone(obj)}, nil
	}
	if err := p.UnmarshalJSON(obj); err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	return p, nil
}
