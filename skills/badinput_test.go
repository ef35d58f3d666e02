package skills_test

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/internal/reftest"
	"github.com/agentplatform/agentplatform-go/skills"
)

// badInput is declared here so that the table's rows may be positional
// (vet's composites check refuses unkeyed literals of another package's
// struct).
type badInput reftest.BadInput

// errFS is an fs.FS that cannot be read.
type errFS struct{}

func (errFS) Open(string) (fs.File, error) { return nil, errors.New("disk on fire") }

func TestBadInput(t *testing.T) {
	env := reftest.New(t)
	client := env.Client(t)
	ctx := context.Background()
	existing, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.FS(skillFS("kept", "d"))})
	if err != nil {
		t.Fatal(err)
	}
	create := func(files skills.Files, display string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Skills.Create(ctx, skills.CreateParams{Files: files, DisplayName: display})
			return err
		}
	}
	md := func(content string, extra ...string) skills.Files {
		m := fstest.MapFS{"SKILL.md": {Data: []byte(content)}}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = &fstest.MapFile{Data: []byte(extra[i+1])}
		}
		return skills.FS(m)
	}
	dir := func(name string, files map[string]string) skills.Files { return skills.Dir(skillDir(t, name, files)) }
	zipped := func(pairs ...string) skills.Files {
		r := zipOf(t, pairs...)
		return skills.Zip(r, r.Size())
	}
	newVersion := func(id string, files skills.Files) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Skills.Versions.Create(ctx, id, skills.CreateVersionParams{Files: files})
			return err
		}
	}
	getVersion := func(id, v string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Skills.Versions.Get(ctx, id, v)
			return err
		}
	}
	download := func(id, v string) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error {
			_, err := c.Skills.Versions.Download(ctx, id, v)
			return err
		}
	}
	list := func(p skills.ListParams) reftest.Call {
		return func(ctx context.Context, c *agentplatform.Client) error { _, err := c.Skills.List(ctx, p); return err }
	}
	ok := manifest("s", "d")
	reftest.RunBadInput(t, env, client, []badInput{
		{"no files", create(skills.Files{}, ""), "Files", "is required", true},
		{"dir missing", create(skills.Dir(t.TempDir()+"/nope"), ""), "Files", "cannot be read", true},
		{"fs unreadable", create(skills.FS(errFS{}), ""), "Files", "cannot be read", true},
		{"no manifest in fs", create(skills.FS(fstest.MapFS{"a.txt": {}}), ""), "files", "is required at the root", true},
		{"no manifest in dir", create(dir("s", map[string]string{"a.txt": "x"}), ""), "files", "`s/SKILL.md` is required", true},
		{"nested manifest only", create(dir("s", map[string]string{"sub/SKILL.md": ok}), ""), "files", "`s/SKILL.md` is required", true},
		{"too large", create(md(ok, "big", strings.Repeat("x", 8<<20)), ""), "files", "must total at most 8388608 bytes", true},
		{"zip two tops", create(zipped("a/SKILL.md", ok, "b/x", "x"), ""), "files", "same top-level directory", true},
		{"zip no directory", create(zipped("SKILL.md", ok), ""), "files", "same top-level directory", true},
		{"zip not a zip", create(skills.Zip(strings.NewReader("nope"), 4), ""), "Files", "is not a zip archive", true},
		{"no front matter", create(md("# hi"), ""), "SKILL.md", "must start with YAML front matter", true},
		{"unclosed front matter", create(md("---\nname: s\n"), ""), "SKILL.md", "no closing `---` line", true},
		{"front matter a list", create(md("---\n- a\n---\n"), ""), "SKILL.md", "not a mapping", true},
		{"name a number", create(md("---\nname: 7\ndescription: d\n---\n"), ""), "SKILL.md.name", "must be a string", true},
		{"name upper case", create(md(manifest("Notes", "d")), ""), "SKILL.md.name", "lowercase letters, digits and hyphens", true},
		{"name 65", create(md(manifest(strings.Repeat("a", 65), "d")), ""), "SKILL.md.name", "1 to 64", true},
		{"name trailing hyphen", create(md(manifest("a-", "d")), ""), "SKILL.md.name", "lowercase letters, digits and hyphens", true},
		{"name reserved", create(md(manifest("vendor-tools", "d")), ""), "SKILL.md.name", "reserved word `vendor`", true},
		{"directory name bad", create(dir("My Skill", map[string]string{"SKILL.md": "---\ndescription: d\n---\n"}), ""), "SKILL.md.name", "lowercase letters", true},
		{"no name in fs", create(md("---\ndescription: d\n---\n"), ""), "SKILL.md.name", "lowercase letters", true},
		{"no description", create(md("---\nname: s\n---\n"), ""), "SKILL.md.description", "is required", true},
		{"description 1025", create(md(manifest("s", strings.Repeat("d", 1025))), ""), "SKILL.md.description", "at most 1024 characters", true},
		{"description tag", create(md(manifest("s", "see <a href=x>here</a>")), ""), "SKILL.md.description", "XML tags", true},
		{"display name 256", create(md(ok), strings.Repeat("é", 256)), "display_name", "between 1 and 255 characters", true},
		{"display name two lines", create(md(ok), "a\nb"), "display_name", "single line", true},
		{"version of empty id", newVersion("", md(ok)), "skill_id", "must not be empty", true},
		{"version of bad id", newVersion("agent_1", md(ok)), "skill_id", "must be a skill id", true},
		{"version renames", newVersion(existing.ID, md(manifest("other", "d"))), "SKILL.md.name", "must be `kept`, the skill's name; got `other`", false},
		{"get version bad", getVersion(existing.ID, "2"), "version", "or `latest`", true},
		{"get version empty skill", getVersion("", "latest"), "skill_id", "must not be empty", true},
		{"download latest", download(existing.ID, "latest"), "version", "must be a version id", true},
		{"list source", list(skills.ListParams{Source: "mine"}), "source", "must be one of", true},
		{"list limit 1001", list(skills.ListParams{Limit: 1001}), "limit", "between 1 and 1000", true},
		{"list page not a cursor", list(skills.ListParams{Page: "nope"}), "page", "invalid cursor", false},
		{"all page not a cursor", func(ctx context.Context, c *agentplatform.Client) error {
			return reftest.FirstErr(c.Skills.All(ctx, skills.ListParams{Page: "nope"}))
		}, "page", "invalid cursor", false},
	})
}
