package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
)

const (
	tokenPath     = "/v1/oauth/token"
	challengePath = "/v1/oauth/device_attestation/challenge"
	issuerURL     = "https://idp.example.com"
	subject       = "system:serviceaccount:prod:worker"
	audience      = "https://api.vendor.com"
	kid           = "k1"
)

// noEnv keeps the developer's environment out of a test.
func noEnv(t *testing.T) {
	t.Helper()
	for _, v := range []string{"VENDOR_API_KEY", "VENDOR_BASE_URL", "VENDOR_WORKSPACE_ID",
		auth.EnvFederationRuleID, auth.EnvOrganizationID, auth.EnvServiceAccountID,
		auth.EnvIdentityTokenFile, auth.EnvIdentityToken} {
		t.Setenv(v, "")
	}
}

// fedEnv is a reference server on a manual clock with one federation
// issuer (an ES256 key served inline) and one rule mapping the issuer's
// worker JWTs to a service account in the default workspace.
type fedEnv struct {
	*reftest.Env
	clock    *refserver.ManualClock
	key      *ecdsa.PrivateKey
	issuerID string
	ruleID   string
	saID     string

	mu     sync.Mutex
	minted []string // every JWT handed out, for the canary checks
}

func newFedEnv(t *testing.T, rule ...func(*refserver.FederationRule)) *fedEnv {
	t.Helper()
	noEnv(t)
	clock := refserver.NewManualClock(t0)
	e := &fedEnv{Env: reftest.New(t, refserver.WithClock(clock)), clock: clock}
	var err error
	e.key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	e.issuerID, err = e.Server.AddFederationIssuer(refserver.FederationIssuer{
		Name:      "test-idp",
		IssuerURL: issuerURL,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: &e.key.PublicKey, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"},
		}},
	})
	require.NoError(t, err)
	e.saID = e.Server.CreateServiceAccount("worker")
	r := refserver.FederationRule{
		Name:             "prod-worker",
		IssuerID:         e.issuerID,
		SubjectPrefix:    "system:serviceaccount:prod:*",
		ServiceAccountID: e.saID,
		WorkspaceIDs:     []string{e.Seed.DefaultWorkspaceID},
	}
	for _, f := range rule {
		f(&r)
	}
	e.ruleID, err = e.Server.AddFederationRule(r)
	require.NoError(t, err)
	return e
}

// claims are the JWT claims of a worker token minted now (server clock):
// valid for an hour, with a fresh jti.
func (e *fedEnv) claims() map[string]any {
	now := e.clock.Now()
	return map[string]any{
		"iss": issuerURL,
		"sub": subject,
		"aud": audience,
		"iat": now.Unix(),
		"exp": now.Add(time.Hour).Unix(),
		"jti": rand.Text(),
	}
}

// sign makes a compact ES256 JWS of claims with key under kid.
func (e *fedEnv) sign(t *testing.T, key *ecdsa.PrivateKey, claims map[string]any) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	require.NoError(t, err)
	payload, err := json.Marshal(claims)
	require.NoError(t, err)
	obj, err := signer.Sign(payload)
	require.NoError(t, err)
	jwt, err := obj.CompactSerialize()
	require.NoError(t, err)
	e.remember(jwt)
	return jwt
}

func (e *fedEnv) remember(secret string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.minted = append(e.minted, secret)
}

// mint returns a good JWT, changed by edit.
func (e *fedEnv) mint(t *testing.T, edit ...func(map[string]any)) string {
	c := e.claims()
	for _, f := range edit {
		f(c)
	}
	return e.sign(t, e.key, c)
}

// unsigned returns a JWT with alg "none" and no signature.
func (e *fedEnv) unsigned() string {
	enc := base64.RawURLEncoding
	h, _ := json.Marshal(map[string]any{"alg": "none", "typ": "JWT", "kid": kid})
	p, _ := json.Marshal(e.claims())
	jwt := enc.EncodeToString(h) + "." + enc.EncodeToString(p) + "."
	e.remember(jwt)
	return jwt
}

// config is a working federation config: a fresh JWT for every exchange,
// the manual clock, fast retries.
func (e *fedEnv) config(t *testing.T) auth.FederationConfig {
	return auth.FederationConfig{
		BaseURL:          e.URL,
		FederationRuleID: e.ruleID,
		OrganizationID:   e.Seed.OrganizationID,
		ServiceAccountID: e.saID,
		IdentityToken:    func(context.Context) (string, error) { return e.mint(t), nil },
		Now:              e.clock.Now,
		MaxRetryWait:     time.Millisecond,
	}
}

// federation builds the source, closed when the test ends.
func federation(t *testing.T, cfg auth.FederationConfig) *auth.FederationCredentials {
	t.Helper()
	creds, err := auth.Federation(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, creds.Close()) })
	return creds
}

// client is a client of the server that authenticates with creds only: no
// API key, and no workspace header (the token fixes the workspace).
func client(t *testing.T, url string, creds auth.Credentials, opts ...option.Option) *agentplatform.Client {
	t.Helper()
	base := []option.Option{option.WithCredentials(creds), option.WithMaxRetryWait(reftest.FastRetryWait)}
	if url != "" {
		base = append(base, option.WithBaseURL(url))
	}
	c, err := agentplatform.NewClient(append(base, opts...)...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func modelsParams() models.ListParams { return models.ListParams{} }

// listModels is a plain API call that a federation token may make.
func listModels(c *agentplatform.Client) error {
	_, err := c.Models.List(ctx, models.ListParams{})
	return err
}

// bearerRecorder is middleware that records the access tokens the client
// sends, which the server's request log redacts.
type bearerRecorder struct {
	mu     sync.Mutex
	tokens []string
}

func (b *bearerRecorder) middleware() option.Option {
	return option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		b.mu.Lock()
		b.tokens = append(b.tokens, r.Header.Get("Authorization"))
		b.mu.Unlock()
		return next(r)
	})
}

// distinct returns the distinct Authorization values, in order of first use.
func (b *bearerRecorder) distinct() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	seen := map[string]bool{}
	for _, t := range b.tokens {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
