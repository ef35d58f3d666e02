package refserver_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// The jwt-bearer grant of POST /v1/oauth/token and the access tokens it
// issues (docs/auth-wire.md sections 1–3).

const (
	msgAdminRefusesTokens = "The admin API does not accept access tokens scoped to a workspace; use a key that is not scoped to a workspace."
	accessTokenPrefix     = "sk-vendor-oat01-"
)

func wantForbidden(t *testing.T, r response, message string) {
	t.Helper()
	wantError(t, r, http.StatusForbidden, "permission_error", message)
}

func inferenceRefusal(method, path string) string {
	return "This access token does not allow `" + method + " " + path +
		"`: its scope `workspace:inference` allows only the Messages, chat completions and Models endpoints."
}

// wantTokenResponse checks a 200 of either grant (docs/auth-wire.md 2.7, 4.5) and
// returns the access token.
func wantTokenResponse(t *testing.T, r response, expiresIn int, scope, workspaceID string) string {
	t.Helper()
	out := wantOK(t, r)
	tok, _ := out["access_token"].(string)
	require.Equal(t, map[string]any{
		"access_token": tok,
		"token_type":   "Bearer",
		"expires_in":   float64(expiresIn),
		"scope":        scope,
	}, out, "token response body")
	body, ok := strings.CutPrefix(tok, accessTokenPrefix)
	require.True(t, ok, "token %q lacks the prefix", tok)
	raw, err := base64.RawURLEncoding.DecodeString(body)
	require.NoError(t, err, "token body is not url-safe base64")
	require.Len(t, raw, 32)
	require.Equal(t, "no-store", r.header.Get("Cache-Control"))
	require.Equal(t, "no-cache", r.header.Get("Pragma"))
	require.Equal(t, workspaceID, r.header.Get("vendor-workspace-id"))
	require.True(t, requestIDPattern.MatchString(r.header.Get("request-id")))
	return tok
}

func TestFederationExchange(t *testing.T) {
	f := newFedEnv(t, nil)
	ws := f.seed.DefaultWorkspaceID
	r := f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), nil))
	// A 10-minute JWT: expires_in = min(3600, 2 × 600) (docs/auth-wire.md 2.6).
	tok := wantTokenResponse(t, r, 1200, "workspace:developer", ws)
	require.Equal(t, f.seed.OrganizationID, r.header.Get("vendor-organization-id"))

	t.Run("the token works, in its workspace", func(t *testing.T) {
		got := f.do(t, "GET", "/v1/models", "", withToken(tok), noWorkspace)
		wantOK(t, got)
		require.Equal(t, ws, got.header.Get("vendor-workspace-id"))
		wantOK(t, f.do(t, "GET", "/v1/models", "", withToken(tok), withWorkspace(ws)))
		// API keys and federation grant the same access.
		wantOK(t, f.do(t, "GET", "/v1/agents", "", withToken(tok), noWorkspace, agentsBeta))
		wantOK(t, f.do(t, "POST", "/v1/messages", helloMessage, withToken(tok), noWorkspace))
	})
	t.Run("another workspace in the header", func(t *testing.T) {
		other := f.srv.CreateWorkspace("other")
		wantError(t, f.do(t, "GET", "/v1/models", "", withToken(tok), withWorkspace(other)),
			http.StatusNotFound, "not_found_error", "Workspace `"+other+"` not found.")
		wantError(t, f.do(t, "GET", "/v1/models", "", withToken(tok), withWorkspace("wrkspc_nope")),
			http.StatusNotFound, "not_found_error", "Workspace `wrkspc_nope` not found.")
		wantInvalid(t, f.do(t, "GET", "/v1/models", "", withToken(tok), withWorkspace("default")),
			"vendor-workspace-id header must be a valid workspace ID")
	})
	t.Run("the token is sent as Bearer only", func(t *testing.T) {
		wantUnauthenticated(t, f.do(t, "GET", "/v1/models", "", withAPIKeyHeader(tok)),
			"access tokens must be sent as `Authorization: Bearer <token>`")
		// Bearer wins: a valid key in x-api-key does not rescue a bad token.
		wantUnauthenticated(t, f.do(t, "GET", "/v1/models", "", withToken(accessTokenPrefix+"nope"), withHeader("x-api-key", f.seed.APIKey)),
			"invalid access token")
		wantUnauthenticated(t, f.do(t, "GET", "/v1/models", "", withToken(accessTokenPrefix+strings.Repeat("A", 43))),
			"invalid access token")
	})
	t.Run("the admin API refuses it", func(t *testing.T) {
		wantForbidden(t, f.do(t, "GET", "/v1/organizations/workspaces", "", withToken(tok)), msgAdminRefusesTokens)
		wantForbidden(t, f.do(t, "GET", "/v1/organizations/api_keys", "", withToken(tok)), msgAdminRefusesTokens)
	})
}

// Expiry follows the server clock: the token works until issued_at +
// expires_in, and is "has expired" from then on (docs/auth-wire.md 1.3).
func TestFederationTokenExpiry(t *testing.T) {
	f := newFedEnv(t, nil)
	get := func(tok string) response { return f.do(t, "GET", "/v1/models", "", withToken(tok), noWorkspace) }

	tok, out := f.exchange(t, f.exchangeBody(f.jwtNow(t, nil), nil))
	require.EqualValues(t, 1200, out["expires_in"])
	f.clock.Advance(1200*time.Second - time.Microsecond)
	wantOK(t, get(tok))
	f.clock.Advance(time.Microsecond)
	wantUnauthenticated(t, get(tok), msgTokenExpired)
	f.clock.Advance(20 * time.Hour)
	wantUnauthenticated(t, get(tok), msgTokenExpired)

	lifetimes := []struct {
		name     string
		rule     int // TokenLifetimeSeconds; 0 = default 3600
		exp, iat time.Duration
		later    time.Duration // clock advance between signing and exchange
		want     int
	}{
		{"rule default, hour-long JWT", 0, time.Hour, 0, 0, 3600},
		{"rule lifetime caps", 300, time.Hour, 0, 0, 300},
		{"twice the JWT's remaining life", 0, 10 * time.Minute, 0, 0, 1200},
		{"whole seconds, rounded down", 0, 10 * time.Minute, 0, 300 * time.Millisecond, 1199},
		{"never below 60 s", 0, 20 * time.Second, 0, 0, 60},
		{"JWT inside the exp leeway", 0, -29 * time.Second, -10 * time.Minute, 0, 60},
	}
	for _, tc := range lifetimes {
		t.Run(tc.name, func(t *testing.T) {
			f := newFedEnv(t, func(r *refserver.FederationRule) { r.TokenLifetimeSeconds = tc.rule })
			get := func(tok string) response { return f.do(t, "GET", "/v1/models", "", withToken(tok), noWorkspace) }
			now := f.clock.Now()
			jwt := f.jwtNow(t, func(c map[string]any) {
				c["iat"] = now.Add(tc.iat).Unix()
				c["exp"] = now.Add(tc.exp).Unix()
			})
			f.clock.Advance(tc.later)
			tok, out := f.exchange(t, f.exchangeBody(jwt, nil))
			require.EqualValues(t, tc.want, out["expires_in"])
			f.clock.Advance(time.Duration(tc.want)*time.Second - time.Millisecond)
			wantOK(t, get(tok))
			f.clock.Advance(time.Millisecond)
			wantUnauthenticated(t, get(tok), msgTokenExpired)
		})
	}
}

// Every JWT check of docs/auth-wire.md 2.3 and matcher of 2.4 refuses with the same
// opaque 401; the reason is recorded for tests only.
func TestFederationRejectsBadJWTs(t *testing.T) {
	f := newFedEnv(t, nil)
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	now := f.clock.Now()
	at := func(d time.Duration) int64 { return now.Add(d).Unix() }
	with := func(name string, v any) func(map[string]any) {
		return func(c map[string]any) { c[name] = v }
	}
	without := func(name string) func(map[string]any) {
		return func(c map[string]any) { delete(c, name) }
	}
	claims := func(edit func(map[string]any)) map[string]any {
		c := claimsAt(now)
		if edit != nil {
			edit(c)
		}
		return c
	}
	good := f.jwtNow(t, nil)
	parts := strings.Split(good, ".")
	cases := []struct {
		name, jwt, reason string
	}{
		{"wrong signing key", signJWT(t, jose.RS256, rsaOther, "k1", claims(nil), nil), "jwt_signature"},
		{"EC key of another issuer", signJWT(t, jose.ES256, ecOther, "e1", claims(nil), nil), "jwt_signature"},
		{"tampered payload", parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"x"}`)) + "." + parts[2], "jwt_signature"},
		{"wrong issuer", f.jwtNow(t, with("iss", "https://evil.example.com")), "jwt_issuer"},
		{"issuer with a trailing slash", f.jwtNow(t, with("iss", testIssuerURL+"/")), "jwt_issuer"},
		{"no issuer", f.jwtNow(t, without("iss")), "jwt_issuer"},
		{"wrong audience", f.jwtNow(t, with("aud", "https://api.other.com")), "match_audience"},
		{"audience list without ours", f.jwtNow(t, with("aud", []string{"a", "b"})), "match_audience"},
		{"no audience", f.jwtNow(t, without("aud")), "match_audience"},
		{"audience not a string", f.jwtNow(t, with("aud", 7)), "jwt_audience"},
		{"wrong subject", f.jwtNow(t, with("sub", "system:serviceaccount:dev:worker")), "match_subject_prefix"},
		{"empty subject", f.jwtNow(t, with("sub", "")), "jwt_subject"},
		{"no subject", f.jwtNow(t, without("sub")), "jwt_subject"},
		{"expired", f.jwtNow(t, func(c map[string]any) { c["iat"], c["exp"] = at(-time.Hour), at(-30*time.Second) }), "jwt_expired"},
		{"no exp", f.jwtNow(t, without("exp")), "jwt_exp_missing"},
		{"exp not a number", f.jwtNow(t, with("exp", "tomorrow")), "jwt_exp_missing"},
		{"no iat", f.jwtNow(t, without("iat")), "jwt_iat_missing"},
		{"issued in the future", f.jwtNow(t, with("iat", at(31*time.Second))), "jwt_issued_in_future"},
		{"not yet valid", f.jwtNow(t, with("nbf", at(31*time.Second))), "jwt_not_yet_valid"},
		{"nbf not a number", f.jwtNow(t, with("nbf", "soon")), "jwt_nbf_invalid"},
		{"lives too long", f.jwtNow(t, func(c map[string]any) { c["iat"], c["exp"] = at(-time.Hour), at(time.Second) }), "jwt_lifetime_too_long"},
		{"jti not a string", f.jwtNow(t, with("jti", 5)), "jwt_jti_invalid"},
		{"alg none", unsecuredJWT(claims(nil)), "jwt_algorithm"},
		{"alg HS256", signJWT(t, jose.HS256, []byte("0123456789abcdef0123456789abcdef"), "k1", claims(nil), nil), "jwt_algorithm"},
		{"alg EdDSA", signJWT(t, jose.EdDSA, edKey, "k1", claims(nil), nil), "jwt_algorithm"},
		{"no kid", signJWT(t, jose.RS256, rsaKey, "", claims(nil), nil), "jwt_kid_missing"},
		{"unknown kid", signJWT(t, jose.RS256, rsaKey, "k9", claims(nil), nil), "jwt_kid_unknown"},
		{"RSA key under 2048 bits", signJWT(t, jose.RS256, rsaSmall, "small", claims(nil), nil), "jwt_key_too_small"},
		{"algorithm the JWK does not allow", signJWT(t, jose.PS256, rsaKey, "e1", claims(nil), nil), "jwt_key_mismatch"},
		{"EC key of the wrong curve", signJWT(t, jose.ES256, ecKey, "e384", claims(nil), nil), "jwt_key_mismatch"},
		{"RSA alg on an EC key", signJWT(t, jose.RS256, rsaKey, "e384", claims(nil), nil), "jwt_key_mismatch"},
		{"crit header", signJWT(t, jose.RS256, rsaKey, "k1", claims(nil), map[jose.HeaderKey]any{"crit": []string{"exp"}, "exp": 1}), "jwt_crit"},
		{"not a JWT", "not-a-jwt", "jwt_malformed"},
		{"two segments", parts[0] + "." + parts[1], "jwt_malformed"},
		{"padded segment", good + "=", "jwt_malformed"},
		{"JWE form", strings.Join([]string{parts[0], "", "iv", parts[1], "tag"}, "."), "jwt_malformed"},
		{"header not JSON", base64.RawURLEncoding.EncodeToString([]byte("hello")) + "." + parts[1] + "." + parts[2], "jwt_malformed"},
		{"payload not JSON", signPayload(t, rsaKey, "k1", []byte("hello")), "jwt_malformed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := f.postToken(t, f.exchangeBody(tc.jwt, nil))
			f.wantDenied(t, r, tc.reason)
			require.NotContains(t, string(r.body), tc.jwt)
		})
	}

	// What the checks let through.
	accepted := []struct{ name, jwt string }{
		{"ES256 key", signJWT(t, jose.ES256, ecKey, "e1", claims(nil), nil)},
		{"ES384 key without alg", signJWT(t, jose.ES384, ecKeyP384, "e384", claims(nil), nil)},
		{"PS256 on an RSA key without alg", signJWT(t, jose.PS256, rsaKey, "k1", claims(nil), nil)},
		{"audience list with ours", f.jwtNow(t, with("aud", []string{"https://other", vendorAudience}))},
		{"exp inside the leeway", f.jwtNow(t, func(c map[string]any) { c["iat"], c["exp"] = at(-time.Hour), at(-29*time.Second) })},
		{"iat inside the leeway", f.jwtNow(t, with("iat", at(30*time.Second)))},
		{"nbf inside the leeway", f.jwtNow(t, with("nbf", at(30*time.Second)))},
		{"longest lifetime", f.jwtNow(t, func(c map[string]any) { c["iat"], c["exp"] = at(-50*time.Minute), at(10*time.Minute) })},
		{"no typ", signJWTNoTyp(t, claims(nil))},
	}
	for _, tc := range accepted {
		t.Run(tc.name, func(t *testing.T) {
			f.exchange(t, f.exchangeBody(tc.jwt, nil))
		})
	}
}

// signPayload signs raw bytes (not a claims object) with RS256.
func signPayload(t *testing.T, key any, kid string, payload []byte) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, nil)
	require.NoError(t, err)
	obj, err := signer.Sign(payload)
	require.NoError(t, err)
	out, err := obj.CompactSerialize()
	require.NoError(t, err)
	return out
}

// signJWTNoTyp signs claims with k1 and a header without typ.
func signJWTNoTyp(t *testing.T, claims map[string]any) string {
	t.Helper()
	b, err := json.Marshal(claims)
	require.NoError(t, err)
	return signPayload(t, rsaKey, "k1", b)
}

// A jti is single-use per issuer, and is spent only by a successful
// exchange (docs/auth-wire.md 8, C10). JWTs without a jti, or from an issuer with check_jti
// off, may be exchanged again.
func TestFederationJTI(t *testing.T) {
	f := newFedEnv(t, nil)
	other := f.srv.CreateWorkspace("other")
	jwt := f.jwtNow(t, nil)
	f.wantDenied(t, f.postToken(t, f.exchangeBody(jwt, func(b map[string]any) { b["workspace_id"] = other })), "workspace_not_enabled")
	f.exchange(t, f.exchangeBody(jwt, nil)) // the failed attempt did not spend it
	f.wantDenied(t, f.postToken(t, f.exchangeBody(jwt, nil)), "jti_reused")

	noJTI := f.jwtNow(t, func(c map[string]any) { delete(c, "jti") })
	f.exchange(t, f.exchangeBody(noJTI, nil))
	f.exchange(t, f.exchangeBody(noJTI, nil))

	// Another issuer with the same key and jti checks off.
	iss, err := f.srv.AddFederationIssuer(refserver.FederationIssuer{
		Name: "lenient", IssuerURL: "https://lenient.example.com", DisableJTICheck: true,
		JWKS: &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{publicJWK("k1", rsaKey, jose.RS256)}},
	})
	require.NoError(t, err)
	rule, err := f.srv.AddFederationRule(refserver.FederationRule{
		Name: "lenient", IssuerID: iss, SubjectPrefix: testSubject, ServiceAccountID: f.sa, WorkspaceIDs: []string{f.seed.DefaultWorkspaceID},
	})
	require.NoError(t, err)
	lenient := f.jwtNow(t, func(c map[string]any) { c["iss"] = "https://lenient.example.com"; c["jti"] = "same" })
	body := f.exchangeBody(lenient, func(b map[string]any) { b["federation_rule_id"] = rule })
	f.exchange(t, body)
	f.exchange(t, body)

	// A jti is remembered per issuer until exp + 30 s.
	f.clock.Advance(10*time.Minute + 30*time.Second)
	f.wantDenied(t, f.postToken(t, f.exchangeBody(jwt, nil)), "jwt_expired")
}

// Steps 3, 4 and 7 of docs/auth-wire.md 2.2: organization, rule, issuer, service
// account. Archiving stops new exchanges; issued tokens keep working until
// they expire unless the service account or workspace goes
// (docs/auth-wire.md 8, C11).
func TestFederationTargets(t *testing.T) {
	f := newFedEnv(t, nil)
	other := f.srv.CreateServiceAccount("other")
	denials := []struct {
		name   string
		edit   func(map[string]any)
		reason string
	}{
		{"another organization", func(b map[string]any) { b["organization_id"] = "org_other" }, "organization_mismatch"},
		{"unknown rule", func(b map[string]any) { b["federation_rule_id"] = "fdrl_nope" }, "rule_not_found"},
		{"not the rule's service account", func(b map[string]any) { b["service_account_id"] = other }, "service_account_mismatch"},
		{"unknown service account", func(b map[string]any) { b["service_account_id"] = "svcacct_nope" }, "service_account_mismatch"},
	}
	for _, tc := range denials {
		t.Run(tc.name, func(t *testing.T) {
			f.wantDenied(t, f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), tc.edit)), tc.reason)
		})
	}

	archives := []struct {
		name    string
		archive func(f *fedEnv) error
		reason  string
		tokenOK bool // tokens issued before keep working
	}{
		{"rule archived", func(f *fedEnv) error { return f.srv.ArchiveFederationRule(f.rule) }, "rule_archived", true},
		{"rule deleted", func(f *fedEnv) error { return f.srv.DeleteFederationRule(f.rule) }, "rule_not_found", true},
		{"issuer archived", func(f *fedEnv) error { return f.srv.ArchiveFederationIssuer(f.issuer) }, "issuer_archived", true},
		{"issuer deleted", func(f *fedEnv) error { return f.srv.DeleteFederationIssuer(f.issuer) }, "issuer_not_found", true},
		{"service account archived", func(f *fedEnv) error { return f.srv.ArchiveServiceAccount(f.sa) }, "service_account_archived", false},
	}
	for _, tc := range archives {
		t.Run(tc.name, func(t *testing.T) {
			f := newFedEnv(t, nil)
			get := func(tok string) response { return f.do(t, "GET", "/v1/models", "", withToken(tok), noWorkspace) }
			tok, _ := f.exchange(t, f.exchangeBody(f.jwtNow(t, nil), nil))
			require.NoError(t, tc.archive(f))
			f.wantDenied(t, f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), nil)), tc.reason)
			if tc.tokenOK {
				wantOK(t, get(tok))
				f.clock.Advance(1200 * time.Second)
				wantUnauthenticated(t, get(tok), msgTokenExpired)
			} else {
				wantUnauthenticated(t, get(tok), msgTokenGone)
			}
		})
	}
}

// The workspace is chosen at exchange (docs/auth-wire.md 2.5) and the token is
// bound to it; losing it invalidates the token (1.3).
func TestFederationWorkspaceSelection(t *testing.T) {
	type setup struct {
		*fedEnv
		def, listed, unlisted, unreachable, archived string
	}
	build := func(t *testing.T, all bool) *setup {
		var s setup
		f := newFedEnv(t, nil)
		s.fedEnv = f
		s.def = f.seed.DefaultWorkspaceID
		s.listed = f.srv.CreateWorkspace("listed")
		s.unlisted = f.srv.CreateWorkspace("unlisted")
		s.unreachable = f.srv.CreateWorkspace("unreachable")
		s.archived = f.srv.CreateWorkspace("archived")
		for _, ws := range []string{s.listed, s.unlisted, s.archived} {
			require.NoError(t, f.srv.AddServiceAccountToWorkspace(f.sa, ws))
		}
		rule := refserver.FederationRule{
			Name: "multi", IssuerID: f.issuer, SubjectPrefix: testSubject, ServiceAccountID: f.sa,
			WorkspaceIDs: []string{s.def, s.listed, s.unreachable, s.archived},
		}
		if all {
			rule.WorkspaceIDs, rule.AllWorkspaces = nil, true
		}
		id, err := f.srv.AddFederationRule(rule)
		require.NoError(t, err)
		f.rule = id
		require.NoError(t, f.srv.ArchiveWorkspace(s.archived))
		return &s
	}
	ws := func(id any) func(map[string]any) { return func(b map[string]any) { b["workspace_id"] = id } }

	t.Run("single-workspace rule", func(t *testing.T) {
		f := newFedEnv(t, nil)
		def := f.seed.DefaultWorkspaceID
		for _, sent := range []any{nil, "default", def} {
			r := f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), func(b map[string]any) {
				if sent != nil {
					b["workspace_id"] = sent
				}
			}))
			wantTokenResponse(t, r, 1200, "workspace:developer", def)
		}
		f.exchange(t, f.exchangeBody(f.jwtNow(t, nil), ws(nil))) // null is omitted
		other := f.srv.CreateWorkspace("other")
		f.wantDenied(t, f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), ws(other))), "workspace_not_enabled")
	})

	for _, all := range []bool{false, true} {
		name := "listed workspaces"
		if all {
			name = "all workspaces"
		}
		t.Run(name, func(t *testing.T) {
			s := build(t, all)
			type wsCase struct {
				name   string
				sent   any // nil: omitted
				bound  string
				reason string
			}
			cases := []wsCase{
				{"omitted", nil, "", "workspace_id_required"},
				{"default", "default", s.def, ""},
				{"a listed workspace", s.listed, s.listed, ""},
				{"archived", s.archived, "", "workspace_archived"},
				{"service account not a member", s.unreachable, "", "workspace_unreachable"},
			}
			if all {
				cases = append(cases,
					wsCase{"any member workspace", s.unlisted, s.unlisted, ""},
					wsCase{"unknown workspace", "wrkspc_nope", "", "workspace_not_found"})
			} else {
				cases = append(cases, wsCase{"not listed", s.unlisted, "", "workspace_not_enabled"})
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					edit := func(b map[string]any) {}
					if tc.sent != nil {
						edit = ws(tc.sent)
					}
					r := s.postToken(t, s.exchangeBody(s.jwtNow(t, nil), edit))
					if tc.reason != "" {
						s.wantDenied(t, r, tc.reason)
						return
					}
					tok := wantTokenResponse(t, r, 1200, "workspace:developer", tc.bound)
					got := s.do(t, "GET", "/v1/agents", "", withToken(tok), noWorkspace, agentsBeta)
					wantOK(t, got)
					require.Equal(t, tc.bound, got.header.Get("vendor-workspace-id"))
				})
			}
		})
	}

	t.Run("the token stops when the workspace goes", func(t *testing.T) {
		s := build(t, false)
		get := func(tok string) response { return s.do(t, "GET", "/v1/models", "", withToken(tok), noWorkspace) }
		tok, _ := s.exchange(t, s.exchangeBody(s.jwtNow(t, nil), ws(s.listed)))
		wantOK(t, get(tok))
		require.NoError(t, s.srv.RemoveServiceAccountFromWorkspace(s.sa, s.listed))
		wantUnauthenticated(t, get(tok), msgTokenGone)
		require.NoError(t, s.srv.AddServiceAccountToWorkspace(s.sa, s.listed))
		wantOK(t, get(tok))
		require.NoError(t, s.srv.ArchiveWorkspace(s.listed))
		wantUnauthenticated(t, get(tok), msgTokenGone)
		s.wantDenied(t, s.postToken(t, s.exchangeBody(s.jwtNow(t, nil), ws(s.listed))), "workspace_archived")
	})
}

// docs/auth-wire.md 1.4: workspace:developer allows every non-admin endpoint;
// workspace:inference only Messages, chat completions and Models.
func TestFederationScopes(t *testing.T) {
	f := newFedEnv(t, func(r *refserver.FederationRule) { r.OAuthScope = refserver.ScopeWorkspaceInference })
	r := f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), nil))
	tok := wantTokenResponse(t, r, 1200, "workspace:inference", f.seed.DefaultWorkspaceID)
	call := func(method, path, body string) response {
		return f.do(t, method, path, body, withToken(tok), noWorkspace)
	}

	allowed := []struct{ method, path, body string }{
		{"POST", "/v1/messages", helloMessage},
		{"POST", "/v1/messages/count_tokens", `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"hi"}]}`},
		{"POST", "/v1/chat/completions", chatHello},
		{"GET", "/v1/models", ""},
		{"GET", "/v1/models/vendor-sonnet-5-5", ""},
	}
	for _, a := range allowed {
		t.Run("allowed "+a.method+" "+a.path, func(t *testing.T) {
			got := call(a.method, a.path, a.body)
			require.Equal(t, http.StatusOK, got.status, "%s", got.body)
		})
	}
	refused := []struct{ method, path, body string }{
		{"GET", "/v1/agents", ""},
		{"POST", "/v1/agents", `{"name":"a","model":"vendor-sonnet-5-5"}`},
		{"GET", "/v1/sessions", ""},
		{"GET", "/v1/organizations/workspaces", ""},
		{"GET", "/v1/organizations/api_keys", ""},
	}
	for _, rf := range refused {
		t.Run("refused "+rf.method+" "+rf.path, func(t *testing.T) {
			wantForbidden(t, call(rf.method, rf.path, rf.body), inferenceRefusal(rf.method, rf.path))
		})
	}
	t.Run("routing comes first", func(t *testing.T) {
		wantError(t, call("GET", "/v1/nowhere", ""), http.StatusNotFound, "not_found_error", "No route for GET /v1/nowhere.")
		wantError(t, call("GET", "/v1/messages", ""), http.StatusMethodNotAllowed, "invalid_request_error", "")
	})
}

// Steps 1–2 of docs/auth-wire.md 2.2: request shape errors are 400s that name the
// field, in table order, and are checked before anything is looked up.
func TestFederationRequestValidation(t *testing.T) {
	f := newFedEnv(t, nil)
	jwt := f.jwtNow(t, nil)
	body := func(edit func(map[string]any)) string { return f.exchangeBody(jwt, edit) }
	set := func(k string, v any) func(map[string]any) { return func(b map[string]any) { b[k] = v } }
	del := func(k string) func(map[string]any) { return func(b map[string]any) { delete(b, k) } }
	grants := "grant_type: must be one of `urn:ietf:params:oauth:grant-type:jwt-bearer`, `urn:vendor:params:oauth:grant-type:device-attestation`"
	cases := []struct {
		name    string
		body    string
		mods    []mod
		message string
	}{
		{"no content type", body(nil), []mod{withHeader("Content-Type")}, "content-type: must be application/json"},
		{"form content type", "grant_type=" + grantJWTBearer, []mod{withHeader("Content-Type", "application/x-www-form-urlencoded")}, "content-type: must be application/json"},
		{"text content type", body(nil), []mod{withHeader("Content-Type", "text/plain")}, "content-type: must be application/json"},
		{"not an object", `[]`, nil, "request body: must be a JSON object"},
		{"broken JSON", `{"grant_type":`, nil, "request body: invalid JSON: unexpected end of input"},
		{"unclosed object", `{"grant_type":"x"`, nil, "request body: invalid JSON: unexpected end of input"},
		{"trailing data", `{}{}`, nil, "request body: unexpected data after the JSON value"},
		{"empty body", "", []mod{withHeader("Content-Type", "application/json")}, "grant_type: is required"},
		{"no grant_type", body(del("grant_type")), nil, "grant_type: is required"},
		{"grant_type null", body(set("grant_type", nil)), nil, "grant_type: is required"},
		{"grant_type not a string", body(set("grant_type", 1)), nil, "grant_type: must be a string"},
		{"unknown grant_type", body(set("grant_type", "password")), nil, grants},
		{"token-exchange grant", body(set("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange")), nil, grants},
		{"unknown field", body(set("scope", "workspace:developer")), nil, "scope: unknown field"},
		{"device field", body(set("client_id", "clid_01")), nil, "client_id: unknown field"},
		{"no assertion", body(del("assertion")), nil, "assertion: is required"},
		{"assertion not a string", body(set("assertion", 5)), nil, "assertion: must be a string"},
		{"empty assertion", body(set("assertion", "")), nil, "assertion: must be between 1 and 16384 characters"},
		{"assertion too long", body(set("assertion", strings.Repeat("a", 16385))), nil, "assertion: must be between 1 and 16384 characters"},
		{"no rule", body(del("federation_rule_id")), nil, "federation_rule_id: is required"},
		{"bad rule id", body(set("federation_rule_id", "rule-1")), nil, "federation_rule_id: must be a federation rule ID (`fdrl_…`)"},
		{"bad organization id", body(set("organization_id", "8d3b1c1e-0000-4000-8000-000000000000")), nil, "organization_id: must be an organization ID (`org_…`)"},
		{"no service account", body(del("service_account_id")), nil, "service_account_id: is required"},
		{"bad service account id", body(set("service_account_id", "svac_01")), nil, "service_account_id: must be a service account ID (`svcacct_…`)"},
		{"bad workspace id", body(set("workspace_id", "Default")), nil, "workspace_id: must be a workspace ID (`wrkspc_…`) or `default`"},
		{"workspace id not a string", body(set("workspace_id", 3)), nil, "workspace_id: must be a string"},
		{"bad vendor-version", body(nil), []mod{withHeader("vendor-version", "1999-01-01")}, "vendor-version: unsupported version `1999-01-01`; the served versions are `2023-06-01` and `2026-10-21`"},
		{"unknown beta", body(nil), []mod{withHeader("vendor-beta", "nope-2020-01-01")}, "vendor-beta: unknown beta value `nope-2020-01-01`"},
		{"table order: assertion before rule", body(func(b map[string]any) { b["assertion"] = ""; b["federation_rule_id"] = "x" }), nil, "assertion: must be between 1 and 16384 characters"},
		{"table order: unknown keys first", body(func(b map[string]any) { b["assertion"] = ""; b["zzz"] = 1 }), nil, "zzz: unknown field"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := f.postToken(t, tc.body, tc.mods...)
			wantInvalid(t, r, tc.message)
			require.Equal(t, "no-store", r.header.Get("Cache-Control"))
		})
	}
	require.Empty(t, f.srv.ExchangeDenials(), "a 400 is not a denial")
	// The JWT was never looked at, so it can still be exchanged.
	f.exchange(t, body(nil))

	for _, method := range []string{"GET", "PUT", "PATCH", "DELETE"} {
		for _, path := range []string{tokenPath, challengePath} {
			r := f.do(t, method, path, "", noAuth)
			wantError(t, r, http.StatusMethodNotAllowed, "invalid_request_error", "method: must be POST")
			require.Equal(t, "POST", r.header.Get("Allow"))
		}
	}
	wantError(t, f.do(t, "POST", tokenPath+"/", body(nil), noAuth), http.StatusNotFound, "not_found_error", "")
	// A charset parameter is fine.
	wantOK(t, f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), nil), withHeader("Content-Type", "application/json; charset=utf-8")))
}

// The exchange takes no credential and ignores credential headers,
// vendor-workspace-id and Idempotency-Key (docs/auth-wire.md 1.2).
func TestFederationExchangeIgnoresCredentialsAndIdempotency(t *testing.T) {
	f := newFedEnv(t, nil)
	other := f.srv.CreateWorkspace("other")
	ignored := []mod{
		withHeader("Authorization", "Bearer sk-vendor-api03-bogus"),
		withHeader("x-api-key", "sk-vendor-oat01-bogus"),
		withWorkspace("not a workspace"),
		withHeader("Idempotency-Key", "same-key"),
	}
	first := f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), nil), ignored...)
	tok1 := wantTokenResponse(t, first, 1200, "workspace:developer", f.seed.DefaultWorkspaceID)
	require.Empty(t, first.header.Get("idempotent-replayed"))

	// The same Idempotency-Key with another body: no replay, no mismatch.
	second := f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), nil), append(ignored, withWorkspace(other))...)
	tok2 := wantTokenResponse(t, second, 1200, "workspace:developer", f.seed.DefaultWorkspaceID)
	require.Empty(t, second.header.Get("idempotent-replayed"))
	require.NotEqual(t, tok1, tok2)

	// The same body again is not replayed either: its jti is spent.
	again := f.exchangeBody(f.jwtNow(t, func(c map[string]any) { c["jti"] = "fixed" }), nil)
	f.exchange(t, again)
	r := f.postToken(t, again, ignored...)
	f.wantDenied(t, r, "jti_reused")
	require.Empty(t, r.header.Get("idempotent-replayed"))
}

// A token acts as its service account: idempotency keys are remembered for
// the account, so a retry after a token refresh is still recognised.
func TestFederationIdempotencyAcrossTokens(t *testing.T) {
	f := newFedEnv(t, nil)
	tok1, _ := f.exchange(t, f.exchangeBody(f.jwtNow(t, nil), nil))
	tok2, _ := f.exchange(t, f.exchangeBody(f.jwtNow(t, nil), nil))
	body := `{"name":"agent","model":"vendor-sonnet-5-5"}`
	first := wantOK(t, f.do(t, "POST", "/v1/agents", body, withToken(tok1), noWorkspace, agentsBeta, withHeader("Idempotency-Key", "k1")))
	retry := f.do(t, "POST", "/v1/agents", body, withToken(tok2), noWorkspace, agentsBeta, withHeader("Idempotency-Key", "k1"))
	require.Equal(t, first["id"], wantOK(t, retry)["id"])
	require.Equal(t, "true", retry.header.Get("idempotent-replayed"))

	// Another service account's token does not see it.
	sa2 := f.srv.CreateServiceAccount("second")
	rule2, err := f.srv.AddFederationRule(refserver.FederationRule{
		Name: "second", IssuerID: f.issuer, SubjectPrefix: "system:serviceaccount:prod:second", ServiceAccountID: sa2,
		WorkspaceIDs: []string{f.seed.DefaultWorkspaceID},
	})
	require.NoError(t, err)
	tok3, _ := f.exchange(t, f.exchangeBody(f.jwtNow(t, func(c map[string]any) { c["sub"] = "system:serviceaccount:prod:second" }),
		func(b map[string]any) { b["federation_rule_id"], b["service_account_id"] = rule2, sa2 }))
	other := f.do(t, "POST", "/v1/agents", body, withToken(tok3), noWorkspace, agentsBeta, withHeader("Idempotency-Key", "k1"))
	require.NotEqual(t, first["id"], wantOK(t, other)["id"])
	require.Empty(t, other.header.Get("idempotent-replayed"))
}

// Issuers whose keys are fetched (docs/auth-wire.md 3.2): discovery, an explicit
// JWKS URL, the 60-second cache, the refetch on an unknown kid, and fetch
// failures.
func TestFederationFetchedKeys(t *testing.T) {
	testKeys(t)
	var mu sync.Mutex
	served := []jose.JSONWebKey{publicJWK("k1", rsaKey, jose.RS256)}
	status := http.StatusOK
	fetches := 0
	var base string
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			_ = json.NewEncoder(w).Encode(map[string]string{"issuer": base, "jwks_uri": base + "/keys"})
		case "/keys":
			fetches++
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: served})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(idp.Close)
	base = idp.URL
	serve := func(keys ...jose.JSONWebKey) {
		mu.Lock()
		defer mu.Unlock()
		served = keys
	}
	setStatus := func(s int) {
		mu.Lock()
		defer mu.Unlock()
		status = s
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return fetches
	}

	for _, mode := range []string{"discovery", "explicit_url"} {
		t.Run(mode, func(t *testing.T) {
			serve(publicJWK("k1", rsaKey, jose.RS256))
			setStatus(http.StatusOK)
			e := newEnv(t)
			sa := e.srv.CreateServiceAccount("worker")
			cfg := refserver.FederationIssuer{Name: "fetched", IssuerURL: base}
			if mode == "explicit_url" {
				cfg.IssuerURL, cfg.JWKSURL = "https://not-fetched.invalid", base+"/keys"
			}
			iss, err := e.srv.AddFederationIssuer(cfg)
			require.NoError(t, err)
			rule, err := e.srv.AddFederationRule(refserver.FederationRule{
				Name: "r", IssuerID: iss, SubjectPrefix: testSubject, ServiceAccountID: sa, WorkspaceIDs: []string{e.seed.DefaultWorkspaceID},
			})
			require.NoError(t, err)
			f := &fedEnv{env: e, sa: sa, issuer: iss, rule: rule}
			jwt := func(key any, kid string) string {
				c := claimsAt(e.clock.Now())
				c["iss"] = cfg.IssuerURL
				return signJWT(t, jose.RS256, key, kid, c, nil)
			}
			start := count()
			f.exchange(t, f.exchangeBody(jwt(rsaKey, "k1"), nil))
			f.exchange(t, f.exchangeBody(jwt(rsaKey, "k1"), nil))
			require.Equal(t, 1, count()-start, "the key set is cached")

			// Rotation: a new kid causes one refetch.
			serve(publicJWK("k2", rsaOther, jose.RS256))
			f.exchange(t, f.exchangeBody(jwt(rsaOther, "k2"), nil))
			require.Equal(t, 2, count()-start)
			// The old kid is gone after the refetch.
			f.wantDenied(t, f.postToken(t, f.exchangeBody(jwt(rsaKey, "k1"), nil)), "jwt_kid_unknown")
			require.Equal(t, 3, count()-start)

			// After 60 s of server clock the set is fetched again; a
			// failed fetch refuses the exchange.
			e.clock.Advance(60 * time.Second)
			setStatus(http.StatusInternalServerError)
			f.wantDenied(t, f.postToken(t, f.exchangeBody(jwt(rsaOther, "k2"), nil)), "jwks_fetch_failed")
			setStatus(http.StatusOK)
			f.exchange(t, f.exchangeBody(jwt(rsaOther, "k2"), nil))
		})
	}

	t.Run("inline keys rotate with SetFederationIssuerJWKS", func(t *testing.T) {
		f := newFedEnv(t, nil)
		require.NoError(t, f.srv.SetFederationIssuerJWKS(f.issuer, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{publicJWK("k2", rsaOther, jose.RS256)}}))
		f.wantDenied(t, f.postToken(t, f.exchangeBody(f.jwtNow(t, nil), nil)), "jwt_kid_unknown")
		c := claimsAt(f.clock.Now())
		f.exchange(t, f.exchangeBody(signJWT(t, jose.RS256, rsaOther, "k2", c, nil), nil))
	})
}

// Configuration mistakes are Go errors (docs/auth-wire.md 3.3).
func TestFederationConfigurationErrors(t *testing.T) {
	f := newFedEnv(t, nil)
	keys := &jose.JSONWebKeySet{Keys: []jose.JSONWebKey{publicJWK("k1", rsaKey, jose.RS256)}}
	issuers := map[string]refserver.FederationIssuer{
		"bad name":              {Name: "Bad Name", IssuerURL: testIssuerURL, JWKS: keys},
		"no issuer url":         {Name: "x", JWKS: keys},
		"empty key set":         {Name: "x", IssuerURL: testIssuerURL, JWKS: &jose.JSONWebKeySet{}},
		"both key sources":      {Name: "x", IssuerURL: testIssuerURL, JWKS: keys, JWKSURL: "https://idp.example.com/keys"},
		"ftp key url":           {Name: "x", IssuerURL: testIssuerURL, JWKSURL: "ftp://idp.example.com/keys"},
		"lifetime too long":     {Name: "x", IssuerURL: testIssuerURL, JWKS: keys, MaxJWTLifetimeSeconds: 176401},
		"discovery not a url":   {Name: "x", IssuerURL: "idp"},
		"negative max lifetime": {Name: "x", IssuerURL: testIssuerURL, JWKS: keys, MaxJWTLifetimeSeconds: -1},
	}
	for name, cfg := range issuers {
		t.Run("issuer "+name, func(t *testing.T) {
			_, err := f.srv.AddFederationIssuer(cfg)
			require.Error(t, err)
		})
	}
	archivedWS := f.srv.CreateWorkspace("gone")
	require.NoError(t, f.srv.ArchiveWorkspace(archivedWS))
	base := refserver.FederationRule{Name: "r", IssuerID: f.issuer, SubjectPrefix: testSubject, ServiceAccountID: f.sa, WorkspaceIDs: []string{f.seed.DefaultWorkspaceID}}
	rules := map[string]func(*refserver.FederationRule){
		"bad name":              func(r *refserver.FederationRule) { r.Name = "R" },
		"audience only":         func(r *refserver.FederationRule) { r.SubjectPrefix, r.Audience = "", "aud" },
		"wildcard subject only": func(r *refserver.FederationRule) { r.SubjectPrefix = "*" },
		"unknown issuer":        func(r *refserver.FederationRule) { r.IssuerID = "fdis_nope" },
		"unknown account":       func(r *refserver.FederationRule) { r.ServiceAccountID = "svcacct_nope" },
		"no workspaces":         func(r *refserver.FederationRule) { r.WorkspaceIDs = nil },
		"both workspace forms":  func(r *refserver.FederationRule) { r.AllWorkspaces = true },
		"archived workspace":    func(r *refserver.FederationRule) { r.WorkspaceIDs = []string{archivedWS} },
		"workspace twice":       func(r *refserver.FederationRule) { r.WorkspaceIDs = append(r.WorkspaceIDs, r.WorkspaceIDs[0]) },
		"unsupported scope":     func(r *refserver.FederationRule) { r.OAuthScope = "org:admin" },
		"lifetime too short":    func(r *refserver.FederationRule) { r.TokenLifetimeSeconds = 59 },
		"lifetime too long":     func(r *refserver.FederationRule) { r.TokenLifetimeSeconds = 86401 },
	}
	for name, edit := range rules {
		t.Run("rule "+name, func(t *testing.T) {
			r := base
			r.WorkspaceIDs = append([]string(nil), base.WorkspaceIDs...)
			edit(&r)
			_, err := f.srv.AddFederationRule(r)
			require.Error(t, err)
		})
	}
	require.NoError(t, f.srv.ArchiveFederationIssuer(f.issuer))
	_, err := f.srv.AddFederationRule(base)
	require.Error(t, err, "a rule on an archived issuer")
}

// The claims matcher and an explicit audience (docs/auth-wire.md 2.4).
func TestFederationMatchers(t *testing.T) {
	f := newFedEnv(t, func(r *refserver.FederationRule) {
		r.SubjectPrefix = testSubject // exact
		r.Audience = "https://custom.example.com"
		r.Claims = map[string]string{"repository": "acme/app"}
	})
	ok := func(c map[string]any) {
		c["aud"] = "https://custom.example.com"
		c["repository"] = "acme/app"
	}
	f.exchange(t, f.exchangeBody(f.jwtNow(t, ok), nil))
	cases := []struct {
		name   string
		edit   func(map[string]any)
		reason string
	}{
		{"subject is exact without *", func(c map[string]any) { ok(c); c["sub"] = testSubject + "x" }, "match_subject_prefix"},
		{"default audience no longer matches", func(c map[string]any) { ok(c); c["aud"] = vendorAudience }, "match_audience"},
		{"claim differs", func(c map[string]any) { ok(c); c["repository"] = "acme/other" }, "match_claims"},
		{"claim missing", func(c map[string]any) { ok(c); delete(c, "repository") }, "match_claims"},
		{"claim not a string", func(c map[string]any) { ok(c); c["repository"] = []string{"acme/app"} }, "match_claims"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.wantDenied(t, f.postToken(t, f.exchangeBody(f.jwtNow(t, tc.edit), nil)), tc.reason)
		})
	}
}

// Concurrent exchanges of one JWT: its jti is spent exactly once.
func TestFederationConcurrentExchangesSpendJTIOnce(t *testing.T) {
	f := newFedEnv(t, nil)
	body := f.exchangeBody(f.jwtNow(t, nil), nil)
	const n = 16
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, err := http.NewRequest("POST", f.url+tokenPath, strings.NewReader(body))
			if err != nil {
				statuses <- -1
				return
			}
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				statuses <- -1
				return
			}
			res.Body.Close()
			statuses <- res.StatusCode
		}()
	}
	wg.Wait()
	close(statuses)
	counts := map[int]int{}
	for s := range statuses {
		counts[s]++
	}
	require.Equal(t, map[int]int{http.StatusOK: 1, http.StatusUnauthorized: n - 1}, counts)
	reused := 0
	for _, d := range f.srv.ExchangeDenials() {
		if d.Reason == "jti_reused" {
			reused++
		}
	}
	require.Equal(t, n-1, reused)
}
