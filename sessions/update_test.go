package sessions_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/money"
	"github.com/agentplatform/agentplatform-go/param"
	"github.com/agentplatform/agentplatform-go/sessions"
)

func TestUpdateTitleAndMetadata(t *testing.T) {
	f := newFixture(t)
	p := f.params()
	p.Metadata = map[string]string{"a": "1", "b": "2", "keep": "k"}
	s := f.newSession(t, p)

	f.clock.Advance(time.Second)
	s, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{
		Title:    param.Value("Order #1234"),
		Metadata: map[string]*string{"a": new("1x"), "b": nil, "c": new("3")},
	})
	require.NoError(t, err)
	require.Equal(t, "Order #1234", s.Title)
	require.Equal(t, map[string]string{"a": "1x", "c": "3", "keep": "k"}, s.Metadata,
		"a string upserts, null deletes, keys not named are kept")
	require.Equal(t, start.Add(time.Second), s.UpdatedAt)
	require.Equal(t, start, s.CreatedAt)

	f.clock.Advance(time.Second)
	same, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Title: param.Value("Order #1234")})
	require.NoError(t, err)
	require.Equal(t, s.UpdatedAt, same.UpdatedAt, "updated_at moves only when something changed")
	require.Equal(t, s.Metadata, same.Metadata, "an omitted metadata keeps the map")

	cleared, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Title: param.Null[string]()})
	require.NoError(t, err)
	require.Empty(t, cleared.Title, "title: null clears it")
	require.Equal(t, "Order #1234", s.Title)

	// The 16-pair limit applies to the patched map, which only the server
	// knows.
	many := map[string]*string{}
	for k, v := range pairs(14) {
		many[k] = &v
	}
	_, err = f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Metadata: many})
	reftest.RequireInvalid(t, err, "metadata: must have at most 16 pairs")
}

func TestUpdateBudget(t *testing.T) {
	f := newFixture(t)
	p := f.params()
	p.Budget = &sessions.Budget{MaxListCost: money.USD(2500)}
	capped := f.newSession(t, p)

	raised, err := f.client.Sessions.Update(ctx, capped.ID, sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.USD(5000)))})
	require.NoError(t, err)
	require.Equal(t, &sessions.Budget{Type: sessions.BudgetLimit, MaxListCost: money.USD(5000)}, raised.Budget)

	kept, err := f.client.Sessions.Update(ctx, capped.ID, sessions.UpdateParams{Title: param.Value("t")})
	require.NoError(t, err)
	require.Equal(t, raised.Budget, kept.Budget, "an omitted budget is preserved")

	removed, err := f.client.Sessions.Update(ctx, capped.ID, sessions.UpdateParams{Budget: param.Null[sessions.Budget]()})
	require.NoError(t, err)
	require.Nil(t, removed.Budget, "budget: null removes it")

	_, err = f.client.Sessions.Update(ctx, capped.ID, sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.USD(100)))})
	reftest.RequireInvalid(t, err, "budget: budget_create_only")
	require.ErrorIs(t, err, sessions.ErrBudgetCreateOnly, "a removed budget cannot be re-added")
	require.NotErrorIs(t, err, sessions.ErrBudgetNotRaised)

	uncapped := f.newSession(t, f.params())
	_, err = f.client.Sessions.Update(ctx, uncapped.ID, sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.USD(100)))})
	reftest.RequireInvalid(t, err, "budget: budget_create_only: a budget can only be set when the session is created")
	require.ErrorIs(t, err, sessions.ErrBudgetCreateOnly)
	var reason sessions.BudgetRefusal
	require.ErrorAs(t, err, &reason)
	require.Equal(t, sessions.ErrBudgetCreateOnly, reason)

	_, err = f.client.Sessions.Update(ctx, uncapped.ID, sessions.UpdateParams{Title: param.Value("")})
	require.Error(t, err)
	require.NotErrorIs(t, err, sessions.ErrBudgetCreateOnly, "a local validation error is no refusal")
}

// TestBudgetNotRaised: a ceiling at or below the consumed cost is refused,
// with the reason errors.Is finds and the API's error errors.As finds.
func TestBudgetNotRaised(t *testing.T) {
	f := newFixture(t)
	p := f.params()
	p.Budget = &sessions.Budget{MaxListCost: money.USD(2500)}
	capped := f.newSession(t, p)
	tl := f.tail(t, capped.ID, sessions.StreamParams{})
	f.script(t, capped.ID, []refserver.Step{refserver.Say("Spent.", refserver.Tokens(100000, 10000))})
	f.send(t, capped.ID, sessions.UserMessage("Spend a little."))
	tl.untilIdle()
	s, err := f.client.Sessions.Get(ctx, capped.ID)
	require.NoError(t, err)
	require.NotEqual(t, "0", s.Usage.ListCost.Amount, "the turn cost something")

	// 1.5 cents were consumed (the session shows 2); a ceiling of 1 cent is
	// below it.
	_, err = f.client.Sessions.Update(ctx, capped.ID, sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.USD(1)))})
	require.ErrorIs(t, err, sessions.ErrBudgetNotRaised)
	require.NotErrorIs(t, err, sessions.ErrBudgetCreateOnly)
	var apiErr *apierror.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, 400, apiErr.StatusCode)
	require.Contains(t, apiErr.Message, "budget: budget_not_raised")
	require.Equal(t, apiErr.Error(), err.Error(), "it reads as the API's error")

	// The consumed cost as the session shows it, and 0, are at or below it
	// too: both are the API's refusal, not a local rule.
	for _, amount := range []string{s.Usage.ListCost.Amount, "0"} {
		_, err = f.client.Sessions.Update(ctx, capped.ID, sessions.UpdateParams{Budget: param.Value(sessions.Limit(money.Money{Amount: amount, Currency: "USD"}))})
		require.ErrorIs(t, err, sessions.ErrBudgetNotRaised, "max_list_cost %s", amount)
	}
}

func TestUpdateAgent(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())

	docs := agents.MCPServer{Name: "docs", URL: "https://mcp.example.com/sse"}
	s, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{
		Tools:      []agents.Tool{agents.MCPToolset{MCPServerName: "docs"}},
		MCPServers: []agents.MCPServer{docs},
	}})
	require.NoError(t, err)
	require.Empty(t, cmp.Diff([]agents.Tool{agents.MCPToolset{
		MCPServerName: "docs", Configs: []agents.MCPToolConfig{},
		DefaultConfig: &agents.ToolDefaults{Enabled: new(true), PermissionPolicy: agents.Policy(agents.PolicyAlwaysAsk)},
	}}, s.Agent.Tools))
	require.Equal(t, []agents.MCPServer{docs}, s.Agent.MCPServers)
	require.Equal(t, f.agent.Version, s.Agent.Version, "the agent itself is not touched")

	// Validated like an agent: a server no toolset uses is refused.
	_, err = f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{}}})
	reftest.RequireInvalid(t, err, "is not referenced by any mcp_toolset")

	cleared, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{
		Tools: []agents.Tool{}, MCPServers: []agents.MCPServer{},
	}})
	require.NoError(t, err)
	require.Empty(t, cleared.Agent.Tools)
	require.Empty(t, cleared.Agent.MCPServers)

	fresh, err := f.client.Agents.Get(ctx, f.agent.ID, agents.GetParams{})
	require.NoError(t, err)
	require.Equal(t, 1, fresh.Version, "updating a session's agent writes no agent version")
}

func TestArchiveAndDelete(t *testing.T) {
	f := newFixture(t)
	s := f.newSession(t, f.params())
	file, err := f.client.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: fileID})
	require.NoError(t, err)

	f.clock.Advance(time.Minute)
	archived, err := f.client.Sessions.Archive(ctx, s.ID)
	require.NoError(t, err)
	require.Equal(t, start.Add(time.Minute), archived.ArchivedAt)
	require.Equal(t, sessions.StatusIdle, archived.Status, "archiving does not change an idle session's status")

	f.clock.Advance(time.Minute)
	again, err := f.client.Sessions.Archive(ctx, s.ID)
	require.NoError(t, err)
	require.Empty(t, cmp.Diff(archived, again), "archiving is idempotent")

	got, err := f.client.Sessions.Get(ctx, s.ID)
	require.NoError(t, err, "archived sessions can be read")
	require.True(t, got.Archived())

	// Archived sessions are read-only (docs/managed-agents-wire.md 6.7).
	conflict := "session_id: session `" + s.ID + "` is archived"
	_, err = f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Title: param.Value("x")})
	reftest.RequireConflict(t, err, conflict)
	_, err = f.client.Sessions.Resources.Add(ctx, s.ID, sessions.FileResourceParam{FileID: "file_03"})
	reftest.RequireConflict(t, err, conflict)
	err = f.client.Sessions.Resources.Delete(ctx, s.ID, file.ID)
	reftest.RequireConflict(t, err, conflict)
	_, err = f.client.Sessions.Resources.Get(ctx, s.ID, file.ID)
	require.NoError(t, err)

	require.NoError(t, f.client.Sessions.Delete(ctx, s.ID), "archived sessions can be deleted")
	_, err = f.client.Sessions.Get(ctx, s.ID)
	reftest.RequireNotFound(t, err, "Session `"+s.ID+"` not found.")
	err = f.client.Sessions.Delete(ctx, s.ID)
	reftest.RequireNotFound(t, err, "Session `"+s.ID+"` not found.")
	_, err = f.client.Sessions.Resources.Get(ctx, s.ID, file.ID)
	require.Error(t, err, "its resources are gone with it")

	idle := f.newSession(t, f.params())
	require.NoError(t, f.client.Sessions.Delete(ctx, idle.ID))
}

// TestRunningSessionRules: while a turn runs (held by the scripted agent),
// the agent cannot be updated nor the session deleted (409,
// docs/managed-agents-wire.md 6.6 and 6.7); other updates go through, and
// archiving interrupts the turn.
func TestRunningSessionRules(t *testing.T) {
	f := newFixture(t)
	s := f.running(t, f.params())

	_, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Agent: &sessions.AgentUpdateParams{Tools: []agents.Tool{}}})
	reftest.RequireConflict(t, err, "agent: session is running; interrupt it first")
	updated, err := f.client.Sessions.Update(ctx, s.ID, sessions.UpdateParams{Title: param.Value("Busy")})
	require.NoError(t, err, "other fields can change while it runs")
	require.Equal(t, sessions.StatusRunning, updated.Status)
	err = f.client.Sessions.Delete(ctx, s.ID)
	reftest.RequireConflict(t, err, "session_id: session is running; interrupt it first")

	archived, err := f.client.Sessions.Archive(ctx, s.ID)
	require.NoError(t, err)
	require.True(t, archived.Archived())
	require.Equal(t, sessions.StatusIdle, archived.Status, "archiving interrupts the turn")
	page, err := f.client.Sessions.Events.List(ctx, s.ID, sessions.EventListParams{Order: sessions.OrderDesc, Limit: 1})
	require.NoError(t, err)
	require.Equal(t, sessions.StopEndTurn{}, page.Data[0].(*sessions.SessionStatusIdleEvent).StopReason)
	err = f.client.Sessions.Delete(ctx, s.ID)
	require.NoError(t, err)

	// An interrupted session can be deleted too.
	other := f.running(t, f.params())
	f.send(t, other.ID, sessions.Interrupt())
	got, err := f.client.Sessions.Get(ctx, other.ID)
	require.NoError(t, err)
	require.Equal(t, sessions.StatusIdle, got.Status)
	err = f.client.Sessions.Delete(ctx, other.ID)
	require.NoError(t, err)
}
