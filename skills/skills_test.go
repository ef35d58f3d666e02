package skills_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/apierror"
	"github.com/agentplatform/agentplatform-go/internal/refserver"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/skills"
)

func TestSkillLifecycle(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()

	dir := skillDir(t, "release-notes", map[string]string{
		"SKILL.md":        manifest("release-notes", "Writes release notes."),
		"scripts/make.py": "print('notes')\n",
	})
	sk, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.Dir(dir), DisplayName: "Release notes"})
	require.NoError(t, err)
	require.Equal(t, "skill", sk.Type)
	require.True(t, strings.HasPrefix(sk.ID, "skill_"))
	require.Equal(t, "Release notes", sk.DisplayName)
	require.Equal(t, "custom", sk.Source.Type)

	got, err := client.Skills.Get(ctx, sk.ID)
	require.NoError(t, err)
	require.Equal(t, sk, got)

	v1, err := client.Skills.Versions.Get(ctx, sk.ID, "latest")
	require.NoError(t, err)
	require.Equal(t, sk.LatestVersionID, v1.ID)
	require.Equal(t, "release-notes", v1.Name)
	require.Equal(t, "Writes release notes.", v1.Description)

	// A new version from an fs.FS: its files go under the manifest's name.
	v2, err := client.Skills.Versions.Create(ctx, sk.ID, skills.CreateVersionParams{
		Files: skills.FS(skillFS("release-notes", "Writes better notes.", "templates/t.md", "# {{title}}")),
	})
	require.NoError(t, err)
	require.Equal(t, "Writes better notes.", v2.Description)
	var ids []string
	for v, err := range client.Skills.Versions.All(ctx, sk.ID, skills.VersionListParams{Limit: 1}) {
		require.NoError(t, err)
		ids = append(ids, v.ID)
	}
	require.Equal(t, []string{v2.ID, v1.ID}, ids, "newest first")

	d, err := client.Skills.Versions.Download(ctx, sk.ID, v1.ID)
	require.NoError(t, err)
	require.Equal(t, "release-notes.zip", d.Filename)
	require.Positive(t, d.Size)
	require.Equal(t, map[string]string{
		"release-notes/SKILL.md":        manifest("release-notes", "Writes release notes."),
		"release-notes/scripts/make.py": "print('notes')\n",
	}, unzip(t, d))
	require.NoError(t, d.Close())

	// A skill's only version cannot go; the skill takes its versions along.
	del, err := client.Skills.Versions.Delete(ctx, sk.ID, v2.ID)
	require.NoError(t, err)
	require.Equal(t, "skill_version_deleted", del.Type)
	_, err = client.Skills.Versions.Delete(ctx, sk.ID, v1.ID)
	reftest.RequireInvalid(t, err, "version: the only version of a skill cannot be deleted; delete the skill")
	del, err = client.Skills.Delete(ctx, sk.ID)
	require.NoError(t, err)
	require.Equal(t, skills.Deleted{ID: sk.ID, Type: "skill_deleted"}, *del)
	_, err = client.Skills.Get(ctx, sk.ID)
	reftest.RequireNotFound(t, err, "Skill `"+sk.ID+"` not found.")
}

func TestSkillFromZip(t *testing.T) {
	client := reftest.New(t).Client(t)
	ctx := context.Background()
	archive := zipOf(t, "charts/SKILL.md", manifest("charts", "Draws charts."), "charts/lib/plot.py", "plot()")
	sk, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.Zip(archive, archive.Size())})
	require.NoError(t, err)
	require.Equal(t, "charts", sk.DisplayName)
	d, err := client.Skills.Versions.Download(ctx, sk.ID, sk.LatestVersionID)
	require.NoError(t, err)
	defer d.Close()
	require.Equal(t, map[string]string{"charts/SKILL.md": manifest("charts", "Draws charts."), "charts/lib/plot.py": "plot()"}, unzip(t, d))
}

func TestSkillListFiltersBySource(t *testing.T) {
	client := reftest.New(t).Client(t)
	ctx := context.Background()
	for _, name := range []string{"one", "two", "three"} {
		_, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.FS(skillFS(name, "d"))})
		require.NoError(t, err)
	}
	n := 0
	for _, err := range client.Skills.All(ctx, skills.ListParams{Limit: 2, Source: "custom"}) {
		require.NoError(t, err)
		n++
	}
	require.Equal(t, 3, n)
	page, err := client.Skills.List(ctx, skills.ListParams{Source: "vendor"})
	require.NoError(t, err)
	require.Empty(t, page.Data)
}

// TestSkillUploadIsStreamedAndRetried: the files are opened as the request
// goes out, not when it is checked, and a retried attempt opens them again.
// The first attempt is handled and its answer lost, so the server has read
// both bodies whole; the retry's Idempotency-Key replays the first answer,
// and one skill is created.
func TestSkillUploadIsStreamedAndRetried(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	fsys := newCountingFS(skillFS("streamed", "Read as it goes.", "data/a.bin", strings.Repeat("a", 1<<20)))
	env.Server.InjectFault(refserver.Fault{Method: http.MethodPost, Path: "/v1/skills", DropAfterHandling: true})
	sk, err := client.Skills.Create(context.Background(), skills.CreateParams{Files: skills.FS(fsys)})
	require.NoError(t, err)
	require.Equal(t, 2, env.Count(http.MethodPost, "/v1/skills"), "one retry")
	require.Equal(t, 2, fsys.count("data/a.bin"), "opened once per attempt that sent it, never to check it")
	page, err := client.Skills.List(context.Background(), skills.ListParams{})
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	require.Equal(t, sk.ID, page.Data[0].ID)
}

// TestSkillFileChangedWhileUploading: a file that grows after the check
// fails the call instead of sending a body longer than announced.
func TestSkillFileChangedWhileUploading(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	fsys := skillFS("grows", "d", "x.txt", "short")
	changing := &growingFS{MapFS: fsys}
	_, err := client.Skills.Create(context.Background(), skills.CreateParams{Files: skills.FS(changing)})
	require.ErrorContains(t, err, "x.txt changed while it was uploaded")
}

func TestAgentsReferenceSkills(t *testing.T) {
	client := reftest.New(t).Client(t)
	ctx := context.Background()
	sk, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.FS(skillFS("notes", "d"))})
	require.NoError(t, err)
	a, err := client.Agents.Create(ctx, agents.CreateParams{Name: "a", Model: agents.ModelID("vendor-haiku-5-5"),
		Skills: []agents.Skill{agents.CustomSkill{SkillID: sk.ID}}})
	require.NoError(t, err)
	require.Equal(t, []agents.Skill{agents.CustomSkill{SkillID: sk.ID, Version: sk.LatestVersionID}}, a.Skills, "pinned to the latest version")

	_, err = client.Agents.Create(ctx, agents.CreateParams{Name: "a", Model: agents.ModelID("vendor-haiku-5-5"),
		Skills: []agents.Skill{agents.CustomSkill{SkillID: "skill_01missing"}}})
	reftest.RequireNotFound(t, err, "skills[0].skill_id: skill `skill_01missing` not found")
	_, err = client.Agents.Create(ctx, agents.CreateParams{Name: "a", Model: agents.ModelID("vendor-haiku-5-5"),
		Skills: []agents.Skill{agents.CustomSkill{SkillID: sk.ID, Version: "skillver_01nope"}}})
	reftest.RequireNotFound(t, err, "skills[0].version: skill version `skillver_01nope` not found")
	require.ErrorIs(t, err, apierror.ErrNotFound)
}
