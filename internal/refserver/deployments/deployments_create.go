package deployments

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/vaults"
)

// Create Deployment (docs/managed-agents-wire.md 8.2; limits in section 11)
// and the body rules it shares with Update Deployment (section 8.4).

const (
	maxDeploymentName        = 256
	maxDeploymentDescription = 2048
)

type deploymentBody struct {
	Agent         kit.Optional[json.RawMessage]            `json:"agent"`
	EnvironmentID kit.Optional[string]                     `json:"environment_id"`
	InitialEvents kit.Optional[json.RawMessage]            `json:"initial_events"`
	Name          kit.Optional[string]                     `json:"name"`
	Budget        kit.Optional[json.RawMessage]            `json:"budget"`
	Description   kit.Optional[string]                     `json:"description"`
	Metadata      kit.Optional[map[string]json.RawMessage] `json:"metadata"`
	Resources     kit.Optional[json.RawMessage]            `json:"resources"`
	Schedule      kit.Optional[json.RawMessage]            `json:"schedule"`
	VaultIDs      kit.Optional[json.RawMessage]            `json:"vault_ids"`
}

func (s *Service) createDeployment(c *kit.Call) error {
	var body deploymentBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := c.Now()
	d := &deployment{workspaceID: c.WorkspaceID, status: deploymentActive, vaultIDs: []string{}, createdAt: now, updatedAt: now}
	if err := s.applyDeploymentBodyLocked(d, body, true, now); err != nil {
		return err
	}
	d.id = s.cfg.ids("depl_") // only once the body is valid: a refusal consumes no id
	if s.deployments.byID == nil {
		s.deployments.byID = map[string]*deployment{}
	}
	s.deployments.byID[d.id] = d
	s.rearmLocked(d, now) // occurrences after creation fire
	return c.OK(d.view(now))
}

// presence is the create/update difference for keys that cannot be
// cleared: required on create, optional but not null on update.
func presence[T any](path string, o kit.Optional[T], creating bool) error {
	if creating {
		return kit.Required(path, o)
	}
	return kit.NotNull(path, o)
}

// applyDeploymentBodyLocked applies a create (creating) or update body to
// d, a draft the caller stores only on success. Fields are checked in body
// order (docs/managed-agents-wire.md 1.4), lookups included; rules between fields (the
// budget needs priced models, resources need a non-self-hosted
// environment) are checked on the result whenever either side changes.
func (s *Service) applyDeploymentBodyLocked(d *deployment, body deploymentBody, creating bool, now time.Time) error {
	ws := d.workspaceID
	var err error
	if err := presence("agent", body.Agent, creating); err != nil {
		return err
	}
	if body.Agent.Set {
		// An id string pins the latest version now
		// (docs/managed-agents-wire.md 8.2, **choice**).
		if d.agent, err = s.deps.ResolveAgentLocked(ws, "agent", body.Agent.Value); err != nil {
			return err
		}
	}
	if err := presence("environment_id", body.EnvironmentID, creating); err != nil {
		return err
	}
	if body.EnvironmentID.Set {
		env, err := s.deps.EnvironmentFieldLocked(ws, body.EnvironmentID)
		if err != nil {
			return err
		}
		d.environmentID = env.ID
		if env.SelfHosted && len(d.resources.Configs) > 0 && !body.Resources.Set {
			return kit.InvalidField("resources", "self-hosted environments cannot mount resources")
		}
	}
	if err := presence("initial_events", body.InitialEvents, creating); err != nil {
		return err
	}
	if body.InitialEvents.Set {
		if d.initialEvents, err = s.deps.ParseInitialEvents("initial_events", body.InitialEvents.Value, 1); err != nil {
			return err
		}
	}
	if err := presence("name", body.Name, creating); err != nil {
		return err
	}
	if body.Name.Set {
		if err := kit.CheckLength("name", body.Name.Value, 1, maxDeploymentName); err != nil {
			return err
		}
		d.name = body.Name.Value
	}
	if body.Budget.Set {
		d.budget = nil
		if body.Budget.Present() {
			if d.budget, err = s.deps.ParseBudget("budget", body.Budget.Value); err != nil {
				return err
			}
		}
	}
	if d.budget != nil && (body.Budget.Present() || body.Agent.Set) {
		if err := s.deps.CheckBudgetable(d.agent); err != nil {
			return err
		}
	}
	if d.description, err = kit.ClearableString("description", body.Description, d.description, maxDeploymentDescription); err != nil {
		return err
	}
	if creating {
		d.metadata, err = kit.MetadataCreate(body.Metadata)
	} else {
		d.metadata, err = kit.MetadataPatch(d.metadata, body.Metadata, false)
	}
	if err != nil {
		return err
	}
	if err := s.applyDeploymentResourcesLocked(d, body.Resources, creating, now); err != nil {
		return err
	}
	if body.Schedule.Set {
		d.schedule = nil
		if body.Schedule.Present() {
			if d.schedule, err = parseSchedule("schedule", body.Schedule.Value); err != nil {
				return err
			}
		}
	}
	if creating {
		if err := kit.NotNull("vault_ids", body.VaultIDs); err != nil {
			return err
		}
	}
	if body.VaultIDs.Set {
		d.vaultIDs = []string{}
		if body.VaultIDs.Present() {
			if d.vaultIDs, err = s.deps.ParseVaultIDs("vault_ids", body.VaultIDs.Value); err != nil {
				return err
			}
			if err := vaults.CheckIDsLocked(s.deps.VaultLocked, d.workspaceID, "vault_ids", d.vaultIDs); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyDeploymentResourcesLocked replaces d's resources (update: [] or
// null clears) and checks them as a session create would, against d's
// environment: memory stores must exist and not be archived, mount paths
// must not clash. The snapshot this makes is thrown away: each session
// takes its own when it is created.
func (s *Service) applyDeploymentResourcesLocked(d *deployment, o kit.Optional[json.RawMessage], creating bool, now time.Time) error {
	if creating {
		if err := kit.NotNull("resources", o); err != nil {
			return err
		}
	}
	if !o.Set {
		return nil
	}
	d.resources = Resources{}
	if o.Present() {
		params, err := s.deps.ParseResources("resources", o.Value)
		if err != nil {
			return err
		}
		d.resources = params
	}
	env, ok := s.deps.EnvironmentLocked(d.environmentID)
	selfHosted := ok && env.SelfHosted
	return s.deps.CheckResourcesLocked(d.workspaceID, selfHosted, d.resources, now)
}
