package skills_test

import (
	"context"
	"fmt"
	"log"
	"testing/fstest"

	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/skills"
)

// A skill is a directory with a SKILL.md; an agent references it by id.
// The example builds the skill in memory (skills.FS) and uses platformtest,
// the in-process reference server; a program would give skills.Dir a
// directory on disk and call agentplatform.NewClient() instead.
func Example() {
	srv, err := platformtest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	ctx := context.Background()

	files := fstest.MapFS{
		"SKILL.md":           {Data: []byte("---\nname: release-notes\ndescription: Writes release notes from merged changes.\n---\n# Release notes\n")},
		"templates/notes.md": {Data: []byte("## {{version}}\n")},
	}
	sk, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.FS(files)})
	if err != nil {
		log.Fatal(err)
	}
	v, err := client.Skills.Versions.Get(ctx, sk.ID, "latest")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sk.DisplayName, v.Name, v.Description)

	// An agent that uses the skill; with no version, it is pinned to the
	// latest one.
	a, err := client.Agents.Create(ctx, agents.CreateParams{
		Name:   "writer",
		Model:  agents.ModelID("vendor-haiku-5-5"),
		Skills: []agents.Skill{agents.CustomSkill{SkillID: sk.ID}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Skills[0].(agents.CustomSkill).Version == sk.LatestVersionID)
	// Output:
	// release-notes release-notes Writes release notes from merged changes.
	// true
}
