package agentplatform_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/auth/authtest"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
)

// Token sources against a reference server, for tests that need real
// workload identity federation or device attestation rather than a
// stand-in: the exchanges go to env, wherever the API calls go.

// newFederation returns federation credentials whose exchanges go to env:
// an issuer with one ES256 key, a rule mapping its JWTs to a service
// account in the default workspace, and a fresh JWT for every exchange.
// Exchanges are not retried, so that an injected failure fails at once.
func newFederation(t *testing.T, env *reftest.Env) *auth.FederationCredentials {
	t.Helper()
	cfg := federationConfig(t, env, federationSetup{name: "pipeline", now: time.Now})
	cfg.MaxRetries, cfg.MaxRetryWait = -1, time.Millisecond
	creds, err := auth.Federation(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = creds.Close() })
	return creds
}

// federationSetup shapes federationConfig's issuer, rule and tokens.
type federationSetup struct {
	name     string           // of the issuer, the rule and the service account
	lifetime int              // of the access tokens, in seconds; 0 for the server's default
	now      func() time.Time // the identity tokens' issue time
	minted   *atomic.Int64    // if set, counts the identity tokens minted: one per exchange attempt
}

// federationConfig registers with env an issuer with one ES256 key and a
// rule mapping its JWTs to a new service account of the default workspace,
// and returns the configuration of a source that exchanges at env and
// mints a fresh identity JWT for every exchange attempt.
func federationConfig(t *testing.T, env *reftest.Env, s federationSetup) auth.FederationConfig {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	const issuer, kid = "https://idp.example.com", "k1"
	subject := "system:serviceaccount:test:" + s.name
	issuerID, err := env.Server.AddFederationIssuer(refserver.FederationIssuer{Name: s.name + "-idp", IssuerURL: issuer,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"}}}})
	require.NoError(t, err)
	saID := env.Server.CreateServiceAccount(s.name)
	ruleID, err := env.Server.AddFederationRule(refserver.FederationRule{Name: s.name, IssuerID: issuerID,
		SubjectPrefix: subject, ServiceAccountID: saID, WorkspaceIDs: []string{env.Seed.DefaultWorkspaceID},
		TokenLifetimeSeconds: s.lifetime})
	require.NoError(t, err)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	require.NoError(t, err)
	return auth.FederationConfig{
		BaseURL: env.URL, FederationRuleID: ruleID, OrganizationID: env.Seed.OrganizationID, ServiceAccountID: saID,
		IdentityToken: func(context.Context) (string, error) {
			if s.minted != nil {
				s.minted.Add(1)
			}
			now := s.now()
			claims, err := json.Marshal(map[string]any{"iss": issuer, "sub": subject, "aud": "https://api.vendor.com",
				"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "jti": rand.Text()})
			if err != nil {
				return "", err
			}
			jws, err := signer.Sign(claims)
			if err != nil {
				return "", err
			}
			return jws.CompactSerialize()
		},
	}
}

// newDeviceAttestation returns device attestation credentials of an app
// integration in env's default workspace, with a test attestor. Their
// tokens authorize only Messages calls.
func newDeviceAttestation(t *testing.T, env *reftest.Env) *auth.DeviceAttestationCredentials {
	t.Helper()
	const teamID, bundleID = "ABCDE12345", "com.example.pipeline"
	clientID, err := env.Server.AddAppIntegration(refserver.AppIntegration{Name: "ios",
		WorkspaceID: env.Seed.DefaultWorkspaceID, TeamID: teamID, BundleIDs: []string{bundleID}})
	require.NoError(t, err)
	creds, err := auth.DeviceAttestation(auth.DeviceAttestationConfig{BaseURL: env.URL, ClientID: clientID,
		AppID: teamID + "." + bundleID, Attestor: authtest.NewAttestor(teamID + "." + bundleID), MaxRetries: -1,
		MaxRetryWait: time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() { _ = creds.Close() })
	return creds
}
