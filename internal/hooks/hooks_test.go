package hooks_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/deployments"
	"github.com/agentplatform/agentplatform-go/internal/hooks"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// TestEveryHookIsSet: importing the owners (agents, sessions) sets every
// hook; a nil one would panic in a borrower's validation.
func TestEveryHookIsSet(t *testing.T) {
	require.NotNil(t, hooks.AgentRef, "agents sets AgentRef")
	require.NotNil(t, hooks.AgentToolLists, "agents sets AgentToolLists")
	require.NotNil(t, hooks.SessionEvents, "sessions sets SessionEvents")
	require.NotNil(t, hooks.SessionResources, "sessions sets SessionResources")
	require.NotNil(t, hooks.AgentUnions, "agents sets AgentUnions")
}

func TestAsPanicsOnTheWrongType(t *testing.T) {
	require.Nil(t, hooks.As[agents.AgentRef]("AgentRef", nil))
	require.Equal(t, agents.AgentID("a"), hooks.As[agents.AgentRef]("AgentRef", agents.AgentID("a")))
	require.PanicsWithValue(t, "hooks: AgentRef given a int, want a agents.AgentRef", func() { hooks.As[agents.AgentRef]("AgentRef", 1) })
}

// TestBorrowedRulesRefuseLocally drives each hook through a borrower's
// public API: the request is refused before it is sent (the server sees
// nothing), and the error names the field.
func TestBorrowedRulesRefuseLocally(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	longID := agents.AgentID(string(make([]byte, 129)))

	cases := []struct {
		name, field string
		call        func() error
	}{
		{"session agent reference", "agent", func() error {
			_, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: longID, EnvironmentID: "env_1"})
			return err
		}},
		{"session agent tools", "agent.tools[0].mcp_server_name", func() error {
			_, err := client.Sessions.Create(ctx, sessions.CreateParams{EnvironmentID: "env_1", Agent: sessions.AgentWithOverrides{
				AgentReference: agents.AgentReference{ID: "agent_1"},
				Tools:          []agents.Tool{agents.MCPToolset{}},
			}})
			return err
		}},
		{"deployment agent reference", "agent.version", func() error {
			_, err := client.Deployments.Create(ctx, deployments.CreateParams{
				Agent: agents.AgentReference{ID: "agent_1", Version: -1}, EnvironmentID: "env_1", Name: "d",
				InitialEvents: []sessions.EventParam{sessions.UserMessage("hi")},
			})
			return err
		}},
		{"deployment events", "initial_events[0]", func() error {
			_, err := client.Deployments.Create(ctx, deployments.CreateParams{
				Agent: agents.AgentID("agent_1"), EnvironmentID: "env_1", Name: "d",
				InitialEvents: []sessions.EventParam{sessions.UserMessageParam{}},
			})
			return err
		}},
		{"deployment resources", "resources[0].file_id", func() error {
			_, err := client.Deployments.Create(ctx, deployments.CreateParams{
				Agent: agents.AgentID("agent_1"), EnvironmentID: "env_1", Name: "d",
				InitialEvents: []sessions.EventParam{sessions.UserMessage("hi")},
				Resources:     []sessions.ResourceParam{sessions.FileResourceParam{FileID: "x"}},
			})
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v *apierror.ValidationError
			require.ErrorAs(t, tc.call(), &v)
			require.Contains(t, v.Field, tc.field)
		})
	}
	require.Empty(t, env.Server.Requests(), "nothing was sent")
}
