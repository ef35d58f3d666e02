package sessions

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/check"
	"github.com/agentplatform/agentplatform-go/internal/moneycheck"
)

// Local validation: every rule the SDK can check without the server's
// state, reported with the wire path of the field before anything is
// sent. Enum values (access, currency, statuses) are not checked: a newer
// server may accept more; the server judges them.

// Limits of docs/managed-agents-wire.md sections 3 and 11 that the
// deployments package shares through the exported validators.
const (
	maxMountPath    = 4096
	maxToken        = 4096
	maxFileID       = 128
	maxInstructions = 4096
	maxURL          = 2048
	maxBranch       = 255
	minSHA, maxSHA  = 7, 64
	maxRubric       = 262144
	maxIterations   = 20
	maxSystem       = 100000
	maxModelID      = 256
	maxBudgetDigits = 18
	maxMemoryStores = 8
	maxSystemBlocks = 1000
	filePrefix      = "file_"
	vaultPrefix     = "vlt_"
)

func idx(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func atMost(path string, n, max int) error {
	if n > max {
		return &apierror.ValidationError{Field: path, Rule: "must have at most " + strconv.Itoa(max) + " items"}
	}
	return nil
}

func (p *CreateParams) validate() error {
	if err := validateAgentParam("agent", p.Agent); err != nil {
		return err
	}
	if err := check.Length("environment_id", p.EnvironmentID, 1, maxEnvironmentID); err != nil {
		return err
	}
	if err := check.OptionalLength("title", p.Title, 1, maxTitle); err != nil {
		return err
	}
	if err := check.Metadata(p.Metadata); err != nil {
		return err
	}
	if err := atMost("resources", len(p.Resources), maxResources); err != nil {
		return err
	}
	if err := validateResources("resources", p.Resources); err != nil {
		return err
	}
	if err := atMost("vault_ids", len(p.VaultIDs), maxVaultIDs); err != nil {
		return err
	}
	if err := check.PrefixedIDs("vault_ids", p.VaultIDs, vaultPrefix, "a vault id"); err != nil {
		return err
	}
	if p.Budget != nil {
		if err := p.Budget.validate("budget"); err != nil {
			return err
		}
	}
	if err := atMost("initial_events", len(p.InitialEvents), maxEvents); err != nil {
		return err
	}
	return validateInitialEvents("initial_events", p.InitialEvents)
}

func validateAgentParam(field string, ref agents.AgentRef) error {
	o, ok := ref.(AgentWithOverrides)
	if !ok {
		return validateAgentRef(field, ref)
	}
	if err := validateAgentRef(field, o.AgentReference); err != nil {
		return err
	}
	switch m := o.Model.(type) {
	case agents.ModelID:
		if err := check.Length(field+".model", string(m), 1, maxModelID); err != nil {
			return err
		}
	case agents.ModelConfig:
		if err := check.Length(field+".model.id", m.ID, 1, maxModelID); err != nil {
			return err
		}
	}
	if s, ok := o.System.Get(); ok {
		if err := check.Length(field+".system", s, 0, maxSystem); err != nil {
			return err
		}
	}
	// A list the request leaves out is the agent's own, which only the
	// server knows: toolsets and servers are matched when both are sent.
	return validateToolLists(field, o.Tools, o.MCPServers, o.Skills, o.Tools != nil && o.MCPServers != nil)
}

func (p *UpdateParams) validate() error {
	if a := p.Agent; a != nil {
		// Validated like an agent's lists; a list left out is the
		// session's, so toolsets and servers are matched only when both
		// are sent.
		if err := validateToolLists("agent", a.Tools, a.MCPServers, nil, a.Tools != nil && a.MCPServers != nil); err != nil {
			return err
		}
	}
	if b, ok := p.Budget.Get(); ok {
		if err := b.validateAmount("budget"); err != nil {
			return err
		}
	}
	if err := check.MetadataPatch(p.Metadata); err != nil {
		return err
	}
	if t, ok := p.Title.Get(); ok {
		return check.Length("title", t, 1, maxTitle)
	}
	return nil
}

func (p *ListParams) validate() error {
	if err := check.Limit(p.Limit, maxListLimit); err != nil {
		return err
	}
	if p.AgentVersion != 0 {
		if p.AgentID == "" {
			return &apierror.ValidationError{Field: "agent_version", Rule: "requires agent_id"}
		}
		if p.AgentVersion < 1 || p.AgentVersion > 1<<31-1 {
			return &apierror.ValidationError{Field: "agent_version", Rule: "must be between 1 and 2147483647"}
		}
	}
	return nil
}

// validate checks a new session's budget ceiling, naming fields under
// field (for example "budget"): a valid amount (validateAmount) of at least
// 1 minor unit, since a zero ceiling could never run.
func (b Budget) validate(field string) error {
	if err := b.validateAmount(field); err != nil {
		return err
	}
	if b.MaxListCost.Amount == "0" {
		return &apierror.ValidationError{Field: field + ".max_list_cost.amount", Rule: "must be at least 1"}
	}
	return nil
}

// validateAmount checks that the ceiling is a valid amount of money of at
// most 18 digits. Update runs only this: a new ceiling of 0 is at or below
// whatever was consumed, and the API's refusal (ErrBudgetNotRaised) says so
// in the terms callers test for.
func (b Budget) validateAmount(field string) error {
	cost := field + ".max_list_cost"
	if err := moneycheck.Amount(cost, b.MaxListCost.Amount, b.MaxListCost.Currency); err != nil {
		return err
	}
	if len(b.MaxListCost.Amount) > maxBudgetDigits {
		return &apierror.ValidationError{Field: cost + ".amount", Rule: "must have at most " + strconv.Itoa(maxBudgetDigits) + " digits"}
	}
	return nil
}

// validateResources checks resource parameters locally, naming them under
// field (for example "resources", giving "resources[2].mount_path"). It
// does not count them: the callers' limits differ. The deployments package
// calls it before sending.
func validateResources(field string, resources []ResourceParam) error {
	stores := 0
	for i, r := range resources {
		if err := validateResource(idx(field, i), r); err != nil {
			return err
		}
		if _, ok := r.(MemoryStoreResourceParam); ok {
			stores++
		}
	}
	if stores > maxMemoryStores {
		return &apierror.ValidationError{Field: field, Rule: "must have at most " + strconv.Itoa(maxMemoryStores) + " memory stores"}
	}
	return nil
}

// checkFileID checks a file reference: 1 to 128 characters and the file_
// prefix (files are not looked up).
func checkFileID(field, id string) error {
	if err := check.Length(field, id, 1, maxFileID); err != nil {
		return err
	}
	if !strings.HasPrefix(id, filePrefix) {
		return &apierror.ValidationError{Field: field, Rule: "must be a file id (`" + filePrefix + "…`)"}
	}
	return nil
}

// checkMountPath checks an optional mount path: 1 to 4096 characters,
// absolute, without NUL, empty, "." or ".." segments.
func checkMountPath(field, p string) error {
	if p == "" {
		return nil
	}
	if err := check.Length(field, p, 1, maxMountPath); err != nil {
		return err
	}
	if !strings.HasPrefix(p, "/") {
		return &apierror.ValidationError{Field: field, Rule: "must start with `/`"}
	}
	return check.MountPathSegments(field, p)
}

func validateResource(path string, r ResourceParam) error {
	switch r := r.(type) {
	case nil:
		return &apierror.ValidationError{Field: path, Rule: "must not be nil"}
	case FileResourceParam:
		return r.validate(path)
	case RepositoryResourceParam:
		if err := check.Length(path+".url", r.URL, 1, maxURL); err != nil {
			return err
		}
		if u, err := url.Parse(r.URL); err != nil || u.Scheme != "https" || u.Host == "" {
			return &apierror.ValidationError{Field: path + ".url", Rule: "must be an absolute https URL"}
		}
		if err := check.OptionalLength(path+".authorization_token", string(r.AuthorizationToken), 1, maxToken); err != nil {
			return err
		}
		if err := validateCheckout(path+".checkout", r.Checkout); err != nil {
			return err
		}
		return checkMountPath(path+".mount_path", r.MountPath)
	case MemoryStoreResourceParam:
		if r.MemoryStoreID == "" {
			return &apierror.ValidationError{Field: path + ".memory_store_id", Rule: "is required"}
		}
		return check.Length(path+".instructions", r.Instructions, 0, maxInstructions)
	}
	return nil
}

func (r *FileResourceParam) validate(path string) error {
	prefix := ""
	if path != "" {
		prefix = path + "."
	}
	if err := checkFileID(prefix+"file_id", r.FileID); err != nil {
		return err
	}
	return checkMountPath(prefix+"mount_path", r.MountPath)
}

func validateCheckout(path string, c Checkout) error {
	switch c := c.(type) {
	case BranchCheckout:
		return check.Length(path+".name", c.Name, 1, maxBranch)
	case CommitCheckout:
		if err := check.Length(path+".sha", c.SHA, minSHA, maxSHA); err != nil {
			return err
		}
		if strings.Trim(strings.ToLower(c.SHA), "0123456789abcdef") != "" {
			return &apierror.ValidationError{Field: path + ".sha", Rule: "must be a hexadecimal commit id"}
		}
	}
	return nil
}

// validateInitialEvents checks initial events locally, naming them under
// field (for example "initial_events", giving
// "initial_events[0].content[1].text"), including the placement of a
// system.message: at most one, last, and right after a user.message. It
// does not count them: the callers' limits differ. Deployments carry
// initial events too, and borrow it (shared.go).
func validateInitialEvents(field string, events []EventParam) error {
	return validateEvents(field, events, false)
}

// Where a system.message may go, as initial events and Send Events word it
// (docs/session-events-wire.md 3.1): initial events hold no tool results.
const (
	systemPlacement     = "system.message must be the last event and follow a user.message"
	sendSystemPlacement = systemPlacement + ", user.tool_result or user.custom_tool_result"
)

// validateEvents is validateInitialEvents; send applies the rules of Send Events,
// which words the placement rule for tool results too and bounds a
// system.message's content.
func validateEvents(field string, events []EventParam, send bool) error {
	placement := systemPlacement
	if send {
		placement = sendSystemPlacement
	}
	for i, e := range events {
		path := idx(field, i)
		switch e := e.(type) {
		case nil:
			return &apierror.ValidationError{Field: path, Rule: "must not be nil"}
		case UserMessageParam:
			if err := validateContent(path+".content", e.Content); err != nil {
				return err
			}
		case DefineOutcomeParam:
			if err := e.validate(path); err != nil {
				return err
			}
		case SystemMessageParam:
			if send && (len(e.Content) < 1 || len(e.Content) > maxSystemBlocks) {
				return &apierror.ValidationError{Field: path + ".content", Rule: "must have between 1 and " + strconv.Itoa(maxSystemBlocks) + " items"}
			}
			if err := validateContent(path+".content", e.Content); err != nil {
				return err
			}
			if i != len(events)-1 || i == 0 || !accompaniable(events[i-1]) {
				return &apierror.ValidationError{Field: path, Rule: placement}
			}
		case eventValidator:
			if err := e.validateEvent(path); err != nil {
				return err
			}
		}
	}
	return nil
}

// accompaniable reports whether a system.message may follow e: a
// user.message, user.tool_result or user.custom_tool_result, also when sent
// as UnknownEventParam.
func accompaniable(e EventParam) bool {
	switch e := e.(type) {
	case UserMessageParam, CustomToolResultParam, ToolResultParam:
		return true
	case UnknownEventParam:
		return e.Type == "user.tool_result" || e.Type == "user.custom_tool_result"
	}
	return false
}

func validateContent(path string, blocks []ContentBlockParam) error {
	if len(blocks) == 0 {
		return &apierror.ValidationError{Field: path, Rule: "must have at least 1 item"}
	}
	for j, b := range blocks {
		switch b := b.(type) {
		case nil:
			return &apierror.ValidationError{Field: idx(path, j), Rule: "must not be nil"}
		case TextBlockParam:
			if b.Text == "" {
				return &apierror.ValidationError{Field: idx(path, j) + ".text", Rule: "must be at least 1 character"}
			}
		}
	}
	return nil
}

func (e *DefineOutcomeParam) validate(path string) error {
	if e.Description == "" {
		return &apierror.ValidationError{Field: path + ".description", Rule: "must be at least 1 character"}
	}
	switch r := e.Rubric.(type) {
	case nil:
		return &apierror.ValidationError{Field: path + ".rubric", Rule: "is required"}
	case TextRubricParam:
		if err := check.Length(path+".rubric.content", r.Content, 1, maxRubric); err != nil {
			return err
		}
	case FileRubricParam:
		if r.FileID == "" {
			return &apierror.ValidationError{Field: path + ".rubric.file_id", Rule: "is required"}
		}
		if err := checkFileID(path+".rubric.file_id", r.FileID); err != nil {
			return err
		}
	}
	if e.MaxIterations != 0 && (e.MaxIterations < 1 || e.MaxIterations > maxIterations) {
		return &apierror.ValidationError{Field: path + ".max_iterations", Rule: "must be between 1 and " + strconv.Itoa(maxIterations)}
	}
	return nil
}
