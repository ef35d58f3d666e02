package agentplatform_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/auth"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/attr"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/internal/spantest"
	"github.com/agentplatform/agentplatform-go/messages"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
)

// recorder returns a tracer provider that keeps every ended span.
func recorder(t *testing.T) (*sdktrace.TracerProvider, *tracetest.SpanRecorder) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp, rec
}

func onlySpan(t *testing.T, rec *tracetest.SpanRecorder) sdktrace.ReadOnlySpan {
	t.Helper()
	spans := rec.Ended()
	require.Len(t, spans, 1)
	return spans[0]
}

func TestClientSpanOfACall(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	client := env.Client(t, option.WithTracerProvider(tp))
	var resp *http.Response
	_, err := client.Models.Get(context.Background(), models.VendorOpus55, option.WithResponseInto(&resp))
	require.NoError(t, err)

	span := onlySpan(t, rec)
	require.Equal(t, "vendor.models.retrieve", span.Name())
	require.Equal(t, trace.SpanKindClient, span.SpanKind())
	require.Equal(t, attr.SDKScope, span.InstrumentationScope().Name)
	require.Equal(t, codes.Ok, span.Status().Code)
	a := spantest.Attrs(span)
	require.Equal(t, "vendor", a[attr.GenAIProviderName].AsString())
	require.Equal(t, "GET", a[attr.HTTPRequestMethod].AsString())
	require.Equal(t, "/v1/models/{model_id}", a[attr.HTTPRoute].AsString(), "the template, not the path")
	require.Equal(t, "/v1/models/vendor-opus-5-5", a[attr.URLPath].AsString())
	require.Equal(t, attribute.INT64, a[attr.HTTPResponseStatus].Type())
	require.EqualValues(t, 200, a[attr.HTTPResponseStatus].AsInt64())
	require.Equal(t, attribute.INT64, a[attr.ServerPort].Type())
	require.Equal(t, "127.0.0.1", a[attr.ServerAddress].AsString())
	require.Equal(t, "http", a[attr.URLScheme].AsString())
	require.Equal(t, env.URL+"/v1/models/vendor-opus-5-5", a[attr.URLFull].AsString())
	require.NotContains(t, a, attr.URLQuery, "no query parameters: absent")
	require.Equal(t, resp.Header.Get("request-id"), a[attr.RequestID].AsString())
	require.Equal(t, env.Seed.OrganizationID, a[attr.OrganizationID].AsString())
	require.Equal(t, env.Seed.DefaultWorkspaceID, a[attr.WorkspaceID].AsString())
	require.NotContains(t, a, attr.SessionID)
	require.NotContains(t, a, attr.HTTPRequestResends)

	rec.Reset()
	_, err = client.Models.List(context.Background(), models.ListParams{Limit: 2})
	require.NoError(t, err)
	a = spantest.Attrs(onlySpan(t, rec))
	require.Equal(t, "limit=2", a[attr.URLQuery].AsString())
	require.Equal(t, env.URL+"/v1/models?limit=2", a[attr.URLFull].AsString())
}

func TestOneSpanCoversRetries(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 503, Times: 2})
	_, err := env.Client(t, option.WithTracerProvider(tp)).Models.List(context.Background(), models.ListParams{})
	require.NoError(t, err)
	a := spantest.Attrs(onlySpan(t, rec))
	require.EqualValues(t, 2, a[attr.HTTPRequestResends].AsInt64())
	require.EqualValues(t, 200, a[attr.HTTPResponseStatus].AsInt64())
}

// TestStreamClosedEarlyKeepsItsResendCount: a stream whose connection was
// retried and which the application then closed before its end keeps the
// retries on its (unset) span.
func TestStreamClosedEarlyKeepsItsResendCount(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	client := env.Client(t, option.WithTracerProvider(tp))
	ctx := context.Background()
	prompt := messages.MessageParams{Model: models.VendorSonnet55, MaxTokens: 64,
		Messages: []messages.MessageParam{messages.UserText("Hello")}}
	env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: "/v1/messages", Status: 529})
	ms, err := client.Messages.Stream(ctx, prompt)
	require.NoError(t, err)
	require.NoError(t, ms.Close())
	sp := onlySpan(t, rec)
	require.Equal(t, codes.Unset, sp.Status().Code)
	require.EqualValues(t, 1, spantest.Attrs(sp)[attr.HTTPRequestResends].AsInt64())
}

func TestSpanStatusOnFailureAndCancellation(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	client := env.Client(t, option.WithTracerProvider(tp), option.WithMaxRetries(0))

	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 429})
	_, err := client.Models.List(context.Background(), models.ListParams{})
	require.Error(t, err)
	span := onlySpan(t, rec)
	require.Equal(t, codes.Error, span.Status().Code)
	require.Equal(t, "rate_limit_error", spantest.Attrs(span)[attr.ErrorType].AsString())
	require.EqualValues(t, 429, spantest.Attrs(span)[attr.HTTPResponseStatus].AsInt64())

	rec.Reset()
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Drop: true})
	_, err = client.Models.List(context.Background(), models.ListParams{}, reftest.FreshConnections())
	require.Error(t, err)
	span = onlySpan(t, rec)
	require.Equal(t, codes.Error, span.Status().Code)
	require.Equal(t, "connection_error", spantest.Attrs(span)[attr.ErrorType].AsString())
	require.NotContains(t, spantest.Attrs(span), attr.HTTPResponseStatus, "no response: absent")

	rec.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Delay: time.Hour})
	reftest.When(t, env.FaultsTaken(t), func() error { cancel(); return nil }) // the request is at the server
	_, err = client.Models.List(ctx, models.ListParams{})
	require.ErrorIs(t, err, context.Canceled)
	span = onlySpan(t, rec)
	require.Equal(t, codes.Unset, span.Status().Code, "the application cancelled")
	require.NotContains(t, spantest.Attrs(span), attr.ErrorType)

	rec.Reset()
	_, err = client.Environments.Create(context.Background(), environments.CreateParams{})
	require.Error(t, err)
	require.Empty(t, rec.Ended(), "a call refused locally sends nothing and has no span")
}

func TestTraceparentIsAlwaysPropagated(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, _ := recorder(t)
	client := env.Client(t, option.WithTracerProvider(tp))
	_, err := client.Models.List(context.Background(), models.ListParams{})
	require.NoError(t, err)
	got := last(t, env, "GET", modelsPath).Header.Get("traceparent")
	require.Regexp(t, `^00-[0-9a-f]{32}-[0-9a-f]{16}-01$`, got, "W3C trace context without any global propagator")

	// A noop provider still passes on the application's own trace context.
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
	ctx := trace.ContextWithSpanContext(context.Background(), parent)
	_, err = env.Client(t, option.WithTracerProvider(noop.NewTracerProvider())).Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	require.Equal(t, "00-01000000000000000000000000000000-0200000000000000-01",
		last(t, env, "GET", modelsPath).Header.Get("traceparent"))

	// With no trace at all, nothing is sent.
	_, err = env.Client(t, option.WithTracerProvider(noop.NewTracerProvider())).Models.List(context.Background(), models.ListParams{})
	require.NoError(t, err)
	require.Empty(t, last(t, env, "GET", modelsPath).Header.Values("traceparent"))
}

func TestPerCallTracerProviderAndConversationID(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	clientTP, clientRec := recorder(t)
	callTP, callRec := recorder(t)
	client := env.Client(t, option.WithTracerProvider(clientTP))
	_, err := client.Models.List(context.Background(), models.ListParams{},
		option.WithTracerProvider(callTP), option.WithConversationID("conv-42"))
	require.NoError(t, err)
	require.Empty(t, clientRec.Ended())
	require.Equal(t, "conv-42", spantest.Attrs(onlySpan(t, callRec))[attr.GenAIConversationID].AsString())
}

func TestNoSecretReachesASpan(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	const canary = "sk-vendor-api03-CANARY-span"
	tp, rec := recorder(t)
	key, err := env.Server.CreateAPIKey(refserver.KeySpec{Kind: refserver.PersonalKey, OwnerID: env.Seed.UserID})
	require.NoError(t, err)
	client := env.Client(t, option.WithTracerProvider(tp))
	_, _ = client.Models.List(context.Background(), models.ListParams{}, option.WithAPIKey(canary))
	_, _ = client.Models.List(context.Background(), models.ListParams{}, option.WithAPIKey(key.Secret))
	require.Len(t, rec.Ended(), 2)
	for _, s := range rec.Ended() {
		for _, kv := range s.Attributes() {
			require.NotContains(t, kv.Value.String(), canary)
			require.NotContains(t, kv.Value.String(), key.Secret)
		}
	}
}

// spanNamed returns the one ended span called name (token exchanges may
// record spans of their own next to the call's).
func spanNamed(t *testing.T, rec *tracetest.SpanRecorder, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == name {
			found = append(found, s)
		}
	}
	require.Len(t, found, 1, name)
	return found[0]
}

// TestResendCountIncludesThe401Resend: the request sent once more after a
// 401 made the credentials drop their token is a resend like a retry.
func TestResendCountIncludesThe401Resend(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	ctx := context.Background()

	creds := &rotatingCredentials{tokens: []string{"sk-vendor-api03-stale", env.Seed.APIKey}}
	_, err := env.Client(t, option.WithTracerProvider(tp), option.WithCredentials(creds)).Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	a := spantest.Attrs(spanNamed(t, rec, "vendor.models.list"))
	require.EqualValues(t, 1, a[attr.HTTPRequestResends].AsInt64())
	require.EqualValues(t, 200, a[attr.HTTPResponseStatus].AsInt64())

	// A retry in the first round, then the 401, then the resend: two.
	rec.Reset()
	env.Server.ResetRequests()
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: 503})
	creds = &rotatingCredentials{tokens: []string{"sk-vendor-api03-stale", env.Seed.APIKey}}
	_, err = env.Client(t, option.WithTracerProvider(tp), option.WithCredentials(creds)).Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	require.Equal(t, 3, env.Count("GET", modelsPath))
	require.EqualValues(t, 2, spantest.Attrs(spanNamed(t, rec, "vendor.models.list"))[attr.HTTPRequestResends].AsInt64())
}

// failingCredentials cannot produce a token.
type failingCredentials struct{}

func (failingCredentials) Authorize(context.Context, *http.Request) error {
	return errors.New("no token available")
}

// TestCredentialFailuresOnTheSpan: when the credentials cannot authorize a
// call, error.type says why (the token endpoint's error type, else
// credentials_error), and only the last attempt's response is recorded: a
// re-exchange that fails after a 401 leaves no status code on the span.
func TestCredentialFailuresOnTheSpan(t *testing.T) {
	noEnv(t)
	env := reftest.New(t)
	tp, rec := recorder(t)
	ctx := context.Background()
	const tokenPath = "/v1/oauth/token"
	client := newTestClient(t, option.WithBaseURL(env.URL), option.WithCredentials(newFederation(t, env)),
		option.WithTracerProvider(tp), option.WithMaxRetryWait(reftest.FastRetryWait))

	// The first exchange is refused.
	env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: tokenPath, Status: http.StatusTooManyRequests})
	_, err := client.Models.List(ctx, models.ListParams{})
	var xe *auth.ExchangeError
	require.ErrorAs(t, err, &xe)
	require.Equal(t, apierror.TypeRateLimit, xe.Type)
	sp := spanNamed(t, rec, "vendor.models.list")
	require.Equal(t, codes.Error, sp.Status().Code)
	require.Equal(t, "rate_limit_error", spantest.Attrs(sp)[attr.ErrorType].AsString())
	require.NotContains(t, spantest.Attrs(sp), attr.HTTPResponseStatus, "nothing was sent")

	// A token, then a 401 and a re-exchange that fails.
	_, err = client.Models.List(ctx, models.ListParams{})
	require.NoError(t, err)
	rec.Reset()
	env.Server.InjectFault(refserver.Fault{Path: modelsPath, Status: http.StatusUnauthorized})
	env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: tokenPath, Status: 529})
	_, err = client.Models.List(ctx, models.ListParams{})
	require.ErrorAs(t, err, &xe)
	require.Equal(t, apierror.TypeOverloaded, xe.Type)
	sp = spanNamed(t, rec, "vendor.models.list")
	a := spantest.Attrs(sp)
	require.Equal(t, "overloaded_error", a[attr.ErrorType].AsString())
	require.NotContains(t, a, attr.HTTPResponseStatus, "the last attempt got no response")
	require.NotContains(t, a, attr.RequestID)
	require.NotContains(t, a, attr.HTTPRequestResends, "the resend was never sent")

	// Credentials that fail on their own.
	rec.Reset()
	_, err = client.Models.List(ctx, models.ListParams{}, option.WithCredentials(failingCredentials{}))
	require.ErrorContains(t, err, "no token available")
	require.Equal(t, "credentials_error", spantest.Attrs(spanNamed(t, rec, "vendor.models.list"))[attr.ErrorType].AsString())
}
