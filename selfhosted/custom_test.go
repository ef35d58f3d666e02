package selfhosted_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/selfhosted"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/tool"
	"github.com/agentplatform/agentplatform-go/toolrunner"
)

type deployInput struct {
	Service string `json:"service"`
}

// The application's custom tools run on the same worker as the sandbox
// tools, in the same session.
func TestWorkerRunsTheApplicationsCustomTools(t *testing.T) {
	env := newSelfHosted(t)
	sessionSeen := make(chan string, 1)
	deploy := tool.Must(tool.New("deploy", "Deploy a service.", func(ctx context.Context, in deployInput) (tool.Result, error) {
		sessionSeen <- toolrunner.SessionID(ctx)
		return tool.Text("deployed " + in.Service), nil
	}))
	agent, err := env.client.Agents.Create(t.Context(), agents.CreateParams{
		Name: "deployer", Model: agents.ModelID(models.VendorHaiku55),
		Tools: append([]agents.Tool{agents.AgentToolset{}}, agents.FromTools(deploy)...)})
	require.NoError(t, err)
	env.agentID = agent.ID
	rec := tracetest.NewSpanRecorder()
	w, err := selfhosted.New(env.client, env.envID, env.key, selfhosted.WithTools(deploy),
		selfhosted.WithIdleTimeout(time.Millisecond),
		selfhosted.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))))
	require.NoError(t, err)
	closeWorker := running(t, w)

	id := env.newSession(t)
	require.NoError(t, env.srv.ScriptSession(id, []platformtest.Step{
		platformtest.UseTool("bash", map[string]any{"command": "echo built"}),
		platformtest.UseCustomTool("deploy", map[string]any{"service": "api"}),
		platformtest.Say("shipped"),
	}))
	env.turn(t, id, "ship it")
	env.requireAnsweredOnce(t, id, 1)
	var custom []string
	for ev, err := range env.client.Sessions.Events.All(t.Context(), id, sessions.EventListParams{}) {
		require.NoError(t, err)
		if r, ok := ev.(*sessions.CustomToolResultEvent); ok {
			custom = append(custom, sessions.Text(r.Content))
		}
	}
	require.Equal(t, []string{"deployed api"}, custom)
	require.Equal(t, id, <-sessionSeen)

	// No span holds the environment key.
	require.NoError(t, closeWorker(context.Background()))
	for _, s := range rec.Ended() {
		for _, kv := range s.Attributes() {
			require.NotContains(t, kv.Value.String(), env.key, "%s: %s", s.Name(), kv.Key)
		}
	}
}
