package agents

import (
	"encoding/json"
	"strings"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// Skills and execution identity (docs/managed-agents-wire.md 3.3, 3.6).

const maMaxSkills = 20

// Skill is a resolved Skill. A vendor skill's version is "latest" when
// none was given (**choice**: no catalogue of vendor skills); a custom
// skill's is, once ResolveSkillsLocked has run, the skill's latest version
// id then (docs/skills-wire.md 5).
type Skill struct {
	typ     string // "vendor" or "custom"
	skillID string
	version string
	name    string // a custom skill's name, set by ResolveSkillsLocked
	given   bool   // the request named a version
}

// Name is a custom skill's name, from its manifest; "" for a vendor skill.
func (sk Skill) Name() string { return sk.name }

// ResolveSkillsLocked checks the custom skills of a list parsed at path
// (ParseSkills) against the workspace's skills, through
// Deps.ResolveSkillLocked: 404 naming path[i].skill_id or path[i].version
// for a skill or version that does not exist. It fills in their names and
// the versions of those that named none. Without that lookup it does
// nothing. The caller holds Deps.Lock.
func (s *Service) ResolveSkillsLocked(workspaceID, path string, skills []Skill) error {
	if s.resolveSkillLocked == nil {
		return nil
	}
	for i := range skills {
		sk := &skills[i]
		if sk.typ != "custom" {
			continue
		}
		version := ""
		if sk.given {
			version = sk.version
		}
		name, resolved, err := s.resolveSkillLocked(workspaceID, kit.IndexPath(path, i), sk.skillID, version)
		if err != nil {
			return err
		}
		sk.name, sk.version = name, resolved
	}
	return nil
}

type skillJSON struct {
	Type    string `json:"type"`
	SkillID string `json:"skill_id"`
	Version string `json:"version"`
}

func (sk Skill) view() skillJSON {
	return skillJSON{Type: sk.typ, SkillID: sk.skillID, Version: sk.version}
}

type skillBody struct {
	Type    kit.Optional[string] `json:"type"`
	SkillID kit.Optional[string] `json:"skill_id"`
	Version kit.Optional[string] `json:"version"`
}

// ParseSkills reads a skills array at path (at most 20; no duplicate
// (type, skill_id)). Session create with overrides can call it too.
func ParseSkills(path string, raw json.RawMessage) ([]Skill, error) {
	items, err := kit.ArrayAt(path, raw)
	if err != nil {
		return nil, err
	}
	if err := kit.CheckCount(path, len(items), 0, maMaxSkills); err != nil {
		return nil, err
	}
	out := make([]Skill, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		p := kit.IndexPath(path, i)
		typ, err := kit.TypeAt(p, item)
		if err != nil {
			return nil, err
		}
		if typ != "vendor" && typ != "custom" {
			return nil, kit.BadType(p, "vendor", "custom")
		}
		var body skillBody
		if err := kit.DecodeAt(p, item, &body); err != nil {
			return nil, err
		}
		idPath := kit.JoinPath(p, "skill_id")
		if err := kit.Required(idPath, body.SkillID); err != nil {
			return nil, err
		}
		if err := kit.CheckLength(idPath, body.SkillID.Value, 1, 64); err != nil {
			return nil, err
		}
		if typ == "custom" && !strings.HasPrefix(body.SkillID.Value, "skill_") {
			return nil, kit.InvalidField(idPath, "must be a custom skill id (`skill_…`)")
		}
		sk := Skill{typ: typ, skillID: body.SkillID.Value, version: "latest"}
		if body.Version.Present() {
			if err := kit.CheckLength(kit.JoinPath(p, "version"), body.Version.Value, 1, 64); err != nil {
				return nil, err
			}
			sk.version, sk.given = body.Version.Value, true
		}
		key := typ + "\x00" + sk.skillID
		if seen[key] {
			return nil, kit.InvalidField(idPath, "duplicate skill `%s`", sk.skillID)
		}
		seen[key] = true
		out = append(out, sk)
	}
	return out, nil
}

// executionIdentity is a resolved execution identity; roleARN is set for
// cloud_role and aws_role only. aws_role is the name current official
// clients use for cloud_role: the same rules, and typ keeps the name the
// request used, so a response echoes it.
type executionIdentity struct {
	typ     string // "service_account", "cloud_role" or "aws_role"
	roleARN string
}

var serviceAccountIdentity = executionIdentity{typ: "service_account"}

type executionIdentityJSON struct {
	Type    string `json:"type"`
	RoleARN string `json:"role_arn,omitempty"`
}

func (e executionIdentity) view() executionIdentityJSON {
	return executionIdentityJSON{Type: e.typ, RoleARN: e.roleARN}
}

type cloudRoleBody struct {
	Type    kit.Optional[string] `json:"type"`
	RoleARN kit.Optional[string] `json:"role_arn"`
}

// parseExecutionIdentity reads a non-null execution_identity at path.
func parseExecutionIdentity(path string, raw json.RawMessage) (executionIdentity, error) {
	typ, err := kit.TypeAt(path, raw)
	if err != nil {
		return executionIdentity{}, err
	}
	switch typ {
	case "service_account":
		var body struct {
			Type kit.Optional[string] `json:"type"`
		}
		return serviceAccountIdentity, kit.DecodeAt(path, raw, &body)
	case "cloud_role", "aws_role":
		var body cloudRoleBody
		if err := kit.DecodeAt(path, raw, &body); err != nil {
			return executionIdentity{}, err
		}
		p := kit.JoinPath(path, "role_arn")
		if err := kit.Required(p, body.RoleARN); err != nil {
			return executionIdentity{}, err
		}
		if err := kit.CheckLength(p, body.RoleARN.Value, 1, 2048); err != nil {
			return executionIdentity{}, err
		}
		return executionIdentity{typ: typ, roleARN: body.RoleARN.Value}, nil
	}
	return executionIdentity{}, kit.BadType(path, "service_account", "cloud_role", "aws_role")
}
