package conformance_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/skills"
)

// TestSkills uploads a skill, adds a version, reads, lists and downloads
// them, references the skill from an agent, and deletes it. The skill's
// name is "conformance-" and a random suffix; its display name is the
// test's usual resource name.
func TestSkills(t *testing.T) {
	tg := target(t)
	ctx := tg.ctx(t)
	c := tg.Client

	slug := "conformance-" + strings.ToLower(rand.Text()[:10])
	files := func(description string) skills.Files {
		return skills.FS(fstest.MapFS{
			"SKILL.md":       {Data: []byte("---\nname: " + slug + "\ndescription: " + description + "\n---\n# Conformance\n")},
			"notes/hello.md": {Data: []byte("hello\n")},
		})
	}
	display := name(t)
	sk, err := c.Skills.Create(ctx, skills.CreateParams{Files: files("First version."), DisplayName: display})
	if !tg.Reference() && errors.Is(err, apierror.ErrPermission) {
		t.Skipf("skills are not available to this key on %s: %v", tg.Desc, err)
	}
	if err != nil {
		t.Fatalf("create skill: %v", err)
	}
	cleanup(t, "delete skill "+sk.ID, func(ctx context.Context) error {
		_, err := c.Skills.Delete(ctx, sk.ID)
		if errors.Is(err, apierror.ErrNotFound) {
			return nil // the test deleted it
		}
		return err
	})
	if sk.Type != "skill" || !strings.HasPrefix(sk.ID, "skill_") || sk.DisplayName != display || sk.Source.Type != "custom" || sk.LatestVersionID == "" {
		t.Fatalf("created skill: %+v", sk)
	}
	v2, err := c.Skills.Versions.Create(ctx, sk.ID, skills.CreateVersionParams{Files: files("Second version.")})
	if err != nil {
		t.Fatalf("create version: %v", err)
	}
	latest, err := c.Skills.Versions.Get(ctx, sk.ID, "latest")
	if err != nil || latest.ID != v2.ID || latest.Name != slug || latest.Description != "Second version." {
		t.Fatalf("latest version: %v, %+v", err, latest)
	}
	n := 0
	for v, err := range c.Skills.Versions.All(ctx, sk.ID, skills.VersionListParams{}) {
		if err != nil {
			t.Fatalf("list versions: %v", err)
		}
		if v.SkillID != sk.ID {
			t.Fatalf("listed version of another skill: %+v", v)
		}
		n++
	}
	if n != 2 {
		t.Fatalf("%d versions, want 2", n)
	}
	found := false
	for x, err := range c.Skills.All(ctx, skills.ListParams{Source: "custom"}) {
		if err != nil {
			t.Fatalf("list skills: %v", err)
		}
		found = found || x.ID == sk.ID
	}
	if !found {
		t.Errorf("skill %s is not listed", sk.ID)
	}

	d, err := c.Skills.Versions.Download(ctx, sk.ID, v2.ID)
	if err != nil {
		t.Fatalf("download: %v", err)
	}
	data, err := io.ReadAll(d)
	_ = d.Close()
	if err != nil {
		t.Fatalf("read download: %v", err)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("download is not a zip archive: %v", err)
	}
	entries := map[string]bool{}
	for _, f := range zr.File {
		entries[f.Name] = true
	}
	if !entries[slug+"/SKILL.md"] || !entries[slug+"/notes/hello.md"] {
		t.Fatalf("archive entries %v", entries)
	}

	// An agent references the skill; a missing one is refused.
	a := newAgent(t, tg, agents.CreateParams{Skills: []agents.Skill{agents.CustomSkill{SkillID: sk.ID, Version: v2.ID}}})
	if len(a.Skills) != 1 || a.Skills[0].(agents.CustomSkill).Version != v2.ID {
		t.Fatalf("agent skills %+v", a.Skills)
	}
	_, err = c.Agents.Create(ctx, agents.CreateParams{Name: name(t), Model: agents.ModelID(tg.Model(t)), Metadata: metadata(),
		Skills: []agents.Skill{agents.CustomSkill{SkillID: sk.ID, Version: "skillver_01conformancemissing0"}}})
	wantStatus(t, err, 404)

	if _, err := c.Skills.Versions.Delete(ctx, sk.ID, v2.ID); err != nil {
		t.Fatalf("delete version: %v", err)
	}
	if _, err := c.Skills.Delete(ctx, sk.ID); err != nil {
		t.Fatalf("delete skill: %v", err)
	}
	if _, err := c.Skills.Get(ctx, sk.ID); !errors.Is(err, apierror.ErrNotFound) {
		t.Fatalf("get deleted skill: %v", err)
	}
}
