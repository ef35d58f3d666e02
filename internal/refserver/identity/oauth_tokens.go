package identity

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/messages"
)

// Access tokens (docs/auth-wire.md section 1): the short-lived credentials
// the two exchanges issue. A token is opaque, bound to one workspace, and
// carries one scope; the server keeps only its digest. On a request it
// counts as a key created for one workspace (workspace selection rule 1,
// workspace_selection.go), and its scope
// decides which routes it may call (docs/auth-wire.md 1.4).

// accessTokenPrefix starts every access token; a credential with it is looked
// up as a token, anything else as an API key.
const accessTokenPrefix = "sk-vendor-oat01-"

// Access token scopes (docs/auth-wire.md 1.4).
const (
	ScopeWorkspaceDeveloper = "workspace:developer" // federation default: every non-admin endpoint
	ScopeWorkspaceInference = "workspace:inference" // federation option: Messages, chat completions, Models
	ScopeWorkspaceMessages  = "workspace:messages"  // device attestation: Messages only
)

// Access token messages (docs/auth-wire.md 1.3).
const (
	msgInvalidToken        = "invalid access token"
	msgExpiredToken        = "access token has expired"
	msgRevokedToken        = "access token has been revoked"
	msgTokenNoLongerValid  = "access token is no longer valid"
	msgTokenInAPIKeyHeader = "access tokens must be sent as `Authorization: Bearer <token>`"
)

// tokenSweepEvery is how many issued tokens trigger a sweep of long-expired
// ones, which keeps a long-running server's memory bounded.
const tokenSweepEvery = 256

// tokenForgetAfter is how long after expiry a token is still recognised (and
// answered with "has expired" rather than "invalid access token").
const tokenForgetAfter = 24 * time.Hour

type accessToken struct {
	id          string // internal: the idempotency scope, the memory actor
	scope       string
	workspaceID string
	expiresAt   time.Time
	// Exactly one of these is set: the service account of a federation
	// token, or the app integration of a device attestation token.
	serviceAccountID string
	integrationID    string
	deviceKeyID      string // a device token's attested key (key_id)
}

// tokenState holds the issued tokens. Guarded by Service.mu; usable as its
// zero value.
type tokenState struct {
	byDigest map[[32]byte]*accessToken
	issued   int
}

// newAccessTokenSecret returns a fresh token: the prefix and 43 url-safe
// characters (32 random bytes), always from crypto/rand.
func newAccessTokenSecret() string {
	var b [32]byte
	rand.Read(b[:])
	return accessTokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// issueTokenLocked stores t and returns its secret.
func (s *Service) issueTokenLocked(t *accessToken) string {
	st := &s.tokens
	if st.byDigest == nil {
		st.byDigest = map[[32]byte]*accessToken{}
	}
	st.issued++
	if st.issued%tokenSweepEvery == 0 {
		now := s.cfg.clock.Now()
		for d, old := range st.byDigest {
			if now.Sub(old.expiresAt) > tokenForgetAfter {
				delete(st.byDigest, d)
			}
		}
	}
	t.id = s.cfg.ids("oat_")
	secret := newAccessTokenSecret()
	st.byDigest[secretDigest(secret)] = t
	return secret
}

// authenticateAccessToken checks a credential that has the token prefix.
// Tokens travel only as Authorization: Bearer; the order of the checks
// follows the API key's (deleted, expired, then the owner's standing).
func (s *Service) authenticateAccessToken(h http.Header, secret string) (Principal, error) {
	if bearer, ok := bearerCredential(h); !ok || bearer != secret {
		return Principal{}, kit.Unauthenticated(msgTokenInAPIKeyHeader)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tokens.byDigest[secretDigest(secret)]
	switch {
	case !ok:
		return Principal{}, kit.Unauthenticated(msgInvalidToken)
	case t.integrationID != "" && s.integrationRevokedLocked(t.integrationID):
		return Principal{}, kit.Unauthenticated(msgRevokedToken)
	case !s.cfg.clock.Now().Before(t.expiresAt):
		return Principal{}, kit.Unauthenticated(msgExpiredToken)
	case !s.tokenInGoodStandingLocked(t):
		return Principal{}, kit.Unauthenticated(msgTokenNoLongerValid)
	}
	p := Principal{keyID: t.id, workspaceID: t.workspaceID, scope: t.scope}
	if t.serviceAccountID != "" {
		p.kind, p.ownerID = ServiceAccountKey, t.serviceAccountID
		p.idemOwner = "oauth:" + t.serviceAccountID
	} else {
		p.idemOwner = "device:" + t.integrationID + ":" + t.deviceKeyID
	}
	return p, nil
}

// tokenInGoodStandingLocked: a token's workspace must be active, and a
// federation token's service account must still exist, be active and reach
// that workspace (docs/auth-wire.md 1.3; section 8, C11).
func (s *Service) tokenInGoodStandingLocked(t *accessToken) bool {
	ws := s.workspaces[t.workspaceID]
	if ws == nil || ws.archived() {
		return false
	}
	if t.serviceAccountID == "" {
		return true
	}
	return s.reachesLocked(Principal{kind: ServiceAccountKey, ownerID: t.serviceAccountID}, ws)
}

// Routes each narrow scope allows, by route pattern. The Messages paths'
// other methods are routes too (405), so a wrong method on them stays 405.
var (
	messagesScopeRoutes  = map[string]bool{messages.PathMessages: true, messages.PathCountTokens: true}
	inferenceScopeRoutes = map[string]bool{
		messages.PathMessages: true, messages.PathCountTokens: true, messages.PathChatCompletions: true,
		"/v1/models": true, "/v1/models/{model_id}": true,
	}
)

// CheckAccess is step 3 of the chain (docs/auth-wire.md 1.2): the admin-API
// rule for API keys (workspace selection rule 3, workspace_selection.go), and
// the scope of an access token (docs/auth-wire.md 1.4).
func (s *Service) CheckAccess(p Principal, rt kit.Route, r *http.Request, admin bool) error {
	switch p.scope {
	case ScopeEnvironment:
		return checkEnvironmentKeyAccess(rt)
	case "":
		if admin {
			return checkAdminAccess(p)
		}
	case ScopeWorkspaceDeveloper:
		if admin {
			return kit.NewAPIError(http.StatusForbidden, kit.ErrPermission,
				"The admin API does not accept access tokens scoped to a workspace; use a key that is not scoped to a workspace.")
		}
	case ScopeWorkspaceInference:
		if !inferenceScopeRoutes[rt.Path] {
			return kit.NewAPIError(http.StatusForbidden, kit.ErrPermission,
				"This access token does not allow `%s %s`: its scope `%s` allows only the Messages, chat completions and Models endpoints.",
				r.Method, r.URL.Path, ScopeWorkspaceInference)
		}
	case ScopeWorkspaceMessages:
		if !messagesScopeRoutes[rt.Path] {
			return kit.NewAPIError(http.StatusForbidden, kit.ErrPermission,
				"This access token does not allow `%s %s`: device attestation tokens authorize only `POST /v1/messages` and `POST /v1/messages/count_tokens`.",
				r.Method, r.URL.Path)
		}
	default:
		// Every scope the server issues is handled above.
		return kit.NewAPIError(http.StatusForbidden, kit.ErrPermission, "This access token's scope allows no API call.")
	}
	return nil
}
