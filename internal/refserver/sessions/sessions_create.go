package sessions

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/agents"
	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/refserver/vaults"
)

// Session creation (docs/managed-agents-wire.md 6.3). Create Session, Run
// Deployment Now and scheduled fires all end in createSessionLocked, so a
// session is built the same way whoever asks for it.

const (
	maxSessionTitle = 500
	maxVaultIDs     = 50 // deployments' limit; sessions: **choice**, the same
	maxSystemPrompt = 100000
)

// sessionSpec is a validated request for a session: what Create Session's
// body says, or what a deployment hands to each session it creates.
type sessionSpec struct {
	agent         *agents.Version // the snapshot the session runs
	fromOverrides bool            // created with agent_with_overrides
	environmentID string
	title         *string
	metadata      map[string]string
	resources     []resourceParam
	vaultIDs      []string
	budget        *budget
	events        []eventParam
	deploymentID  *string
}

// createSessionLocked creates a session in workspaceID at now, hands
// spec.events to acceptEventsLocked and runs the turn they start (a
// deployment's run is the request that starts it). It re-checks everything that depends
// on state (the environment, memory stores, mount paths;
// docs/managed-agents-wire.md 3.9, 5.6), because a deployment's spec was validated when the deployment was
// written, not now. Create Session has checked the same rules in body order
// already, so for it this cannot fail. Everything the session records is
// timestamped now: a scheduled fire passes its occurrence, so the session
// looks as if it had been created on time.
func (s *Service) createSessionLocked(workspaceID string, spec sessionSpec, now time.Time) (*session, error) {
	x, err := s.createAcceptedSessionLocked(workspaceID, spec, now)
	if err != nil {
		return nil, err
	}
	x.eng.finish()
	return x, nil
}

// createAcceptedSessionLocked is createSessionLocked up to the acceptance
// of the initial events: the engine has not run yet.
func (s *Service) createAcceptedSessionLocked(workspaceID string, spec sessionSpec, now time.Time) (*session, error) {
	env, err := s.usableEnvironmentLocked(workspaceID, "environment_id", spec.environmentID)
	if err != nil {
		return nil, err
	}
	resources, err := s.attachResourcesLocked(workspaceID, env.SelfHosted, spec.resources, now)
	if err != nil {
		return nil, err
	}
	x := &session{
		id:            s.cfg.ids("sesn_"),
		workspaceID:   workspaceID,
		agent:         spec.agent,
		fromOverrides: spec.fromOverrides,
		environmentID: env.ID,
		status:        statusIdle,
		title:         spec.title,
		metadata:      maps.Clone(spec.metadata),
		resources:     resources,
		vaultIDs:      slices.Clone(spec.vaultIDs),
		deploymentID:  spec.deploymentID,
		createdAt:     now,
		updatedAt:     now,
	}
	if x.metadata == nil {
		x.metadata = map[string]string{}
	}
	if x.vaultIDs == nil {
		x.vaultIDs = []string{}
	}
	if spec.budget != nil {
		b := *spec.budget // the session's own copy: Update Session changes it
		x.budget = &b
	}
	for _, r := range resources {
		r.id = s.cfg.ids("sesrsc_")
	}
	if s.sessions.byID == nil {
		s.sessions.byID = map[string]*session{}
	}
	s.sessions.byID[x.id] = x
	x.eng = s.newEngine(x, env.SelfHosted)
	if env.SelfHosted {
		s.workNeeded(x, now)
	}
	s.acceptEventsLocked(x, spec.events, now)
	return x, nil
}

// usableEnvironmentLocked returns the environment named by a request field:
// 404 when unknown, 400 "<field>: environment `<id>` is archived".
func (s *Service) usableEnvironmentLocked(workspaceID, field, id string) (agents.EnvironmentInfo, error) {
	env, err := s.deps.EnvironmentLocked(workspaceID, id)
	if err != nil {
		return agents.EnvironmentInfo{}, err
	}
	if env.Archived {
		return agents.EnvironmentInfo{}, kit.InvalidField(field, "environment `%s` is archived", env.ID)
	}
	return env, nil
}

// environmentFieldLocked reads a required environment_id body field (1–128
// characters) and returns the usable environment it names.
func (s *Service) environmentFieldLocked(workspaceID string, o kit.Optional[string]) (agents.EnvironmentInfo, error) {
	const field = "environment_id"
	if err := kit.Required(field, o); err != nil {
		return agents.EnvironmentInfo{}, err
	}
	if err := kit.CheckLength(field, o.Value, 1, 128); err != nil {
		return agents.EnvironmentInfo{}, err
	}
	return s.usableEnvironmentLocked(workspaceID, field, o.Value)
}

type sessionCreateBody struct {
	Agent         kit.Optional[json.RawMessage]            `json:"agent"`
	EnvironmentID kit.Optional[string]                     `json:"environment_id"`
	Title         kit.Optional[string]                     `json:"title"`
	Metadata      kit.Optional[map[string]json.RawMessage] `json:"metadata"`
	Resources     kit.Optional[json.RawMessage]            `json:"resources"`
	VaultIDs      kit.Optional[json.RawMessage]            `json:"vault_ids"`
	Budget        kit.Optional[json.RawMessage]            `json:"budget"`
	InitialEvents kit.Optional[json.RawMessage]            `json:"initial_events"`
}

// createSession is S1. Fields are checked in body order
// (docs/managed-agents-wire.md 1.4: the
// first broken rule is reported), lookups included.
func (s *Service) createSession(c *kit.Call) error {
	var body sessionCreateBody
	if err := c.Decode(&body); err != nil {
		return err
	}
	if err := kit.Required("agent", body.Agent); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := c.Now()
	var spec sessionSpec
	var err error
	if spec.agent, spec.fromOverrides, err = s.resolveSessionAgentLocked(c.WorkspaceID, body.Agent.Value); err != nil {
		return err
	}
	env, err := s.environmentFieldLocked(c.WorkspaceID, body.EnvironmentID)
	if err != nil {
		return err
	}
	spec.environmentID = env.ID
	if body.Title.Present() {
		if err := kit.CheckLength("title", body.Title.Value, 1, maxSessionTitle); err != nil {
			return err
		}
		spec.title = kit.StringPtr(body.Title.Value)
	}
	if spec.metadata, err = kit.MetadataCreate(body.Metadata); err != nil {
		return err
	}
	if err := kit.NotNull("resources", body.Resources); err != nil {
		return err
	}
	if body.Resources.Set {
		if spec.resources, err = parseResourceParams("resources", body.Resources.Value); err != nil {
			return err
		}
		if _, err := s.attachResourcesLocked(c.WorkspaceID, env.SelfHosted, spec.resources, now); err != nil {
			return err
		}
	}
	if err := kit.NotNull("vault_ids", body.VaultIDs); err != nil {
		return err
	}
	if body.VaultIDs.Set {
		if spec.vaultIDs, err = parseVaultIDs("vault_ids", body.VaultIDs.Value); err != nil {
			return err
		}
		if err := vaults.CheckIDsLocked(s.deps.VaultLocked, c.WorkspaceID, "vault_ids", spec.vaultIDs); err != nil {
			return err
		}
	}
	if body.Budget.Present() {
		if spec.budget, err = parseBudget("budget", body.Budget.Value); err != nil {
			return err
		}
		if err := checkBudgetable(spec.agent); err != nil {
			return err
		}
	}
	if err := kit.NotNull("initial_events", body.InitialEvents); err != nil {
		return err
	}
	if body.InitialEvents.Set {
		if spec.events, err = parseEventParams("initial_events", body.InitialEvents.Value, 0, maxInitialEvents); err != nil {
			return err
		}
	}
	x, err := s.createAcceptedSessionLocked(c.WorkspaceID, spec, now)
	if err != nil {
		return err
	}
	defer s.traceSessionCreated(c, x)()
	// The response is the state right after acceptance: running when the
	// initial events start a turn (docs/managed-agents-wire.md 6.3), whatever
	// that turn does
	// next, which runs now, inside this request.
	view := x.view()
	x.eng.finish()
	return c.OK(view)
}

// parseVaultIDs reads a vault_ids array: at most 50 distinct vlt_ ids.
// Only their form: vaults.CheckIDsLocked looks them up.
func parseVaultIDs(path string, raw json.RawMessage) ([]string, error) {
	items, err := kit.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	if err := kit.CheckCount(path, len(items), 0, maxVaultIDs); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	return kit.StringsAt(path, raw, func(p, id string) error {
		if !strings.HasPrefix(id, "vlt_") {
			return kit.InvalidField(p, "must be a vault id (`vlt_…`)")
		}
		if seen[id] {
			return kit.InvalidField(p, "duplicate vault id `%s`", id)
		}
		seen[id] = true
		return nil
	})
}

// resolveSessionAgentLocked resolves Create Session's agent
// (docs/managed-agents-wire.md 3.8):
// an id string or {type: agent} reference through resolveAgentRefLocked,
// or {type: agent_with_overrides}, which resolves the same way and then
// replaces fields on a copy of the version. It reports whether overrides
// were used.
func (s *Service) resolveSessionAgentLocked(workspaceID string, raw json.RawMessage) (*agents.Version, bool, error) {
	const field = "agent"
	if kit.JSONKind(raw) == '{' {
		typ, err := kit.TypeAt(field, raw)
		if err != nil {
			return nil, false, err
		}
		switch typ {
		case "agent":
		case "agent_with_overrides":
			v, err := s.resolveAgentOverridesLocked(workspaceID, field, raw)
			return v, true, err
		default:
			return nil, false, kit.BadType(field, "agent", "agent_with_overrides")
		}
	}
	v, err := s.deps.ResolveAgentLocked(workspaceID, field, raw)
	return v, false, err
}

type agentOverridesBody struct {
	Type       kit.Optional[string]          `json:"type"`
	ID         kit.Optional[json.RawMessage] `json:"id"`
	Version    kit.Optional[json.RawMessage] `json:"version"`
	Model      kit.Optional[json.RawMessage] `json:"model"`
	System     kit.Optional[string]          `json:"system"`
	Tools      kit.Optional[json.RawMessage] `json:"tools"`
	MCPServers kit.Optional[json.RawMessage] `json:"mcp_servers"`
	Skills     kit.Optional[json.RawMessage] `json:"skills"`
}

// resolveAgentOverridesLocked resolves agent_with_overrides: each field
// sent replaces the agent's value for this session only ([] clears a list,
// system null clears it), and the result is validated as an agent create
// would be. The agent's stored versions are not touched: the override is a
// copy.
func (s *Service) resolveAgentOverridesLocked(workspaceID, field string, raw json.RawMessage) (*agents.Version, error) {
	var body agentOverridesBody
	if err := kit.DecodeAt(field, raw, &body); err != nil {
		return nil, err
	}
	// The reference part resolves exactly like {type: agent, id, version},
	// with the same messages, so it is handed to resolveAgentRefLocked.
	ref := map[string]json.RawMessage{"type": json.RawMessage(`"agent"`)}
	if body.ID.Set {
		ref["id"] = kit.RawOrNil(body.ID)
	}
	if body.Version.Set {
		ref["version"] = kit.RawOrNil(body.Version)
	}
	refJSON, err := json.Marshal(ref)
	if err != nil {
		return nil, err
	}
	v, err := s.deps.ResolveAgentLocked(workspaceID, field, refJSON)
	if err != nil {
		return nil, err
	}
	o := *v
	if body.Model.Set {
		if err := kit.NotNull(kit.JoinPath(field, "model"), body.Model); err != nil {
			return nil, err
		}
		if o.Model, err = agents.ParseModelConfig(kit.JoinPath(field, "model"), body.Model.Value, nil); err != nil {
			return nil, err
		}
	}
	if o.System, err = kit.ClearableString(kit.JoinPath(field, "system"), body.System, o.System, maxSystemPrompt); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		o    kit.Optional[json.RawMessage]
	}{{"tools", body.Tools}, {"mcp_servers", body.MCPServers}} {
		if err := kit.NotNull(kit.JoinPath(field, f.name), f.o); err != nil {
			return nil, err
		}
	}
	if o.Tools, err = agents.ParseTools(field, kit.RawOrNil(body.Tools), kit.RawOrNil(body.MCPServers), v.Tools); err != nil {
		return nil, err
	}
	if body.Skills.Set {
		if err := kit.NotNull(kit.JoinPath(field, "skills"), body.Skills); err != nil {
			return nil, err
		}
		if o.Skills, err = agents.ParseSkills(kit.JoinPath(field, "skills"), body.Skills.Value); err != nil {
			return nil, err
		}
		if s.deps.ResolveSkillsLocked != nil {
			if err := s.deps.ResolveSkillsLocked(workspaceID, kit.JoinPath(field, "skills"), o.Skills); err != nil {
				return nil, err
			}
		}
	}
	return &o, nil
}
