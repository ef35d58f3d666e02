package refserver_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// lockedBuffer is a log sink safe for the server's concurrent handlers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// No secret — API key, identity JWT, access token, attestation proof —
// appears in any error body, in the request log (Requests), in the
// recorded exchange denials or in the server's log, whatever the request
// does with it (docs/auth-wire.md 2.8, 2.9).
func TestNoSecretInErrorsOrLogs(t *testing.T) {
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f := newFedEnv(t, nil, refserver.WithLogger(logger))
	integration, err := f.srv.AddAppIntegration(refserver.AppIntegration{
		Name: "chat", WorkspaceID: f.seed.DefaultWorkspaceID, TeamID: testTeamID, BundleIDs: []string{testBundle},
	})
	require.NoError(t, err)
	d := &deviceEnv{env: f.env, client: integration}

	var secrets []string
	secret := func(s string) string { secrets = append(secrets, s); return s }
	var errorBodies []response
	try := func(r response) response {
		if r.status >= 400 {
			errorBodies = append(errorBodies, r)
		}
		return r
	}

	apiKey := secret(f.seed.APIKey)
	saKey := secret(f.mustKey(t, refserver.KeySpec{Kind: refserver.ServiceAccountKey, OwnerID: f.sa, ExpiresAt: f.clock.Now().Add(time.Minute)}).Secret)
	goodJWT := secret(f.jwtNow(t, nil))
	badJWT := secret(signJWT(t, "RS256", rsaOther, "k1", claimsAt(f.clock.Now()), nil))
	noneJWT := secret(unsecuredJWT(claimsAt(f.clock.Now())))

	// Federation: a success, then the same JWT again (replayed), bad
	// JWTs, JWTs in the wrong field or spelled unusually.
	r := try(f.postToken(t, f.exchangeBody(goodJWT, nil)))
	fedToken := secret(wantTokenResponse(t, r, 1200, "workspace:developer", f.seed.DefaultWorkspaceID))
	try(f.postToken(t, f.exchangeBody(goodJWT, nil)))
	try(f.postToken(t, f.exchangeBody(badJWT, nil)))
	try(f.postToken(t, f.exchangeBody(noneJWT, nil)))
	try(f.postToken(t, f.exchangeBody(goodJWT, func(b map[string]any) { b["federation_rule_id"] = "not a rule" })))
	try(f.postToken(t, f.exchangeBody(goodJWT, func(b map[string]any) { b["grant_type"] = "password" })))
	escaped := strings.Replace(f.exchangeBody(secret(f.jwtNow(t, nil)), nil), `"assertion"`, `"assert\u0069on"`, 1)
	wantOK(t, try(f.postToken(t, escaped)))
	try(f.postToken(t, strings.Replace(f.exchangeBody(secret(f.jwtNow(t, nil)), nil), `"assertion"`, `"Assertion"`, 1)))
	try(f.postToken(t, f.exchangeBody(goodJWT, nil), withHeader("Content-Type", "text/plain")))
	try(f.postToken(t, `{"assertion":"`+goodJWT+`"`)) // broken JSON
	try(f.postToken(t, f.exchangeBody(goodJWT, nil), withKey(apiKey), withHeader("x-api-key", saKey)))

	// Device attestation: an attestation, an assertion, a replay, a
	// proof in the wrong grant.
	a := newAttestor(t)
	ch := d.challenge(t, integration)
	attestation := secret(a.attestation(t, testAppID, ch))
	r = try(d.postToken(t, d.deviceBody(a, ch, "attestation", attestation, nil)))
	deviceToken := secret(wantTokenResponse(t, r, 3600, "workspace:messages", f.seed.DefaultWorkspaceID))
	try(d.postToken(t, d.deviceBody(a, ch, "attestation", attestation, nil)))
	ch = d.challenge(t, integration)
	assertion := secret(a.assertion(t, testAppID, ch, 1))
	wantOK(t, try(d.postToken(t, d.deviceBody(a, ch, "assertion", assertion, nil))))
	try(d.postToken(t, d.deviceBody(a, ch, "assertion", assertion, nil)))
	try(d.postToken(t, d.deviceBody(a, ch, "assertion", assertion, func(m map[string]any) { m["grant_type"] = grantJWTBearer })))

	// API calls with every credential, sent every wrong way.
	for _, s := range []string{apiKey, saKey, fedToken, deviceToken} {
		try(f.do(t, "GET", "/v1/organizations/workspaces", "", withKey(s)))
		try(f.do(t, "GET", "/v1/agents", "", withAPIKeyHeader(s)))
		try(f.do(t, "GET", "/v1/models", "", withHeader("Authorization", "Token "+s)))
		try(f.do(t, "GET", "/v1/models", "", withHeader("Authorization", "Bearer "+s, "Bearer "+s)))
		try(f.do(t, "GET", "/v1/models", "", withKey(s+"x")))
		try(f.do(t, "GET", "/v1/models", "", withKey(s), withWorkspace("wrkspc_nope")))
		try(f.do(t, "POST", "/v1/messages", `{"model":"vendor-sonnet-5-5"}`, withKey(s), noWorkspace))
	}
	require.NoError(t, f.srv.RevokeAppIntegration(integration))
	try(f.do(t, "POST", "/v1/messages", helloMessage, withKey(deviceToken), noWorkspace))
	f.clock.Advance(2 * time.Hour)
	try(f.do(t, "GET", "/v1/models", "", withKey(fedToken), noWorkspace))
	try(f.do(t, "GET", "/v1/models", "", withKey(saKey)))
	try(f.do(t, "POST", keyPath("apikey_010000000000000000000002"), `{"status":"active"}`))

	require.Greater(t, len(errorBodies), 30)
	for _, r := range errorBodies {
		if s := containsAny(string(r.body), secrets...); s != "" {
			t.Fatalf("error body contains the secret %.30s…: %s", s, r.body)
		}
		if s := containsAny(fmt.Sprint(r.header), secrets...); s != "" {
			t.Fatalf("error headers contain the secret %.30s…", s)
		}
	}
	reqs := f.srv.Requests()
	require.NotEmpty(t, reqs)
	for _, rec := range reqs {
		dump := fmt.Sprintf("%s %s?%s %v %s", rec.Method, rec.Path, rec.RawQuery, rec.Header, rec.Body)
		if s := containsAny(dump, secrets...); s != "" {
			t.Fatalf("the request log holds the secret %.30s…: %s", s, dump)
		}
	}
	// The log still shows what was sent, redacted.
	var sawAssertion, sawAttestation bool
	for _, rec := range reqs {
		sawAssertion = sawAssertion || bytes.Contains(rec.Body, []byte(`"assertion":"[redacted]"`))
		sawAttestation = sawAttestation || bytes.Contains(rec.Body, []byte(`"attestation":"[redacted]"`))
	}
	require.True(t, sawAssertion && sawAttestation, "redacted fields stay visible")

	if s := containsAny(fmt.Sprintf("%+v", f.srv.ExchangeDenials()), secrets...); s != "" {
		t.Fatalf("a recorded denial holds the secret %.30s…", s)
	}
	out := logs.String()
	require.Contains(t, out, "token exchange denied")
	if s := containsAny(out, secrets...); s != "" {
		t.Fatalf("the server log holds the secret %.30s…", s)
	}
	// Denials name their reason in the log, nothing more.
	require.Contains(t, out, "reason=jwt_signature")
}
