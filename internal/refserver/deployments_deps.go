package refserver

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/deployments"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// What the deployments family needs from the rest of the server
// (deployments.Deps): agent versions and environments, memory stores, the
// session parameters it stores (parsed by the sessions code), and the
// session a run creates. The family keeps the session-side values opaque
// and hands them back in a deployments.SessionSpec, which sessionSpecOf
// turns into the sessions code's own spec.

func (s *Server) newDeployments() *deployments.Service {
	return deployments.New(deployments.Deps{
		Deps: s.deps,
		Lock: &s.mu,
		ResolveAgentLocked: func(workspaceID, path string, raw json.RawMessage) (deployments.Agent, error) {
			v, err := s.agents.ResolveRefLocked(workspaceID, path, raw)
			if err != nil {
				return deployments.Agent{}, err
			}
			return deploymentAgent(v), nil
		},
		CheckBudgetable: func(a deployments.Agent) error { return checkBudgetable(a.Version.(*agentVersion)) },
		EnvironmentFieldLocked: func(workspaceID string, o kit.Optional[string]) (deployments.Environment, error) {
			env, err := s.environmentFieldLocked(workspaceID, o)
			if err != nil {
				return deployments.Environment{}, err
			}
			return deploymentEnvironment(env), nil
		},
		EnvironmentLocked: func(id string) (deployments.Environment, bool) {
			env, ok := s.agents.EnvironmentByIDLocked(id)
			if !ok {
				return deployments.Environment{}, false
			}
			return deploymentEnvironment(env), true
		},
		StoreLocked: s.memory.StoreLocked,
		ParseInitialEvents: func(path string, raw json.RawMessage, minN int) (deployments.Events, error) {
			events, err := parseEventParams(path, raw, minN, maxInitialEvents)
			if err != nil {
				return deployments.Events{}, err
			}
			stored := make([]json.RawMessage, len(events))
			for i, ev := range events {
				stored[i] = ev.stored
			}
			return deployments.Events{Stored: stored, Value: events}, nil
		},
		ParseBudget: func(path string, raw json.RawMessage) (*deployments.Budget, error) {
			b, err := parseBudget(path, raw)
			if err != nil || b == nil {
				return nil, err
			}
			return &deployments.Budget{View: b.view(), Value: b}, nil
		},
		ParseResources: func(path string, raw json.RawMessage) (deployments.Resources, error) {
			params, err := parseResourceParams(path, raw)
			if err != nil {
				return deployments.Resources{}, err
			}
			r := deployments.Resources{Configs: mapSlice(params, resourceParam.configView), Value: params}
			for _, p := range params {
				if p.typ == "memory_store" {
					r.MemoryStoreIDs = append(r.MemoryStoreIDs, p.memoryStoreID)
				}
			}
			return r, nil
		},
		ParseVaultIDs: parseVaultIDs,
		CheckResourcesLocked: func(workspaceID string, selfHosted bool, r deployments.Resources, now time.Time) error {
			params, _ := r.Value.([]resourceParam)
			_, err := s.attachResourcesLocked(workspaceID, selfHosted, params, now)
			return err
		},
		CreateSessionLocked: func(workspaceID string, spec deployments.SessionSpec, at time.Time) (string, error) {
			x, err := s.createSessionLocked(workspaceID, sessionSpecOf(spec), at)
			if err != nil {
				return "", err
			}
			return x.id, nil
		},
		ParentTurns: s.parentTurns,
	})
}

func deploymentAgent(v *agentVersion) deployments.Agent {
	return deployments.Agent{ID: v.Agent.ID, Reference: v.ReferenceJSON(), Version: v}
}

func deploymentEnvironment(env environment) deployments.Environment {
	return deployments.Environment{ID: env.ID, WorkspaceID: env.WorkspaceID, SelfHosted: env.SelfHosted, Archived: env.Archived}
}

// sessionSpecOf is the session a deployment's run creates: what the
// deployment hands over, no title and empty metadata (**choice**).
func sessionSpecOf(spec deployments.SessionSpec) sessionSpec {
	resources, _ := spec.Resources.Value.([]resourceParam)
	events, _ := spec.Events.Value.([]eventParam)
	var b *budget
	if spec.Budget != nil {
		b = spec.Budget.Value.(*budget)
	}
	id := spec.DeploymentID
	return sessionSpec{
		agent:         spec.Agent.Version.(*agentVersion),
		environmentID: spec.EnvironmentID,
		metadata:      map[string]string{},
		resources:     resources,
		vaultIDs:      spec.VaultIDs,
		budget:        b,
		events:        events,
		deploymentID:  &id,
	}
}
