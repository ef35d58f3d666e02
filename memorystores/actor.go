package memorystores

import (
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

// Actor is who wrote or redacted a memory version: *APIActor, *SessionActor,
// *UserActor or, for kinds newer than this SDK, *UnknownActor.
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
}

// SessionActor is a write by a session that mounts the store (type "session_actor").
type SessionActor struct {
	SessionID string `json:"session_id"` // "sesn_…"
}

// UserActor is a write by a user in the console (type "user_actor").
type UserActor struct {
	UserID string `json:"user_id"` // "user_…"
}

// UnknownActor is an actor of a kind this SDK does not know. It keeps the
// object as received.
type UnknownActor struct {
	Type string          // the actor's "type"
	JSON json.RawMessage // the whole object
}

func (*APIActor) isActor()     {}
func (*SessionActor) isActor() {}
func (*UserActor) isActor()    {}
func (*UnknownActor) isActor() {}

// MarshalJSON writes the actor with its type.
func (a APIActor) MarshalJSON() ([]byte, error) {
	type plain APIActor
	return union.Marshal("api_actor", plain(a))
}

// MarshalJSON writes the actor with its type.
func (a SessionActor) MarshalJSON() ([]byte, error) {
	type plain SessionActor
	return union.Marshal("session_actor", plain(a))
}

// MarshalJSON writes the actor with its type.
func (a UserActor) MarshalJSON() ([]byte, error) {
	type plain UserActor
	return union.Marshal("user_actor", plain(a))
}

// MarshalJSON writes the object back as it was received.
func (a UnknownActor) MarshalJSON() ([]byte, error) {
	return union.Raw{Type: a.Type, JSON: a.JSON}.MarshalJSON()
}

// decodeActor decodes an actor; null is a nil Actor.
func decodeActor(data []byte) (Actor, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	var a Actor
	switch typ {
	case "api_actor":
		a = new(APIActor)
	case "session_actor":
		a = new(SessionActor)
	case "user_actor":
		a = new(UserActor)
	default:
		raw := union.NewRaw(typ, data)
		return &UnknownActor{Type: raw.Type, JSON: raw.JSON}, nil
	}
	if err := json.Unmarshal(data, a); err != nil {
		return nil, fmt.Errorf("%s: %w", typ, err)
	}
	return a, nil
}
