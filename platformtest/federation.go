package platformtest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// identityAudience is the audience the server expects of identity tokens
// by default: the API's production host.
const identityAudience = "https://api.vendor.com"

// Federation is workload identity federation set up on a Server: what an
// administrator sets up once on the platform (an identity provider trusted
// for the JWTs it signs, a service account, and a rule mapping the
// provider's tokens for Subject to that account in the default workspace),
// together with the workload's side, a provider that mints identity
// tokens. A workload exchanges those tokens for access tokens of the
// service account (auth.Federation).
type Federation struct {
	RuleID           string // fdrl_…, for auth.FederationConfig
	OrganizationID   string // org_…
	ServiceAccountID string // svcacct_…
	Issuer           string // the identity provider's issuer URL
	Subject          string // the workload's identity, the tokens' sub

	srv    *Server
	key    *ecdsa.PrivateKey
	signer jose.Signer
}

// AddFederation sets up workload identity federation for subject (for
// example "system:serviceaccount:prod:report-worker"): a new identity
// provider with a fresh ES256 key, a service account and a rule, in the
// default workspace.
func (s *Server) AddFederation(subject string) (*Federation, error) {
	if subject == "" {
		return nil, fmt.Errorf("platformtest: AddFederation: the subject must not be empty")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	const keyID = "key-1"
	f := &Federation{srv: s, key: key, Subject: subject, OrganizationID: s.seed.OrganizationID,
		Issuer: "https://idp-" + rand.Text()[:8] + ".example.com"}
	issuerID, err := s.rs.AddFederationIssuer(refserver.FederationIssuer{
		Name:      "platformtest-idp",
		IssuerURL: f.Issuer,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &key.PublicKey, KeyID: keyID, Algorithm: string(jose.ES256), Use: "sig"},
		}},
	})
	if err != nil {
		return nil, err
	}
	f.ServiceAccountID = s.rs.CreateServiceAccount("platformtest-workload")
	f.RuleID, err = s.rs.AddFederationRule(refserver.FederationRule{
		Name:             "platformtest-workload",
		IssuerID:         issuerID,
		SubjectPrefix:    subject,
		ServiceAccountID: f.ServiceAccountID,
		WorkspaceIDs:     []string{s.seed.DefaultWorkspaceID},
	})
	if err != nil {
		return nil, err
	}
	f.signer, err = jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: keyID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return nil, err
	}
	return f, nil
}

// IdentityToken mints an identity token for the workload, as its platform
// would: a JWT signed by the federation's provider, issued now by the
// server's clock and valid for lifetime, with a unique jti (the server
// accepts each token once).
func (f *Federation) IdentityToken(lifetime time.Duration) (string, error) {
	now := f.srv.Now()
	claims, err := json.Marshal(map[string]any{
		"iss": f.Issuer, "sub": f.Subject, "aud": identityAudience,
		"iat": now.Unix(), "exp": now.Add(lifetime).Unix(), "jti": rand.Text(),
	})
	if err != nil {
		return "", err
	}
	jws, err := f.signer.Sign(claims)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}

// Config returns the federation's auth.FederationConfig for the server:
// its URL and ids, and an identity token source that mints a fresh token,
// valid for an hour, for every exchange. Change any field before passing
// it to auth.Federation.
func (f *Federation) Config() auth.FederationConfig {
	return auth.FederationConfig{
		BaseURL:          f.srv.url,
		FederationRuleID: f.RuleID,
		OrganizationID:   f.OrganizationID,
		ServiceAccountID: f.ServiceAccountID,
		IdentityToken: func(context.Context) (string, error) {
			return f.IdentityToken(time.Hour)
		},
	}
}
