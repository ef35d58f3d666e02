package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/auth/authtest"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
)

func TestFederationExchangesOnceAndReusesTheToken(t *testing.T) {
	e := newFedEnv(t)
	var rec bearerRecorder
	c := client(t, e.URL, federation(t, e.config(t)), rec.middleware())

	require.NoError(t, listModels(c))
	require.NoError(t, listModels(c))
	require.Equal(t, 1, e.Count("POST", tokenPath))
	require.Equal(t, 2, e.Count("GET", "/v1/models"))

	// The exchange request of docs/auth-wire.md 2.1.
	var ex refserver.RecordedRequest
	for _, r := range e.Server.Requests() {
		if r.Path == tokenPath {
			ex = r
		}
	}
	require.Equal(t, "application/json", ex.Header.Get("Content-Type"))
	require.Equal(t, "2023-06-01", ex.Header.Get("vendor-version"))
	require.Empty(t, ex.Header.Get("Authorization"), "the exchange takes no credential")
	var body map[string]any
	require.NoError(t, json.Unmarshal(ex.Body, &body))
	require.Equal(t, map[string]any{
		"grant_type":         "urn:ietf:params:oauth:grant-type:jwt-bearer",
		"assertion":          "[redacted]", // by the server's request log
		"federation_rule_id": e.ruleID,
		"organization_id":    e.Seed.OrganizationID,
		"service_account_id": e.saID,
	}, body)

	// The API requests carry the token as Bearer, and nothing else.
	for _, r := range e.Server.Requests() {
		if r.Path == "/v1/models" {
			require.Equal(t, "Bearer [redacted]", r.Header.Get("Authorization"))
			require.Empty(t, r.Header.Get("X-Api-Key"))
		}
	}
	tokens := rec.distinct()
	require.Len(t, tokens, 1)
	require.True(t, strings.HasPrefix(tokens[0], "Bearer sk-vendor-oat01-"), "an access token, not a key")
}

// TestConcurrentCallsNearExpiryExchangeOnce: 100 requests that all need a
// new token share one exchange (single flight), in the mandatory window and
// after expiry.
func TestConcurrentCallsNearExpiryExchangeOnce(t *testing.T) {
	for _, at := range []time.Duration{time.Hour - 10*time.Second, time.Hour + time.Minute} {
		t.Run(at.String(), func(t *testing.T) {
			e := newFedEnv(t)
			var identityReads atomic.Int32
			cfg := e.config(t)
			mint := cfg.IdentityToken
			cfg.IdentityToken = func(ctx context.Context) (string, error) {
				identityReads.Add(1)
				return mint(ctx)
			}
			c := client(t, e.URL, federation(t, cfg))
			require.NoError(t, listModels(c))
			require.Equal(t, 1, e.Count("POST", tokenPath))

			e.clock.Advance(at)
			var wg sync.WaitGroup
			errs := make(chan error, 100)
			for range 100 {
				wg.Go(func() { errs <- listModels(c) })
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			require.Equal(t, 2, e.Count("POST", tokenPath), "exactly one exchange for 100 waiting calls")
			require.Equal(t, int32(2), identityReads.Load())
			require.Equal(t, 101, e.Count("GET", "/v1/models"), "no call needed a second try")
		})
	}
}

// TestAdvisoryRefresh: inside the advisory window (the last 120 s of an
// hour-long token) a request is served with the cached token and starts one
// exchange in the background; the new token is used from then on. The
// background exchange is held (its identity token is not given) until both
// requests have returned, however slow the machine; the minute only turns
// requests held up by it into a failure rather than a hang.
func TestAdvisoryRefresh(t *testing.T) {
	e := newFedEnv(t)
	cfg := e.config(t)
	var mints atomic.Int32
	release := make(chan struct{})
	var released sync.Once
	releaseExchange := func() { released.Do(func() { close(release) }) }
	defer releaseExchange()
	cfg.IdentityToken = func(context.Context) (string, error) {
		if mints.Add(1) == 2 { // the background exchange
			<-release
		}
		return e.mint(t), nil
	}
	creds := federation(t, cfg)
	var rec bearerRecorder
	c := client(t, e.URL, creds, rec.middleware())
	require.NoError(t, listModels(c))

	e.clock.Advance(time.Hour - 100*time.Second) // advisory, not mandatory
	safety := time.AfterFunc(time.Minute, releaseExchange)
	defer safety.Stop()
	require.NoError(t, listModels(c), "not held up by the slow exchange")
	require.NoError(t, listModels(c))
	releaseExchange()
	auth.WaitIdle(creds)
	require.Equal(t, 2, e.Count("POST", tokenPath), "one background exchange for two requests")
	tokens := rec.distinct()
	require.Len(t, tokens, 1, "both requests went out with the cached token")

	// Past the first token's expiry, the background token serves without a new exchange.
	e.clock.Advance(time.Minute)
	require.NoError(t, listModels(c))
	require.Equal(t, 2, e.Count("POST", tokenPath))
	require.Len(t, rec.distinct(), 2)
}

// TestFailedAdvisoryRefreshKeepsServing: a background exchange that fails
// leaves the cached token in use; the next background try waits a few
// seconds; in the mandatory window the exchange is inline and its failure
// fails the request.
func TestFailedAdvisoryRefreshKeepsServing(t *testing.T) {
	e := newFedEnv(t)
	cfg := e.config(t)
	cfg.MaxRetries = 2
	creds := federation(t, cfg)
	c := client(t, e.URL, creds)
	require.NoError(t, listModels(c))

	e.clock.Advance(time.Hour - 100*time.Second)
	e.Server.InjectFault(refserver.Fault{Path: tokenPath, Status: http.StatusServiceUnavailable, Times: 3})
	require.NoError(t, listModels(c), "served with the cached token")
	auth.WaitIdle(creds)
	require.Equal(t, 1+3, e.Count("POST", tokenPath), "the background exchange was tried 3 times and failed")
	require.NoError(t, listModels(c), "still served with the cached token")
	auth.WaitIdle(creds)
	require.Equal(t, 4, e.Count("POST", tokenPath), "no new background exchange right after a failure")

	e.clock.Advance(6 * time.Second) // past the pause, still advisory
	require.NoError(t, listModels(c))
	auth.WaitIdle(creds)
	require.Equal(t, 5, e.Count("POST", tokenPath), "the next background exchange succeeded")

	// Mandatory window of the new token: the request waits for the exchange
	// and fails with it; nothing reaches the API.
	e.clock.Advance(time.Hour - 20*time.Second)
	e.Server.InjectFault(refserver.Fault{Path: tokenPath, Status: http.StatusUnauthorized,
		ErrorType: "authentication_error", Message: "Authentication failed"})
	apiCalls := e.Count("GET", "/v1/models")
	err := listModels(c)
	var xe *auth.ExchangeError
	require.ErrorAs(t, err, &xe)
	require.Equal(t, http.StatusUnauthorized, xe.StatusCode)
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	var apiErr *apierror.Error
	require.False(t, errors.As(err, &apiErr), "an exchange failure is not an API error")
	require.Equal(t, 6, e.Count("POST", tokenPath), "a 401 is not retried, and the client does not re-exchange for it")
	require.Equal(t, apiCalls, e.Count("GET", "/v1/models"))

	// The mandatory exchange is inline: once the call returns, the token is there.
	require.NoError(t, listModels(c))
	require.Equal(t, 7, e.Count("POST", tokenPath))
	require.NoError(t, listModels(c))
	require.Equal(t, 7, e.Count("POST", tokenPath))
}

// TestExchangeRetries: connection errors, 429 and 5xx are retried with a
// fresh identity token each time; 400 and 401 are not.
func TestExchangeRetries(t *testing.T) {
	cases := []struct {
		name      string
		faults    []refserver.Fault
		ok        bool
		exchanges int
	}{
		{"503 then success", []refserver.Fault{{Status: 503, Times: 2}}, true, 3},
		{"429 with retry-after-ms", []refserver.Fault{{Status: 429, Header: http.Header{"Retry-After-Ms": {"1"}}}}, true, 2},
		{"dropped connection", []refserver.Fault{{Drop: true}}, true, 2},
		{"500 until the retries run out", []refserver.Fault{{Status: 500, Times: 10}}, false, 4},
		{"x-should-retry false", []refserver.Fault{{Status: 503, Header: http.Header{"X-Should-Retry": {"false"}}}}, false, 1},
		{"400", []refserver.Fault{{Status: 400, Message: "assertion: must be between 1 and 16384 characters"}}, false, 1},
		{"401", []refserver.Fault{{Status: 401, Message: "Authentication failed"}}, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newFedEnv(t)
			var reads atomic.Int32
			cfg := e.config(t)
			mint := cfg.IdentityToken
			cfg.IdentityToken = func(ctx context.Context) (string, error) { reads.Add(1); return mint(ctx) }
			c := client(t, e.URL, federation(t, cfg))
			for _, f := range tc.faults {
				f.Path = tokenPath
				e.Server.InjectFault(f)
			}
			err := listModels(c)
			if tc.ok {
				require.NoError(t, err)
			} else {
				var xe *auth.ExchangeError
				require.ErrorAs(t, err, &xe)
				require.Equal(t, tokenPath, xe.Endpoint)
			}
			require.Equal(t, tc.exchanges, e.Count("POST", tokenPath))
			require.Equal(t, int32(tc.exchanges), reads.Load(), "the identity token is read for every attempt")
		})
	}
}

// TestA401ReExchangesOnce: the server stops accepting a token the source
// still thinks valid (here its clock is ahead of the source's: the server
// expired the token). The client drops that token, exchanges once, and
// repeats the request once.
func TestA401ReExchangesOnce(t *testing.T) {
	e := newFedEnv(t)
	cfg := e.config(t)
	sdkClock := refserver.NewManualClock(t0)
	cfg.Now = sdkClock.Now
	var rec bearerRecorder
	c := client(t, e.URL, federation(t, cfg), rec.middleware())
	require.NoError(t, listModels(c))

	e.clock.Advance(time.Hour) // the server's clock: the token has expired
	e.Server.ResetRequests()
	require.NoError(t, listModels(c))
	reqs := e.Server.Requests()
	var seq []string
	for _, r := range reqs {
		seq = append(seq, r.Method+" "+r.Path)
	}
	require.Equal(t, []string{"GET /v1/models", "POST " + tokenPath, "GET /v1/models"}, seq)
	tokens := rec.distinct()
	require.Len(t, tokens, 2, "the retry carried a new token")

	// Once only: a token refused again gives the 401.
	e.clock.Advance(time.Hour)
	e.Server.ResetRequests()
	e.Server.InjectFault(refserver.Fault{Path: "/v1/models", Status: 401, Times: 2, Message: "access token has expired"})
	err := listModels(c)
	require.ErrorIs(t, err, apierror.ErrAuthentication)
	require.Equal(t, 2, e.Count("GET", "/v1/models"))
	require.Equal(t, 1, e.Count("POST", tokenPath))
}

// TestInvalidateDropsOnlyTheRefusedToken: a 401 for an old token does not
// throw away a newer one that another request already fetched.
func TestInvalidateDropsOnlyTheRefusedToken(t *testing.T) {
	e := newFedEnv(t)
	creds := federation(t, e.config(t))
	var rec bearerRecorder
	c := client(t, e.URL, creds, rec.middleware())
	require.NoError(t, listModels(c))
	old := rec.distinct()[0]

	e.clock.Advance(time.Hour) // expired: the next request exchanges
	require.NoError(t, listModels(c))
	require.Equal(t, 2, e.Count("POST", tokenPath))

	stale, _ := http.NewRequest("GET", e.URL+"/v1/models", nil)
	stale.Header.Set("Authorization", old)
	creds.Invalidate(stale)
	require.NoError(t, listModels(c))
	require.Equal(t, 2, e.Count("POST", tokenPath), "the newer token was kept")

	current, _ := http.NewRequest("GET", e.URL+"/v1/models", nil)
	current.Header.Set("Authorization", rec.distinct()[1])
	creds.Invalidate(current)
	require.NoError(t, listModels(c))
	require.Equal(t, 3, e.Count("POST", tokenPath), "the refused token was dropped")
}

// TestBadJWTsAreTypedExchangeErrors: every JWT the server refuses gives an
// *auth.ExchangeError (401 authentication_error "Authentication failed"),
// is not retried, sends nothing to the API, and never shows the JWT.
func TestBadJWTsAreTypedExchangeErrors(t *testing.T) {
	cases := []struct {
		name   string
		jwt    func(t *testing.T, e *fedEnv) string
		reason string
	}{
		{"wrong key", func(t *testing.T, e *fedEnv) string {
			other := newFedEnv(t) // same kid, another key
			return e.sign(t, other.key, e.claims())
		}, "jwt_signature"},
		{"wrong issuer", func(t *testing.T, e *fedEnv) string {
			return e.mint(t, func(c map[string]any) { c["iss"] = "https://evil.example.com" })
		}, "jwt_issuer"},
		{"wrong audience", func(t *testing.T, e *fedEnv) string {
			return e.mint(t, func(c map[string]any) { c["aud"] = "https://api.other.com" })
		}, "match_audience"},
		{"expired", func(t *testing.T, e *fedEnv) string {
			return e.mint(t, func(c map[string]any) {
				c["iat"] = e.clock.Now().Add(-2 * time.Hour).Unix()
				c["exp"] = e.clock.Now().Add(-time.Hour).Unix()
			})
		}, "jwt_expired"},
		{"alg none", func(t *testing.T, e *fedEnv) string { return e.unsigned() }, "jwt_algorithm"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newFedEnv(t)
			jwt := tc.jwt(t, e)
			cfg := e.config(t)
			cfg.IdentityToken = func(context.Context) (string, error) { return jwt, nil }
			c := client(t, e.URL, federation(t, cfg))

			err := listModels(c)
			var xe *auth.ExchangeError
			require.ErrorAs(t, err, &xe)
			require.Equal(t, http.StatusUnauthorized, xe.StatusCode)
			require.Equal(t, apierror.TypeAuthentication, xe.Type)
			require.Equal(t, "Authentication failed", xe.Message)
			require.NotEmpty(t, xe.RequestID)
			require.False(t, xe.Temporary())
			require.ErrorIs(t, err, apierror.ErrAuthentication)
			require.NotContains(t, err.Error(), jwt)
			require.NotContains(t, err.Error(), strings.Split(jwt, ".")[1], "not even the payload")
			require.Equal(t, 1, e.Count("POST", tokenPath), "not retried")
			require.Zero(t, e.Count("GET", "/v1/models"), "nothing reached the API")

			denials := e.Server.ExchangeDenials()
			require.NotEmpty(t, denials)
			require.Equal(t, tc.reason, denials[len(denials)-1].Reason)
			require.Equal(t, xe.RequestID, denials[len(denials)-1].RequestID)
		})
	}
}

// TestRotatedIdentityTokenFileIsPickedUp: the file is read for every
// exchange. A single-use JWT (jti) left in place is refused the second
// time; once the platform rotates the file, the next exchange works.
func TestRotatedIdentityTokenFileIsPickedUp(t *testing.T) {
	e := newFedEnv(t)
	path := filepath.Join(t.TempDir(), "token")
	write := func() { require.NoError(t, os.WriteFile(path, []byte(e.mint(t)+"\n"), 0o600)) }
	write()
	cfg := e.config(t)
	cfg.IdentityToken = auth.IdentityTokenFile(path)
	c := client(t, e.URL, federation(t, cfg))
	require.NoError(t, listModels(c))

	e.clock.Advance(time.Hour - 20*time.Second) // mandatory window: the next request must exchange
	err := listModels(c)
	require.ErrorIs(t, err, apierror.ErrAuthentication, "the same JWT again is a replay")
	denials := e.Server.ExchangeDenials()
	require.Equal(t, "jti_reused", denials[len(denials)-1].Reason)

	write() // the platform rotates the token
	require.NoError(t, listModels(c))
	require.Equal(t, 3, e.Count("POST", tokenPath))

	require.NoError(t, os.Remove(path))
	e.clock.Advance(time.Hour - 20*time.Second)
	err = listModels(c)
	var xe *auth.ExchangeError
	require.ErrorAs(t, err, &xe)
	require.Zero(t, xe.StatusCode, "nothing was sent")
	require.ErrorIs(t, err, os.ErrNotExist)
	require.Equal(t, 3, e.Count("POST", tokenPath))
}

func TestInsecureEndpointIsRefused(t *testing.T) {
	noEnv(t)
	idt := auth.IdentityTokenEnv("UNUSED")
	base := auth.FederationConfig{FederationRuleID: "fdrl_1", OrganizationID: "org_1", ServiceAccountID: "svcacct_1", IdentityToken: idt}
	for _, u := range []string{"http://api.example.com", "http://10.0.0.8:8080", "http://[fe80::1]/"} {
		cfg := base
		cfg.BaseURL = u
		_, err := auth.Federation(cfg)
		require.ErrorIs(t, err, auth.ErrInsecureEndpoint, u)
		require.ErrorContains(t, err, "https")

		_, err = auth.DeviceAttestation(auth.DeviceAttestationConfig{BaseURL: u, ClientID: "clid_1", AppID: "ABCDE12345.com.example.app",
			Attestor: authtest.NewAttestor("ABCDE12345.com.example.app")})
		require.ErrorIs(t, err, auth.ErrInsecureEndpoint, u)
	}
	t.Setenv("VENDOR_BASE_URL", "http://api.example.com")
	_, err := auth.Federation(base)
	require.ErrorIs(t, err, auth.ErrInsecureEndpoint, "the default from the environment is checked too")

	for _, u := range []string{"https://api.example.com", "http://127.0.0.1:9", "http://localhost:9", "http://[::1]:9"} {
		cfg := base
		cfg.BaseURL = u
		creds, err := auth.Federation(cfg)
		require.NoError(t, err, u)
		require.NoError(t, creds.Close())
	}

	cfg := base
	cfg.BaseURL = "ftp://example.com"
	_, err = auth.Federation(cfg)
	var verr *apierror.ValidationError
	require.ErrorAs(t, err, &verr, "a bad base URL is a typed configuration error")
	require.Equal(t, "base_url", verr.Field)
	cfg.BaseURL = "https://user:pw@example.com"
	_, err = auth.Federation(cfg)
	require.ErrorAs(t, err, &verr)
	require.NotContains(t, err.Error(), "pw")
}

func TestFederationConfigIsChecked(t *testing.T) {
	noEnv(t)
	good := auth.FederationConfig{FederationRuleID: "fdrl_1", OrganizationID: "org_1", ServiceAccountID: "svcacct_1",
		IdentityToken: auth.IdentityTokenEnv("X")}
	for field, edit := range map[string]func(*auth.FederationConfig){
		"federation_rule_id": func(c *auth.FederationConfig) { c.FederationRuleID = "" },
		"organization_id":    func(c *auth.FederationConfig) { c.OrganizationID = "" },
		"service_account_id": func(c *auth.FederationConfig) { c.ServiceAccountID = "" },
		"identity_token":     func(c *auth.FederationConfig) { c.IdentityToken = nil },
	} {
		cfg := good
		edit(&cfg)
		_, err := auth.Federation(cfg)
		var verr *apierror.ValidationError
		require.ErrorAs(t, err, &verr, field)
		require.Equal(t, field, verr.Field)
	}
}

// TestFederationFromEnv reads the variables of docs/auth-wire.md 2.9.
// VENDOR_WORKSPACE_ID goes in the exchange body only; "default" is never
// sent as a header.
func TestFederationFromEnv(t *testing.T) {
	e := newFedEnv(t, func(r *refserver.FederationRule) { r.AllWorkspaces = true; r.WorkspaceIDs = nil })
	path := filepath.Join(t.TempDir(), "token")
	require.NoError(t, os.WriteFile(path, []byte(e.mint(t)), 0o600))

	_, err := auth.FederationFromEnv()
	require.ErrorContains(t, err, auth.EnvFederationRuleID)

	t.Setenv("VENDOR_BASE_URL", e.URL)
	t.Setenv(auth.EnvFederationRuleID, e.ruleID)
	t.Setenv(auth.EnvOrganizationID, e.Seed.OrganizationID)
	t.Setenv(auth.EnvServiceAccountID, e.saID)
	_, err = auth.FederationFromEnv()
	require.ErrorContains(t, err, auth.EnvIdentityTokenFile)
	t.Setenv(auth.EnvIdentityTokenFile, path)
	t.Setenv(auth.EnvWorkspaceID, "default")

	cfg, err := auth.FederationConfigFromEnv()
	require.NoError(t, err)
	require.Equal(t, "default", cfg.WorkspaceID)
	cfg.Now = e.clock.Now
	creds := federation(t, cfg)
	c := client(t, "", creds) // the client reads VENDOR_BASE_URL and VENDOR_WORKSPACE_ID too
	require.NoError(t, listModels(c))
	var body map[string]any
	for _, r := range e.Server.Requests() {
		switch r.Path {
		case tokenPath:
			require.NoError(t, json.Unmarshal(r.Body, &body))
		case "/v1/models":
			require.Empty(t, r.Header.Get("vendor-workspace-id"), "default is not a header value")
		}
	}
	require.Equal(t, "default", body["workspace_id"])

	// VENDOR_IDENTITY_TOKEN, when no file is named.
	t.Setenv(auth.EnvIdentityTokenFile, "")
	t.Setenv(auth.EnvIdentityToken, e.mint(t))
	creds2, err := auth.FederationFromEnv()
	require.NoError(t, err)
	defer creds2.Close()
	require.NoError(t, listModels(client(t, "", creds2)))
	require.Equal(t, 2, e.Count("POST", tokenPath))
}

func TestClosedSourceRefusesAndLeavesNothingRunning(t *testing.T) {
	e := newFedEnv(t)
	creds, err := auth.Federation(e.config(t))
	require.NoError(t, err)
	c := client(t, e.URL, creds)
	require.NoError(t, listModels(c))

	// A background exchange in flight when the source closes is cancelled.
	e.clock.Advance(time.Hour - 100*time.Second)
	e.Server.InjectFault(refserver.Fault{Path: tokenPath, Delay: time.Hour})
	require.NoError(t, listModels(c))
	require.NotEmpty(t, authGoroutines(), "the refresh is running")
	require.NoError(t, creds.Close(), "cancels the hanging refresh and waits for it")
	require.Empty(t, authGoroutinesLeft(), "no goroutine of the package outlives Close")
	require.ErrorIs(t, listModels(c), auth.ErrClosed)
	require.NoError(t, creds.Close(), "closing twice is fine")
}

// TestWaitingCallerCanGiveUp: a request whose context ends stops waiting for
// the exchange, without failing the others. The exchange is held (its
// identity token is not given) until the short request has returned, so
// that request can only end by giving up, however slow the machine; the
// minute only turns a request that keeps waiting into a failure rather
// than a hang.
func TestWaitingCallerCanGiveUp(t *testing.T) {
	e := newFedEnv(t)
	cfg := e.config(t)
	exchanging, release := make(chan struct{}), make(chan struct{})
	var started, released sync.Once
	cfg.IdentityToken = func(context.Context) (string, error) {
		started.Do(func() { close(exchanging) })
		<-release
		return e.mint(t), nil
	}
	releaseExchange := func() { released.Do(func() { close(release) }) }
	defer releaseExchange()
	c := client(t, e.URL, federation(t, cfg))
	errs := make(chan error, 1)
	go func() { errs <- listModels(c) }()
	<-exchanging // the other request's exchange is under way
	safety := time.AfterFunc(time.Minute, releaseExchange)
	defer safety.Stop()
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err := c.Models.List(short, modelsParams())
	require.ErrorIs(t, err, context.DeadlineExceeded)
	releaseExchange()
	require.NoError(t, <-errs)
	require.Equal(t, 1, e.Count("POST", tokenPath))
}
