package agentplatform_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/workspaces"
)

// hop is a test server that records every request reaching it. While
// redirectTo is set, a request whose path does not start with /landed is
// redirected there (with status), path kept under /landed; anything else
// gets 200 and an empty JSON object.
type hop struct {
	*httptest.Server
	mu         sync.Mutex
	got        []hopRequest
	status     int
	redirectTo string
}

type hopRequest struct {
	method, path string
	header       http.Header
	body         string
}

// newHop serves on ip, which may be any loopback address: Linux routes all
// of 127/8 to this machine, so 127.0.0.2 is another origin on loopback.
func newHop(t *testing.T, ip string) *hop {
	t.Helper()
	l, err := net.Listen("tcp", ip+":0")
	require.NoError(t, err)
	h := &hop{}
	h.Server = httptest.NewUnstartedServer(h)
	h.Server.Listener.Close()
	h.Server.Listener = l
	h.Start()
	t.Cleanup(h.Close)
	return h
}

func (h *hop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.got = append(h.got, hopRequest{method: r.Method, path: r.URL.Path, header: r.Header.Clone(), body: string(body)})
	status, to := h.status, h.redirectTo
	h.mu.Unlock()
	if to != "" && !strings.HasPrefix(r.URL.Path, "/landed") {
		w.Header().Set("Location", to+"/landed"+r.URL.Path)
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_hop")
	_, _ = io.WriteString(w, `{}`)
}

// redirect sends what reaches h to target with status from now on.
func (h *hop) redirect(status int, target string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.status, h.redirectTo, h.got = status, target, nil
}

// requests returns what reached h since the last redirect or requests call.
func (h *hop) requests() []hopRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	got := h.got
	h.got = nil
	return got
}

// headerCredentials is an application's own credentials source, in a
// header whose name says nothing about secrets: only recording what
// Authorize set can tell that it must not follow a redirect.
type headerCredentials struct{ name, value string }

func (c headerCredentials) Authorize(_ context.Context, r *http.Request) error {
	r.Header.Set(c.name, c.value)
	return nil
}

// TestRedirectsKeepCredentialsAtTheirOrigin sends calls with each kind of
// credentials to a server that redirects them, with 302 and 307, to
// another origin (127.0.0.2) or to itself. Another origin receives no
// credential header (nor a secret-looking caller header), and a 307 that
// would re-send a body there is refused; the same origin keeps them all.
func TestRedirectsKeepCredentialsAtTheirOrigin(t *testing.T) {
	noEnv(t)
	env := reftest.New(t) // where federation and device attestation exchange
	const key = "sk-vendor-api03-CANARYredirectKey0006"
	kinds := []struct {
		name         string
		creds        option.Option
		header       string
		messagesOnly bool // device attestation tokens authorize Messages calls only
	}{
		{"bearer API key", option.WithAPIKey(key), "Authorization", false},
		{"x-api-key", option.WithCredentials(auth.XAPIKey(key)), "X-Api-Key", false},
		{"federation", option.WithCredentials(newFederation(t, env)), "Authorization", false},
		{"device attestation", option.WithCredentials(newDeviceAttestation(t, env)), "Authorization", true},
		{"custom header", option.WithCredentials(headerCredentials{"X-Vendor-Session", "CANARYsession0007"}), "X-Vendor-Session", false},
	}
	for _, kind := range kinds {
		t.Run(kind.name, func(t *testing.T) {
			origin, other := newHop(t, "127.0.0.1"), newHop(t, "127.0.0.2")
			client := newTestClient(t, option.WithBaseURL(origin.URL), kind.creds, option.WithMaxRetries(0),
				option.WithHeader("X-Upstream-Token", "CANARYupstream0008"), option.WithHeader("X-Trace-Tag", "kept"))
			get, post := redirectCalls(client, kind.messagesOnly)
			ctx := context.Background()

			for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect} {
				if get != nil {
					origin.redirect(status, other.URL)
					_, err := get(ctx)
					require.NoError(t, err, "GET %d", status)
					landed := onlyRequest(t, other)
					require.Equal(t, http.MethodGet, landed.method)
					requireNoCredentials(t, landed.header, kind.header)
				}

				origin.redirect(status, other.URL)
				_, err := post(ctx)
				sent := onlyRequest(t, origin)
				require.NotEmpty(t, sent.header.Get(kind.header), "the first hop carries the credentials")
				require.NotEmpty(t, sent.body)
				if status == http.StatusTemporaryRedirect {
					require.ErrorIs(t, err, apierror.ErrRedirectBody)
					var re *apierror.RedirectError
					require.ErrorAs(t, err, &re)
					require.Equal(t, http.MethodPost, re.Method)
					require.Equal(t, status, re.StatusCode)
					require.Equal(t, other.URL, re.Origin)
					require.Empty(t, other.requests(), "nothing reaches the other origin")
				} else {
					require.NoError(t, err)
					landed := onlyRequest(t, other)
					require.Equal(t, http.MethodGet, landed.method, "a 302 turns a POST into a GET without a body")
					require.Empty(t, landed.body)
					requireNoCredentials(t, landed.header, kind.header)
				}

				// The same origin keeps the credentials, and a 307 its body.
				origin.redirect(status, origin.URL)
				_, err = post(ctx)
				require.NoError(t, err)
				both := origin.requests()
				require.Len(t, both, 2)
				require.Equal(t, "/landed"+both[0].path, both[1].path)
				require.Equal(t, both[0].header.Get(kind.header), both[1].header.Get(kind.header))
				require.Equal(t, "CANARYupstream0008", both[1].header.Get("X-Upstream-Token"))
				if status == http.StatusTemporaryRedirect {
					require.Equal(t, both[0].body, both[1].body)
				}
			}
		})
	}
}

// redirectCalls returns a GET call and a POST call with a body; a
// Messages-only source has no GET call.
func redirectCalls(c *agentplatform.Client, messagesOnly bool) (get, post func(context.Context) (any, error)) {
	if messagesOnly {
		return nil, func(ctx context.Context) (any, error) {
			return c.Messages.Create(ctx, messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 16,
				Messages: []messages.MessageParam{messages.UserText("hello")}})
		}
	}
	return func(ctx context.Context) (any, error) { return c.Models.Get(ctx, models.VendorOpus55) },
		func(ctx context.Context) (any, error) {
			return c.Workspaces.Create(ctx, workspaces.CreateParams{Name: "redirected"})
		}
}

// requireNoCredentials checks that a request that reached another origin
// carries no credential: not the source's header, not one of the
// well-known ones, not a caller header whose name says it is secret. Other
// caller headers pass.
func requireNoCredentials(t *testing.T, h http.Header, credential string) {
	t.Helper()
	for _, name := range []string{credential, "Authorization", "X-Api-Key", "Proxy-Authorization", "Cookie", "X-Upstream-Token"} {
		require.Empty(t, h.Values(name), name)
	}
	require.Equal(t, "kept", h.Get("X-Trace-Tag"))
	require.NotEmpty(t, h.Get("Vendor-Version"))
}

func onlyRequest(t *testing.T, h *hop) hopRequest {
	t.Helper()
	got := h.requests()
	require.Len(t, got, 1)
	return got[0]
}

// newTestClient builds a client from opts alone, closed when the test ends.
func newTestClient(t *testing.T, opts ...option.Option) *agentplatform.Client {
	t.Helper()
	c, err := agentplatform.NewClient(opts...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestCallersRedirectPolicyRunsAfterTheSDKs: the application's
// CheckRedirect still sees the hops the SDK lets through, after the SDK
// has stripped the credentials, and never the hops it refuses.
func TestCallersRedirectPolicyRunsAfterTheSDKs(t *testing.T) {
	noEnv(t)
	origin, other := newHop(t, "127.0.0.1"), newHop(t, "127.0.0.2")
	var seen atomic.Int32
	hc := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		seen.Add(1)
		if req.Header.Get("Authorization") != "" && req.URL.Host != via[0].URL.Host {
			return errors.New("credentials crossed origins")
		}
		return nil
	}}
	t.Cleanup(hc.CloseIdleConnections)
	client := newTestClient(t, option.WithBaseURL(origin.URL), option.WithAPIKey("sk-test"), option.WithHTTPClient(hc),
		option.WithMaxRetries(0))
	ctx := context.Background()

	origin.redirect(http.StatusFound, other.URL)
	_, err := client.Models.Get(ctx, models.VendorOpus55)
	require.NoError(t, err)
	require.EqualValues(t, 1, seen.Load())

	origin.redirect(http.StatusTemporaryRedirect, other.URL)
	_, err = client.Workspaces.Create(ctx, workspaces.CreateParams{Name: "refused"})
	require.ErrorIs(t, err, apierror.ErrRedirectBody)
	require.EqualValues(t, 1, seen.Load(), "a refused hop never reaches the application's policy")
}

// TestRedirectToPlainHTTPIsRefused: an https base URL that redirects to
// plain HTTP on a host that is not loopback is refused, naming only the
// refused origin, unless WithInsecureHTTP allows it; even then the other
// origin gets no credentials. The host names are mapped to local servers
// by the test's dialer, so nothing leaves loopback.
func TestRedirectToPlainHTTPIsRefused(t *testing.T) {
	noEnv(t)
	evil := newHop(t, "127.0.0.1")
	api := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://evil.example.test/steal?token=CANARYquery0009", http.StatusFound)
	}))
	t.Cleanup(api.Close)
	tr := api.Client().Transport.(*http.Transport).Clone()
	tr.TLSClientConfig.ServerName = "example.com" // a name httptest's certificate holds
	var dialer net.Dialer
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		switch addr {
		case "api.example.test:443":
			addr = api.Listener.Addr().String()
		case "evil.example.test:80":
			addr = evil.Listener.Addr().String()
		default:
			return nil, fmt.Errorf("test dialer: no route to %s", addr)
		}
		return dialer.DialContext(ctx, network, addr)
	}
	t.Cleanup(tr.CloseIdleConnections)
	const key = "sk-vendor-api03-CANARYdowngrade0010"
	client := newTestClient(t, option.WithBaseURL("https://api.example.test"), option.WithAPIKey(key),
		option.WithHTTPClient(&http.Client{Transport: tr}), option.WithMaxRetries(0))
	ctx := context.Background()

	_, err := client.Models.Get(ctx, models.VendorOpus55)
	require.ErrorIs(t, err, apierror.ErrInsecureHTTP)
	var re *apierror.RedirectError
	require.ErrorAs(t, err, &re)
	require.Equal(t, "http://evil.example.test", re.Origin)
	require.Equal(t, http.StatusFound, re.StatusCode)
	require.Contains(t, err.Error(), "http://evil.example.test")
	for _, leak := range []string{"CANARYquery0009", "/steal", key} {
		require.NotContains(t, err.Error(), leak)
	}
	require.Empty(t, evil.requests(), "nothing reaches the plain HTTP host")

	_, err = client.Models.Get(ctx, models.VendorOpus55, option.WithInsecureHTTP())
	require.NoError(t, err)
	landed := onlyRequest(t, evil)
	require.Empty(t, landed.header.Values("Authorization"), "another origin: no credentials either way")
}
