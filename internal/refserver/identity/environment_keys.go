package identity

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Environment keys (docs/environment-work-wire.md): the credential of a
// self-hosted environment's workers. The platform issues them in its
// console; here a test mints them (MintEnvironmentKeyLocked). A key acts
// for its environment only: it counts as a key created for the
// environment's workspace (workspace selection rule 1), and its scope
// decides which routes it may call (CheckAccess). It works while its
// environment exists and is not archived; the server keeps only its digest.

// environmentKeyPrefix starts every environment key secret.
const environmentKeyPrefix = "sk-vendor-env01-"

// ScopeEnvironment is the scope of an environment key's principal.
const ScopeEnvironment = "environment"

// Environment key messages.
const (
	msgEnvironmentKeyRevoked   = "environment key has been revoked: its environment is archived or deleted"
	msgEnvironmentKeyInHeader  = "environment keys must be sent as `Authorization: Bearer <key>`"
	msgEnvironmentKeyForbidden = "Environment keys authorize only the work queue and the sessions of their environment."
)

type environmentKey struct {
	id            string // internal: the actor and idempotency owner
	environmentID string
}

// environmentKeyRoutes are the routes (method and pattern) an environment
// key may call: its environment's work queue, and the reads and event send
// of its environment's sessions. Which environment and session is checked
// per request by the server (refserver's work.go), not here.
var environmentKeyRoutes = map[string]bool{
	"GET /v1/environments/{environment_id}/work/poll":                 true,
	"POST /v1/environments/{environment_id}/work/{work_id}/ack":       true,
	"POST /v1/environments/{environment_id}/work/{work_id}/heartbeat": true,
	"POST /v1/environments/{environment_id}/work/{work_id}/stop":      true,
	"GET /v1/environments/{environment_id}/work":                      true,
	"GET /v1/environments/{environment_id}/work/stats":                true,
	"GET /v1/sessions/{session_id}":                                   true,
	"GET /v1/sessions/{session_id}/events":                            true,
	"POST /v1/sessions/{session_id}/events":                           true,
	"GET /v1/sessions/{session_id}/events/stream":                     true,
}

// MintEnvironmentKeyLocked returns a new key for the environment, which
// the caller has checked exists and is self-hosted. Every call mints
// another valid key. The caller holds Deps.Lock.
func (s *Service) MintEnvironmentKeyLocked(environmentID string) string {
	if s.envKeys == nil {
		s.envKeys = map[[32]byte]*environmentKey{}
	}
	var b [32]byte
	rand.Read(b[:])
	secret := environmentKeyPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	s.envKeys[secretDigest(secret)] = &environmentKey{id: s.cfg.ids("envkey_"), environmentID: environmentID}
	return secret
}

// authenticateEnvironmentKey checks a credential with the environment key
// prefix. A key of an archived or deleted environment is revoked; the keys
// of a deleted environment are forgotten then, so the map does not grow
// with environments that are gone.
func (s *Service) authenticateEnvironmentKey(h http.Header, secret string) (Principal, error) {
	if bearer, ok := bearerCredential(h); !ok || bearer != secret {
		return Principal{}, kit.Unauthenticated(msgEnvironmentKeyInHeader)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	digest := secretDigest(secret)
	k, ok := s.envKeys[digest]
	if !ok {
		return Principal{}, kit.Unauthenticated(msgInvalidKey)
	}
	var workspaceID string
	usable, exists := false, false
	if s.environmentLocked != nil {
		workspaceID, usable, exists = s.environmentLocked(k.environmentID)
	}
	if !exists {
		delete(s.envKeys, digest)
	}
	if !usable {
		return Principal{}, kit.Unauthenticated(msgEnvironmentKeyRevoked)
	}
	if ws := s.workspaces[workspaceID]; ws == nil || ws.archived() {
		return Principal{}, kit.Unauthenticated(msgEnvironmentKeyRevoked)
	}
	return Principal{keyID: k.id, workspaceID: workspaceID, scope: ScopeEnvironment,
		environmentID: k.environmentID, idemOwner: "envkey:" + k.id}, nil
}

// EnvironmentID is the environment an environment key acts for; "" for
// every other credential.
func (p Principal) EnvironmentID() string { return p.environmentID }

// checkEnvironmentKeyAccess is CheckAccess for an environment key.
func checkEnvironmentKeyAccess(rt kit.Route) error {
	if !environmentKeyRoutes[rt.Method+" "+rt.Path] {
		return kit.NewAPIError(http.StatusForbidden, kit.ErrPermission, msgEnvironmentKeyForbidden)
	}
	return nil
}
