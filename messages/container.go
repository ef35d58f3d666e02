package messages

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// ContainerParams is MessageParams.Container: the code-execution container
// to reuse (ID, "container_…"), the skills to load into it, or both. With
// no skills it is sent as the bare id, the form every API version accepts;
// with skills as {"id"?, "skills"}, where an empty ID starts a new
// container with those skills.
type ContainerParams struct {
	ID     string        `json:"id,omitzero"`
	Skills []SkillParams `json:"skills,omitzero"`
}

// SkillParams is a skill to load into the container.
type SkillParams struct {
	SkillID string    `json:"skill_id"`
	Type    SkillType `json:"type"` // SkillVendor or SkillCustom
	// Version is a skill version, or "latest" (the default when empty).
	Version string `json:"version,omitzero"`
}

// SkillType says who provides a skill. Unknown values are kept.
type SkillType string

const (
	SkillVendor SkillType = "vendor" // built in
	SkillCustom SkillType = "custom" // uploaded by the organization
)

// ContainerSkill is a skill loaded in a response's Container.
type ContainerSkill struct {
	SkillID string    `json:"skill_id"`
	Type    SkillType `json:"type"`
	// Version is the resolved version ("latest" as requested, or a
	// version id).
	Version string `json:"version"`
	// Extra holds the members this SDK does not know, kept as received
	// and written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type (
	plainContainerParams ContainerParams
	plainContainerSkill  ContainerSkill
)

// MarshalJSON writes the bare id when there are no skills, else the object.
func (c ContainerParams) MarshalJSON() ([]byte, error) {
	if len(c.Skills) == 0 && c.ID != "" {
		return json.Marshal(c.ID)
	}
	return json.Marshal(plainContainerParams(c))
}

// UnmarshalJSON reads either form back, as stored with a conversation.
func (c *ContainerParams) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		*c = ContainerParams{}
		return json.Unmarshal(data, &c.ID)
	}
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("container: want a string or an object, got %.20s", data)
	}
	var p plainContainerParams
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*c = ContainerParams(p)
	return nil
}

func (s ContainerSkill) MarshalJSON() ([]byte, error) { return wire.Marshal(plainContainerSkill(s)) }
func (s *ContainerSkill) UnmarshalJSON(data []byte) error {
	return unmarshal(data, (*plainContainerSkill)(s), &s.Extra)
}
