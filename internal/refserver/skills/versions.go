package skills

import (
	"archive/zip"
	"bytes"
	"mime"
	"net/http"
	"slices"
	"strconv"

	"github.com/agentplatform/agentplatform-go/internal/refserver/kit"
	"github.com/agentplatform/agentplatform-go/internal/skillmd"
)

func (s *Service) createVersion(c *kit.Call) error {
	id := c.R.PathValue("skill_id")
	// The skill is checked before the body is read, and again after.
	s.mu.Lock()
	_, err := s.skillLocked(c.WorkspaceID, id)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	up, err := readUpload(c, false)
	if err != nil || up == nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, err := s.skillLocked(c.WorkspaceID, id)
	if err != nil {
		return err
	}
	if p := skillmd.SameName(sk.name, up.manifest.Name); p != nil {
		return kit.InvalidField(p.Field, "%s", p.Rule)
	}
	v := s.newVersion(sk.id, up, c.Now())
	sk.versions = append(sk.versions, v)
	return c.OK(v.view())
}

func (s *Service) listVersions(c *kit.Call) error {
	p, err := kit.ParseCursorPageParams(c.R.URL.Query(), 1000)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, err := s.skillLocked(c.WorkspaceID, c.R.PathValue("skill_id"))
	if err != nil {
		return err
	}
	newest := slices.Clone(sk.versions)
	slices.SortFunc(newest, kit.NewestFirst((*version).position))
	page := kit.PaginateByCursor(newest, (*version).position, func(*version) bool { return true }, p)
	return c.OK(kit.MapCursorPage(page, (*version).view))
}

// versionLocked finds the path's version; aliasOK accepts "latest".
func (s *Service) versionLocked(c *kit.Call, aliasOK bool) (*skill, *version, error) {
	sk, err := s.skillLocked(c.WorkspaceID, c.R.PathValue("skill_id"))
	if err != nil {
		return nil, nil, err
	}
	id := c.R.PathValue("version")
	if id == latest && aliasOK {
		return sk, sk.latest(), nil
	}
	v := sk.version(id)
	if v == nil {
		return nil, nil, kit.NotFound("Skill version `%s` not found.", id)
	}
	return sk, v, nil
}

func (s *Service) getVersion(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, v, err := s.versionLocked(c, true)
	if err != nil {
		return err
	}
	return c.OK(v.view())
}

func (s *Service) deleteVersion(c *kit.Call) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sk, v, err := s.versionLocked(c, false)
	if err != nil {
		return err
	}
	if len(sk.versions) == 1 {
		return kit.InvalidField("version", "the only version of a skill cannot be deleted; delete the skill")
	}
	sk.versions = slices.DeleteFunc(sk.versions, func(x *version) bool { return x == v })
	return c.OK(deletedJSON{ID: v.id, Type: "skill_version_deleted"})
}

// download writes the version's files as a zip archive under one directory
// named after the skill (docs/skills-wire.md 4). A version is at most
// skillmd.MaxTotalBytes, so the archive is built in memory.
func (s *Service) download(c *kit.Call) error {
	s.mu.Lock()
	_, v, err := s.versionLocked(c, false)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range v.files { // immutable: read without the lock
		w, err := zw.CreateHeader(&zip.FileHeader{Name: v.name + "/" + f.path, Method: zip.Store, Modified: v.createdAt})
		if err != nil {
			return err
		}
		if _, err := w.Write(f.data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	h := c.W.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": v.name + ".zip"}))
	c.W.WriteHeader(http.StatusOK)
	_, _ = c.W.Write(buf.Bytes())
	return nil
}
