package refserver

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/deployments"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/sessions"
)

// What the deployments family needs from the rest of the server
// (deployments.Deps): agent versions and environments, memory stores, the
// session parameters it stores (parsed by package sessions), and the
// session a run creates. The family keeps the session-side values opaque
// and hands them back in a deployments.SessionSpec, which sessionSpecOf
// turns into a sessions.Spec.

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
		CheckBudgetable: func(a deployments.Agent) error { return sessions.CheckBudgetable(a.Version.(*agents.Version)) },
		EnvironmentFieldLocked: func(workspaceID string, o kit.Optional[string]) (deployments.Environment, error) {
			env, err := s.sessions.EnvironmentFieldLocked(workspaceID, o)
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
		VaultLocked: s.vaults.VaultLocked,
		ParseInitialEvents: func(path string, raw json.RawMessage, minN int) (deployments.Events, error) {
			events, err := sessions.ParseInitialEvents(path, raw, minN)
			if err != nil {
				return deployments.Events{}, err
			}
			return deployments.Events{Stored: events.Stored(), Value: events}, nil
		},
		ParseBudget: func(path string, raw json.RawMessage) (*deployments.Budget, error) {
			b, err := sessions.ParseBudget(path, raw)
			if err != nil || b == nil {
				return nil, err
			}
			return &deployments.Budget{View: b.View(), Value: b}, nil
		},
		ParseResources: func(path string, raw json.RawMessage) (deployments.Resources, error) {
			r, err := sessions.ParseResources(path, raw)
			if err != nil {
				return deployments.Resources{}, err
			}
			return deployments.Resources{Configs: r.Configs(), MemoryStoreIDs: r.MemoryStoreIDs(), Value: r}, nil
		},
		ParseVaultIDs: sessions.ParseVaultIDs,
		CheckResourcesLocked: func(workspaceID string, selfHosted bool, r deployments.Resources, now time.Time) error {
			resources, _ := r.Value.(sessions.Resources)
			return s.sessions.CheckResourcesLocked(workspaceID, selfHosted, resources, now)
		},
		CreateSessionLocked: func(workspaceID string, spec deployments.SessionSpec, at time.Time) (string, error) {
			return s.sessions.CreateSessionLocked(workspaceID, sessionSpecOf(spec), at)
		},
		ParentTurns: s.sessions.ParentTurns,
	})
}

func deploymentAgent(v *agents.Version) deployments.Agent {
	return deployments.Agent{ID: v.Agent.ID, Reference: v.ReferenceJSON(), Version: v}
}

func deploymentEnvironment(env agents.EnvironmentInfo) deployments.Environment {
	return deployments.Environment{ID: env.ID, WorkspaceID: env.WorkspaceID, SelfHosted: env.SelfHosted, Archived: env.Archived}
}

// sessionSpecOf is the session a deployment's run creates: what the
// deployment hands over.
func sessionSpecOf(spec deployments.SessionSpec) sessions.Spec {
	resources, _ := spec.Resources.Value.(sessions.Resources)
	events, _ := spec.Events.Value.(sessions.Events)
	var b *sessions.Budget
	if spec.Budget != nil {
		b = spec.Budget.Value.(*sessions.Budget)
	}
	return sessions.Spec{
		Agent:         spec.Agent.Version.(*agents.Version),
		EnvironmentID: spec.EnvironmentID,
		Resources:     resources,
		VaultIDs:      spec.VaultIDs,
		Budget:        b,
		Events:        events,
		DeploymentID:  spec.DeploymentID,
	}
}
