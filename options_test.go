package agentplatform_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/tunnels"
)

// last returns the most recent recorded request for method and path.
func last(t *testing.T, env *reftest.Env, method, path string) refserver.RecordedRequest {
	t.Helper()
	reqs := env.Server.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Method == method && reqs[i].Path == path {
			return reqs[i]
		}
	}
	t.Fatalf("no %s %s request was recorded", method, path)
	return refserver.RecordedRequest{}
}

// noEnv clears the environment variables the client reads, so that a
// developer's own settings cannot change a test.
func noEnv(t *testing.T) {
	t.Setenv("VENDOR_API_KEY", "")
	t.Setenv("VENDOR_BASE_URL", "")
	t.Setenv("VENDOR_WORKSPACE_ID", "")
}

func TestBaseURLOption(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	a, b := reftest.New(t), reftest.New(t)

	_, err := agentplatform.NewClient(option.WithBaseURL("ftp://example.com"))
	var verr *apierror.ValidationError
	require.ErrorAs(t, err, &verr)
	require.Equal(t, "base_url", verr.Field)

	client := a.Client(t)
	_, err = client.Models.Get(ctx, models.VendorOpus55)
	require.NoError(t, err)
	require.Equal(t, 1, a.Count("GET", "/v1/models/vendor-opus-5-5"))

	// Per call: the same client reaches the other server, with b's key.
	_, err = client.Models.Get(ctx, models.VendorOpus55,
		option.WithBaseURL(b.URL), option.WithAPIKey(b.Seed.APIKey), option.WithWorkspaceID(b.Seed.DefaultWorkspaceID))
	require.NoError(t, err)
	require.Equal(t, 1, b.Count("GET", "/v1/models/vendor-opus-5-5"))
	require.Equal(t, 1, a.Count("GET", "/v1/models/vendor-opus-5-5"))

	// A base URL with a path prefix keeps the prefix.
	prefixed := reftest.New(t)
	mux := http.NewServeMux()
	mux.Handle("/prefix/", http.StripPrefix("/prefix", prefixed.Server))
	srv := startServer(t, mux)
	_, err = prefixed.Client(t, option.WithBaseURL(srv+"/prefix/")).Models.Get(ctx, models.VendorOpus55)
	require.NoError(t, err)
}

func TestEnvironmentConfiguresClient(t *testing.T) {
	env := reftest.New(t)
	t.Setenv("VENDOR_API_KEY", env.Seed.APIKey)
	t.Setenv("VENDOR_BASE_URL", env.URL)
	t.Setenv("VENDOR_WORKSPACE_ID", env.Seed.DefaultWorkspaceID)
	client, err := agentplatform.NewClient()
	require.NoError(t, err)
	defer client.Close()
	_, err = client.Models.List(context.Background(), models.ListParams{})
	require.NoError(t, err)
	got := last(t, env, "GET", "/v1/models")
	require.Equal(t, "Bearer [redacted]", got.Header.Get("Authorization"))
	require.Equal(t, env.Seed.DefaultWorkspaceID, got.Header.Get("vendor-workspace-id"))
}

func TestCredentialsOptions(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)

	t.Run("missing credentials are refused before sending", func(t *testing.T) {
		client, err := agentplatform.NewClient(option.WithBaseURL(env.URL))
		require.NoError(t, err)
		defer client.Close()
		before := len(env.Server.Requests())
		_, err = client.Models.List(ctx, models.ListParams{})
		require.ErrorIs(t, err, apierror.ErrNoCredentials)
		require.ErrorContains(t, err, "VENDOR_API_KEY", "the message says how to fix it")
		require.ErrorContains(t, err, "option.WithAPIKey")
		require.Len(t, env.Server.Requests(), before)
	})

	t.Run("bearer by default", func(t *testing.T) {
		_, err := env.Client(t).Models.List(ctx, models.ListParams{})
		require.NoError(t, err)
		got := last(t, env, "GET", "/v1/models")
		require.Equal(t, "Bearer [redacted]", got.Header.Get("Authorization"))
		require.Empty(t, got.Header.Values("X-Api-Key"))
	})

	t.Run("x-api-key when asked, at client level", func(t *testing.T) {
		client := env.Client(t, option.WithCredentials(auth.XAPIKey(env.Seed.APIKey)))
		_, err := client.Models.List(ctx, models.ListParams{})
		require.NoError(t, err)
		got := last(t, env, "GET", "/v1/models")
		require.Equal(t, "[redacted]", got.Header.Get("X-Api-Key"))
		require.Empty(t, got.Header.Values("Authorization"))
	})

	t.Run("per call key overrides the client's", func(t *testing.T) {
		client := env.Client(t)
		_, err := client.Models.List(ctx, models.ListParams{}, option.WithAPIKey("sk-vendor-api03-not-a-key"))
		require.ErrorIs(t, err, apierror.ErrAuthentication)
		_, err = client.Models.List(ctx, models.ListParams{}, option.WithCredentials(auth.XAPIKey(env.Seed.APIKey)))
		require.NoError(t, err)
		require.Equal(t, "[redacted]", last(t, env, "GET", "/v1/models").Header.Get("X-Api-Key"))
	})

	t.Run("nil credentials are refused", func(t *testing.T) {
		_, err := agentplatform.NewClient(option.WithCredentials(nil))
		require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	})
}

func TestVersionBetaWorkspaceAndHeaderOptions(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	client := env.Client(t, option.WithBeta("context-1m-2025-08-07"), option.WithHeader("X-Trace-Tag", "client"))

	_, err := client.Tunnels.List(ctx, tunnels.ListParams{})
	require.NoError(t, err)
	got := last(t, env, "GET", "/v1/tunnels")
	require.Equal(t, "2023-06-01", got.Header.Get("vendor-version"))
	require.Equal(t, "mcp-tunnels-2026-06-22,context-1m-2025-08-07", got.Header.Get("vendor-beta"))
	require.Equal(t, "client", got.Header.Get("X-Trace-Tag"))

	// Per call: more betas (the required one is not repeated), a header override.
	_, err = client.Tunnels.List(ctx, tunnels.ListParams{},
		option.WithBeta("mcp-tunnels-2026-06-22", "skills-2025-10-02"), option.WithHeader("X-Trace-Tag", "call"))
	require.NoError(t, err)
	got = last(t, env, "GET", "/v1/tunnels")
	require.Equal(t, "mcp-tunnels-2026-06-22,context-1m-2025-08-07,skills-2025-10-02", got.Header.Get("vendor-beta"))
	require.Equal(t, "call", got.Header.Get("X-Trace-Tag"))

	// The per-call options did not leak into the client.
	_, err = client.Tunnels.List(ctx, tunnels.ListParams{})
	require.NoError(t, err)
	require.Equal(t, "mcp-tunnels-2026-06-22,context-1m-2025-08-07", last(t, env, "GET", "/v1/tunnels").Header.Get("vendor-beta"))

	// Version: an unknown one is rejected by the server, per call and per client.
	_, err = client.Models.List(ctx, models.ListParams{}, option.WithVersion("1999-01-01"))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	require.Equal(t, "1999-01-01", last(t, env, "GET", "/v1/models").Header.Get("vendor-version"))
	_, err = env.Client(t, option.WithVersion("1999-01-01")).Models.List(ctx, models.ListParams{})
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)

	// Workspace: a second workspace, selected per call.
	ws := env.Server.CreateWorkspace("second")
	require.NoError(t, env.Server.GrantAPIAccess(env.Seed.UserID, ws))
	var resp *http.Response
	_, err = client.Tunnels.Create(ctx, tunnels.CreateParams{}, option.WithWorkspaceID(ws), option.WithResponseInto(&resp))
	require.NoError(t, err)
	require.Equal(t, ws, resp.Header.Get("vendor-workspace-id"))
	page, err := client.Tunnels.List(ctx, tunnels.ListParams{}) // default workspace: none there
	require.NoError(t, err)
	require.Empty(t, page.Data)
	page, err = client.Tunnels.List(ctx, tunnels.ListParams{}, option.WithWorkspaceID(ws))
	require.NoError(t, err)
	require.Len(t, page.Data, 1)

	_, err = agentplatform.NewClient(option.WithHeader("", "x"))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
	_, err = agentplatform.NewClient(option.WithBeta(""))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}

// countingTransport counts the attempts that reach it.
type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPClientOption(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	clientLevel, perCall := &countingTransport{}, &countingTransport{}
	client := env.Client(t, option.WithHTTPClient(&http.Client{Transport: clientLevel, Timeout: time.Nanosecond}))

	_, err := client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err, "http.Client.Timeout must not apply: it would cut streams")
	require.EqualValues(t, 1, clientLevel.n.Load())

	_, err = client.Models.List(ctx, models.ListParams{}, option.WithHTTPClient(&http.Client{Transport: perCall}))
	require.NoError(t, err)
	require.EqualValues(t, 1, clientLevel.n.Load())
	require.EqualValues(t, 1, perCall.n.Load())

	_, err = agentplatform.NewClient(option.WithHTTPClient(nil))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}

func TestMiddlewareSeesEveryAttempt(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	var order []string
	mw := func(name string) option.Middleware {
		return func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			require.NotEmpty(t, r.Header.Get("Authorization"), "credentials are applied before middleware")
			order = append(order, name)
			return next(r)
		}
	}
	client := env.Client(t, option.WithMiddleware(mw("outer"), mw("inner")))
	env.Server.InjectFault(refserver.Fault{Path: "/v1/models", Status: 503})
	_, err := client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	require.Equal(t, []string{"outer", "inner", "outer", "inner"}, order)

	order = nil
	_, err = client.Models.List(ctx, models.ListParams{}, option.WithMiddleware(mw("call")))
	require.NoError(t, err)
	require.Equal(t, []string{"outer", "inner", "call"}, order)

	_, err = agentplatform.NewClient(option.WithMiddleware(nil))
	require.ErrorIs(t, err, apierror.ErrInvalidRequest)
}

func TestResponseIntoOption(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	var resp *http.Response
	_, err := env.Client(t).Models.Get(context.Background(), models.VendorHaiku55, option.WithResponseInto(&resp))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("request-id"), "req_"))
	require.Equal(t, env.Seed.OrganizationID, resp.Header.Get("vendor-organization-id"))

	// On an API error it holds the error response.
	_, err = env.Client(t).Models.Get(context.Background(), "no-such-model", option.WithResponseInto(&resp))
	require.Error(t, err)
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestLoggerOptionRedactsSecrets(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	env := reftest.New(t)
	var clientLog, callLog bytes.Buffer
	newLogger := func(buf *bytes.Buffer) *slog.Logger {
		return slog.New(slog.NewJSONHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	client := env.Client(t, option.WithLogger(newLogger(&clientLog)), option.WithContentCapture(true))
	env.Server.InjectFault(refserver.Fault{Path: "/v1/organizations/workspaces", Status: 503})
	_, err := client.Workspaces.Create(ctx, workspacesCreate("logged"))
	require.NoError(t, err)
	out := clientLog.String()
	require.Contains(t, out, "agentplatform: request")
	require.Contains(t, out, "agentplatform: response")
	require.Contains(t, out, "agentplatform: retrying")
	require.Contains(t, out, `\"name\":\"logged\"`, "in content mode the request body is logged")
	require.NotContains(t, out, env.Seed.APIKey)
	require.Contains(t, out, "[redacted]")

	_, err = client.Models.List(ctx, models.ListParams{}, option.WithLogger(newLogger(&callLog)))
	require.NoError(t, err)
	require.Contains(t, callLog.String(), "/v1/models")
	require.NotContains(t, callLog.String(), env.Seed.APIKey)

	// Without content mode, a body is logged by its size only.
	var sizeLog bytes.Buffer
	_, err = env.Client(t, option.WithLogger(newLogger(&sizeLog)), option.WithContentCapture(false)).
		Workspaces.Create(ctx, workspacesCreate("not-logged"))
	require.NoError(t, err)
	require.Contains(t, sizeLog.String(), `"body_bytes":`)
	require.NotContains(t, sizeLog.String(), "not-logged")

	// Off by default: a client without a logger writes nothing anywhere we can see,
	// and a logger above debug level gets nothing.
	var quiet bytes.Buffer
	_, err = env.Client(t, option.WithLogger(slog.New(slog.NewJSONHandler(&quiet, nil)))).Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	require.Empty(t, quiet.String())
}

func TestInsecureHTTPIsRefusedUnlessAllowed(t *testing.T) {
	noEnv(t)
	ctx := context.Background()
	var sent atomic.Int32
	fake := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent.Add(1)
		require.Equal(t, "Bearer sk-secret", r.Header.Get("Authorization"))
		return nil, errors.New("no network in tests")
	})
	client, err := agentplatform.NewClient(option.WithBaseURL("http://api.example.com"), option.WithAPIKey("sk-secret"),
		option.WithHTTPClient(&http.Client{Transport: fake}), option.WithMaxRetries(0))
	require.NoError(t, err)
	_, err = client.Models.List(ctx, models.ListParams{})
	require.ErrorIs(t, err, apierror.ErrInsecureHTTP)
	require.ErrorContains(t, err, "plain HTTP")
	require.ErrorContains(t, err, "option.WithInsecureHTTP", "the message says how to fix it")
	var re *apierror.RedirectError
	require.False(t, errors.As(err, &re), "the base URL itself, not a redirect")
	require.Zero(t, sent.Load())

	_, err = client.Models.List(ctx, models.ListParams{}, option.WithInsecureHTTP())
	require.ErrorContains(t, err, "no network in tests")
	require.EqualValues(t, 1, sent.Load())
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
