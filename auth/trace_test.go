package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/auth/authtest"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/pipeline"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/option"
)

const (
	tokenSpan     = "vendor.oauth.token.create"
	challengeSpan = "vendor.oauth.device_attestation.challenge.create"
)

// spanRecorder is a tracer provider whose spans a test can read once they
// have ended.
type spanRecorder struct {
	*tracetest.SpanRecorder
	tp *sdktrace.TracerProvider
}

func newSpanRecorder(t *testing.T) *spanRecorder {
	r := &spanRecorder{SpanRecorder: tracetest.NewSpanRecorder()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.SpanRecorder))
	t.Cleanup(func() { _ = r.tp.Shutdown(ctx) })
	return r
}

// named returns the ended spans called name, in the order they ended.
func (r *spanRecorder) named(name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range r.Ended() {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// one returns the only ended span called name.
func (r *spanRecorder) one(t *testing.T, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	spans := r.named(name)
	require.Len(t, spans, 1, "spans called %s", name)
	return spans[0]
}

func attrKeys(s sdktrace.ReadOnlySpan) []string {
	var keys []string
	for _, kv := range s.Attributes() {
		keys = append(keys, string(kv.Key))
	}
	return keys
}

// requireChildOf checks that child is a CLIENT span of the SDK's scope
// whose parent is parent.
func requireChildOf(t *testing.T, child, parent sdktrace.ReadOnlySpan) {
	t.Helper()
	require.Equal(t, trace.SpanKindClient, child.SpanKind())
	require.Equal(t, attr.SDKScope, child.InstrumentationScope().Name)
	require.Equal(t, pipeline.Version, child.InstrumentationScope().Version, "the same scope as the client's spans")
	require.Equal(t, parent.SpanContext().TraceID(), child.SpanContext().TraceID(), "same trace")
	require.Equal(t, parent.SpanContext().SpanID(), child.Parent().SpanID(), "child of the call's span")
}

// traceparent is the header a request carrying span s's context has.
func traceparent(s sdktrace.ReadOnlySpan) string {
	return fmt.Sprintf("00-%s-%s-01", s.SpanContext().TraceID(), s.SpanContext().SpanID())
}

// traceparents returns the traceparent of every recorded request to path.
func traceparents(srv *refserver.Server, path string) []string {
	var out []string
	for _, r := range srv.Requests() {
		if r.Path == path {
			out = append(out, r.Header.Get("traceparent"))
		}
	}
	return out
}

// requestAttrs are the request attributes every exchange span to path on
// the server at base has.
func requestAttrs(t *testing.T, base, path string) map[attribute.Key]attribute.Value {
	t.Helper()
	u, err := url.Parse(base)
	require.NoError(t, err)
	port, err := strconv.Atoi(u.Port())
	require.NoError(t, err)
	return map[attribute.Key]attribute.Value{
		attr.GenAIProviderName: attribute.StringValue("vendor"),
		attr.HTTPRequestMethod: attribute.StringValue("POST"),
		attr.HTTPRoute:         attribute.StringValue(path),
		attr.ServerAddress:     attribute.StringValue(u.Hostname()),
		attr.ServerPort:        attribute.IntValue(port),
		attr.URLScheme:         attribute.StringValue("http"),
		attr.URLPath:           attribute.StringValue(path),
		attr.URLFull:           attribute.StringValue(base + path),
	}
}

// requireNoSecret fails if a secret appears in a span's name, attributes,
// status or events.
func requireNoSecret(t *testing.T, spans []sdktrace.ReadOnlySpan, secrets []string) {
	t.Helper()
	require.NotEmpty(t, secrets)
	for _, s := range spans {
		text := fmt.Sprint(s.Name(), s.Status(), s.Attributes(), s.Events())
		for _, secret := range secrets {
			require.NotEmpty(t, secret)
			require.NotContains(t, text, secret, "span %s", s.Name())
		}
	}
}

// TestFederationExchangeSpan: a call that needs a token gets the exchange's
// CLIENT span as a child, in the same trace, with the request attributes
// of every API span, and the token endpoint receives that span's
// traceparent. The tracer provider is the client's: the config names none.
func TestFederationExchangeSpan(t *testing.T) {
	e := newFedEnv(t)
	rec := newSpanRecorder(t)
	var bearer bearerRecorder
	c := client(t, e.URL, federation(t, e.config(t)), option.WithTracerProvider(rec.tp), bearer.middleware())
	require.NoError(t, listModels(c))

	call := rec.one(t, "vendor.models.list")
	ex := rec.one(t, tokenSpan)
	requireChildOf(t, ex, call)
	require.Equal(t, codes.Ok, ex.Status().Code)
	got := spantest.Attrs(ex)
	require.NotEmpty(t, got[attr.RequestID].AsString())
	want := requestAttrs(t, e.URL, tokenPath)
	want[attr.HTTPResponseStatus] = attribute.IntValue(200)
	want[attr.RequestID] = got[attr.RequestID]
	want[attr.OrganizationID] = attribute.StringValue(e.Seed.OrganizationID)
	want[attr.WorkspaceID] = attribute.StringValue(e.Seed.DefaultWorkspaceID) // the token's workspace, from the response
	require.Equal(t, want, got)

	require.Equal(t, []string{traceparent(ex)}, traceparents(e.Server, tokenPath), "the exchange carried its span's traceparent")
	require.Equal(t, []string{traceparent(call)}, traceparents(e.Server, "/v1/models"))

	secrets := e.secrets()
	for _, tok := range bearer.distinct() {
		secrets = append(secrets, strings.TrimPrefix(tok, "Bearer "))
	}
	requireNoSecret(t, rec.Ended(), secrets)
}

// TestDeviceAttestationExchangeSpans: both requests of a device exchange
// are children of the Messages call, each with its traceparent.
func TestDeviceAttestationExchangeSpans(t *testing.T) {
	e := newDevEnv(t)
	rec := newSpanRecorder(t)
	att := newRecordingAttestor(appID)
	c := client(t, e.URL, deviceAttestation(t, e.config(att, nil)), option.WithTracerProvider(rec.tp))
	require.NoError(t, sayHello(c))

	call := rec.one(t, "vendor.messages.create")
	for _, path := range []string{challengePath, tokenPath} {
		name := map[string]string{challengePath: challengeSpan, tokenPath: tokenSpan}[path]
		s := rec.one(t, name)
		requireChildOf(t, s, call)
		require.Equal(t, codes.Ok, s.Status().Code, name)
		got := spantest.Attrs(s)
		want := requestAttrs(t, e.URL, path)
		want[attr.HTTPResponseStatus] = attribute.IntValue(200)
		want[attr.RequestID] = got[attr.RequestID]
		want[attr.OrganizationID] = attribute.StringValue(e.Seed.OrganizationID)
		if path == tokenPath {
			want[attr.WorkspaceID] = attribute.StringValue(e.Seed.DefaultWorkspaceID)
		}
		require.Equal(t, want, got, name)
		require.Equal(t, []string{traceparent(s)}, traceparents(e.Server, path), name)
	}
	requireNoSecret(t, rec.Ended(), att.Proofs())
}

// TestFailedExchangeSpans: a failed exchange's span is ERROR with the
// error.type of the failure: the error type the server answered, timeout,
// or connection_error; the status code is that of the last response, and
// absent when there was none.
func TestFailedExchangeSpans(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(e *fedEnv, cfg *auth.FederationConfig)
		errType string
		status  int
	}{
		{"denied JWT", func(e *fedEnv, cfg *auth.FederationConfig) {
			jwt := e.unsigned()
			cfg.IdentityToken = func(context.Context) (string, error) { return jwt, nil }
		}, "authentication_error", 401},
		{"rate limited", func(e *fedEnv, cfg *auth.FederationConfig) {
			e.Server.InjectFault(refserver.Fault{Path: tokenPath, Status: 429, Header: http.Header{"X-Should-Retry": {"false"}}})
		}, "rate_limit_error", 429},
		{"dropped connection", func(e *fedEnv, cfg *auth.FederationConfig) {
			cfg.MaxRetries = -1
			e.Server.InjectFault(refserver.Fault{Path: tokenPath, Drop: true})
		}, "connection_error", 0},
		{"timeout", func(e *fedEnv, cfg *auth.FederationConfig) {
			cfg.ExchangeTimeout = 20 * time.Millisecond
			e.Server.InjectFault(refserver.Fault{Path: tokenPath, Delay: time.Hour})
		}, "timeout", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newFedEnv(t)
			rec := newSpanRecorder(t)
			cfg := e.config(t)
			tc.edit(e, &cfg)
			c := client(t, e.URL, federation(t, cfg), option.WithTracerProvider(rec.tp))
			err := listModels(c)
			var xe *auth.ExchangeError
			require.ErrorAs(t, err, &xe)

			ex := rec.one(t, tokenSpan)
			requireChildOf(t, ex, rec.one(t, "vendor.models.list"))
			require.Equal(t, codes.Error, ex.Status().Code)
			got := spantest.Attrs(ex)
			require.Equal(t, tc.errType, got[attr.ErrorType].AsString())
			if tc.status == 0 {
				require.NotContains(t, got, attr.HTTPResponseStatus)
				require.NotContains(t, got, attr.RequestID)
			} else {
				require.Equal(t, int64(tc.status), got[attr.HTTPResponseStatus].AsInt64())
				require.Equal(t, xe.RequestID, got[attr.RequestID].AsString())
			}
			require.NotContains(t, got, attr.HTTPRequestResends)
			requireNoSecret(t, rec.Ended(), e.secrets())
		})
	}
}

// TestRetriedExchangeIsOneSpan: like an API call's span, one span covers an
// exchange request and its retries, with http.request.resend_count and the
// last attempt's status.
func TestRetriedExchangeIsOneSpan(t *testing.T) {
	t.Run("recovered", func(t *testing.T) {
		e := newFedEnv(t)
		rec := newSpanRecorder(t)
		c := client(t, e.URL, federation(t, e.config(t)), option.WithTracerProvider(rec.tp))
		e.Server.InjectFault(refserver.Fault{Path: tokenPath, Status: 503, Times: 2})
		require.NoError(t, listModels(c))
		got := spantest.Attrs(rec.one(t, tokenSpan))
		require.Equal(t, int64(2), got[attr.HTTPRequestResends].AsInt64())
		require.Equal(t, int64(200), got[attr.HTTPResponseStatus].AsInt64())
		require.NotContains(t, got, attr.ErrorType)
		require.Equal(t, codes.Ok, rec.one(t, tokenSpan).Status().Code)
		require.Equal(t, 3, e.Count("POST", tokenPath))
	})
	t.Run("gave up", func(t *testing.T) {
		e := newFedEnv(t)
		rec := newSpanRecorder(t)
		c := client(t, e.URL, federation(t, e.config(t)), option.WithTracerProvider(rec.tp))
		e.Server.InjectFault(refserver.Fault{Path: tokenPath, Status: 500, Times: 10})
		require.Error(t, listModels(c))
		ex := rec.one(t, tokenSpan)
		got := spantest.Attrs(ex)
		require.Equal(t, int64(3), got[attr.HTTPRequestResends].AsInt64())
		require.Equal(t, int64(500), got[attr.HTTPResponseStatus].AsInt64())
		require.Equal(t, "api_error", got[attr.ErrorType].AsString())
		require.Equal(t, codes.Error, ex.Status().Code)
	})
	t.Run("device challenge", func(t *testing.T) {
		e := newDevEnv(t)
		rec := newSpanRecorder(t)
		c := client(t, e.URL, deviceAttestation(t, e.config(authtest.NewAttestor(appID), nil)), option.WithTracerProvider(rec.tp))
		e.Server.InjectFault(refserver.Fault{Path: challengePath, Status: 502, Times: 1})
		require.NoError(t, sayHello(c))
		require.Equal(t, int64(1), spantest.Attrs(rec.one(t, challengeSpan))[attr.HTTPRequestResends].AsInt64())
		require.NotContains(t, spantest.Attrs(rec.one(t, tokenSpan)), attr.HTTPRequestResends)
		require.Len(t, traceparents(e.Server, challengePath), 2)
		for _, tp := range traceparents(e.Server, challengePath) {
			require.Equal(t, traceparent(rec.one(t, challengeSpan)), tp, "a resend carries its span's traceparent")
		}
	})
}

// TestExchangeTracerProviderOverrides: a TracerProvider in the config
// records the exchange spans, still children of the call's span, which the
// client's provider records.
func TestExchangeTracerProviderOverrides(t *testing.T) {
	e := newFedEnv(t)
	clientRec, authRec := newSpanRecorder(t), newSpanRecorder(t)
	cfg := e.config(t)
	cfg.TracerProvider = authRec.tp
	c := client(t, e.URL, federation(t, cfg), option.WithTracerProvider(clientRec.tp))
	require.NoError(t, listModels(c))

	require.Empty(t, clientRec.named(tokenSpan))
	requireChildOf(t, authRec.one(t, tokenSpan), clientRec.one(t, "vendor.models.list"))
	require.Len(t, authRec.Ended(), 1)
}

// TestBackgroundRefreshSpanHasTheNoticingCallAsParent: an advisory refresh
// runs after the call that started it has returned, and is still its child.
func TestBackgroundRefreshSpanHasTheNoticingCallAsParent(t *testing.T) {
	e := newFedEnv(t)
	rec := newSpanRecorder(t)
	creds := federation(t, e.config(t))
	c := client(t, e.URL, creds, option.WithTracerProvider(rec.tp))
	require.NoError(t, listModels(c))

	e.clock.Advance(time.Hour - 100*time.Second) // advisory window
	require.NoError(t, listModels(c))
	auth.WaitIdle(creds)
	calls, exchanges := rec.named("vendor.models.list"), rec.named(tokenSpan)
	require.Len(t, calls, 2)
	require.Len(t, exchanges, 2)
	requireChildOf(t, exchanges[1], calls[1])
	require.Equal(t, codes.Ok, exchanges[1].Status().Code)
	require.Equal(t, traceparent(exchanges[1]), traceparents(e.Server, tokenPath)[1])
}

// TestUntracedExchangeSendsNoTraceparent: with nothing recording and no
// trace to continue, the exchange works and carries no traceparent.
func TestUntracedExchangeSendsNoTraceparent(t *testing.T) {
	e := newFedEnv(t)
	c := client(t, e.URL, federation(t, e.config(t)))
	require.NoError(t, listModels(c))
	require.Equal(t, []string{""}, traceparents(e.Server, tokenPath))
}

// TestExchangeSpansMatchThePipelines: the names and attribute keys of the
// exchange spans are those the client's pipeline gives a request to the
// same route, here a POST that the server refuses with 400.
func TestExchangeSpansMatchThePipelines(t *testing.T) {
	e := newDevEnv(t)
	pipeRec, authRec := newSpanRecorder(t), newSpanRecorder(t)
	p, err := pipeline.New([]option.Option{func(c *pipeline.Config) error {
		c.Credentials = auth.APIKey(e.Seed.APIKey)
		c.TracerProvider = pipeRec.tp
		c.MaxRetries = 0
		return c.SetBaseURL(e.URL)
	}})
	require.NoError(t, err)
	defer p.Close()

	cfg := e.config(authtest.NewAttestor(appID), nil)
	cfg.TracerProvider = authRec.tp
	creds := deviceAttestation(t, cfg)
	for _, tc := range []struct{ path, name string }{{challengePath, challengeSpan}, {tokenPath, tokenSpan}} {
		_, err := pipeline.Do[map[string]any](ctx, p, pipeline.NewRequest("POST", tc.path), nil)
		require.ErrorIs(t, err, apierror.ErrInvalidRequest)
		piped := pipeRec.one(t, tc.name)

		e.Server.InjectFault(refserver.Fault{Path: tc.path, Status: 400, Message: "content-type: must be application/json"})
		req, _ := http.NewRequest("POST", e.URL+"/v1/messages", nil)
		require.ErrorIs(t, creds.Authorize(ctx, req), apierror.ErrInvalidRequest)
		spans := authRec.named(tc.name)
		require.NotEmpty(t, spans)
		exchanged := spans[len(spans)-1]

		require.ElementsMatch(t, attrKeys(piped), attrKeys(exchanged), tc.name)
		require.Equal(t, piped.Status(), exchanged.Status(), tc.name)
		require.Equal(t, piped.SpanKind(), exchanged.SpanKind(), tc.name)
		require.Equal(t, piped.InstrumentationScope(), exchanged.InstrumentationScope(), tc.name)
	}
}
