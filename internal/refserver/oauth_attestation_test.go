package refserver_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

// Device attestation (docs/auth-wire.md section 4): the challenge, the
// device-attestation grant with vendor-test-v1 proofs, and the
// workspace:messages tokens it issues.

const msgChallengeUnusable = "challenge: unknown, expired or already used; request a new challenge"

func deviceRefusal(method, path string) string {
	return "This access token does not allow `" + method + " " + path +
		"`: device attestation tokens authorize only `POST /v1/messages` and `POST /v1/messages/count_tokens`."
}

const countTokensBody = `{"model":"vendor-sonnet-5-5","messages":[{"role":"user","content":"hi"}]}`

func TestDeviceChallenge(t *testing.T) {
	d := newDeviceEnv(t)
	r := d.do(t, "POST", challengePath, `{"client_id":"`+d.client+`"}`, noAuth, noWorkspace)
	out := wantOK(t, r)
	ch, _ := out["challenge"].(string)
	require.Equal(t, map[string]any{"type": "device_attestation_challenge", "challenge": ch, "expires_in": float64(300)}, out)
	raw, err := base64.RawURLEncoding.DecodeString(ch)
	require.NoError(t, err)
	require.Len(t, raw, 32)
	require.Equal(t, "no-store", r.header.Get("Cache-Control"))
	require.NotEqual(t, ch, d.challenge(t, d.client), "challenges are random")

	// The endpoint takes no credential and ignores one that is sent.
	wantOK(t, d.do(t, "POST", challengePath, `{"client_id":"`+d.client+`"}`,
		withKey("sk-vendor-api03-bogus"), withWorkspace("nope"), withHeader("Idempotency-Key", "k")))

	cases := []struct {
		name, body string
		mods       []mod
		message    string
	}{
		{"no content type", `{"client_id":"` + d.client + `"}`, []mod{withHeader("Content-Type")}, "content-type: must be application/json"},
		{"no client_id", `{}`, nil, "client_id: is required"},
		{"client_id not a string", `{"client_id":1}`, nil, "client_id: must be a string"},
		{"bad client_id", `{"client_id":"app-1"}`, nil, "client_id: must be an app integration client ID (`clid_…`)"},
		{"unknown field", `{"client_id":"` + d.client + `","app_id":"x"}`, nil, "app_id: unknown field"},
		{"not an object", `"clid_1"`, nil, "request body: must be a JSON object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, d.do(t, "POST", challengePath, tc.body, append([]mod{noAuth, noWorkspace}, tc.mods...)...), tc.message)
		})
	}
	t.Run("unknown client", func(t *testing.T) {
		d.wantDenied(t, d.do(t, "POST", challengePath, `{"client_id":"clid_nope"}`, noAuth), "client_unknown")
	})
	t.Run("revoked client", func(t *testing.T) {
		require.NoError(t, d.srv.RevokeAppIntegration(d.client))
		d.wantDenied(t, d.do(t, "POST", challengePath, `{"client_id":"`+d.client+`"}`, noAuth), "client_revoked")
	})
}

// The first token comes from an attestation, later ones from assertions
// with an increasing counter (docs/auth-wire.md 4.3).
func TestDeviceExchange(t *testing.T) {
	d := newDeviceEnv(t)
	a := newAttestor(t)
	ws := d.seed.DefaultWorkspaceID

	ch := d.challenge(t, d.client)
	r := d.postToken(t, d.deviceBody(a, ch, "attestation", a.attestation(t, testAppID, ch), nil))
	tok := wantTokenResponse(t, r, 3600, "workspace:messages", ws)

	// Assertions: the counter must increase.
	wantTokenResponse(t, d.assert(t, a, 1), 3600, "workspace:messages", ws)
	d.wantDenied(t, d.assert(t, a, 1), "counter_not_increasing")
	wantTokenResponse(t, d.assert(t, a, 7), 3600, "workspace:messages", ws)
	d.wantDenied(t, d.assert(t, a, 5), "counter_not_increasing")
	wantTokenResponse(t, d.assert(t, a, 8), 3600, "workspace:messages", ws)

	// The first token still works alongside the later ones.
	wantOK(t, d.do(t, "POST", "/v1/messages", helloMessage, withToken(tok), noWorkspace))

	// A second device of the same app attests its own key.
	b := newAttestor(t)
	d.attest(t, b)
	wantTokenResponse(t, d.assert(t, b, 1), 3600, "workspace:messages", ws)

	// workspace_id may name the integration's workspace, or default.
	for i, sent := range []any{ws, "default", nil} {
		ch := d.challenge(t, d.client)
		wantTokenResponse(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, uint32(100+i)), func(m map[string]any) {
			m["workspace_id"] = sent
		})), 3600, "workspace:messages", ws)
	}
	other := d.srv.CreateWorkspace("other")
	ch = d.challenge(t, d.client)
	d.wantDenied(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 200), func(m map[string]any) {
		m["workspace_id"] = other
	})), "workspace_mismatch")
}

// A device token authorizes only POST /v1/messages and count_tokens
// (docs/auth-wire.md 1.4, 4.5) and expires after one hour of server clock.
func TestDeviceTokenScopeAndExpiry(t *testing.T) {
	d := newDeviceEnv(t)
	tok := d.attest(t, newAttestor(t))
	call := func(method, path, body string, mods ...mod) response {
		return d.do(t, method, path, body, append([]mod{withToken(tok), noWorkspace}, mods...)...)
	}

	got := call("POST", "/v1/messages", helloMessage)
	wantOK(t, got)
	require.Equal(t, d.seed.DefaultWorkspaceID, got.header.Get("vendor-workspace-id"))
	wantOK(t, call("POST", "/v1/messages", helloMessage, withWorkspace(d.seed.DefaultWorkspaceID)))
	wantOK(t, call("POST", "/v1/messages/count_tokens", countTokensBody))
	stream := call("POST", "/v1/messages", strings.TrimSuffix(helloMessage, "}")+`,"stream":true}`)
	require.Equal(t, http.StatusOK, stream.status, "%s", stream.body)
	require.Contains(t, string(stream.body), "event: message_stop")

	refused := []struct{ method, path, body string }{
		{"GET", "/v1/models", ""},
		{"GET", "/v1/models/vendor-sonnet-5-5", ""},
		{"GET", "/v1/agents", ""},
		{"POST", "/v1/agents", `{"name":"a","model":"m"}`},
		{"GET", "/v1/sessions", ""},
		{"GET", "/v1/tunnels", ""},
		{"GET", "/v1/organizations/workspaces", ""},
		{"GET", "/v1/organizations/api_keys", ""},
	}
	for _, rf := range refused {
		t.Run(rf.method+" "+rf.path, func(t *testing.T) {
			wantForbidden(t, call(rf.method, rf.path, rf.body), deviceRefusal(rf.method, rf.path))
		})
	}
	t.Run("chat completions, in the OpenAI error shape", func(t *testing.T) {
		r := call("POST", "/v1/chat/completions", chatHello)
		require.Equal(t, http.StatusForbidden, r.status, "%s", r.body)
		require.Contains(t, string(r.body), jsonString(deviceRefusal("POST", "/v1/chat/completions")))
	})
	t.Run("routing comes first", func(t *testing.T) {
		wantError(t, call("GET", "/v1/messages", ""), http.StatusMethodNotAllowed, "invalid_request_error", "")
		wantError(t, call("GET", "/v1/nowhere", ""), http.StatusNotFound, "not_found_error", "")
	})
	t.Run("another workspace in the header", func(t *testing.T) {
		other := d.srv.CreateWorkspace("other")
		wantError(t, call("POST", "/v1/messages", helloMessage, withWorkspace(other)),
			http.StatusNotFound, "not_found_error", "Workspace `"+other+"` not found.")
	})

	d.clock.Advance(time.Hour - time.Microsecond)
	wantOK(t, call("POST", "/v1/messages/count_tokens", countTokensBody))
	d.clock.Advance(time.Microsecond)
	wantUnauthenticated(t, call("POST", "/v1/messages", helloMessage), msgTokenExpired)
	wantUnauthenticated(t, call("POST", "/v1/messages/count_tokens", countTokensBody), msgTokenExpired)
}

// Revoking the integration revokes its tokens at once and stops new ones;
// archiving its workspace invalidates them (docs/auth-wire.md 1.3, 4.1).
func TestDeviceRevocation(t *testing.T) {
	d := newDeviceEnv(t)
	a := newAttestor(t)
	tok := d.attest(t, a)
	wantOK(t, d.do(t, "POST", "/v1/messages", helloMessage, withToken(tok), noWorkspace))
	require.NoError(t, d.srv.RevokeAppIntegration(d.client))
	require.NoError(t, d.srv.RevokeAppIntegration(d.client), "revoking twice")
	wantUnauthenticated(t, d.do(t, "POST", "/v1/messages", helloMessage, withToken(tok), noWorkspace), msgTokenRevoked)
	// Revoked wins over expired.
	d.clock.Advance(2 * time.Hour)
	wantUnauthenticated(t, d.do(t, "POST", "/v1/messages", helloMessage, withToken(tok), noWorkspace), msgTokenRevoked)
	d.wantDenied(t, d.do(t, "POST", challengePath, `{"client_id":"`+d.client+`"}`, noAuth), "client_revoked")
	require.Error(t, d.srv.RevokeAppIntegration("clid_nope"))

	t.Run("challenge issued before revocation", func(t *testing.T) {
		d := newDeviceEnv(t)
		a := newAttestor(t)
		d.attest(t, a)
		ch := d.challenge(t, d.client)
		require.NoError(t, d.srv.RevokeAppIntegration(d.client))
		d.wantDenied(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 1), nil)), "client_revoked")
	})
	t.Run("workspace archived", func(t *testing.T) {
		e := newEnv(t)
		ws := e.srv.CreateWorkspace("app")
		id, err := e.srv.AddAppIntegration(refserver.AppIntegration{Name: "app", WorkspaceID: ws, TeamID: testTeamID, BundleIDs: []string{testBundle}})
		require.NoError(t, err)
		d := &deviceEnv{env: e, client: id}
		a := newAttestor(t)
		ch := d.challenge(t, id)
		r := d.postToken(t, d.deviceBody(a, ch, "attestation", a.attestation(t, testAppID, ch), nil))
		tok := wantTokenResponse(t, r, 3600, "workspace:messages", ws)
		wantOK(t, d.do(t, "POST", "/v1/messages", helloMessage, withToken(tok), noWorkspace))
		require.NoError(t, e.srv.ArchiveWorkspace(ws))
		wantUnauthenticated(t, d.do(t, "POST", "/v1/messages", helloMessage, withToken(tok), noWorkspace), msgTokenGone)
		d.wantDenied(t, d.assert(t, a, 1), "workspace_archived")
	})
}

// Challenges are single-use, bound to their client and short-lived; a
// challenge is spent by the first request that passes body validation,
// whatever happens next (docs/auth-wire.md 4.2).
func TestDeviceChallengeReplay(t *testing.T) {
	d := newDeviceEnv(t)
	a := newAttestor(t)
	d.attest(t, a)

	t.Run("replayed after success", func(t *testing.T) {
		ch := d.challenge(t, d.client)
		wantOK(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 10), nil)))
		wantInvalid(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 11), nil)), msgChallengeUnusable)
	})
	t.Run("spent by a failed exchange", func(t *testing.T) {
		ch := d.challenge(t, d.client)
		bad := d.deviceBody(a, ch, "assertion", a.assertion(t, "ABCDE12345.com.example.other", ch, 20), nil)
		d.wantDenied(t, d.postToken(t, bad), "assertion_rejected")
		wantInvalid(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 21), nil)), msgChallengeUnusable)
	})
	t.Run("not spent by a malformed body", func(t *testing.T) {
		ch := d.challenge(t, d.client)
		wantInvalid(t, d.postToken(t, d.deviceBody(a, ch, "assertion", "not base64!", nil)), "assertion: must be standard base64")
		wantOK(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 30), nil)))
	})
	t.Run("expired", func(t *testing.T) {
		ch := d.challenge(t, d.client)
		d.clock.Advance(300*time.Second - time.Microsecond)
		wantOK(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 40), nil)))
		ch = d.challenge(t, d.client)
		d.clock.Advance(300 * time.Second)
		wantInvalid(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 41), nil)), msgChallengeUnusable)
	})
	t.Run("another client's challenge", func(t *testing.T) {
		otherClient, err := d.srv.AddAppIntegration(refserver.AppIntegration{Name: "other", WorkspaceID: d.seed.DefaultWorkspaceID, TeamID: testTeamID, BundleIDs: []string{testBundle}})
		require.NoError(t, err)
		ch := d.challenge(t, otherClient)
		wantInvalid(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 50), nil)), msgChallengeUnusable)
	})
	t.Run("made up", func(t *testing.T) {
		ch := base64.RawURLEncoding.EncodeToString(make([]byte, 32))
		wantInvalid(t, d.postToken(t, d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 60), nil)), msgChallengeUnusable)
	})
}

// Proofs the verifier or the key state refuses (docs/auth-wire.md 4.3 steps 3–5,
// 4.4).
func TestDeviceRejectsBadProofs(t *testing.T) {
	d := newDeviceEnv(t)
	a := newAttestor(t)
	d.attest(t, a)
	stranger := newAttestor(t)
	fresh := newAttestor(t)

	type proof func(ch string) (field, value string)
	attest := func(by *attestor, appID string) proof {
		return func(ch string) (string, string) { return "attestation", by.attestation(t, appID, ch) }
	}
	assert := func(by *attestor, appID string, counter uint32) proof {
		return func(ch string) (string, string) { return "assertion", by.assertion(t, appID, ch, counter) }
	}
	raw := func(field, obj string) proof {
		return func(string) (string, string) { return field, base64.StdEncoding.EncodeToString([]byte(obj)) }
	}
	cases := []struct {
		name    string
		keyOf   *attestor
		proof   proof
		edit    func(map[string]any)
		reason  string // denial reason, or
		message string // a 400 message
	}{
		{"attestation over another app id", fresh, attest(fresh, "ABCDE12345.com.example.other"), nil, "attestation_rejected", ""},
		{"attestation by another key", fresh, attest(stranger, testAppID), nil, "attestation_rejected", ""},
		{"attestation of another format", fresh, raw("attestation", `{"fmt":"apple-appattest"}`), nil, "attestation_rejected", ""},
		{"attestation not JSON", fresh, raw("attestation", `garbage`), nil, "attestation_rejected", ""},
		{"assertion signed by another key", a, assert(stranger, testAppID, 1000), nil, "assertion_rejected", ""},
		{"assertion over another app id", a, assert(a, "ABCDE12345.com.example.other", 1000), nil, "assertion_rejected", ""},
		{"assertion counter zero", a, raw("assertion", `{"fmt":"vendor-test-v1","counter":0,"signature":""}`), nil, "assertion_rejected", ""},
		{"app id not registered", a, assert(a, "ABCDE12345.com.example.evil", 1000), func(m map[string]any) { m["app_id"] = "ABCDE12345.com.example.evil" }, "app_id_not_registered", ""},
		{"another team", a, assert(a, "ZZZZZ99999."+testBundle, 1000), func(m map[string]any) { m["app_id"] = "ZZZZZ99999." + testBundle }, "app_id_not_registered", ""},
		{"attested key attests again", a, attest(a, testAppID), nil, "", "key_id: already attested; send an assertion"},
		{"new key sends an assertion", fresh, assert(fresh, testAppID, 1), nil, "", "key_id: not attested; send an attestation"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ch := d.challenge(t, d.client)
			field, value := tc.proof(ch)
			r := d.postToken(t, d.deviceBody(tc.keyOf, ch, field, value, tc.edit))
			if tc.reason != "" {
				d.wantDenied(t, r, tc.reason)
			} else {
				wantInvalid(t, r, tc.message)
			}
		})
	}
	// None of that moved the stored counter or attested a key.
	wantOK(t, d.assert(t, a, 1))
	d.attest(t, fresh)
}

// Body validation of the device grant (docs/auth-wire.md 4.3 step 1).
func TestDeviceRequestValidation(t *testing.T) {
	d := newDeviceEnv(t)
	a := newAttestor(t)
	ch := d.challenge(t, d.client)
	att := a.attestation(t, testAppID, ch)
	body := func(edit func(map[string]any)) string { return d.deviceBody(a, ch, "attestation", att, edit) }
	set := func(k string, v any) func(map[string]any) { return func(m map[string]any) { m[k] = v } }
	del := func(k string) func(map[string]any) { return func(m map[string]any) { delete(m, k) } }
	cases := []struct {
		name    string
		edit    func(map[string]any)
		message string
	}{
		{"federation field", set("federation_rule_id", "fdrl_1"), "federation_rule_id: unknown field"},
		{"unknown field", set("device_name", "phone"), "device_name: unknown field"},
		{"no client_id", del("client_id"), "client_id: is required"},
		{"bad client_id", set("client_id", "com.example.chat"), "client_id: must be an app integration client ID (`clid_…`)"},
		{"no app_id", del("app_id"), "app_id: is required"},
		{"bundle id only", set("app_id", testBundle), "app_id: must be <team id>.<bundle id>"},
		{"lowercase team", set("app_id", "abcde12345."+testBundle), "app_id: must be <team id>.<bundle id>"},
		{"no key_id", del("key_id"), "key_id: is required"},
		{"key_id url-safe base64", set("key_id", base64.RawURLEncoding.EncodeToString(make([]byte, 32))), "key_id: must be the base64 encoding of 32 bytes"},
		{"key_id of 16 bytes", set("key_id", base64.StdEncoding.EncodeToString(make([]byte, 16))), "key_id: must be the base64 encoding of 32 bytes"},
		{"no challenge", del("challenge"), "challenge: is required"},
		{"challenge not a string", set("challenge", 5), "challenge: must be a string"},
		{"no proof", del("attestation"), "attestation: is required when assertion is absent"},
		{"null proof", set("attestation", nil), "attestation: is required when assertion is absent"},
		{"both proofs", set("assertion", "e30="), "attestation: cannot be combined with assertion"},
		{"proof not base64", set("attestation", "%%%"), "attestation: must be standard base64"},
		{"proof too long", set("attestation", strings.Repeat("A", 65540)), "attestation: must be between 1 and 65536 characters"},
		{"empty proof", set("attestation", ""), "attestation: must be between 1 and 65536 characters"},
		{"bad workspace_id", set("workspace_id", "ws"), "workspace_id: must be a workspace ID (`wrkspc_…`) or `default`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalid(t, d.postToken(t, body(tc.edit)), tc.message)
		})
	}
	long := d.deviceBody(a, ch, "assertion", strings.Repeat("A", 8196), nil)
	wantInvalid(t, d.postToken(t, long), "assertion: must be between 1 and 8192 characters")
	require.Empty(t, d.srv.ExchangeDenials())
	// The challenge survived every 400: the body never got past step 1.
	wantTokenResponse(t, d.postToken(t, body(nil)), 3600, "workspace:messages", d.seed.DefaultWorkspaceID)
}

// Idempotency-Keys of a device token belong to its attested key, so a
// retry with a refreshed token is recognised.
func TestDeviceIdempotencyAcrossTokens(t *testing.T) {
	d := newDeviceEnv(t)
	a := newAttestor(t)
	tok1 := d.attest(t, a)
	tok2, _ := d.exchangeOut(t, d.assert(t, a, 1))
	first := d.do(t, "POST", "/v1/messages", helloMessage, withToken(tok1), noWorkspace, withHeader("Idempotency-Key", "m1"))
	retry := d.do(t, "POST", "/v1/messages", helloMessage, withToken(tok2), noWorkspace, withHeader("Idempotency-Key", "m1"))
	require.Equal(t, wantOK(t, first)["id"], wantOK(t, retry)["id"])
	require.Equal(t, "true", retry.header.Get("idempotent-replayed"))

	other := d.attest(t, newAttestor(t))
	third := d.do(t, "POST", "/v1/messages", helloMessage, withToken(other), noWorkspace, withHeader("Idempotency-Key", "m1"))
	require.NotEqual(t, wantOK(t, first)["id"], wantOK(t, third)["id"])
	require.Empty(t, third.header.Get("idempotent-replayed"))
}

// exchangeOut returns the token of a 200 token response.
func (e *env) exchangeOut(t *testing.T, r response) (string, map[string]any) {
	t.Helper()
	out := wantOK(t, r)
	tok, _ := out["access_token"].(string)
	return tok, out
}

// Concurrent assertions with the same counter: exactly one wins.
func TestDeviceConcurrentAssertions(t *testing.T) {
	d := newDeviceEnv(t)
	a := newAttestor(t)
	d.attest(t, a)
	const n = 8
	bodies := make([]string, n)
	for i := range bodies {
		ch := d.challenge(t, d.client)
		bodies[i] = d.deviceBody(a, ch, "assertion", a.assertion(t, testAppID, ch, 5), nil)
	}
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i, body := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := http.Post(d.url+tokenPath, "application/json", strings.NewReader(body))
			if err != nil {
				statuses[i] = -1
				return
			}
			res.Body.Close()
			statuses[i] = res.StatusCode
		}()
	}
	wg.Wait()
	counts := map[int]int{}
	for _, s := range statuses {
		counts[s]++
	}
	require.Equal(t, map[int]int{http.StatusOK: 1, http.StatusUnauthorized: n - 1}, counts)
	wantOK(t, d.assert(t, a, 6))
}
