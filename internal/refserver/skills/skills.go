package skills

import (
	"slices"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
)

// latest is the version alias the retrieve endpoint and agents accept.
const latest = "latest"

type skillState struct {
	byID map[string]*skill
	all  []*skill // newest first
}

// skill is a custom skill; versions is oldest first and never empty.
type skill struct {
	id, workspaceID string
	displayName     string
	name            string // the versions' name, fixed by the first
	createdAt       time.Time
	versions        []*version
}

func (sk *skill) latest() *version { return sk.versions[len(sk.versions)-1] }

func (sk *skill) version(id string) *version {
	for _, v := range sk.versions {
		if v.id == id {
			return v
		}
	}
	return nil
}

func (sk *skill) position() kit.Position { return kit.Position{CreatedAt: sk.createdAt, ID: sk.id} }

// version is an immutable version: its manifest and its files.
type version struct {
	id, skillID string
	name        string
	description string
	createdAt   time.Time
	files       []storedFile // by path
}

func (v *version) position() kit.Position { return kit.Position{CreatedAt: v.createdAt, ID: v.id} }

// storedFile is a file of a version; path is below the top-level
// directory (the archive puts it under the version's name).
type storedFile struct {
	path string
	data []byte
}

type sourceJSON struct {
	Type string `json:"type"`
}

type skillJSON struct {
	Type            string     `json:"type"`
	ID              string     `json:"id"`
	DisplayName     string     `json:"display_name"`
	LatestVersionID string     `json:"latest_version_id"`
	Source          sourceJSON `json:"source"`
	CreatedAt       time.Time  `json:"created_at"`
	UpdatedAt       time.Time  `json:"updated_at"`
}

func (sk *skill) view() skillJSON {
	l := sk.latest()
	return skillJSON{
		Type: "skill", ID: sk.id, DisplayName: sk.displayName, LatestVersionID: l.id,
		Source: sourceJSON{Type: "custom"}, CreatedAt: sk.createdAt, UpdatedAt: l.createdAt,
	}
}

type versionJSON struct {
	Type        string    `json:"type"`
	ID          string    `json:"id"`
	SkillID     string    `json:"skill_id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"created_at"`
}

func (v *version) view() versionJSON {
	return versionJSON{Type: "skill_version", ID: v.id, SkillID: v.skillID, Name: v.name, Description: v.description, CreatedAt: v.createdAt}
}

type deletedJSON struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// skillLocked finds a skill of the workspace by path id.
func (s *Service) skillLocked(workspaceID, id string) (*skill, error) {
	sk, ok := s.skills.byID[id]
	if !ok || sk.workspaceID != workspaceID {
		return nil, kit.NotFound("Skill `%s` not found.", id)
	}
	return sk, nil
}

func (s *Service) create(c *kit.Call) error {
	up, err := readUpload(c, true)
	if err != nil || up == nil {
		return err
	}
	now := c.Now()
	sk := &skill{id: s.ids("skill_"), workspaceID: c.WorkspaceID, name: up.manifest.Name, createdAt: now}
	sk.displayName = up.displayName
	if sk.displayName == "" {
		sk.displayName = up.manifest.Name
	}
	sk.versions = []*version{s.newVersion(sk.id, up, now)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skills.byID[sk.id] = sk
	s.skills.all = append(s.skills.all, sk)
	slices.SortFunc(s.skills.all, kit.NewestFirst((*skill).position))
	return c.OK(sk.view())
}

func (s *Service) newVersion(skillID string, up *upload, now time.Time) *version {
	return &version{id: s.ids("skillver_"), skillID: skillID, name: up.manifest.Name, description: up.manifest.Description, createdAt: now, files: up.files}
}

func (s *Service) list(c *kit.Call) error {
	q := c.R.URL.Query()
	p, err := kit.ParseCursorPageParams(q, 1000)
	if err != nil {
		return err
	}
	source, _ := kit.QueryValue(q, "source")
	switch source {
	case "", "custom", "vendor":
	default:
		return kit.InvalidField("source", "must be one of `custom`, `vendor`")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := func(sk *skill) bool { return sk.workspaceID == c.WorkspaceID && source != "vendor" }
	page := kit.PaginateByCursor(s.skills.all, (*skill).position, keep, p)
	return c.OK(kit.MapCursorPage(page, (*skill).view))
}

func (s *Service) get(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, err := s.skillLocked(c.WorkspaceID, c.R.PathValue("skill_id"))
	if err != nil {
		return err
	}
	return c.OK(sk.view())
}

func (s *Service) delete(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, err := s.skillLocked(c.WorkspaceID, c.R.PathValue("skill_id"))
	if err != nil {
		return err
	}
	delete(s.skills.byID, sk.id)
	s.skills.all = slices.DeleteFunc(s.skills.all, func(x *skill) bool { return x == sk })
	return c.OK(deletedJSON{ID: sk.id, Type: "skill_deleted"})
}
