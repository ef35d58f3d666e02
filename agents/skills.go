package agents

import "encoding/json"

// Skill is one skill of an agent: VendorSkill, CustomSkill or UnknownSkill
// (a type newer than this SDK, kept intact). Switch on the
// concrete type:
//
//	switch s := skill.(type) {
//	case agents.VendorSkill: …
//	case agents.CustomSkill: …
//	}
type Skill interface{ isSkill() }

// VendorSkill is a skill managed by the platform (type "vendor").
type VendorSkill struct {
	SkillID string `json:"skill_id"` // 1 to 64 characters
	// Version is a skill version, 1 to 64 characters. In a request ""
	// means the latest; responses always carry a version ("latest" when
	// none was pinned).
	Version string `json:"version,omitzero"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// CustomSkill is a skill uploaded by the organization (type "custom").
type CustomSkill struct {
	SkillID string `json:"skill_id"`         // a skill_… id
	Version string `json:"version,omitzero"` // as VendorSkill.Version
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// UnknownSkill is a skill type this SDK does not know, kept as received.
type UnknownSkill struct {
	Type string          // the "type" member
	JSON json.RawMessage // the whole object, written back unchanged
}

func (VendorSkill) isSkill()  {}
func (CustomSkill) isSkill()  {}
func (UnknownSkill) isSkill() {}
