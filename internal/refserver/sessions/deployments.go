package sessions

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// What a deployment uses of the family: it stores session parameters
// parsed with the sessions' own rules and hands them back in a Spec when a
// run creates its session. The parsed values are opaque outside the
// family.

// Events are parsed initial events.
type Events struct{ params []eventParam }

// Stored are the events' stored forms, as a deployment object shows them.
func (e Events) Stored() []json.RawMessage {
	out := make([]json.RawMessage, len(e.params))
	for i, ev := range e.params {
		out[i] = ev.stored
	}
	return out
}

// ParseInitialEvents reads an initial_events array at path with between
// minN and 50 events, as Create Session does.
func ParseInitialEvents(path string, raw json.RawMessage, minN int) (Events, error) {
	events, err := parseEventParams(path, raw, minN, maxInitialEvents)
	return Events{events}, err
}

// Budget is a parsed budget; nil is no budget.
type Budget struct{ b *budget }

// View is the budget's wire form.
func (b *Budget) View() any { return b.b.view() }

// ParseBudget reads a budget object at path (nil for JSON null).
func ParseBudget(path string, raw json.RawMessage) (*Budget, error) {
	b, err := parseBudget(path, raw)
	if err != nil || b == nil {
		return nil, err
	}
	return &Budget{b}, nil
}

// CheckBudgetable refuses a budget for an agent version that can run a
// model without a list price.
func CheckBudgetable(v *agents.Version) error { return checkBudgetable(v) }

// Resources are parsed session resources.
type Resources struct{ params []resourceParam }

// Configs are each resource's config as a deployment object shows it.
func (r Resources) Configs() []any { return kit.MapSlice(r.params, resourceParam.configView) }

// MemoryStoreIDs are the ids of the memory stores among the resources, in
// order.
func (r Resources) MemoryStoreIDs() []string {
	var ids []string
	for _, p := range r.params {
		if p.typ == "memory_store" {
			ids = append(ids, p.memoryStoreID)
		}
	}
	return ids
}

// ParseResources reads a resources array at path.
func ParseResources(path string, raw json.RawMessage) (Resources, error) {
	params, err := parseResourceParams(path, raw)
	return Resources{params}, err
}

// ParseVaultIDs reads a vault_ids array at path.
func ParseVaultIDs(path string, raw json.RawMessage) ([]string, error) {
	return parseVaultIDs(path, raw)
}

// CheckResourcesLocked checks resources as a session create would in the
// workspace (memory stores exist and are not archived, mount paths do not
// clash; none at all for a self-hosted environment). The caller holds
// Deps.Lock.
func (s *Service) CheckResourcesLocked(workspaceID string, selfHosted bool, r Resources, now time.Time) error {
	_, err := s.attachResourcesLocked(workspaceID, selfHosted, r.params, now)
	return err
}

// EnvironmentFieldLocked reads a required environment_id body field and
// returns the usable (existing, unarchived) environment it names. The
// caller holds Deps.Lock.
func (s *Service) EnvironmentFieldLocked(workspaceID string, o kit.Optional[string]) (agents.EnvironmentInfo, error) {
	return s.environmentFieldLocked(workspaceID, o)
}

// Spec is the session a deployment's run creates.
type Spec struct {
	Agent         *agents.Version
	EnvironmentID string
	Resources     Resources
	VaultIDs      []string
	Budget        *Budget // nil: none
	Events        Events
	DeploymentID  string
}

// CreateSessionLocked creates and starts a session of workspaceID from a
// deployment's spec, dated at, with no title and empty metadata
// (**choice**), and runs the turn its initial events start; it returns the
// session's id. The caller holds Deps.Lock.
func (s *Service) CreateSessionLocked(workspaceID string, spec Spec, at time.Time) (string, error) {
	var b *budget
	if spec.Budget != nil {
		b = spec.Budget.b
	}
	id := spec.DeploymentID
	x, err := s.createSessionLocked(workspaceID, sessionSpec{
		agent:         spec.Agent,
		environmentID: spec.EnvironmentID,
		metadata:      map[string]string{},
		resources:     spec.Resources.params,
		vaultIDs:      spec.VaultIDs,
		budget:        b,
		events:        spec.Events.params,
		deploymentID:  &id,
	}, at)
	if err != nil {
		return "", err
	}
	return x.id, nil
}

// ParentTurns makes the request's span the parent of the turns started
// until the returned function runs (events.send, update, create with
// initial events, a deployment's Run Now). Call it with Deps.Lock held and
// run the result before unlocking:
//
//	defer s.ParentTurns(c)()
func (s *Service) ParentTurns(c *kit.Call) func() { return s.trace.ParentTurns(c) }
