package sessions_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/option"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/vaults"
)

// A session's vault_ids name usable vaults of its workspace
// (docs/vaults-wire.md 5): an unknown, deleted or other workspace's vault
// is a 404 and an archived one a 400, each naming its index.
func TestVaultIDsNameUsableVaults(t *testing.T) {
	f := newFixture(t)
	ids := f.newVaults(t, 4)
	archived, deleted := ids[2], ids[3]
	_, err := f.client.Vaults.Archive(ctx, archived)
	require.NoError(t, err)
	require.NoError(t, f.client.Vaults.Delete(ctx, deleted))
	elsewhere := f.env.Server.CreateWorkspace("elsewhere")
	require.NoError(t, f.env.Server.GrantAPIAccess(f.env.Seed.UserID, elsewhere))
	other, err := f.env.Client(t, option.WithWorkspaceID(elsewhere)).Vaults.Create(ctx, vaults.CreateParams{DisplayName: "theirs"})
	require.NoError(t, err)

	create := func(vaultIDs ...string) error {
		p := f.params()
		p.VaultIDs = vaultIDs
		_, err := f.client.Sessions.Create(ctx, p)
		return err
	}
	reftest.RequireNotFound(t, create(ids[0], vaultID), "vault_ids[1]: Vault `"+vaultID+"` not found.")
	reftest.RequireNotFound(t, create(ids[0], ids[1], deleted), "vault_ids[2]: Vault `"+deleted+"` not found.")
	reftest.RequireNotFound(t, create(other.ID), "vault_ids[0]: Vault `"+other.ID+"` not found.")
	reftest.RequireInvalid(t, create(ids[1], archived), "vault_ids[1]: vault `"+archived+"` is archived")

	s, err := f.client.Sessions.Create(ctx, sessions.CreateParams{Agent: f.params().Agent, EnvironmentID: f.envID, VaultIDs: ids[:2]})
	require.NoError(t, err)
	require.Equal(t, ids[:2], s.VaultIDs)
}

// An MCP tool call of a session with vaults needs a credential of one of
// them for the server's url (docs/vaults-wire.md 6). With one, the call
// runs as in a session without vaults; without one, its result is an
// error, a retrying session.error names the server, the session is
// rescheduled and the turn goes on.
func TestMCPToolCallsUseTheSessionsVaults(t *testing.T) {
	f := newFixture(t)
	a := f.newAgent(t, agents.CreateParams{Name: "Support", Model: agents.ModelID(models.VendorHaiku55),
		Tools:      []agents.Tool{agents.MCPToolset{MCPServerName: "example-mcp", DefaultConfig: &agents.ToolDefaults{PermissionPolicy: agents.Policy(agents.PolicyAlwaysAllow)}}},
		MCPServers: []agents.MCPServer{{Name: "example-mcp", URL: "https://mcp.example.com/sse"}}})
	ids := f.newVaults(t, 2)
	_, err := f.client.Vaults.Credentials.Create(ctx, ids[0], vaults.CredentialCreateParams{
		Auth: vaults.StaticBearerParams{MCPServerURL: "https://other.example.com/sse", Token: "not-this-one"}})
	require.NoError(t, err)
	session := func(t *testing.T, vaultIDs ...string) (*sessions.Session, *tail) {
		s := f.newSession(t, sessions.CreateParams{Agent: agents.AgentID(a.ID), EnvironmentID: f.envID, VaultIDs: vaultIDs})
		tl := f.tail(t, s.ID, sessions.StreamParams{})
		f.script(t, s.ID, []refserver.Step{
			refserver.UseMCPTool("example-mcp", "create_issue", map[string]any{"title": "Flaky test"}, refserver.ToolOutput("Created issue #88", false)),
			refserver.Say("Done."),
		})
		f.send(t, s.ID, sessions.UserMessage("File it."))
		return s, tl
	}
	succeeds := func(t *testing.T, got []sessions.Event) {
		result := only[*sessions.AgentMCPToolResultEvent](t, got)
		require.False(t, result.IsError)
		require.Equal(t, "Created issue #88", sessions.Text(result.Content))
		require.Empty(t, all[*sessions.SessionErrorEvent](got))
		require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
	}

	t.Run("no vaults: the server is public", func(t *testing.T) {
		_, tl := session(t)
		succeeds(t, tl.untilIdle())
	})
	t.Run("no matching credential", func(t *testing.T) {
		_, tl := session(t, ids...)
		got := withoutPreviews(tl.untilIdle())
		use := only[*sessions.AgentMCPToolUseEvent](t, got)
		result := only[*sessions.AgentMCPToolResultEvent](t, got)
		require.Equal(t, use.ID, result.MCPToolUseID)
		require.True(t, result.IsError)
		require.Equal(t, "Authentication to MCP server `example-mcp` failed.", sessions.Text(result.Content))
		failure := only[*sessions.SessionErrorEvent](t, got)
		require.Equal(t, "mcp_authentication_failed_error", failure.Error.Type)
		require.Equal(t, sessions.MCPErrorDetails{MCPServerName: "example-mcp"}, failure.Error.Details)
		require.Equal(t, "No credential in the session's vaults matches MCP server `example-mcp`.", failure.Error.Message)
		require.IsType(t, sessions.RetryRetrying{}, failure.Error.RetryStatus)
		types := typesOf(got)
		i := slices.Index(types, string(sessions.EventSessionError))
		require.Equal(t, []string{"agent.mcp_tool_result", "session.error", "session.status_rescheduled", "session.status_running"}, types[i-1:i+3])
		require.Equal(t, "Done.", sessions.Text(only[*sessions.AgentMessageEvent](t, got).Content), "the turn goes on")
		require.Equal(t, sessions.StopEndTurn{}, idleReason(t, got))
	})
	t.Run("a credential of a later vault matches", func(t *testing.T) {
		_, err := f.client.Vaults.Credentials.Create(ctx, ids[1], vaults.CredentialCreateParams{
			Auth: vaults.StaticBearerParams{MCPServerURL: "https://mcp.example.com/sse", Token: "tok"}})
		require.NoError(t, err)
		_, tl := session(t, ids...)
		succeeds(t, tl.untilIdle())
	})
}
