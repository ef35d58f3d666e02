package selfhosted_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// selfHosted is a reference server with a self-hosted environment, its
// key, and an agent with the agent toolset.
type selfHosted struct {
	srv     *platformtest.Server
	client  *agentplatform.Client
	envID   string
	key     string
	agentID string
}

func newSelfHosted(t *testing.T, opts ...platformtest.Option) *selfHosted {
	t.Helper()
	srv, client := platformtest.New(t, opts...)
	ctx := t.Context()
	env, err := client.Environments.Create(ctx, environments.CreateParams{
		Name: "fleet", Config: environments.SelfHostedConfig{}})
	require.NoError(t, err)
	key, err := srv.EnvironmentKey(env.ID)
	require.NoError(t, err)
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "sandbox user", Model: agents.ModelID(models.VendorHaiku55),
		Tools: []agents.Tool{agents.AgentToolset{}}})
	require.NoError(t, err)
	return &selfHosted{srv: srv, client: client, envID: env.ID, key: key, agentID: agent.ID}
}

func (e *selfHosted) newSession(t *testing.T) string {
	t.Helper()
	s, err := e.client.Sessions.Create(t.Context(), sessions.CreateParams{
		Agent: agents.AgentID(e.agentID), EnvironmentID: e.envID})
	require.NoError(t, err)
	return s.ID
}

func (e *selfHosted) send(t *testing.T, sessionID, text string) {
	t.Helper()
	_, err := e.client.Sessions.Events.Send(t.Context(), sessionID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage(text)}})
	require.NoError(t, err)
}

// requireAnsweredOnce checks a session's history: calls sandbox tool
// calls, each answered by exactly one user.tool_result that is not an
// error.
func (e *selfHosted) requireAnsweredOnce(t *testing.T, sessionID string, calls int) {
	t.Helper()
	uses := map[string]bool{}
	answers := map[string]int{}
	for ev, err := range e.client.Sessions.Events.All(t.Context(), sessionID, sessions.EventListParams{}) {
		require.NoError(t, err)
		switch ev := ev.(type) {
		case *sessions.AgentToolUseEvent:
			uses[ev.ID] = true
		case *sessions.ToolResultEvent:
			answers[ev.ToolUseID]++
			require.False(t, ev.IsError, "%s: call %s: %s", sessionID, ev.ToolUseID, sessions.Text(ev.Content))
		}
	}
	require.Len(t, uses, calls, sessionID)
	for id := range uses {
		require.Equal(t, 1, answers[id], "%s: answers to %s", sessionID, id)
	}
	require.Len(t, answers, calls, sessionID)
}

// logHistory logs the types of a session's events, to tell why it did not
// finish.
func (e *selfHosted) logHistory(t *testing.T, sessionID string) {
	t.Helper()
	var types []string
	for ev, err := range e.client.Sessions.Events.All(context.Background(), sessionID, sessions.EventListParams{}) {
		if err != nil {
			t.Logf("%s: history: %v", sessionID, err)
			return
		}
		types = append(types, string(ev.Type()))
	}
	t.Logf("%s: %s", sessionID, strings.Join(types, " "))
}

// claimedSessions is the sessions whose work item is held by a worker
// (starting or active), read with the environment key.
func (e *selfHosted) claimedSessions(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for wk, err := range e.client.Environments.Work.All(context.Background(), e.envID, environments.WorkListParams{Limit: 100}, option.WithAPIKey(e.key)) {
		require.NoError(t, err)
		if wk.State == environments.WorkStarting || wk.State == environments.WorkActive {
			out[wk.Data.ID] = true
		}
	}
	return out
}
