package identity

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// Workload identity federation objects (docs/auth-wire.md section 3): the
// issuers and rules the jwt-bearer grant checks a JWT against. The platform
// manages them with admin endpoints that the reference server does not
// serve; tests configure them here. Configuration mistakes are Go errors
// and never reach the wire.

// FederationIssuer configures an identity provider whose JWTs the server
// trusts (docs/auth-wire.md 3.2). Exactly one key source applies: JWKS (inline),
// else JWKSURL (explicit_url), else discovery from DiscoveryBase or
// IssuerURL (<base>/.well-known/openid-configuration, then its jwks_uri).
// Fetched key sets are cached for 60 seconds of server clock; a kid missing
// from the cached set causes one refetch. http and loopback URLs are allowed.
type FederationIssuer struct {
	Name      string // ^[a-z0-9-]+$, 1–255 characters
	IssuerURL string // compared byte for byte with the JWT's iss

	JWKS          *jose.JSONWebKeySet // inline keys (at least one); private keys are reduced to their public part
	JWKSURL       string              // explicit_url: an http(s) URL serving {"keys": [...]}
	DiscoveryBase string              // discovery: the base URL when it is not IssuerURL

	MaxJWTLifetimeSeconds int  // largest exp − iat: 1–176400; 0 = 3600
	DisableJTICheck       bool // check_jti false: a jti may be reused
}

// FederationRule maps verified JWTs of one issuer to a service account
// (docs/auth-wire.md 3.3, 2.4, 2.5).
type FederationRule struct {
	Name     string // ^[a-z0-9-]+$, 1–255 characters
	IssuerID string // fdis_… of AddFederationIssuer

	// Match: every populated matcher must pass, and at least one of
	// SubjectPrefix (not just "*") and Claims must be set.
	SubjectPrefix string            // exact sub; a trailing * makes it a prefix
	Audience      string            // "" = aud must contain https://api.vendor.com
	Claims        map[string]string // top-level claim → exact string value

	ServiceAccountID string // the target: svcacct_…

	// Workspaces: one or more ids, or AllWorkspaces (not both).
	WorkspaceIDs  []string
	AllWorkspaces bool

	OAuthScope           string // ScopeWorkspaceDeveloper ("" = it) or ScopeWorkspaceInference
	TokenLifetimeSeconds int    // 60–86400; 0 = 3600
}

const (
	defaultAudience          = "https://api.vendor.com"
	defaultJWTLifetime       = 3600
	maxJWTLifetime           = 176400
	defaultTokenLifetime     = 3600
	minTokenLifetime         = 60
	maxTokenLifetime         = 86400
	federationLeeway         = 30 * time.Second
	jwksCacheFor             = 60 * time.Second
	jwksFetchTimeout         = 5 * time.Second
	jwksMaxDocumentBytes     = 1 << 20
	jtiSweepEvery            = 256
	federationClaimsRequired = "a rule must match on SubjectPrefix (not only *) or Claims"
)

var federationName = regexp.MustCompile(`^[a-z0-9-]{1,255}$`)

type fedIssuer struct {
	id       string
	cfg      FederationIssuer // JWKS is a private copy
	archived bool
	cache    *jwksCache // fetched keys (explicit_url, discovery); own lock
}

type fedRule struct {
	id       string
	cfg      FederationRule // slices and maps are private copies
	archived bool
}

// federationState is guarded by Service.mu and usable as its zero value.
type federationState struct {
	issuers map[string]*fedIssuer
	rules   map[string]*fedRule
	// jtis remembers used jti values per issuer until exp + 30 s
	// (docs/auth-wire.md 8, C10).
	jtis    map[string]map[string]time.Time
	jtiAdds int
}

func (st *federationState) init() {
	if st.issuers == nil {
		st.issuers = map[string]*fedIssuer{}
		st.rules = map[string]*fedRule{}
		st.jtis = map[string]map[string]time.Time{}
	}
}

// AddFederationIssuer registers an issuer and returns its fdis_… id.
func (s *Service) AddFederationIssuer(cfg FederationIssuer) (string, error) {
	if !federationName.MatchString(cfg.Name) {
		return "", errors.New("name must match ^[a-z0-9-]+$ and have 1–255 characters")
	}
	if cfg.IssuerURL == "" {
		return "", errors.New("issuer URL is required")
	}
	switch {
	case cfg.JWKS != nil && cfg.JWKSURL != "":
		return "", errors.New("set JWKS or JWKSURL, not both")
	case cfg.JWKS != nil:
		keys, err := inlineKeys(*cfg.JWKS)
		if err != nil {
			return "", err
		}
		cfg.JWKS = &jose.JSONWebKeySet{Keys: keys}
	case cfg.JWKSURL != "":
		if err := checkFetchURL(cfg.JWKSURL); err != nil {
			return "", fmt.Errorf("JWKSURL: %w", err)
		}
	default:
		base := cfg.DiscoveryBase
		if base == "" {
			base = cfg.IssuerURL
		}
		if err := checkFetchURL(base); err != nil {
			return "", fmt.Errorf("discovery base (DiscoveryBase or IssuerURL): %w", err)
		}
	}
	switch {
	case cfg.MaxJWTLifetimeSeconds == 0:
		cfg.MaxJWTLifetimeSeconds = defaultJWTLifetime
	case cfg.MaxJWTLifetimeSeconds < 1 || cfg.MaxJWTLifetimeSeconds > maxJWTLifetime:
		return "", fmt.Errorf("MaxJWTLifetimeSeconds must be between 1 and %d", maxJWTLifetime)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.federation.init()
	iss := &fedIssuer{id: s.cfg.ids("fdis_"), cfg: cfg, cache: &jwksCache{}}
	s.federation.issuers[iss.id] = iss
	return iss.id, nil
}

// inlineKeys checks inline keys and keeps only their public parts.
func inlineKeys(set jose.JSONWebKeySet) ([]jose.JSONWebKey, error) {
	if len(set.Keys) == 0 {
		return nil, errors.New("JWKS must hold at least one key")
	}
	keys := make([]jose.JSONWebKey, 0, len(set.Keys))
	for i, k := range set.Keys {
		if !k.Valid() {
			return nil, fmt.Errorf("JWKS key %d (kid %q) is not a valid key", i, k.KeyID)
		}
		if !k.IsPublic() {
			if pub := k.Public(); pub.Valid() {
				k = pub
			}
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// checkFetchURL accepts http and https URLs with a host (loopback included:
// tests serve key sets from httptest; docs/auth-wire.md 8, C12).
func checkFetchURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", raw)
	}
	return nil
}

// SetFederationIssuerJWKS replaces an inline issuer's keys (key rotation).
func (s *Service) SetFederationIssuerJWKS(issuerID string, keys jose.JSONWebKeySet) error {
	checked, err := inlineKeys(keys)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	iss, err := s.federationIssuerLocked(issuerID)
	if err != nil {
		return err
	}
	if iss.cfg.JWKS == nil {
		return fmt.Errorf("federation issuer %s fetches its keys; serve the new set at its URL instead", issuerID)
	}
	iss.cfg.JWKS = &jose.JSONWebKeySet{Keys: checked}
	return nil
}

// ArchiveFederationIssuer disables an issuer, for good: every rule on it
// then rejects exchanges. Tokens already issued keep working until they
// expire (docs/auth-wire.md 8, C11). Archiving twice is fine.
func (s *Service) ArchiveFederationIssuer(issuerID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	iss, err := s.federationIssuerLocked(issuerID)
	if err != nil {
		return err
	}
	iss.archived = true
	return nil
}

// DeleteFederationIssuer removes an issuer. Its rules stay but reject every
// exchange, as if the issuer were archived.
func (s *Service) DeleteFederationIssuer(issuerID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.federationIssuerLocked(issuerID); err != nil {
		return err
	}
	delete(s.federation.issuers, issuerID)
	delete(s.federation.jtis, issuerID)
	return nil
}

func (s *Service) federationIssuerLocked(id string) (*fedIssuer, error) {
	iss, ok := s.federation.issuers[id]
	if !ok {
		return nil, fmt.Errorf("federation issuer %s not found", id)
	}
	return iss, nil
}

// AddFederationRule registers a rule and returns its fdrl_… id.
func (s *Service) AddFederationRule(cfg FederationRule) (string, error) {
	if !federationName.MatchString(cfg.Name) {
		return "", errors.New("name must match ^[a-z0-9-]+$ and have 1–255 characters")
	}
	if strings.TrimSuffix(cfg.SubjectPrefix, "*") == "" && len(cfg.Claims) == 0 {
		return "", errors.New(federationClaimsRequired)
	}
	switch cfg.OAuthScope {
	case "":
		cfg.OAuthScope = ScopeWorkspaceDeveloper
	case ScopeWorkspaceDeveloper, ScopeWorkspaceInference:
	default:
		return "", fmt.Errorf("OAuthScope must be %q or %q", ScopeWorkspaceDeveloper, ScopeWorkspaceInference)
	}
	switch {
	case cfg.TokenLifetimeSeconds == 0:
		cfg.TokenLifetimeSeconds = defaultTokenLifetime
	case cfg.TokenLifetimeSeconds < minTokenLifetime || cfg.TokenLifetimeSeconds > maxTokenLifetime:
		return "", fmt.Errorf("TokenLifetimeSeconds must be between %d and %d", minTokenLifetime, maxTokenLifetime)
	}
	switch {
	case cfg.AllWorkspaces && len(cfg.WorkspaceIDs) > 0:
		return "", errors.New("set WorkspaceIDs or AllWorkspaces, not both")
	case !cfg.AllWorkspaces && len(cfg.WorkspaceIDs) == 0:
		return "", errors.New("a rule needs WorkspaceIDs or AllWorkspaces")
	}
	cfg.WorkspaceIDs = append([]string(nil), cfg.WorkspaceIDs...)
	claims := make(map[string]string, len(cfg.Claims))
	for k, v := range cfg.Claims {
		claims[k] = v
	}
	cfg.Claims = claims

	s.mu.Lock()
	defer s.mu.Unlock()
	s.federation.init()
	iss, err := s.federationIssuerLocked(cfg.IssuerID)
	if err != nil {
		return "", err
	}
	if iss.archived {
		return "", fmt.Errorf("federation issuer %s is archived", iss.id)
	}
	if _, err := s.activeServiceAccountLocked(cfg.ServiceAccountID); err != nil {
		return "", err
	}
	seen := map[string]bool{}
	for _, ws := range cfg.WorkspaceIDs {
		if _, err := s.activeWorkspaceLocked(ws); err != nil {
			return "", err
		}
		if seen[ws] {
			return "", fmt.Errorf("workspace %s is listed twice", ws)
		}
		seen[ws] = true
	}
	r := &fedRule{id: s.cfg.ids("fdrl_"), cfg: cfg}
	s.federation.rules[r.id] = r
	return r.id, nil
}

// ArchiveFederationRule disables a rule, for good: exchanges naming it are
// rejected; tokens already issued keep working until they expire
// (docs/auth-wire.md 8, C11).
func (s *Service) ArchiveFederationRule(ruleID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.federation.rules[ruleID]
	if !ok {
		return fmt.Errorf("federation rule %s not found", ruleID)
	}
	r.archived = true
	return nil
}

// DeleteFederationRule removes a rule: exchanges naming it are rejected as
// for an unknown rule.
func (s *Service) DeleteFederationRule(ruleID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.federation.rules[ruleID]; !ok {
		return fmt.Errorf("federation rule %s not found", ruleID)
	}
	delete(s.federation.rules, ruleID)
	return nil
}

// jtiUsedLocked reports whether a jti was already spent at this issuer.
func (s *Service) jtiUsedLocked(issuerID, jti string) bool {
	forgetAt, ok := s.federation.jtis[issuerID][jti]
	return ok && s.cfg.clock.Now().Before(forgetAt)
}

// spendJTILocked remembers a jti until exp + 30 s, and now and then forgets
// the ones past that.
func (s *Service) spendJTILocked(issuerID, jti string, exp time.Time) {
	st := &s.federation
	if st.jtis[issuerID] == nil {
		st.jtis[issuerID] = map[string]time.Time{}
	}
	st.jtis[issuerID][jti] = exp.Add(federationLeeway)
	st.jtiAdds++
	if st.jtiAdds%jtiSweepEvery == 0 {
		now := s.cfg.clock.Now()
		for _, used := range st.jtis {
			for j, forgetAt := range used {
				if !now.Before(forgetAt) {
					delete(used, j)
				}
			}
		}
	}
}

// jwksCache holds an issuer's fetched keys. Its lock is held during a fetch
// (at most jwksFetchTimeout per document), never Service.mu.
type jwksCache struct {
	mu        sync.Mutex
	keys      []jose.JSONWebKey
	fetchedAt time.Time
	loaded    bool
}
