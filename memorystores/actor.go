package memorystores

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Actor is who wrote or redacted a memory version: *APIActor, *SessionActor,
// *UserActor, *ServiceAccountActor or, for kinds newer than this SDK,
// *UnknownActor.
//
//	switch a := v.CreatedBy.(type) {
//	case *memorystores.APIActor:
//		fmt.Println("written with key", a.APIKeyID)
//	case *memorystores.SessionActor:
//		fmt.Println("written by session", a.SessionID)
//	}
type Actor interface{ isActor() }

// APIActor is a write through this API, made with an API key (type "api_actor").
type APIActor struct {
	APIKeyID string `json:"api_key_id"` // "apikey_…"
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// SessionActor is a write by a session that mounts the store (type "session_actor").
type SessionActor struct {
	SessionID string `json:"session_id"` // "sesn_…"
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UserActor is a write by a user in the console (type "user_actor").
type UserActor struct {
	UserID string `json:"user_id"` // "user_…"
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ServiceAccountActor is a write through this API by a service account,
// authenticated with a federated or OAuth token rather than an API key
// (type "service_account_actor").
type ServiceAccountActor struct {
	ServiceAccountID string `json:"service_account_id"` // "svcacct_…"
	// Extra holds members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownActor is an actor of a kind this SDK does not know. It keeps the
// object as received.
type UnknownActor struct {
	Type string          // the actor's "type"
	JSON json.RawMessage // the whole object
}

func (*APIActor) isActor()            {}
func (*SessionActor) isActor()        {}
func (*UserActor) isActor()           {}
func (*ServiceAccountActor) isActor() {}
func (*UnknownActor) isActor()        {}

const (
	actorAPI            = "api_actor"
	actorSession        = "session_actor"
	actorUser           = "user_actor"
	actorServiceAccount = "service_account_actor"
)

type (
	plainAPIActor            APIActor
	plainSessionActor        SessionActor
	plainUserActor           UserActor
	plainServiceAccountActor ServiceAccountActor
)

// MarshalJSON writes the actor with its type first.
func (a APIActor) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(actorAPI, plainAPIActor(a))
}

// MarshalJSON writes the actor with its type first.
func (a SessionActor) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(actorSession, plainSessionActor(a))
}

// MarshalJSON writes the actor with its type first.
func (a UserActor) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(actorUser, plainUserActor(a))
}

// MarshalJSON writes the actor with its type first.
func (a ServiceAccountActor) MarshalJSON() ([]byte, error) {
	return wire.MarshalVariant(actorServiceAccount, plainServiceAccountActor(a))
}

// MarshalJSON writes the object back as it was received.
func (a UnknownActor) MarshalJSON() ([]byte, error) { return unknownJSON(a.Type, a.JSON) }

// UnmarshalJSON decodes the actor's members; its "type" is not read.
func (a *APIActor) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainAPIActor)(a), &a.Extra)
}

// UnmarshalJSON decodes the actor's members; its "type" is not read.
func (a *SessionActor) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainSessionActor)(a), &a.Extra)
}

// UnmarshalJSON decodes the actor's members; its "type" is not read.
func (a *UserActor) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainUserActor)(a), &a.Extra)
}

// UnmarshalJSON decodes the actor's members; its "type" is not read.
func (a *ServiceAccountActor) UnmarshalJSON(data []byte) error {
	return wire.Variant(data, (*plainServiceAccountActor)(a), &a.Extra)
}

// actors decodes the Actor fields of a version.
var actors = wire.Join(wire.Union(decodeActor))

func decodeActor(typ string, obj []byte) (Actor, error) {
	var a interface {
		Actor
		json.Unmarshaler
	}
	switch typ {
	case actorAPI:
		a = new(APIActor)
	case actorSession:
		a = new(SessionActor)
	case actorUser:
		a = new(UserActor)
	case actorServiceAccount:
		a = new(ServiceAccountActor)
	default:
		return &UnknownActor{Type: typ, JSON: bytes.Clone(obj)}, nil
	}
	if err := a.UnmarshalJSON(obj); err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	return a, nil
}

// unknownJSON is how an Unknown variant writes itself: the object it was
// decoded from, or, when built by hand without one, an object holding only
// its type.
func unknownJSON(typ string, raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return wire.WithType(typ, []byte("{}"))
	}
	return raw, nil
}
