package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/auth/authtest"
)

// The identity JWT of the redirect tests, which must reach only the token
// endpoint's origin.
const redirectJWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJyZWRpcmVjdCJ9.CANARYredirectSignature"

// tokenEndpoint is a fake token endpoint that records what it receives and
// answers through handle.
type tokenEndpoint struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string // "METHOD path body"
	handle func(w http.ResponseWriter, r *http.Request) bool
}

// newTokenEndpoint serves on addr ("" for 127.0.0.1); a loopback address
// the system does not have skips the test.
func newTokenEndpoint(t *testing.T, addr string) *tokenEndpoint {
	t.Helper()
	te := &tokenEndpoint{}
	te.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		te.mu.Lock()
		te.bodies = append(te.bodies, r.Method+" "+r.URL.Path+" "+string(body))
		handle := te.handle
		te.mu.Unlock()
		if handle != nil && handle(w, r) {
			return
		}
		var req map[string]any
		if json.Unmarshal(body, &req) != nil || req["assertion"] != redirectJWT {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"assertion: is required"}}`, 400)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"access_token":"sk-vendor-oat01-redirected","token_type":"Bearer","expires_in":3600}`)
	}))
	if addr != "" {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Skipf("no loopback address %s here: %v", addr, err)
		}
		te.Listener = l
	}
	te.Start()
	t.Cleanup(te.Close)
	return te
}

func (te *tokenEndpoint) received() []string {
	te.mu.Lock()
	defer te.mu.Unlock()
	return append([]string(nil), te.bodies...)
}

// redirectTo answers the exchange with a redirect to target.
func (te *tokenEndpoint) redirectTo(status int, target string) {
	te.mu.Lock()
	defer te.mu.Unlock()
	te.handle = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != tokenPath {
			return false
		}
		w.Header().Set("request-id", "req_redirect")
		http.Redirect(w, r, target, status)
		return true
	}
}

// redirectCreds is a federation source of base that presents redirectJWT.
func redirectCreds(t *testing.T, base string, hc *http.Client) *auth.FederationCredentials {
	noEnv(t)
	return federation(t, auth.FederationConfig{
		BaseURL:          base,
		FederationRuleID: "fdrl_1",
		OrganizationID:   "org_1",
		ServiceAccountID: "svcacct_1",
		IdentityToken:    func(context.Context) (string, error) { return redirectJWT, nil },
		HTTPClient:       hc,
	})
}

func authorize(creds auth.Credentials) (string, error) {
	req, _ := http.NewRequest("GET", "https://api.vendor.com/v1/models", nil)
	err := creds.Authorize(ctx, req)
	return req.Header.Get("Authorization"), err
}

// TestExchangeRefusesCrossOriginRedirects: a token endpoint that redirects
// to another origin (another host, or another port) gets a typed,
// permanent error naming that origin; the other origin receives nothing,
// whatever the status (307 and 308 would re-post the JWT, 301 to 303 turn
// the request into a GET), and with a client of the caller's as well.
func TestExchangeRefusesCrossOriginRedirects(t *testing.T) {
	otherHost := newTokenEndpoint(t, "127.0.0.2:0")
	otherPort := newTokenEndpoint(t, "")
	for _, other := range []*tokenEndpoint{otherHost, otherPort} {
		for _, status := range []int{307, 308, 302, 301, 303} {
			for _, callerClient := range []bool{false, true} {
				front := newTokenEndpoint(t, "")
				front.redirectTo(status, other.URL+tokenPath+"?next=1")
				var hc *http.Client
				if callerClient {
					hc = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
				}
				_, err := authorize(redirectCreds(t, front.URL, hc))

				var xe *auth.ExchangeError
				require.ErrorAs(t, err, &xe)
				require.Equal(t, tokenPath, xe.Endpoint)
				require.Equal(t, status, xe.StatusCode)
				require.Equal(t, "req_redirect", xe.RequestID)
				require.False(t, xe.Temporary())
				require.Equal(t, "the token endpoint redirected to another origin, "+other.URL+"; not followed", xe.Message)
				require.NotContains(t, err.Error(), "next=1", "the origin only")
				require.NotContains(t, err.Error(), redirectJWT)
				require.Len(t, front.received(), 1, "not retried")
				if callerClient {
					require.Nil(t, hc.CheckRedirect, "the caller's client is not changed")
				}
			}
		}
		require.Empty(t, other.received(), "the other origin received nothing")
	}
}

// TestExchangeFollowsSameOriginRedirects: a redirect within the token
// endpoint's origin is followed, through the caller's transport and
// redirect policy when it gave a client; a 307 re-posts the body.
func TestExchangeFollowsSameOriginRedirects(t *testing.T) {
	front := newTokenEndpoint(t, "")
	front.redirectTo(307, "/v2/oauth/token")
	var trips, checks atomic.Int32
	hc := &http.Client{
		Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			trips.Add(1)
			return http.DefaultTransport.RoundTrip(r)
		}),
		CheckRedirect: func(*http.Request, []*http.Request) error { checks.Add(1); return nil },
	}
	for _, c := range []*http.Client{nil, hc} {
		bearer, err := authorize(redirectCreds(t, front.URL, c))
		require.NoError(t, err)
		require.Equal(t, "Bearer sk-vendor-oat01-redirected", bearer)
	}
	got := front.received()
	require.Len(t, got, 4)
	require.True(t, strings.HasPrefix(got[1], "POST /v2/oauth/token {"), got[1])
	require.Contains(t, got[1], redirectJWT, "307 keeps the method and the body")
	require.Equal(t, int32(2), trips.Load(), "the caller's transport sent both requests")
	require.Equal(t, int32(1), checks.Load(), "the caller's redirect policy was asked")

	// The caller's policy still decides on same-origin redirects; its
	// refusal is kept as the cause, and not retried.
	refusal := errors.New("no redirects, please")
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return refusal }
	_, err := authorize(redirectCreds(t, front.URL, hc))
	require.ErrorIs(t, err, refusal)
	var xe *auth.ExchangeError
	require.ErrorAs(t, err, &xe)
	require.Equal(t, 307, xe.StatusCode)
	require.False(t, xe.Temporary())
	require.NotContains(t, err.Error(), "/v2/oauth/token", "the target is not quoted")
	require.Len(t, front.received(), 5)
}

// TestDeviceAttestationRefusesCrossOriginRedirects: the device proof is
// protected the same way, on both endpoints.
func TestDeviceAttestationRefusesCrossOriginRedirects(t *testing.T) {
	noEnv(t)
	other := newTokenEndpoint(t, "127.0.0.2:0")
	front := newTokenEndpoint(t, "")
	front.mu.Lock()
	front.handle = func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path == challengePath {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"type":"device_attestation_challenge","challenge":"abc","expires_in":300}`)
			return true
		}
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusPermanentRedirect)
		return true
	}
	front.mu.Unlock()
	creds := deviceAttestation(t, auth.DeviceAttestationConfig{BaseURL: front.URL, ClientID: "clid_1", AppID: appID,
		Attestor: authtest.NewAttestor(appID)})
	req, _ := http.NewRequest("POST", front.URL+"/v1/messages", nil)
	err := creds.Authorize(ctx, req)
	var xe *auth.ExchangeError
	require.ErrorAs(t, err, &xe)
	require.Equal(t, tokenPath, xe.Endpoint)
	require.Equal(t, http.StatusPermanentRedirect, xe.StatusCode)
	require.Contains(t, xe.Message, other.URL)
	require.Empty(t, other.received())
}
