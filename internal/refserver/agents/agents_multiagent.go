package agents

import (
	"encoding/json"
	"strconv"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Multiagent configuration (docs/managed-agents-wire.md 3.7): the variants
// coordinator and multiagent_20261001, and roster entries resolved at write
// time. Resolved references are pinned *Version values; since versions
// are immutable, a session can later expand them into full definitions.

const (
	maMaxRoster           = 20
	multiagentV1          = "multiagent_20261001"
	MultiagentCoordinator = "coordinator"
	RosterKindAgent       = "agent"
	RosterKindSelf        = "self"
	RosterKindAdvisor     = "advisor"
	toggleEnabled         = "enabled"
	toggleDisabled        = "disabled"
)

// RosterEntry is a resolved roster entry: an agent version, the owning
// agent itself (resolved to the version being written when rendered), or
// a coordinator's advisor model.
type RosterEntry struct {
	Kind         string   // RosterKindAgent, RosterKindSelf or RosterKindAdvisor
	Agent        *Version // RosterKindAgent
	AdvisorModel string   // RosterKindAdvisor
}

// Delegation is a resolved subagents or workflows setting.
type Delegation struct {
	Enabled    bool
	Inline     bool // inline_agents enabled
	Predefined []RosterEntry
}

func defaultDelegation() Delegation {
	return Delegation{Enabled: true, Inline: true, Predefined: []RosterEntry{}}
}

// Multiagent is a resolved multiagent value.
type Multiagent struct {
	Type   string
	Roster []RosterEntry // coordinator

	AdvisorEnabled bool   // multiagent_20261001
	AdvisorModel   string // when advisorEnabled
	Subagents      Delegation
	Workflows      Delegation
}

// rosterView renders an entry on an agent ({type:agent,id,version} or
// {type:advisor,model}) or, for a session, expands agents into thread agent
// definitions.
func (e RosterEntry) view(owner *Version, session bool) any {
	switch e.Kind {
	case RosterKindAdvisor:
		return struct {
			Type  string `json:"type"`
			Model string `json:"model"`
		}{RosterKindAdvisor, e.AdvisorModel}
	case RosterKindSelf:
		if session {
			return owner.threadAgentJSON()
		}
		return owner.ReferenceJSON()
	}
	if session {
		return e.Agent.threadAgentJSON()
	}
	return e.Agent.ReferenceJSON()
}

type toggleJSON struct {
	Type string `json:"type"`
}

func toggle(on bool) toggleJSON {
	if on {
		return toggleJSON{toggleEnabled}
	}
	return toggleJSON{toggleDisabled}
}

type delegationJSON struct {
	Type             string     `json:"type"`
	InlineAgents     toggleJSON `json:"inline_agents"`
	PredefinedAgents []any      `json:"predefined_agents"`
}

func (d Delegation) view(owner *Version, session bool) any {
	if !d.Enabled {
		return toggle(false)
	}
	agents := make([]any, len(d.Predefined))
	for i, e := range d.Predefined {
		agents[i] = e.view(owner, session)
	}
	return delegationJSON{Type: toggleEnabled, InlineAgents: toggle(d.Inline), PredefinedAgents: agents}
}

type coordinatorJSON struct {
	Type   string `json:"type"`
	Agents []any  `json:"agents"`
}

type multiagentV1JSON struct {
	Type      string `json:"type"`
	Advisor   any    `json:"advisor"`
	Subagents any    `json:"subagents"`
	Workflows any    `json:"workflows"`
}

// view renders m for owner; session expands agent references (3.7,
// "Multiagent on a session"). A nil m renders as null.
func (m *Multiagent) view(owner *Version, session bool) any {
	if m == nil {
		return nil
	}
	if m.Type == MultiagentCoordinator {
		agents := make([]any, len(m.Roster))
		for i, e := range m.Roster {
			agents[i] = e.view(owner, session)
		}
		return coordinatorJSON{Type: MultiagentCoordinator, Agents: agents}
	}
	var advisor any = toggle(false)
	if m.AdvisorEnabled {
		advisor = struct {
			Type  string `json:"type"`
			Model string `json:"model"`
		}{toggleEnabled, m.AdvisorModel}
	}
	return multiagentV1JSON{Type: multiagentV1, Advisor: advisor,
		Subagents: m.Subagents.view(owner, session), Workflows: m.Workflows.view(owner, session)}
}

// modelIDs lists the models m can run besides the owner's own: roster and
// predefined agents' models and the advisor model. self adds nothing new.
func (m *Multiagent) modelIDs() []string {
	if m == nil {
		return nil
	}
	var ids []string
	add := func(entries []RosterEntry) {
		for _, e := range entries {
			switch e.Kind {
			case RosterKindAgent:
				ids = append(ids, e.Agent.Model.ID)
			case RosterKindAdvisor:
				ids = append(ids, e.AdvisorModel)
			}
		}
	}
	add(m.Roster)
	if m.AdvisorEnabled {
		ids = append(ids, m.AdvisorModel)
	}
	if m.Subagents.Enabled {
		add(m.Subagents.Predefined)
	}
	if m.Workflows.Enabled {
		add(m.Workflows.Predefined)
	}
	return ids
}

// multiagentOwner names the agent a multiagent value is written for: its id
// and the version being written, which is what {"type":"self"} means.
type multiagentOwner struct {
	workspaceID string
	agentID     string
	version     int
}

func (o multiagentOwner) key() string { return o.agentID + "@" + strconv.Itoa(o.version) }

// parseMultiagentLocked reads a non-null multiagent at path. stored is the
// current value on update (nil on create): a multiagent_20261001 update of
// a multiagent_20261001 value is merged level by level; anything else
// replaces.
func (s *Service) parseMultiagentLocked(path string, raw json.RawMessage, stored *Multiagent, owner multiagentOwner) (*Multiagent, error) {
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return nil, err
	}
	switch typ {
	case MultiagentCoordinator:
		return s.parseCoordinatorLocked(path, raw, owner)
	case multiagentV1:
		base := &Multiagent{Type: multiagentV1, Subagents: defaultDelegation(), Workflows: defaultDelegation()}
		if stored != nil && stored.Type == multiagentV1 {
			copied := *stored
			base = &copied
		}
		return s.parseMultiagentV1Locked(path, raw, base, owner)
	}
	return nil, kit.BadType(path, MultiagentCoordinator, multiagentV1)
}

type coordinatorBody struct {
	Type   kit.Optional[string]            `json:"type"`
	Agents kit.Optional[[]json.RawMessage] `json:"agents"`
}

func (s *Service) parseCoordinatorLocked(path string, raw json.RawMessage, owner multiagentOwner) (*Multiagent, error) {
	var body coordinatorBody
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	ap := kit.JoinPath(path, "agents")
	if err := kit.Required(ap, body.Agents); err != nil {
		return nil, err
	}
	if err := kit.CheckCount(ap, len(body.Agents.Value), 1, maMaxRoster); err != nil {
		return nil, err
	}
	roster, err := s.parseRosterLocked(ap, body.Agents.Value, true, owner)
	if err != nil {
		return nil, err
	}
	return &Multiagent{Type: MultiagentCoordinator, Roster: roster}, nil
}

// parseRosterLocked resolves roster entries and checks that they are
// distinct after resolution, with at most one self and one advisor.
func (s *Service) parseRosterLocked(path string, items []json.RawMessage, allowAdvisor bool, owner multiagentOwner) ([]RosterEntry, error) {
	out := make([]RosterEntry, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		p := kit.IndexPath(path, i)
		e, err := s.parseRosterEntryLocked(p, item, allowAdvisor, owner)
		if err != nil {
			return nil, err
		}
		var key, shown string
		switch e.Kind {
		case RosterKindAdvisor:
			key, shown = "advisor", "advisor"
			if seen[key] {
				return nil, kit.InvalidField(p, "duplicate advisor `%s`", e.AdvisorModel)
			}
		case RosterKindSelf:
			// Only another self can resolve to the version being written.
			key, shown = owner.key(), "self"
		default:
			key, shown = e.Agent.Agent.ID+"@"+strconv.Itoa(e.Agent.Version), e.Agent.Agent.ID
		}
		if seen[key] {
			return nil, kit.InvalidField(p, "duplicate agent `%s`", shown)
		}
		seen[key] = true
		out = append(out, e)
	}
	return out, nil
}

type rosterAdvisorBody struct {
	Type  kit.Optional[string] `json:"type"`
	Model kit.Optional[string] `json:"model"`
}

func (s *Service) parseRosterEntryLocked(path string, raw json.RawMessage, allowAdvisor bool, owner multiagentOwner) (RosterEntry, error) {
	if kit.JSONKind(raw) == '"' || kit.JSONKind(raw) == '{' {
		if kit.JSONKind(raw) == '{' {
			typ, err := kit.TypeAt(path, raw)
			if err != nil {
				return RosterEntry{}, err
			}
			switch typ {
			case RosterKindSelf:
				var body struct {
					Type kit.Optional[string] `json:"type"`
				}
				return RosterEntry{Kind: RosterKindSelf}, kit.DecodeAt(path, raw, &body)
			case RosterKindAdvisor:
				if !allowAdvisor {
					break
				}
				var body rosterAdvisorBody
				if err := kit.DecodeAt(path, raw, &body); err != nil {
					return RosterEntry{}, err
				}
				mp := kit.JoinPath(path, "model")
				if err := kit.Required(mp, body.Model); err != nil {
					return RosterEntry{}, err
				}
				if err := kit.CheckLength(mp, body.Model.Value, 1, 256); err != nil {
					return RosterEntry{}, err
				}
				return RosterEntry{Kind: RosterKindAdvisor, AdvisorModel: body.Model.Value}, checkModelID(mp, body.Model.Value)
			case RosterKindAgent:
			}
			if typ != RosterKindAgent {
				if allowAdvisor {
					return RosterEntry{}, kit.BadType(path, RosterKindAgent, RosterKindSelf, RosterKindAdvisor)
				}
				return RosterEntry{}, kit.BadType(path, RosterKindAgent, RosterKindSelf)
			}
		}
		v, err := s.resolveAgentRefLocked(owner.workspaceID, path, raw)
		if err != nil {
			return RosterEntry{}, err
		}
		if v.Multiagent != nil {
			return RosterEntry{}, kit.InvalidField(path, "agent `%s` has multiagent set; nesting is not allowed", v.Agent.ID)
		}
		return RosterEntry{Kind: RosterKindAgent, Agent: v}, nil
	}
	if kit.IsNull(raw) {
		return RosterEntry{}, kit.InvalidField(path, "must not be null")
	}
	return RosterEntry{}, kit.InvalidField(path, "must be an agent id string or an object")
}

type multiagentV1Body struct {
	Type      kit.Optional[string]          `json:"type"`
	Advisor   kit.Optional[json.RawMessage] `json:"advisor"`
	Subagents kit.Optional[json.RawMessage] `json:"subagents"`
	Workflows kit.Optional[json.RawMessage] `json:"workflows"`
}

type advisorBody struct {
	Type  kit.Optional[string] `json:"type"`
	Model kit.Optional[string] `json:"model"`
}

type delegationBody struct {
	Type             kit.Optional[string]            `json:"type"`
	InlineAgents     kit.Optional[json.RawMessage]   `json:"inline_agents"`
	PredefinedAgents kit.Optional[[]json.RawMessage] `json:"predefined_agents"`
}

// parseMultiagentV1Locked merges a multiagent_20261001 body onto base (the
// stored value of the same variant, or the defaults): omitted keys keep,
// null takes the default, an object of another type replaces (its omitted
// keys take defaults). Validation applies to the merged result.
func (s *Service) parseMultiagentV1Locked(path string, raw json.RawMessage, base *Multiagent, owner multiagentOwner) (*Multiagent, error) {
	var body multiagentV1Body
	if err := kit.DecodeAt(path, raw, &body); err != nil {
		return nil, err
	}
	m := base
	m.Roster = nil
	if body.Advisor.Set {
		ap := kit.JoinPath(path, "advisor")
		if body.Advisor.Null {
			m.AdvisorEnabled, m.AdvisorModel = false, ""
		} else {
			typ, err := kit.TypeAt(ap, body.Advisor.Value)
			if err != nil {
				return nil, err
			}
			if typ != toggleEnabled && typ != toggleDisabled {
				return nil, kit.BadType(ap, toggleEnabled, toggleDisabled)
			}
			var ab advisorBody
			if err := kit.DecodeAt(ap, body.Advisor.Value, &ab); err != nil {
				return nil, err
			}
			mp := kit.JoinPath(ap, "model")
			if typ == toggleDisabled {
				if ab.Model.Set {
					return nil, kit.InvalidField(mp, "unknown field")
				}
				m.AdvisorEnabled, m.AdvisorModel = false, ""
			} else {
				if !m.AdvisorEnabled {
					m.AdvisorModel = "" // another type replaces: its omitted model takes no value
				}
				m.AdvisorEnabled = true
				if err := kit.NotNull(mp, ab.Model); err != nil {
					return nil, err
				}
				if ab.Model.Set {
					if err := kit.CheckLength(mp, ab.Model.Value, 1, 256); err != nil {
						return nil, err
					}
					if err := checkModelID(mp, ab.Model.Value); err != nil {
						return nil, err
					}
					m.AdvisorModel = ab.Model.Value
				}
				if m.AdvisorModel == "" {
					return nil, kit.InvalidField(mp, "is required")
				}
			}
		}
	}
	var err error
	if m.Subagents, err = s.mergeDelegationLocked(kit.JoinPath(path, "subagents"), body.Subagents, m.Subagents, owner); err != nil {
		return nil, err
	}
	if m.Workflows, err = s.mergeDelegationLocked(kit.JoinPath(path, "workflows"), body.Workflows, m.Workflows, owner); err != nil {
		return nil, err
	}
	return m, nil
}

func (s *Service) mergeDelegationLocked(path string, o kit.Optional[json.RawMessage], cur Delegation, owner multiagentOwner) (Delegation, error) {
	if !o.Set {
		return cur, nil
	}
	if o.Null {
		return defaultDelegation(), nil
	}
	typ, err := kit.TypeAt(path, o.Value)
	if err != nil {
		return cur, err
	}
	if typ != toggleEnabled && typ != toggleDisabled {
		return cur, kit.BadType(path, toggleEnabled, toggleDisabled)
	}
	var body delegationBody
	if err := kit.DecodeAt(path, o.Value, &body); err != nil {
		return cur, err
	}
	if typ == toggleDisabled {
		for _, f := range []struct {
			key string
			set bool
		}{{"inline_agents", body.InlineAgents.Set}, {"predefined_agents", body.PredefinedAgents.Set}} {
			if f.set {
				return cur, kit.InvalidField(kit.JoinPath(path, f.key), "unknown field")
			}
		}
		return Delegation{Predefined: []RosterEntry{}}, nil
	}
	d := cur
	if !d.Enabled {
		d = defaultDelegation() // another type replaces: omitted keys take defaults
	}
	if body.InlineAgents.Set {
		d.Inline = true
		if body.InlineAgents.Present() {
			ip := kit.JoinPath(path, "inline_agents")
			ityp, err := kit.TypeAt(ip, body.InlineAgents.Value)
			if err != nil {
				return cur, err
			}
			if ityp != toggleEnabled && ityp != toggleDisabled {
				return cur, kit.BadType(ip, toggleEnabled, toggleDisabled)
			}
			var tb struct {
				Type kit.Optional[string] `json:"type"`
			}
			if err := kit.DecodeAt(ip, body.InlineAgents.Value, &tb); err != nil {
				return cur, err
			}
			d.Inline = ityp == toggleEnabled
		}
	}
	pp := kit.JoinPath(path, "predefined_agents")
	if body.PredefinedAgents.Set {
		d.Predefined = []RosterEntry{}
		if body.PredefinedAgents.Present() {
			if err := kit.CheckCount(pp, len(body.PredefinedAgents.Value), 0, maMaxRoster); err != nil {
				return cur, err
			}
			if d.Predefined, err = s.parseRosterLocked(pp, body.PredefinedAgents.Value, false, owner); err != nil {
				return cur, err
			}
		}
	}
	if !d.Inline && len(d.Predefined) == 0 {
		return cur, kit.InvalidField(pp, "must name at least one agent when inline_agents is disabled")
	}
	return d, nil
}
