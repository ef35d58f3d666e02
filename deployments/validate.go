package deployments

import (
	"strconv"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/moneycheck"
	"github.com/agentplatform/agentplatform-go/sessions"
)

// Local validation: every documented limit (docs/managed-agents-wire.md 11)
// and every format rule the SDK can check before sending (vault and file id
// prefixes, URLs, mount paths), reported with the wire path of the field.
// Cron syntax, IANA names and enum values are the server's to judge.

// Limits of docs/managed-agents-wire.md sections 8, 9 and 11.
const (
	maxName            = 256
	maxDescription     = 2048
	maxEnvironmentID   = 128
	maxEvents          = 50
	maxResources       = 500
	maxVaultIDs        = 50
	maxExpression      = 256
	maxListLimit       = 100
	maxRunListLimit    = 1000
	maxTimezone        = 256
	agentWithOverrides = "agent_with_overrides"
)

func (p *CreateParams) validate() error {
	if err := validateAgent(p.Agent); err != nil {
		return err
	}
	if err := check.Length("environment_id", p.EnvironmentID, 1, maxEnvironmentID); err != nil {
		return err
	}
	if err := validateEvents(p.InitialEvents); err != nil {
		return err
	}
	if err := check.Length("name", p.Name, 1, maxName); err != nil {
		return err
	}
	if p.Budget != nil {
		if err := validateBudget(*p.Budget); err != nil {
			return err
		}
	}
	if err := check.Length("description", p.Description, 0, maxDescription); err != nil {
		return err
	}
	if err := check.Metadata(p.Metadata); err != nil {
		return err
	}
	if err := validateResources(p.Resources); err != nil {
		return err
	}
	if p.Schedule != nil {
		if err := p.Schedule.validate(); err != nil {
			return err
		}
	}
	return validateVaultIDs(p.VaultIDs)
}

func (p *UpdateParams) validate() error {
	if p.Agent != nil {
		if err := validateAgent(p.Agent); err != nil {
			return err
		}
	}
	if err := check.OptionalLength("environment_id", p.EnvironmentID, 1, maxEnvironmentID); err != nil {
		return err
	}
	if p.InitialEvents != nil {
		if err := validateEvents(p.InitialEvents); err != nil {
			return err
		}
	}
	if err := check.OptionalLength("name", p.Name, 1, maxName); err != nil {
		return err
	}
	if d, ok := p.Description.Get(); ok {
		if err := check.Length("description", d, 0, maxDescription); err != nil {
			return err
		}
	}
	if b, ok := p.Budget.Get(); ok {
		if err := validateBudget(b); err != nil {
			return err
		}
	}
	if err := check.MetadataPatch(p.Metadata); err != nil {
		return err
	}
	if rs, ok := p.Resources.Get(); ok {
		if err := validateResources(rs); err != nil {
			return err
		}
	}
	if s, ok := p.Schedule.Get(); ok {
		if err := s.validate(); err != nil {
			return err
		}
	}
	if ids, ok := p.VaultIDs.Get(); ok {
		return validateVaultIDs(ids)
	}
	return nil
}

// validateAgent accepts the forms a deployment takes: an id or a
// reference. sessions.AgentWithOverrides is also an agents.AgentRef, but
// only session create accepts it.
func validateAgent(ref agents.AgentRef) error {
	if _, ok := ref.(sessions.AgentWithOverrides); ok {
		return &apierror.ValidationError{Field: "agent", Rule: agentWithOverrides + " is accepted only when creating a session"}
	}
	return validateAgentRef("agent", ref)
}

// validateBudget checks the budget's ceiling as a session's is checked.
func validateBudget(b sessions.Budget) error {
	return moneycheck.Ceiling("budget.max_list_cost", b.MaxListCost.Amount, b.MaxListCost.Currency)
}

func validateEvents(events []sessions.EventParam) error {
	if len(events) < 1 || len(events) > maxEvents {
		return &apierror.ValidationError{Field: "initial_events", Rule: "must have between 1 and " + strconv.Itoa(maxEvents) + " items"}
	}
	return validateSessionEvents("initial_events", events)
}

func validateResources(rs []sessions.ResourceParam) error {
	if len(rs) > maxResources {
		return &apierror.ValidationError{Field: "resources", Rule: "must have at most " + strconv.Itoa(maxResources) + " items"}
	}
	return validateSessionResources("resources", rs)
}

func validateVaultIDs(ids []string) error {
	if len(ids) > maxVaultIDs {
		return &apierror.ValidationError{Field: "vault_ids", Rule: "must have at most " + strconv.Itoa(maxVaultIDs) + " items"}
	}
	return check.PrefixedIDs("vault_ids", ids, "vlt_", "a vault id")
}

func (s *ScheduleParam) validate() error {
	if err := check.Length("schedule.expression", s.Expression, 1, maxExpression); err != nil {
		return err
	}
	if s.Timezone == "" {
		return &apierror.ValidationError{Field: "schedule.timezone", Rule: "must be at least 1 character"}
	}
	return nil
}

func (p *ListParams) validate() error {
	if p.Status != "" && p.IncludeArchived {
		return &apierror.ValidationError{Field: "status", Rule: "cannot be combined with include_archived"}
	}
	return nil
}
