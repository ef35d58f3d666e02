package apikeys

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// APIKey is an API key of the organization (type "api_key"). It never
// holds the secret: only PartialKeyHint.
type APIKey struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
	// WorkspaceID is the workspace the key is scoped to, or "" for a key
	// that is not scoped to a workspace (null on the wire). It is sent
	// under API version 2023-06-01 only: under 2026-10-21 it is always "",
	// and Scope.WorkspaceID says the same (docs/api-versions.md).
	WorkspaceID string `json:"workspace_id,omitzero"`
	// Scope is where the key belongs: its workspace, or the organization
	// for a principal-bound key without one. It is sent under every API
	// version; zero when the server does not send it.
	Scope     Scope     `json:"scope,omitzero"`
	CreatedAt time.Time `json:"created_at"`
	CreatedBy Actor     `json:"created_by"`
	// Principal is whom the key acts as: *UserActor (personal key),
	// *ServiceAccountActor or *UnknownPrincipal; nil (null on the wire) for
	// a legacy workspace key, which acts as nobody.
	Principal Principal `json:"principal"`
	// PartialKeyHint shows the start and end of the secret
	// ("sk-vendor-api03-R2D...igAA").
	PartialKeyHint string `json:"partial_key_hint"`
	// Status is StatusExpired once ExpiresAt has passed on the server's
	// clock, unless the key was deleted (StatusArchived).
	Status Status `json:"status"`
	// ExpiresAt is when the key stops working, fixed at creation; zero for
	// a key that never expires (null on the wire).
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Expired reports whether the key has expired at now, on the caller's
// clock; Status tells the same on the server's clock. An expired key can
// only be deleted.
func (k *APIKey) Expired(now time.Time) bool {
	return !k.ExpiresAt.IsZero() && !now.Before(k.ExpiresAt)
}

// Status is a key's status. Values not listed here are kept as received.
type Status string

const (
	StatusActive   Status = "active"
	StatusInactive Status = "inactive" // disabled; can be re-enabled
	StatusArchived Status = "archived" // deleted, permanently; still listed
	// StatusExpired is reported, never set: the key's ExpiresAt has
	// passed. It can be listed with ListParams.Status but not sent in
	// UpdateParams.
	StatusExpired Status = "expired"
)

// Actor is a user or a service account: who created a key.
type Actor struct {
	ID   string    `json:"id"`
	Type ActorType `json:"type"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ActorType tells users from service accounts. Values not listed here are
// kept as received.
type ActorType string

const (
	ActorUser           ActorType = "user"
	ActorServiceAccount ActorType = "service_account"
)

// Scope is where an API key belongs.
type Scope struct {
	// Type is ScopeWorkspace or ScopeOrganization.
	Type ScopeType `json:"type"`
	// WorkspaceID is the key's workspace for ScopeWorkspace, the real id
	// even for the organization's default workspace; "" otherwise.
	WorkspaceID string `json:"workspace_id,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// ScopeType is the kind of a key's scope. Values not listed here are kept
// as received.
type ScopeType string

const (
	ScopeWorkspace    ScopeType = "workspace"
	ScopeOrganization ScopeType = "organization" // no workspace; principal-bound keys only
)

type (
	plainAPIKey APIKey
	plainActor  Actor
	plainScope  Scope
)

// MarshalJSON writes the key as the API sends it, Extra included.
func (k APIKey) MarshalJSON() ([]byte, error) { return wire.Marshal(plainAPIKey(k)) }

// UnmarshalJSON reads a key, keeping unknown members in Extra.
func (k *APIKey) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainAPIKey)(k), principals)
}

// MarshalJSON writes the actor as the API sends it, Extra included.
func (a Actor) MarshalJSON() ([]byte, error) { return wire.Marshal(plainActor(a)) }

// UnmarshalJSON reads an actor, keeping unknown members in Extra.
func (a *Actor) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainActor)(a)) }

// MarshalJSON writes the scope as the API sends it, Extra included.
func (sc Scope) MarshalJSON() ([]byte, error) { return wire.Marshal(plainScope(sc)) }

// UnmarshalJSON reads a scope, keeping unknown members in Extra.
func (sc *Scope) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainScope)(sc)) }
