package sessions

import (
	"encoding/json"
	"maps"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Update Session (docs/managed-agents-wire.md 6.5, 6.6).

type sessionUpdateBody struct {
	Agent    kit.Optional[json.RawMessage]            `json:"agent"`
	Budget   kit.Optional[json.RawMessage]            `json:"budget"`
	Metadata kit.Optional[map[string]json.RawMessage] `json:"metadata"`
	Title    kit.Optional[string]                     `json:"title"`
	VaultIDs kit.Optional[json.RawMessage]            `json:"vault_ids"`
}

// sessionAgentUpdateBody is the only part of the agent a session lets
// change mid-session.
type sessionAgentUpdateBody struct {
	Tools      kit.Optional[json.RawMessage] `json:"tools"`
	MCPServers kit.Optional[json.RawMessage] `json:"mcp_servers"`
}

// updateSession is S4. The state of the session is checked first (404,
// then 409 archived or terminated), then the fields in body order; nothing
// is stored unless every field passes.
func (s *Service) updateSession(c *kit.Call) error {
	var body sessionUpdateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x, err := s.pathSessionLocked(c)
	if err != nil {
		return err
	}
	if err := x.writable(); err != nil {
		return err
	}
	agent, err := updatedSessionAgent(x, body.Agent)
	if err != nil {
		return err
	}
	bud, err := updatedSessionBudget(x, body.Budget)
	if err != nil {
		return err
	}
	metadata, err := kit.MetadataPatch(x.metadata, body.Metadata, false)
	if err != nil {
		return err
	}
	title := x.title
	if body.Title.Set {
		title = nil
		if body.Title.Present() {
			if err := kit.CheckLength("title", body.Title.Value, 1, maxSessionTitle); err != nil {
				return err
			}
			title = kit.StringPtr(body.Title.Value)
		}
	}
	if body.VaultIDs.Set {
		// Reserved: any value, null included, is refused.
		return kit.InvalidField("vault_ids", "cannot be updated")
	}

	update := sessionUpdate{agent: agent != x.agent, budget: !sameBudget(bud, x.budget),
		metadata: !maps.Equal(metadata, x.metadata), title: !sameString(title, x.title)}
	x.agent, x.budget, x.metadata, x.title = agent, bud, metadata, title
	defer s.ParentTurns(c)()
	if update.any() {
		now := c.Now()
		x.updatedAt = now
		x.eng.updated(now, update)
		if update.budget {
			// A session paused at budget_reached resumes when its budget
			// was raised above the consumed cost or removed
			// (docs/session-events-wire.md 6.8), inside this request.
			x.eng.resumeBudget(now)
		}
	}
	return c.OK(x.view())
}

// updatedSessionAgent applies an agent update ({tools, mcp_servers}) to a
// copy of the session's snapshot; x.agent itself is returned when nothing
// was sent or nothing changed.
func updatedSessionAgent(x *session, o kit.Optional[json.RawMessage]) (*agents.Version, error) {
	const field = "agent"
	if !o.Set {
		return x.agent, nil
	}
	if err := kit.NotNull(field, o); err != nil {
		return nil, err
	}
	if x.fromOverrides {
		// Checked before the running state: waiting would not help.
		return nil, kit.InvalidField(field, "only sessions created from an agent or deployment reference can be updated")
	}
	if x.running() {
		return nil, kit.StateConflict("agent: session is running; interrupt it first")
	}
	var body sessionAgentUpdateBody
	if err := kit.DecodeAt(field, o.Value, &body); err != nil {
		return nil, err
	}
	if err := kit.NotNull(kit.JoinPath(field, "tools"), body.Tools); err != nil {
		return nil, err
	}
	if err := kit.NotNull(kit.JoinPath(field, "mcp_servers"), body.MCPServers); err != nil {
		return nil, err
	}
	tools, err := agents.ParseTools(field, kit.RawOrNil(body.Tools), kit.RawOrNil(body.MCPServers), x.agent.Tools)
	if err != nil {
		return nil, err
	}
	updated := *x.agent // versions are immutable: change a copy
	updated.Tools = tools
	if kit.SameJSON(updated.SessionAgentJSON(), x.agent.SessionAgentJSON()) {
		return x.agent, nil
	}
	return &updated, nil
}

// updatedSessionBudget applies a budget update: omitted keeps, null
// removes (for good: it cannot be re-added), an object replaces. The
// rejection reasons (docs/managed-agents-wire.md 6.6) are checked in this
// order:
//
//   - model_not_budgetable first: it is a property of the session's agent
//     that no later request can change, and it is the only order in which
//     the reason can be met at all (a session created with a budget had its
//     models checked then, and its models never change).
//   - budget_create_only: there is no budget to replace.
//   - budget_not_raised: the new ceiling is not above the consumed list
//     cost the session shows.
func updatedSessionBudget(x *session, o kit.Optional[json.RawMessage]) (*budget, error) {
	if !o.Set {
		return x.budget, nil
	}
	if o.Null {
		return nil, nil
	}
	b, err := parseBudgetMin("budget", o.Value, 0)
	if err != nil {
		return nil, err
	}
	if err := checkBudgetable(x.agent); err != nil {
		return nil, err
	}
	if x.budget == nil {
		return nil, kit.InvalidField("budget", "budget_create_only: a budget can only be set when the session is created")
	}
	// Against the consumed cost the session shows (usage.list_cost, whole
	// cents), so that a client comparing with what it read agrees with the
	// server; "0" is at or below any consumed cost. A cap above it is also
	// above the exact cost (rounding moves it by under half a cent), so a
	// paused session always resumes.
	if b.maxListCost <= x.usage.listCost {
		return nil, kit.InvalidField("budget", "budget_not_raised: max_list_cost must be above the consumed list cost %d", x.usage.listCost)
	}
	return b, nil
}

func sameBudget(a, b *budget) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameString(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
