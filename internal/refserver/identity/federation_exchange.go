package identity

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// The jwt-bearer grant of POST /v1/oauth/token (docs/auth-wire.md 2.1–2.8).
// Steps 1–2 are 400s naming the field; every later failure is the opaque
// 401 with its reason recorded. The JWT is verified (and its keys fetched)
// without Service.mu; the steps after it run under the lock in one go, so a
// jti is spent once even by concurrent exchanges.

const grantJWTBearer = "jwt-bearer" // ExchangeDenial.Grant

// federationExchange runs steps 2–10 once grant_type is known.
func (s *Service) federationExchange(c *kit.Call, f *jsonFields) error {
	req, err := readFederationBody(f)
	if err != nil {
		return err
	}
	now := s.cfg.clock.Now()

	// Steps 3–4: organization, rule, issuer.
	s.mu.Lock()
	iss, reason := s.federationTargetLocked(req.organizationID, req.ruleID)
	s.mu.Unlock()
	if reason != "" {
		return s.deny(c, grantJWTBearer, reason)
	}

	// Step 5: the JWT, against the rule's issuer.
	claims, reason := s.verifyJWT(c.R.Context(), req.assertion, iss, now)
	if reason != "" {
		return s.deny(c, grantJWTBearer, reason)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	// The rule or issuer may have changed while the JWT was checked.
	if _, reason := s.federationTargetLocked(req.organizationID, req.ruleID); reason != "" {
		return s.deny(c, grantJWTBearer, reason)
	}
	rule := s.federation.rules[req.ruleID]
	checkJTI := !iss.cfg.DisableJTICheck && claims.jti != nil
	if checkJTI && s.jtiUsedLocked(iss.id, *claims.jti) {
		return s.deny(c, grantJWTBearer, "jti_reused")
	}
	// Step 6: the rule's match.
	if reason := matchRule(rule.cfg, claims); reason != "" {
		return s.deny(c, grantJWTBearer, reason)
	}
	// Step 7: the service account.
	if req.serviceAccountID != rule.cfg.ServiceAccountID {
		return s.deny(c, grantJWTBearer, "service_account_mismatch")
	}
	sa, ok := s.serviceAccounts[req.serviceAccountID]
	switch {
	case !ok:
		return s.deny(c, grantJWTBearer, "service_account_not_found")
	case sa.archived:
		return s.deny(c, grantJWTBearer, "service_account_archived")
	}
	// Step 8: the workspace.
	wsID, reason := s.federationWorkspaceLocked(rule.cfg, req.workspaceID)
	if reason != "" {
		return s.deny(c, grantJWTBearer, reason)
	}
	// Step 9: the jti is spent only now (docs/auth-wire.md 8, C10).
	if checkJTI {
		s.spendJTILocked(iss.id, *claims.jti, claims.expTime())
	}
	// Step 10: the token.
	expiresIn := tokenLifetime(rule.cfg.TokenLifetimeSeconds, claims.exp, now)
	secret := s.issueTokenLocked(&accessToken{
		scope:            rule.cfg.OAuthScope,
		workspaceID:      wsID,
		expiresAt:        now.Add(time.Duration(expiresIn) * time.Second),
		serviceAccountID: sa.id,
	})
	return sendToken(c, secret, expiresIn, rule.cfg.OAuthScope, wsID)
}

type federationRequest struct {
	assertion        string
	ruleID           string
	organizationID   string
	serviceAccountID string
	workspaceID      string // "", "default" or a wrkspc_ id
}

// readFederationBody is step 2: the fields of docs/auth-wire.md 2.1 in table order,
// after the keys the grant does not know.
func readFederationBody(f *jsonFields) (federationRequest, error) {
	var req federationRequest
	if err := f.onlyKnown("grant_type", "assertion", "federation_rule_id", "organization_id", "service_account_id", "workspace_id"); err != nil {
		return req, err
	}
	var err error
	if req.assertion, _, err = f.str("assertion", true); err != nil {
		return req, err
	}
	if err := kit.CheckLength("assertion", req.assertion, 1, 16384); err != nil {
		return req, err
	}
	ids := []struct {
		field, prefix, kind string
		dst                 *string
	}{
		{"federation_rule_id", "fdrl_", "a federation rule ID", &req.ruleID},
		{"organization_id", "org_", "an organization ID", &req.organizationID},
		{"service_account_id", "svcacct_", "a service account ID", &req.serviceAccountID},
	}
	for _, id := range ids {
		v, _, err := f.str(id.field, true)
		if err != nil {
			return req, err
		}
		if !validPrefixedID(id.prefix, v) {
			return req, kit.InvalidField(id.field, "must be %s (`%s…`)", id.kind, id.prefix)
		}
		*id.dst = v
	}
	if req.workspaceID, err = checkWorkspaceField(f); err != nil {
		return req, err
	}
	return req, nil
}

// federationTargetLocked is steps 3–4: the organization is this one, the
// rule exists and is active, and so is its issuer. It returns what the JWT
// check needs of the issuer.
func (s *Service) federationTargetLocked(orgID, ruleID string) (issuerSnapshot, string) {
	if orgID != s.seed.OrganizationID {
		return issuerSnapshot{}, "organization_mismatch"
	}
	rule, ok := s.federation.rules[ruleID]
	switch {
	case !ok:
		return issuerSnapshot{}, "rule_not_found"
	case rule.archived:
		return issuerSnapshot{}, "rule_archived"
	}
	iss, ok := s.federation.issuers[rule.cfg.IssuerID]
	switch {
	case !ok:
		return issuerSnapshot{}, "issuer_not_found"
	case iss.archived:
		return issuerSnapshot{}, "issuer_archived"
	}
	snap := issuerSnapshot{id: iss.id, cfg: iss.cfg, cache: iss.cache}
	if iss.cfg.JWKS != nil {
		snap.inline = iss.cfg.JWKS.Keys // replaced, never modified, by SetFederationIssuerJWKS
	}
	return snap, ""
}

// matchRule is step 6 (docs/auth-wire.md 2.4): every populated matcher passes.
func matchRule(rule FederationRule, claims *jwtClaims) string {
	if p := rule.SubjectPrefix; p != "" {
		if prefix, wildcard := strings.CutSuffix(p, "*"); wildcard {
			if !strings.HasPrefix(claims.sub, prefix) {
				return "match_subject_prefix"
			}
		} else if claims.sub != p {
			return "match_subject_prefix"
		}
	}
	audience := rule.Audience
	if audience == "" {
		audience = defaultAudience
	}
	if !slices.Contains(claims.aud, audience) {
		return "match_audience"
	}
	for name, want := range rule.Claims {
		if got, ok := claimString(claims.all, name); !ok || got != want {
			return "match_claims"
		}
	}
	return ""
}

// federationWorkspaceLocked is step 8 (docs/auth-wire.md 2.5): the workspace the
// token is bound to, chosen once here.
func (s *Service) federationWorkspaceLocked(rule FederationRule, requested string) (string, string) {
	requested = s.resolveWorkspaceLocked(requested)
	var wsID string
	switch {
	case requested == "" && !rule.AllWorkspaces && len(rule.WorkspaceIDs) == 1:
		wsID = rule.WorkspaceIDs[0]
	case requested == "":
		return "", "workspace_id_required"
	case rule.AllWorkspaces || slices.Contains(rule.WorkspaceIDs, requested):
		wsID = requested
	default:
		return "", "workspace_not_enabled"
	}
	ws, ok := s.workspaces[wsID]
	switch {
	case !ok:
		return "", "workspace_not_found"
	case ws.archived():
		return "", "workspace_archived"
	case !s.reachesLocked(Principal{kind: ServiceAccountKey, ownerID: rule.ServiceAccountID}, ws):
		return "", "workspace_unreachable"
	}
	return wsID, ""
}

// tokenLifetime is docs/auth-wire.md 2.6: max(60, min(lifetime, 2 × (exp − now))),
// in whole seconds.
func tokenLifetime(ruleLifetime int, exp float64, now time.Time) int {
	left := 2 * (exp - float64(now.UnixNano())/1e9)
	n := math.Min(float64(ruleLifetime), math.Floor(left))
	return int(math.Max(minTokenLifetime, n))
}
