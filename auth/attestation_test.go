package auth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/auth/authtest"
	"github.com/agentplatform/agentplatform-go/chat"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

const (
	teamID   = "ABCDE12345"
	bundleID = "com.example.app"
	appID    = teamID + "." + bundleID

	grantDevice = "urn:vendor:params:oauth:grant-type:device-attestation"
)

// devEnv is a reference server on a manual clock with one app integration
// (Team ID teamID, bundle id bundleID) in the default workspace.
type devEnv struct {
	*reftest.Env
	clock    *refserver.ManualClock
	clientID string
}

func newDevEnv(t *testing.T) *devEnv {
	t.Helper()
	noEnv(t)
	clock := refserver.NewManualClock(t0)
	e := &devEnv{Env: reftest.New(t, refserver.WithClock(clock)), clock: clock}
	e.clientID = e.addIntegration(t)
	return e
}

func (e *devEnv) addIntegration(t *testing.T) string {
	t.Helper()
	id, err := e.Server.AddAppIntegration(refserver.AppIntegration{
		Name: "ios", WorkspaceID: e.Seed.DefaultWorkspaceID, TeamID: teamID, BundleIDs: []string{bundleID},
	})
	require.NoError(t, err)
	return id
}

// config is a working device attestation config on the server's clock.
func (e *devEnv) config(a auth.Attestor, keys auth.KeyStore) auth.DeviceAttestationConfig {
	return auth.DeviceAttestationConfig{
		BaseURL:      e.URL,
		ClientID:     e.clientID,
		AppID:        appID,
		Attestor:     a,
		KeyStore:     keys,
		Now:          e.clock.Now,
		MaxRetryWait: time.Millisecond,
	}
}

// exchanges counts complete exchanges: challenge and token requests.
func (e *devEnv) exchanges() (challenges, tokens int) {
	return e.Count("POST", challengePath), e.Count("POST", tokenPath)
}

// seq lists the recorded requests as "METHOD path".
func (e *devEnv) seq() []string {
	var out []string
	for _, r := range e.Server.Requests() {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

// tokenBodies returns the bodies of the token requests, as the server
// recorded them (proofs redacted).
func (e *devEnv) tokenBodies(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range e.Server.Requests() {
		if r.Path == tokenPath {
			var body map[string]any
			require.NoError(t, json.Unmarshal(r.Body, &body))
			out = append(out, body)
		}
	}
	return out
}

func deviceAttestation(t *testing.T, cfg auth.DeviceAttestationConfig) *auth.DeviceAttestationCredentials {
	t.Helper()
	creds, err := auth.DeviceAttestation(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, creds.Close()) })
	return creds
}

// recordingAttestor is an authtest.Attestor that records what it is asked to do
// and every proof it hands out (base64, as sent), for the canary checks.
type recordingAttestor struct {
	*authtest.Attestor

	mu     sync.Mutex
	calls  []string // "generate", "attest", "assert"
	proofs []string
}

func newRecordingAttestor(appID string) *recordingAttestor {
	return &recordingAttestor{Attestor: authtest.NewAttestor(appID)}
}

func (a *recordingAttestor) GenerateKey(ctx context.Context) (string, error) {
	a.record("generate", nil)
	return a.Attestor.GenerateKey(ctx)
}

func (a *recordingAttestor) AttestKey(ctx context.Context, keyID string, hash []byte) ([]byte, error) {
	proof, err := a.Attestor.AttestKey(ctx, keyID, hash)
	a.record("attest", proof)
	return proof, err
}

func (a *recordingAttestor) GenerateAssertion(ctx context.Context, keyID string, hash []byte) ([]byte, error) {
	proof, err := a.Attestor.GenerateAssertion(ctx, keyID, hash)
	a.record("assert", proof)
	return proof, err
}

func (a *recordingAttestor) record(call string, proof []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls = append(a.calls, call)
	if proof != nil {
		a.proofs = append(a.proofs, base64.StdEncoding.EncodeToString(proof))
	}
}

func (a *recordingAttestor) Calls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.calls...)
}

func (a *recordingAttestor) Proofs() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.proofs...)
}

func hello() messages.MessageParams {
	return messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 64,
		Messages: []messages.MessageParam{messages.UserText("hello")}}
}

// sayHello is a Messages call, the only kind a device token may make.
func sayHello(c *agentplatform.Client) error {
	_, err := c.Messages.Create(ctx, hello())
	return err
}

// statusRecorder is middleware that records, per attempt, the
// Authorization header sent and the status received.
type statusRecorder struct {
	mu       sync.Mutex
	sent     []string
	statuses []int
}

func (s *statusRecorder) middleware() option.Option {
	return option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(r)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.sent = append(s.sent, r.Header.Get("Authorization"))
		if resp != nil {
			s.statuses = append(s.statuses, resp.StatusCode)
		}
		return resp, err
	})
}

func (s *statusRecorder) attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sent)
}

func (s *statusRecorder) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent[len(s.sent)-1]
}

// TestDeviceAttestationAttestsOnceThenAsserts: the first exchange attests
// a new key, every later one (in this process or the next launch, through
// the KeyStore) asserts with it, and the assertion counter increases.
func TestDeviceAttestationAttestsOnceThenAsserts(t *testing.T) {
	e := newDevEnv(t)
	att := newRecordingAttestor(appID)
	keys := &auth.MemoryKeyStore{}
	c := client(t, e.URL, deviceAttestation(t, e.config(att, keys)))

	require.NoError(t, sayHello(c))
	require.Equal(t, []string{"POST " + challengePath, "POST " + tokenPath, "POST /v1/messages"}, e.seq())
	keyID, err := keys.LoadKeyID(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, keyID, "the attested key is remembered")
	first := e.tokenBodies(t)[0]
	require.NotEmpty(t, first["challenge"])
	delete(first, "challenge")
	require.Equal(t, map[string]any{
		"grant_type":  grantDevice,
		"client_id":   e.clientID,
		"app_id":      appID,
		"key_id":      keyID,
		"attestation": "[redacted]", // by the server's request log
	}, first)
	for _, r := range e.Server.Requests() {
		switch r.Path {
		case challengePath, tokenPath:
			require.Empty(t, r.Header.Get("Authorization"), "the exchange takes no credential")
		case "/v1/messages":
			require.Equal(t, "Bearer [redacted]", r.Header.Get("Authorization"))
			require.Empty(t, r.Header.Get("X-Api-Key"))
		}
	}
	require.Equal(t, []string{"generate", "attest"}, att.Calls())
	require.Zero(t, att.Counter(keyID))

	for i := range 2 {
		e.clock.Advance(time.Hour) // expired: the next call exchanges again
		require.NoError(t, sayHello(c))
		body := e.tokenBodies(t)[i+1]
		require.Equal(t, keyID, body["key_id"])
		require.Equal(t, "[redacted]", body["assertion"])
		require.NotContains(t, body, "attestation")
		require.Equal(t, uint32(i+1), att.Counter(keyID), "the counter increases with every assertion")
	}
	require.Equal(t, []string{"generate", "attest", "assert", "assert"}, att.Calls())

	// The next launch: a new source with the same key store asserts.
	c2 := client(t, e.URL, deviceAttestation(t, e.config(att, keys)))
	require.NoError(t, sayHello(c2))
	require.Equal(t, uint32(3), att.Counter(keyID))
	require.Equal(t, "assert", att.Calls()[len(att.Calls())-1])
	challenges, tokens := e.exchanges()
	require.Equal(t, 4, challenges)
	require.Equal(t, 4, tokens)
}

// TestDeviceTokenIsReusedThenRefreshedBeforeExpiry drives the source's
// clock through the token's hour: reused, then refreshed in the background
// (advisory window), then inline (mandatory window). The server never sees
// an expired token.
func TestDeviceTokenIsReusedThenRefreshedBeforeExpiry(t *testing.T) {
	e := newDevEnv(t)
	creds := deviceAttestation(t, e.config(authtest.NewAttestor(appID), nil))
	var rec statusRecorder
	c := client(t, e.URL, creds, rec.middleware())

	require.NoError(t, sayHello(c))
	firstToken := rec.last()
	e.clock.Advance(30 * time.Minute)
	require.NoError(t, sayHello(c))
	_, tokens := e.exchanges()
	require.Equal(t, 1, tokens, "the token is reused")
	require.Equal(t, firstToken, rec.last())

	// 58:30: in the advisory window (from 58:00), before the mandatory
	// one (59:30). The call goes out with the cached token; one exchange
	// runs in the background.
	e.clock.Advance(28*time.Minute + 30*time.Second)
	require.NoError(t, sayHello(c))
	require.Equal(t, firstToken, rec.last())
	auth.WaitIdle(creds)
	_, tokens = e.exchanges()
	require.Equal(t, 2, tokens, "refreshed in the background")
	require.Equal(t, "assertion", proofField(e.tokenBodies(t)[1]))

	// 1:01:00: the first token has expired; the second, from 58:30, serves.
	e.clock.Advance(2*time.Minute + 30*time.Second)
	require.NoError(t, sayHello(c))
	secondToken := rec.last()
	require.NotEqual(t, firstToken, secondToken)
	_, tokens = e.exchanges()
	require.Equal(t, 2, tokens)

	// 1:58:10: the second token's mandatory window (from 1:58:00). The call
	// waits for the exchange and goes out with the new token.
	e.clock.Advance(57*time.Minute + 10*time.Second)
	require.NoError(t, sayHello(c))
	_, tokens = e.exchanges()
	require.Equal(t, 3, tokens)
	require.NotEqual(t, secondToken, rec.last())

	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, s := range rec.statuses {
		require.Equal(t, http.StatusOK, s, "never a 401: the token was refreshed before it expired")
	}
}

// proofField names the proof a recorded token body carries.
func proofField(body map[string]any) string {
	for _, f := range []string{"attestation", "assertion"} {
		if _, ok := body[f]; ok {
			return f
		}
	}
	return ""
}

// TestConcurrentMessagesCallsShareOneExchange: 100 Messages calls that all
// need a token share one challenge and one token request, at first use and
// in the mandatory window.
func TestConcurrentMessagesCallsShareOneExchange(t *testing.T) {
	for _, tc := range []struct {
		name    string
		advance time.Duration // after a first call; 0: no first call
	}{
		{"first use", 0},
		{"mandatory window", time.Hour - 15*time.Second},
		{"expired", time.Hour + time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newDevEnv(t)
			att := newRecordingAttestor(appID)
			c := client(t, e.URL, deviceAttestation(t, e.config(att, nil)))
			before := 0
			if tc.advance > 0 {
				require.NoError(t, sayHello(c))
				e.clock.Advance(tc.advance)
				before = 1
			}

			var wg sync.WaitGroup
			errs := make(chan error, 100)
			for range 100 {
				wg.Go(func() { errs <- sayHello(c) })
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			challenges, tokens := e.exchanges()
			require.Equal(t, before+1, challenges, "one challenge for 100 waiting calls")
			require.Equal(t, before+1, tokens, "one exchange for 100 waiting calls")
			require.Equal(t, before+100, e.Count("POST", "/v1/messages"), "no call needed a second try")
			want := []string{"generate", "attest"}
			if before == 1 {
				want = append(want, "assert")
			}
			require.Equal(t, want, att.Calls(), "the attestor was asked once per exchange")
		})
	}
}

// TestNonMessagesCallsAreRefusedLocally: a device token authorizes only
// POST /v1/messages and POST /v1/messages/count_tokens, so the source
// refuses every other call before anything is sent: no exchange, no API
// request, not even to the transport.
func TestNonMessagesCallsAreRefusedLocally(t *testing.T) {
	e := newDevEnv(t)
	att := newRecordingAttestor(appID)
	var rec statusRecorder
	creds := deviceAttestation(t, e.config(att, nil))
	c := client(t, e.URL, creds, rec.middleware())
	chats := c.Chat

	calls := []struct {
		method, path string
		call         func() error
	}{
		{"GET", "/v1/models", func() error { _, err := c.Models.List(ctx, models.ListParams{}); return err }},
		{"GET", "/v1/agents", func() error { _, err := c.Agents.List(ctx, agents.ListParams{}); return err }},
		{"POST", "/v1/chat/completions", func() error {
			_, err := chats.Create(ctx, chat.CompletionParams{Model: models.VendorSonnet55,
				Messages: []chat.Message{{Role: "user", Content: "hello"}}})
			return err
		}},
	}
	for _, tc := range calls {
		err := tc.call()
		var se *auth.ScopeError
		require.ErrorAs(t, err, &se, tc.path)
		require.Equal(t, tc.method, se.Method)
		require.Equal(t, tc.path, se.Path)
		require.ErrorIs(t, err, apierror.ErrPermission)
		require.ErrorContains(t, err, "device attestation credentials authorize only POST /v1/messages")
		require.ErrorContains(t, err, tc.method+" "+tc.path+" was not sent")
		var apiErr *apierror.Error
		require.False(t, errors.As(err, &apiErr), "a local refusal, not an answer of the API")
	}
	require.Empty(t, e.Server.Requests(), "nothing reached the server, not even an exchange")
	require.Zero(t, rec.attempts(), "nothing reached the transport")
	require.Empty(t, att.Calls(), "the attestor was not asked")

	// Both Messages routes are allowed.
	require.NoError(t, sayHello(c))
	_, err := c.Messages.CountTokens(ctx, messages.CountTokensParams{Model: models.VendorSonnet55,
		Messages: []messages.MessageParam{messages.UserText("hello")}})
	require.NoError(t, err)
	require.Equal(t, 1, e.Count("POST", "/v1/messages/count_tokens"))
}

// TestScopeCheckFollowsABasePath: behind a gateway prefix, the Messages
// routes are those under the prefix.
func TestScopeCheckFollowsABasePath(t *testing.T) {
	noEnv(t)
	offline := &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, errors.New("offline")
	})}
	creds, err := auth.DeviceAttestation(auth.DeviceAttestationConfig{BaseURL: "https://gw.example.com/vendor/",
		ClientID: "clid_1", AppID: appID, Attestor: authtest.NewAttestor(appID), HTTPClient: offline, MaxRetries: -1})
	require.NoError(t, err)
	defer creds.Close()
	for path, allowed := range map[string]bool{
		"/vendor/v1/models":                false,
		"/v1/messages":                     false,
		"/vendorx/v1/messages":             false,
		"/vendor/v1/messages/batches":      false,
		"/vendor/v1/messages":              true,
		"/vendor/v1/messages/count_tokens": true,
	} {
		req, _ := http.NewRequest("POST", "https://gw.example.com"+path, nil)
		err := creds.Authorize(ctx, req) // an allowed call tries to exchange, offline
		var se *auth.ScopeError
		require.Equal(t, !allowed, errors.As(err, &se), path)
		var xe *auth.ExchangeError
		require.Equal(t, allowed, errors.As(err, &xe), path)
	}
}

// TestDevice401InvalidatesAndRetriesOnce: the server refuses a token the
// source still thinks valid (the server's clock is ahead). The client drops
// it, exchanges once (asserting) and repeats the call once; a second 401 is
// the caller's.
func TestDevice401InvalidatesAndRetriesOnce(t *testing.T) {
	e := newDevEnv(t)
	cfg := e.config(newRecordingAttestor(appID), nil)
	cfg.Now = refserver.NewManualClock(t0).Now // the source's own clock
	var rec statusRecorder
	c := client(t, e.URL, deviceAttestation(t, cfg), rec.middleware())
	require.NoError(t, sayHello(c))

	e.clock.Advance(time.Hour) // the server's clock: the token has expired
	e.Server.ResetRequests()
	require.NoError(t, sayHello(c))
	require.Equal(t, []string{"POST /v1/messages", "POST " + challengePath, "POST " + tokenPath, "POST /v1/messages"}, e.seq())
	require.Equal(t, "assertion", proofField(e.tokenBodies(t)[0]))
	rec.mu.Lock()
	require.Equal(t, []int{200, 401, 200}, rec.statuses)
	require.NotEqual(t, rec.sent[1], rec.sent[2], "the retry carried a new token")
	rec.mu.Unlock()

	// Once only.
	e.Server.ResetRequests()
	e.Server.InjectFault(refserver.Fault{Path: "/v1/messages", Status: 401, Times: 2, Message: "access token has expired"})
	err := sayHello(c)
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "access token has expired", apiErr.Message)
	require.Equal(t, 2, e.Count("POST", "/v1/messages"))
	challenges, tokens := e.exchanges()
	require.Equal(t, 1, challenges)
	require.Equal(t, 1, tokens)
}

// TestRevokedIntegrationIsATypedError: once the integration is revoked, its
// token is refused (401), the source's one new exchange is refused too, and
// the call fails with an *auth.ExchangeError that carries no secret.
func TestRevokedIntegrationIsATypedError(t *testing.T) {
	e := newDevEnv(t)
	c := client(t, e.URL, deviceAttestation(t, e.config(authtest.NewAttestor(appID), nil)))
	require.NoError(t, sayHello(c))

	require.NoError(t, e.Server.RevokeAppIntegration(e.clientID))
	e.Server.ResetRequests()
	err := sayHello(c)
	var xe *auth.ExchangeError
	require.ErrorAs(t, err, &xe)
	require.Equal(t, challengePath, xe.Endpoint)
	require.Equal(t, http.StatusUnauthorized, xe.StatusCode)
	require.Equal(t, apierror.TypeAuthentication, xe.Type)
	require.Equal(t, "Authentication failed", xe.Message)
	require.NotEmpty(t, xe.RequestID)
	require.False(t, xe.Temporary())
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	var apiErr *apierror.Error
	require.False(t, errors.As(err, &apiErr), "the exchange's refusal, not the API's")
	require.Equal(t, []string{"POST /v1/messages", "POST " + challengePath}, e.seq(), "one exchange, not retried")
	denials := e.Server.ExchangeDenials()
	require.Equal(t, "client_revoked", denials[len(denials)-1].Reason)

	// A new installation of the revoked app gets the same error at once.
	c2 := client(t, e.URL, deviceAttestation(t, e.config(authtest.NewAttestor(appID), nil)))
	require.ErrorAs(t, sayHello(c2), &xe)
	require.Equal(t, challengePath, xe.Endpoint)
}

// TestTamperedBuildIsRefused: a proof made for another App ID (what a
// modified build produces) is refused by the server's verifier.
func TestTamperedBuildIsRefused(t *testing.T) {
	e := newDevEnv(t)
	c := client(t, e.URL, deviceAttestation(t, e.config(authtest.NewAttestor(teamID+".com.example.evil"), nil)))
	err := sayHello(c)
	var xe *auth.ExchangeError
	require.ErrorAs(t, err, &xe)
	require.Equal(t, tokenPath, xe.Endpoint)
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	require.Zero(t, e.Count("POST", "/v1/messages"))
	denials := e.Server.ExchangeDenials()
	require.Equal(t, "attestation_rejected", denials[len(denials)-1].Reason)
}

// TestUnknownKeyIsAttestedAgain: when the server does not know the stored
// key (here: another integration attested it), the source attests a new
// key, once, and remembers it.
func TestUnknownKeyIsAttestedAgain(t *testing.T) {
	e := newDevEnv(t)
	att := newRecordingAttestor(appID)
	keys := &auth.MemoryKeyStore{}
	require.NoError(t, sayHello(client(t, e.URL, deviceAttestation(t, e.config(att, keys)))))
	oldKey, _ := keys.LoadKeyID(ctx)

	cfg := e.config(att, keys)
	cfg.ClientID = e.addIntegration(t)
	e.Server.ResetRequests()
	require.NoError(t, sayHello(client(t, e.URL, deviceAttestation(t, cfg))))
	require.Equal(t, []string{"POST " + challengePath, "POST " + tokenPath, "POST " + challengePath, "POST " + tokenPath,
		"POST /v1/messages"}, e.seq())
	bodies := e.tokenBodies(t)
	require.Equal(t, "assertion", proofField(bodies[0]))
	require.Equal(t, "attestation", proofField(bodies[1]))
	newKey, _ := keys.LoadKeyID(ctx)
	require.NotEqual(t, oldKey, newKey)
	require.Equal(t, newKey, bodies[1]["key_id"])
}

// TestSpentChallengeIsReplaced: a challenge the server no longer accepts
// is replaced by a new one, once.
func TestSpentChallengeIsReplaced(t *testing.T) {
	e := newDevEnv(t)
	c := client(t, e.URL, deviceAttestation(t, e.config(authtest.NewAttestor(appID), nil)))
	msg := "challenge: unknown, expired or already used; request a new challenge"
	e.Server.InjectFault(refserver.Fault{Path: tokenPath, Status: 400, Message: msg})
	require.NoError(t, sayHello(c))
	challenges, tokens := e.exchanges()
	require.Equal(t, 2, challenges)
	require.Equal(t, 2, tokens)

	// Twice in a row is an error: the source does not loop.
	e.clock.Advance(time.Hour)
	e.Server.InjectFault(refserver.Fault{Path: tokenPath, Status: 400, Message: msg, Times: 2})
	err := sayHello(c)
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	challenges, tokens = e.exchanges()
	require.Equal(t, 4, challenges)
	require.Equal(t, 4, tokens)
}

// TestDeviceWorkspace: the token is bound to the integration's workspace;
// WorkspaceID asserts it, and naming another workspace is refused.
func TestDeviceWorkspace(t *testing.T) {
	e := newDevEnv(t)
	cfg := e.config(authtest.NewAttestor(appID), nil)
	cfg.WorkspaceID = "default"
	require.NoError(t, sayHello(client(t, e.URL, deviceAttestation(t, cfg))))
	require.Equal(t, "default", e.tokenBodies(t)[0]["workspace_id"])

	// VENDOR_WORKSPACE_ID=default is not sent as a header, which cannot
	// carry "default": the token fixes the workspace.
	t.Setenv("VENDOR_WORKSPACE_ID", "default")
	require.NoError(t, sayHello(client(t, e.URL, deviceAttestation(t, e.config(authtest.NewAttestor(appID), nil)))))
	for _, r := range e.Server.Requests() {
		if r.Path == "/v1/messages" {
			require.Empty(t, r.Header.Get("vendor-workspace-id"))
		}
	}
	t.Setenv("VENDOR_WORKSPACE_ID", "")

	cfg = e.config(authtest.NewAttestor(appID), nil)
	cfg.WorkspaceID = e.Server.CreateWorkspace("other")
	err := sayHello(client(t, e.URL, deviceAttestation(t, cfg)))
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	denials := e.Server.ExchangeDenials()
	require.Equal(t, "workspace_mismatch", denials[len(denials)-1].Reason)
}

func TestDeviceAttestationConfigIsChecked(t *testing.T) {
	noEnv(t)
	good := auth.DeviceAttestationConfig{ClientID: "clid_1", AppID: appID, Attestor: authtest.NewAttestor(appID)}
	for field, edit := range map[string]func(*auth.DeviceAttestationConfig){
		"client_id": func(c *auth.DeviceAttestationConfig) { c.ClientID = " " },
		"app_id":    func(c *auth.DeviceAttestationConfig) { c.AppID = "" },
		"attestor":  func(c *auth.DeviceAttestationConfig) { c.Attestor = nil },
	} {
		cfg := good
		edit(&cfg)
		_, err := auth.DeviceAttestation(cfg)
		var verr *apierror.ValidationError
		require.ErrorAs(t, err, &verr, field)
		require.Equal(t, field, verr.Field)
	}

	// An endpoint that would receive the device proof in the clear.
	cfg := good
	cfg.BaseURL = "http://api.example.com"
	_, err := auth.DeviceAttestation(cfg)
	require.ErrorIs(t, err, auth.ErrInsecureEndpoint)
	t.Setenv("VENDOR_BASE_URL", "http://192.168.1.20:8080")
	_, err = auth.DeviceAttestation(good)
	require.ErrorIs(t, err, auth.ErrInsecureEndpoint, "the default from the environment is checked too")
}

// TestDeviceCloseLeavesNothingRunning: Close cancels a background refresh
// in flight and waits for it; afterwards no goroutine of the package runs
// and calls fail with ErrClosed. (TestMain's goleak check covers the rest.)
func TestDeviceCloseLeavesNothingRunning(t *testing.T) {
	e := newDevEnv(t)
	att := newRecordingAttestor(appID)
	creds, err := auth.DeviceAttestation(e.config(att, nil))
	require.NoError(t, err)
	c := client(t, e.URL, creds)
	require.NoError(t, sayHello(c))

	e.clock.Advance(time.Hour - 100*time.Second) // advisory window
	e.Server.InjectFault(refserver.Fault{Path: challengePath, Delay: time.Hour})
	require.NoError(t, sayHello(c), "served with the cached token while the refresh hangs")
	require.NotEmpty(t, authGoroutines(), "the refresh is running")
	require.NoError(t, creds.Close(), "cancels the hanging refresh")
	require.Empty(t, authGoroutinesLeft(), "no goroutine of the package outlives Close")

	require.ErrorIs(t, sayHello(c), auth.ErrClosed)
	require.Equal(t, []string{"generate", "attest"}, att.Calls(), "the cancelled refresh asked nothing of the attestor")
	require.NoError(t, creds.Close(), "closing twice is fine")
}

// authGoroutines returns the stacks of running goroutines that are inside
// package auth (not auth_test), as they are now.
func authGoroutines() []string {
	var out []string
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "agentplatform-go/auth.") {
			out = append(out, g)
		}
	}
	return out
}

// authGoroutinesLeft returns the goroutines of package auth still running
// once those that are ending have ended. A goroutine that has signalled its
// end (Close waits for that) may still be returning from its function,
// which on a loaded machine can take a while; so the check is repeated
// until none is left, for 30 s at most: one blocked in the package stays,
// and is reported.
func authGoroutinesLeft() []string {
	deadline := time.Now().Add(30 * time.Second)
	for {
		out := authGoroutines()
		if len(out) == 0 || time.Now().After(deadline) {
			return out
		}
		time.Sleep(time.Millisecond)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
