package skills

import (
	"encoding/json"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/wire"
)

// Skill is a skill (type "skill").
type Skill struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	// DisplayName is a label for people: the one given at creation, or the
	// skill's name. It is not unique.
	DisplayName string `json:"display_name"`
	// LatestVersionID is the newest version, which "latest" resolves to.
	LatestVersionID string    `json:"latest_version_id"`
	Source          Source    `json:"source"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Source says where a skill comes from.
type Source struct {
	// Type is "custom" for uploaded skills, "vendor" for the platform's
	// own; "vendor_example" and "plugin" exist too.
	Type string `json:"type"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Version is an immutable version of a skill (type "skill_version").
type Version struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	SkillID string `json:"skill_id"`
	// Name is the skill's kebab-case name, from SKILL.md (or its
	// directory); every version of a skill has the same. It is the
	// top-level directory of a downloaded archive.
	Name string `json:"name"`
	// Description is SKILL.md's description.
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

// Deleted is the answer to a deletion: type "skill_deleted" or
// "skill_version_deleted".
type Deleted struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// Extra holds the members this SDK does not know, kept as received and
	// written back by MarshalJSON.
	Extra map[string]json.RawMessage `json:",embed"`
}

type (
	plainSkill   Skill
	plainSource  Source
	plainVersion Version
	plainDeleted Deleted
)

// MarshalJSON writes the skill as the API sends it, Extra included.
func (s Skill) MarshalJSON() ([]byte, error) { return wire.Marshal(plainSkill(s)) }

// UnmarshalJSON reads a skill, keeping unknown members in Extra.
func (s *Skill) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainSkill)(s)) }

// MarshalJSON writes the source as the API sends it, Extra included.
func (s Source) MarshalJSON() ([]byte, error) { return wire.Marshal(plainSource(s)) }

// UnmarshalJSON reads a source, keeping unknown members in Extra.
func (s *Source) UnmarshalJSON(data []byte) error { return wire.Unmarshal(data, (*plainSource)(s)) }

// MarshalJSON writes the version as the API sends it, Extra included.
func (v Version) MarshalJSON() ([]byte, error) { return wire.Marshal(plainVersion(v)) }

// UnmarshalJSON reads a version, keeping unknown members in Extra.
func (v *Version) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainVersion)(v))
}

// MarshalJSON writes the answer as the API sends it, Extra included.
func (d Deleted) MarshalJSON() ([]byte, error) { return wire.Marshal(plainDeleted(d)) }

// UnmarshalJSON reads the answer, keeping unknown members in Extra.
func (d *Deleted) UnmarshalJSON(data []byte) error {
	return wire.Unmarshal(data, (*plainDeleted)(d))
}
