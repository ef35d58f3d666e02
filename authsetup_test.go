package agentplatform_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/auth"
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
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	const issuer, subject, kid = "https://idp.example.com", "system:serviceaccount:test:pipeline", "k1"
	issuerID, err := env.Server.AddFederationIssuer(refserver.FederationIssuer{Name: "pipeline-idp", IssuerURL: issuer,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"}}}})
	require.NoError(t, err)
	saID := env.Server.CreateServiceAccount("pipeline")
	ruleID, err := env.Server.AddFederationRule(refserver.FederationRule{Name: "pipeline", IssuerID: issuerID,
		SubjectPrefix: subject, ServiceAccountID: saID, WorkspaceIDs: []string{env.Seed.DefaultWorkspaceID}})
	require.NoError(t, err)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	require.NoError(t, err)
	creds, err := auth.Federation(auth.FederationConfig{
		BaseURL: env.URL, FederationRuleID: ruleID, OrganizationID: env.Seed.OrganizationID, ServiceAccountID: saID,
		MaxRetries: -1, MaxRetryWait: time.Millisecond,
		IdentityToken: func(context.Context) (string, error) {
			now := time.Now()
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
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = creds.Close() })
	return creds
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
		AppID: teamID + "." + bundleID, Attestor: auth.NewTestAttestor(teamID + "." + bundleID), MaxRetries: -1,
		MaxRetryWait: time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() { _ = creds.Close() })
	return creds
}
