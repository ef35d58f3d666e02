package agentplatform_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestOneTraceFromSDKToAPI: the SDK's CLIENT span and the API's spans form
// one trace, the API's request span a child of the SDK's, and the turn the
// request started a child of the API's request span.
func TestOneTraceFromSDKToAPI(t *testing.T) {
	_, client, rec, api, s := tracedSession(t)
	ctx := context.Background()
	rec.Reset()
	api.Reset()

	_, err := client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("hi")}})
	require.NoError(t, err)

	sdk := onlySpan(t, rec)
	require.Equal(t, "vendor.sessions.events.send", sdk.Name())
	byName := map[string]tracetest.SpanStub{}
	for _, sp := range api.GetSpans() {
		byName[sp.Name] = sp
	}
	server, ok := byName["vendor.sessions.events.send"]
	require.True(t, ok, "the API's request span")
	require.Equal(t, trace.SpanKindServer, server.SpanKind)
	require.Equal(t, sdk.SpanContext().TraceID(), server.SpanContext.TraceID(), "one trace")
	require.Equal(t, sdk.SpanContext().SpanID(), server.Parent.SpanID(), "the API span is the SDK span's child")

	turn, ok := byName["vendor.session.turn"]
	require.True(t, ok, "the turn the request started")
	require.Equal(t, trace.SpanKindInternal, turn.SpanKind)
	require.Equal(t, server.SpanContext.SpanID(), turn.Parent.SpanID())
	modelRequest, ok := byName["vendor.model_request"]
	require.True(t, ok)
	require.Equal(t, turn.SpanContext.SpanID(), modelRequest.Parent.SpanID())
	for _, sp := range api.GetSpans() {
		require.Equal(t, sdk.SpanContext().TraceID(), sp.SpanContext.TraceID(), "%s joins the trace", sp.Name)
	}
}

// TestOneTraceForAReconnectedStream: a session stream cut once and
// reconnected, opened under a context without a span, is one trace from
// the SDK to the API: the API's spans of the reconnection's requests
// (the session check, the new connection, the history read) are in the
// stream span's trace.
func TestOneTraceForAReconnectedStream(t *testing.T) {
	env, client, rec, api, s := tracedSession(t)
	ctx := context.Background()
	env.Server.InjectFault(refserver.Fault{Path: "/v1/sessions/" + s.ID + "/events/stream", StreamCutAfter: 1})
	st, err := client.Sessions.Events.Stream(ctx, s.ID, sessions.StreamParams{})
	require.NoError(t, err)
	defer st.Close()
	rec.Reset() // the page of history read before the stream opened
	api.Reset()
	_, err = client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("hi")}})
	require.NoError(t, err)
	for ev, err := range st.Events() {
		require.NoError(t, err)
		if ev.Type() == sessions.EventSessionStatusIdle {
			break
		}
	}
	require.NoError(t, st.Close())

	var stream sdktrace.ReadOnlySpan
	for _, sp := range rec.Ended() {
		if sp.Name() == "vendor.sessions.events.stream" && !sp.Parent().IsValid() {
			stream = sp
		}
	}
	require.NotNil(t, stream, "the stream's span, a root")
	// The API ends a request's span as its handler returns, which for a
	// stream is after the client let it go: wait for them.
	served := func() map[string]int {
		out := map[string]int{}
		for _, sp := range api.GetSpans() {
			if sp.SpanKind == trace.SpanKindServer && sp.SpanContext.TraceID() == stream.SpanContext().TraceID() {
				out[sp.Name]++
			}
		}
		return out
	}
	require.Eventually(t, func() bool {
		got := served()
		return got["vendor.sessions.retrieve"] == 1 && // the session check
			got["vendor.sessions.events.stream"] == 2 && // the first connection and the new one
			got["vendor.sessions.events.list"] > 0 // the history read
	}, time.Minute, time.Millisecond, "the API's spans of the stream's trace")
}

// tracedSession returns a reference server that exports its spans to api,
// a client whose spans rec records, and a session of a new agent in a new
// environment.
func tracedSession(t *testing.T) (*reftest.Env, *agentplatform.Client, *tracetest.SpanRecorder, *tracetest.InMemoryExporter, *sessions.Session) {
	t.Helper()
	noEnv(t)
	api := tracetest.NewInMemoryExporter()
	env := reftest.New(t, refserver.WithSpanExporter(api))
	tp, rec := recorder(t)
	client := env.Client(t, option.WithTracerProvider(tp))
	ctx := context.Background()
	e, err := client.Environments.Create(ctx, environments.CreateParams{Name: "e"})
	require.NoError(t, err)
	a, err := client.Agents.Create(ctx, agents.CreateParams{Name: "a", Model: agents.ModelID(models.VendorHaiku55)})
	require.NoError(t, err)
	s, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(a.ID), EnvironmentID: e.ID})
	require.NoError(t, err)
	return env, client, rec, api, s
}
