package refserver_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Helpers of the authentication tests (docs/auth-wire.md): test keys, JWT
// signing with go-jose, a federation setup, exchange requests, and a
// vendor-test-v1 attestor.

const (
	msgDenied       = "Authentication failed"
	testIssuerURL   = "https://idp.example.com"
	testSubject     = "system:serviceaccount:prod:worker"
	vendorAudience  = "https://api.vendor.com"
	grantJWTBearer  = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	grantDevice     = "urn:vendor:params:oauth:grant-type:device-attestation"
	tokenPath       = "/v1/oauth/token"
	challengePath   = "/v1/oauth/device_attestation/challenge"
	msgTokenExpired = "access token has expired"
	msgTokenGone    = "access token is no longer valid"
	msgTokenRevoked = "access token has been revoked"
)

// Keys are generated once per test binary: RSA generation is slow under -race.
var (
	keysOnce                   sync.Once
	rsaKey, rsaOther, rsaSmall *rsa.PrivateKey
	ecKey, ecOther, ecKeyP384  *ecdsa.PrivateKey
)

func testKeys(t *testing.T) {
	t.Helper()
	keysOnce.Do(func() {
		var err error
		gen := func(bits int) *rsa.PrivateKey {
			k, e := rsa.GenerateKey(rand.Reader, bits)
			if e != nil {
				err = e
			}
			return k
		}
		genEC := func(c elliptic.Curve) *ecdsa.PrivateKey {
			k, e := ecdsa.GenerateKey(c, rand.Reader)
			if e != nil {
				err = e
			}
			return k
		}
		rsaKey, rsaOther, rsaSmall = gen(2048), gen(2048), gen(1024)
		ecKey, ecOther, ecKeyP384 = genEC(elliptic.P256()), genEC(elliptic.P256()), genEC(elliptic.P384())
		if err != nil {
			panic(err)
		}
	})
}

// publicJWK is the public JWK of a test key.
func publicJWK(kid string, key any, alg jose.SignatureAlgorithm) jose.JSONWebKey {
	var pub any
	switch k := key.(type) {
	case *rsa.PrivateKey:
		pub = &k.PublicKey
	case *ecdsa.PrivateKey:
		pub = &k.PublicKey
	}
	return jose.JSONWebKey{Key: pub, KeyID: kid, Algorithm: string(alg), Use: "sig"}
}

// signJWT signs claims with go-jose. kid "" leaves kid out of the header;
// extra header members are added as they are.
func signJWT(t *testing.T, alg jose.SignatureAlgorithm, key any, kid string, claims map[string]any, extra map[jose.HeaderKey]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("JWT")
	for k, v := range extra {
		opts = opts.WithHeader(k, v)
	}
	var signingKey any = key
	if kid != "" {
		signingKey = jose.JSONWebKey{Key: key, KeyID: kid}
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: signingKey}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// unsecuredJWT is an alg none JWT (RFC 7519 §6), which go-jose cannot make.
func unsecuredJWT(claims map[string]any) string {
	h, _ := json.Marshal(map[string]any{"alg": "none", "kid": "k1", "typ": "JWT"})
	p, _ := json.Marshal(claims)
	return base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(p) + "."
}

var jtiCounter atomic.Int64

// claimsAt are valid claims at now: a 10-minute JWT with a fresh jti.
func claimsAt(now time.Time) map[string]any {
	return map[string]any{
		"iss": testIssuerURL,
		"sub": testSubject,
		"aud": vendorAudience,
		"iat": now.Unix(),
		"exp": now.Add(10 * time.Minute).Unix(),
		"jti": fmt.Sprintf("jti-%d", jtiCounter.Add(1)),
	}
}

// fedEnv is a server with one service account, an inline RSA+EC issuer and
// a rule for the default workspace. Its clock starts on a whole second, as
// JWT times are whole seconds.
type fedEnv struct {
	*env
	sa, issuer, rule string
}

// newFedEnv builds the federation setup; edit changes the rule before it
// is added.
func newFedEnv(t *testing.T, edit func(*refserver.FederationRule), opts ...refserver.Option) *fedEnv {
	t.Helper()
	testKeys(t)
	e := newEnv(t, opts...)
	e.clock.Set(testStart.Truncate(time.Second))
	f := &fedEnv{env: e, sa: e.srv.CreateServiceAccount("worker")}
	var err error
	f.issuer, err = e.srv.AddFederationIssuer(refserver.FederationIssuer{
		Name:      "test-idp",
		IssuerURL: testIssuerURL,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			publicJWK("k1", rsaKey, ""),
			publicJWK("e1", ecKey, jose.ES256),
			publicJWK("small", rsaSmall, ""),
			publicJWK("e384", ecKeyP384, ""),
		}},
	})
	must(t, err)
	rule := refserver.FederationRule{
		Name:             "workers",
		IssuerID:         f.issuer,
		SubjectPrefix:    "system:serviceaccount:prod:*",
		ServiceAccountID: f.sa,
		WorkspaceIDs:     []string{e.seed.DefaultWorkspaceID},
	}
	if edit != nil {
		edit(&rule)
	}
	f.rule, err = e.srv.AddFederationRule(rule)
	must(t, err)
	return f
}

// jwtNow signs valid claims (changed by edit) with the RSA key k1.
func (f *fedEnv) jwtNow(t *testing.T, edit func(map[string]any)) string {
	t.Helper()
	c := claimsAt(f.clock.Now())
	if edit != nil {
		edit(c)
	}
	return signJWT(t, jose.RS256, rsaKey, "k1", c, nil)
}

// exchangeBody is a jwt-bearer body for the setup's rule; edit changes it.
func (f *fedEnv) exchangeBody(assertion string, edit func(map[string]any)) string {
	b := map[string]any{
		"grant_type":         grantJWTBearer,
		"assertion":          assertion,
		"federation_rule_id": f.rule,
		"organization_id":    f.seed.OrganizationID,
		"service_account_id": f.sa,
	}
	if edit != nil {
		edit(b)
	}
	return mustMarshal(b)
}

// postToken posts an exchange body without any credential.
func (e *env) postToken(t *testing.T, body string, mods ...mod) response {
	t.Helper()
	return e.do(t, "POST", tokenPath, body, append([]mod{noAuth, noWorkspace}, mods...)...)
}

// exchange posts body and returns the token of a 200.
func (e *env) exchange(t *testing.T, body string) (string, map[string]any) {
	t.Helper()
	r := e.postToken(t, body)
	out := wantOK(t, r)
	tok, _ := out["access_token"].(string)
	return tok, out
}

// wantDenied checks the opaque 401 and the recorded reason.
func (e *env) wantDenied(t *testing.T, r response, reason string) {
	t.Helper()
	wantError(t, r, http.StatusUnauthorized, "authentication_error", msgDenied)
	ds := e.srv.ExchangeDenials()
	if len(ds) == 0 {
		t.Fatalf("no denial recorded, want %q", reason)
	}
	last := ds[len(ds)-1]
	if last.Reason != reason || last.RequestID != r.header.Get("request-id") {
		t.Fatalf("denial %+v, want reason %q for request %s", last, reason, r.header.Get("request-id"))
	}
}

func withToken(tok string) mod { return withKey(tok) }

// attestor is a vendor-test-v1 device: one P-256 key, its key id, and the
// app id it signs for.
type attestor struct {
	key   *ecdsa.PrivateKey
	keyID string
	point []byte
}

func newAttestor(t *testing.T) *attestor {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	point, err := k.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(point)
	return &attestor{key: k, point: point, keyID: base64.StdEncoding.EncodeToString(sum[:])}
}

func (a *attestor) sign(t *testing.T, msg []byte) string {
	t.Helper()
	digest := sha256.Sum256(msg)
	r, s, err := ecdsa.Sign(rand.Reader, a.key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return base64.StdEncoding.EncodeToString(sig)
}

func proofMessage(label, appID string, counter []byte, challenge string) []byte {
	cdh := sha256.Sum256([]byte(challenge))
	msg := append([]byte(label), 0)
	msg = append(msg, appID...)
	msg = append(msg, 0)
	msg = append(msg, counter...)
	return append(msg, cdh[:]...)
}

// attestation is the base64 attestation object for appID and challenge.
func (a *attestor) attestation(t *testing.T, appID, challenge string) string {
	t.Helper()
	obj := mustMarshal(map[string]any{
		"fmt":        "vendor-test-v1",
		"public_key": base64.StdEncoding.EncodeToString(a.point),
		"signature":  a.sign(t, proofMessage("attest", appID, nil, challenge)),
	})
	return base64.StdEncoding.EncodeToString([]byte(obj))
}

// assertion is the base64 assertion with counter for appID and challenge.
func (a *attestor) assertion(t *testing.T, appID, challenge string, counter uint32) string {
	t.Helper()
	var be [4]byte
	binary.BigEndian.PutUint32(be[:], counter)
	obj := mustMarshal(map[string]any{
		"fmt":       "vendor-test-v1",
		"counter":   counter,
		"signature": a.sign(t, proofMessage("assert", appID, be[:], challenge)),
	})
	return base64.StdEncoding.EncodeToString([]byte(obj))
}

const (
	testTeamID = "ABCDE12345"
	testBundle = "com.example.chat"
	testAppID  = testTeamID + "." + testBundle
)

// deviceEnv is a server with one app integration in the default workspace.
type deviceEnv struct {
	*env
	client string
}

func newDeviceEnv(t *testing.T, opts ...refserver.Option) *deviceEnv {
	t.Helper()
	e := newEnv(t, opts...)
	id, err := e.srv.AddAppIntegration(refserver.AppIntegration{
		Name: "chat", WorkspaceID: e.seed.DefaultWorkspaceID, TeamID: testTeamID, BundleIDs: []string{"com.example.other", testBundle},
	})
	must(t, err)
	return &deviceEnv{env: e, client: id}
}

// challenge gets a challenge for client.
func (d *deviceEnv) challenge(t *testing.T, client string) string {
	t.Helper()
	out := wantOK(t, d.do(t, "POST", challengePath, mustMarshal(map[string]string{"client_id": client}), noAuth, noWorkspace))
	ch, _ := out["challenge"].(string)
	return ch
}

// deviceBody is a device grant body; proofField is attestation or assertion.
func (d *deviceEnv) deviceBody(a *attestor, challenge, proofField, proof string, edit func(map[string]any)) string {
	b := map[string]any{
		"grant_type": grantDevice,
		"client_id":  d.client,
		"app_id":     testAppID,
		"key_id":     a.keyID,
		"challenge":  challenge,
		proofField:   proof,
	}
	if edit != nil {
		edit(b)
	}
	return mustMarshal(b)
}

// attest runs challenge + attestation and returns the token.
func (d *deviceEnv) attest(t *testing.T, a *attestor) string {
	t.Helper()
	ch := d.challenge(t, d.client)
	tok, _ := d.exchange(t, d.deviceBody(a, ch, "attestation", a.attestation(t, testAppID, ch), nil))
	return tok
}

// assert runs challenge + assertion with counter and returns the response.
func (d *deviceEnv) assert(t *testing.T, a *attestor, counter uint32) response {
	t.Helper()
	ch := d.challenge(t, d.client)
	return d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, counter), nil))
}

// helloMessage is a minimal Messages body.
var helloMessage = `{"model":"vendor-sonnet-5-5","max_tokens":16,"messages":[{"role":"user","content":"hi"}]}`

func containsAny(s string, needles ...string) string {
	for _, n := range needles {
		if n != "" && strings.Contains(s, n) {
			return n
		}
	}
	return ""
}
