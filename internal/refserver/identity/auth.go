package identity

import (
	"net/http"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Authentication messages (docs/api-choices.md, "Errors").
const (
	msgMissingCredential = "authentication required: send `Authorization: Bearer <key>` or `x-api-key: <key>`"
	msgInvalidKey        = "invalid API key"
	msgExpiredKey        = "API key has expired"
	msgDisabledKey       = "API key is disabled"
	msgDeletedKey        = "API key has been deleted"
	msgKeyNoLongerValid  = "API key is no longer valid"
)

// credential returns the API key a request sends. Authorization: Bearer
// wins when both headers are present (docs/api-choices.md); an Authorization
// header of another scheme is ignored.
func credential(h http.Header) (string, bool) {
	if token, ok := bearerCredential(h); ok {
		return token, true
	}
	if key := strings.TrimSpace(h.Get("x-api-key")); key != "" {
		return key, true
	}
	return "", false
}

// bearerCredential returns the token of an Authorization: Bearer header.
func bearerCredential(h http.Header) (string, bool) {
	if scheme, token, ok := strings.Cut(h.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		if token = strings.TrimSpace(token); token != "" {
			return token, true
		}
	}
	return "", false
}

// Authenticate finds the key a request sends and checks that it still
// works: status, expiry (server clock), and its owner's standing (the
// "Stops working when" column of docs/api-choices.md "API keys"). Messages
// never include the secret.
func (s *Service) Authenticate(h http.Header) (Principal, error) {
	secret, ok := credential(h)
	if !ok {
		return Principal{}, kit.Unauthenticated(msgMissingCredential)
	}
	if strings.HasPrefix(secret, accessTokenPrefix) {
		return s.authenticateAccessToken(h, secret) // oauth_tokens.go
	}
	if strings.HasPrefix(secret, environmentKeyPrefix) {
		return s.authenticateEnvironmentKey(h, secret) // environment_keys.go
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.keysByDigest[secretDigest(secret)]
	switch {
	case !ok:
		return Principal{}, kit.Unauthenticated(msgInvalidKey)
	case k.status == KeyArchived:
		return Principal{}, kit.Unauthenticated(msgDeletedKey)
	case k.expired(s.cfg.clock.Now()):
		return Principal{}, kit.Unauthenticated(msgExpiredKey)
	case k.status == KeyInactive:
		return Principal{}, kit.Unauthenticated(msgDisabledKey)
	case !s.keyOwnerInGoodStandingLocked(k):
		return Principal{}, kit.Unauthenticated(msgKeyNoLongerValid)
	}
	return k.principal(), nil
}

// keyOwnerInGoodStandingLocked applies the "Stops working when" column of
// docs/api-choices.md "API keys" beyond status and expiry. A scoped key stops working when its one
// workspace is archived or its owner can no longer use the API there.
func (s *Service) keyOwnerInGoodStandingLocked(k *apiKey) bool {
	p := k.principal()
	switch k.kind {
	case PersonalKey:
		if u := s.users[k.ownerID]; u == nil || u.removed {
			return false
		}
	case ServiceAccountKey:
		if sa := s.serviceAccounts[k.ownerID]; sa == nil || sa.archived {
			return false
		}
	}
	if k.workspaceID == "" {
		return true
	}
	ws := s.workspaces[k.workspaceID]
	return ws != nil && s.reachesLocked(p, ws)
}

// checkAdminAccess is the admin-API rule: the admin API takes personal and
// service account keys only when they are not scoped to a workspace.
func checkAdminAccess(p Principal) error {
	switch {
	case p.kind == WorkspaceKey:
		return kit.NewAPIError(http.StatusForbidden, kit.ErrPermission,
			"The admin API does not accept workspace API keys; use a personal or service account key that is not scoped to a workspace.")
	case p.workspaceID != "":
		return kit.NewAPIError(http.StatusForbidden, kit.ErrPermission,
			"The admin API does not accept API keys scoped to a workspace; use a key that is not scoped to a workspace.")
	}
	return nil
}

// IsAdminPath reports whether a route path belongs to the admin API, which
// CheckAccess treats apart.
func IsAdminPath(path string) bool {
	return strings.HasPrefix(path, "/v1/organizations/")
}
