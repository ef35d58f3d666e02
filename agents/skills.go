package agents

import (
	"encoding/json"

	"github.com/agentplatform/agentplatform-go/internal/union"
)

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
}

// CustomSkill is a skill uploaded by the organization (type "custom").
type CustomSkill struct {
	SkillID string `json:"skill_id"`         // a skill_… id
	Version string `json:"version,omitzero"` // as VendorSkill.Version
}

// UnknownSkill is a skill type this SDK does not know. It marshals back
// exactly as received.
type UnknownSkill struct{ union.Raw }

func (VendorSkill) isSkill()  {}
func (CustomSkill) isSkill()  {}
func (UnknownSkill) isSkill() {}

func (s VendorSkill) MarshalJSON() ([]byte, error) {
	type plain VendorSkill
	return union.Marshal("vendor", plain(s))
}

func (s CustomSkill) MarshalJSON() ([]byte, error) {
	type plain CustomSkill
	return union.Marshal("custom", plain(s))
}

func decodeSkill(data []byte) (Skill, error) {
	typ, err := union.Type(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "vendor":
		var s VendorSkill
		return s, json.Unmarshal(data, &s)
	case "custom":
		var s CustomSkill
		return s, json.Unmarshal(data, &s)
	}
	return UnknownSkill{union.NewRaw(typ, data)}, nil
}
