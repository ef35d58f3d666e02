package identity

import (
	"errors"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// KeyKind is the kind of an API key (docs/api-choices.md "API keys").
type KeyKind string

const (
	PersonalKey       KeyKind = "personal"
	ServiceAccountKey KeyKind = "service_account"
	WorkspaceKey      KeyKind = "workspace" // legacy: belongs to its workspace, acts as nobody
)

// KeySpec describes a key for CreateAPIKey.
type KeySpec struct {
	Kind        KeyKind
	OwnerID     string    // user id (personal) or service account id; empty for WorkspaceKey
	WorkspaceID string    // scope; "" = not scoped (all workspaces the owner can reach); required for WorkspaceKey
	ExpiresAt   time.Time // zero = never expires; compared with the server clock; fixed for good
	// Name is the api_key object's name, 1–255 characters; "" = the key's id.
	Name string
	// CreatedBy is the api_key object's created_by: a user_… or svcacct_…
	// id that exists. "" = the owner for a personal key, the organization's
	// seed owner for service account and workspace keys (docs/auth-wire.md 5.1).
	CreatedBy string
}

// APIKey is a created key. Secret is what clients send; the server keeps
// only its digest.
type APIKey struct{ ID, Secret string }

// KeyStatus is the status of an API key (docs/auth-wire.md 5.1).
type KeyStatus string

const (
	KeyActive   KeyStatus = "active"
	KeyInactive KeyStatus = "inactive"
	KeyArchived KeyStatus = "archived"
)

type apiKey struct {
	id          string
	kind        KeyKind
	ownerID     string
	workspaceID string
	expiresAt   time.Time
	status      KeyStatus
	name        string
	createdAt   time.Time
	createdBy   string // user_… or svcacct_…
	hint        string // partial_key_hint: the only part of the secret kept
}

func (k *apiKey) expired(now time.Time) bool {
	return !k.expiresAt.IsZero() && !now.Before(k.expiresAt)
}

// Principal is who an authenticated request acts as: a copy of the key's
// identity, so nothing guarded by the server's lock escapes it.
type Principal struct {
	keyID       string
	kind        KeyKind
	ownerID     string
	workspaceID string // the key's scope; "" when not scoped
	// scope is an access token's scope (oauth_tokens.go); "" for API keys.
	// A federation token acts as its service account; a device token as
	// nobody (kind "").
	scope string
	// idemOwner scopes an access token's Idempotency-Keys to what outlives
	// the token: its service account, or its attested device key. "" for
	// API keys, whose keys are scoped to the key itself.
	idemOwner string
	// environmentID is the environment of an environment key (scope
	// ScopeEnvironment, environment_keys.go); "" otherwise.
	environmentID string
}

// IdempotencyOwner is whose Idempotency-Keys a request shares
// (kit.Caller).
func (p Principal) IdempotencyOwner() string {
	if p.idemOwner != "" {
		return p.idemOwner
	}
	return p.keyID
}

// ActorID is the key (or access token) that acts (kit.Caller).
func (p Principal) ActorID() string { return p.keyID }

func (k *apiKey) principal() Principal {
	return Principal{keyID: k.id, kind: k.kind, ownerID: k.ownerID, workspaceID: k.workspaceID}
}

// CreateAPIKey creates an active key. The owner must exist and be able to
// use the API in the scoped workspace, as the console requires at creation.
func (s *Service) CreateAPIKey(spec KeySpec) (APIKey, error) {
	// Stored as the wire shows it (expires_at has microseconds), so that
	// "expires_at ≤ now" tells a client exactly when the key expires.
	spec.ExpiresAt = spec.ExpiresAt.Truncate(time.Microsecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkKeySpecLocked(spec); err != nil {
		return APIKey{}, err
	}
	return s.addKeyLocked(spec), nil
}

func (s *Service) checkKeySpecLocked(spec KeySpec) error {
	if !spec.ExpiresAt.IsZero() && !spec.ExpiresAt.After(s.cfg.clock.Now()) {
		return errors.New("ExpiresAt must be in the future")
	}
	if spec.Name != "" {
		if err := kit.CheckLength("Name", spec.Name, 1, 255); err != nil {
			return goError(err)
		}
	}
	if err := s.checkKeyCreatorLocked(spec.CreatedBy); err != nil {
		return err
	}
	var ws *workspace
	if spec.WorkspaceID != "" {
		var err error
		if ws, err = s.activeWorkspaceLocked(spec.WorkspaceID); err != nil {
			return err
		}
	}
	switch spec.Kind {
	case PersonalKey:
		if _, err := s.memberLocked(spec.OwnerID); err != nil {
			return err
		}
	case ServiceAccountKey:
		if _, err := s.activeServiceAccountLocked(spec.OwnerID); err != nil {
			return err
		}
	case WorkspaceKey:
		if spec.OwnerID != "" {
			return errors.New("a workspace key has no owner: leave OwnerID empty")
		}
		if ws == nil {
			return errors.New("a workspace key needs a WorkspaceID")
		}
	default:
		return fmt.Errorf("unknown key kind %q", spec.Kind)
	}
	p := Principal{kind: spec.Kind, ownerID: spec.OwnerID, workspaceID: spec.WorkspaceID}
	if ws != nil && !s.reachesLocked(p, ws) {
		return fmt.Errorf("%s cannot use the API in workspace %s", spec.OwnerID, ws.id)
	}
	return nil
}

func (s *Service) addKeyLocked(spec KeySpec) APIKey {
	secret := newKeySecret()
	k := &apiKey{
		id:          s.cfg.ids("apikey_"),
		kind:        spec.Kind,
		ownerID:     spec.OwnerID,
		workspaceID: spec.WorkspaceID,
		expiresAt:   spec.ExpiresAt,
		status:      KeyActive,
		name:        spec.Name,
		createdAt:   s.now(),
		createdBy:   spec.CreatedBy,
		hint:        partialKeyHint(secret),
	}
	if k.name == "" {
		k.name = k.id
	}
	if k.createdBy == "" {
		k.createdBy = s.seed.UserID
		if k.kind == PersonalKey {
			k.createdBy = k.ownerID
		}
	}
	s.keys[k.id] = k
	s.keysByDigest[secretDigest(secret)] = k
	return APIKey{ID: k.id, Secret: secret}
}

// SetAPIKeyStatus moves a key between states as the console does: disable (inactive), re-enable (active), delete (archived, permanent).
// An expired key can only be deleted.
func (s *Service) SetAPIKeyStatus(id string, status KeyStatus) error {
	switch status {
	case KeyActive, KeyInactive, KeyArchived:
	default:
		return fmt.Errorf("unknown key status %q", status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.keys[id]
	if !ok {
		return fmt.Errorf("API key %s not found", id)
	}
	switch {
	case k.status == KeyArchived && status != KeyArchived:
		return fmt.Errorf("API key %s is archived: deletion is permanent", id)
	case k.expired(s.cfg.clock.Now()) && status != KeyArchived:
		return fmt.Errorf("API key %s has expired: an expired key can only be deleted", id)
	}
	k.status = status
	return nil
}
