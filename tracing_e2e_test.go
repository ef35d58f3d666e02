package agentplatform_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

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
// request started a child of the API's request span (SPEC 6.3).
func TestOneTraceFromSDKToAPI(t *testing.T) {
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
	rec.Reset()
	api.Reset()

	_, err = client.Sessions.Events.Send(ctx, s.ID, sessions.SendParams{Events: []sessions.EventParam{sessions.UserMessage("hi")}})
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
