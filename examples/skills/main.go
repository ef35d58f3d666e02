// Command skills gives an agent a custom skill: it writes a skill's
// directory (SKILL.md and a template), uploads it, adds a second version,
// downloads a version as a zip archive, and starts a session of an agent
// that uses the skill.
//
//	go run ./examples/skills
//
// Without VENDOR_API_KEY it runs against the SDK's reference server, started
// in this process, whose scripted agent names the session's skills in its
// reply; with it, against the API at VENDOR_BASE_URL, and it deletes or
// archives what it created.
package main

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"time"

	agentplatform "github.com/agentplatform/agentplatform-go"
	"github.com/agentplatform/agentplatform-go/agents"
	"github.com/agentplatform/agentplatform-go/environments"
	"github.com/agentplatform/agentplatform-go/models"
	"github.com/agentplatform/agentplatform-go/platformtest"
	"github.com/agentplatform/agentplatform-go/sessions"
	"github.com/agentplatform/agentplatform-go/skills"
)

func main() {
	log.SetFlags(0)
	if err := run(); err != nil {
		log.Fatal("skills: ", err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The target: the API when VENDOR_API_KEY is set, else the SDK's
	// reference server, started in this process.
	var (
		srv    *platformtest.Server // nil against the real API
		client *agentplatform.Client
		err    error
	)
	if os.Getenv("VENDOR_API_KEY") != "" {
		fmt.Println("Target: the API at", cmp.Or(os.Getenv("VENDOR_BASE_URL"), "https://api.vendor.com"))
		client, err = agentplatform.NewClient() // reads VENDOR_API_KEY, VENDOR_BASE_URL, VENDOR_WORKSPACE_ID
	} else {
		if srv, err = platformtest.NewServer(); err != nil {
			return err
		}
		defer srv.Close()
		fmt.Println("Target: the embedded reference server at", srv.URL(), "(set VENDOR_API_KEY to use the real API)")
		client, err = srv.Client() // its address, seeded key and workspace
	}
	if err != nil {
		return err
	}
	defer client.Close()

	// A skill is a directory: SKILL.md names it and says when to use it.
	base, err := os.MkdirTemp("", "skills-example-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	dir := filepath.Join(base, "release-notes") // the directory's name is the skill's
	if err := writeSkill(dir, "Writes release notes from a list of merged changes."); err != nil {
		return err
	}
	// The SDK checks the files as the API would, then streams them.
	skill, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.Dir(dir), DisplayName: "Release notes"})
	if err != nil {
		return err
	}
	defer client.Skills.Delete(ctx, skill.ID) // its versions go with it
	fmt.Printf("Skill %s %q, version %s\n", skill.ID, skill.DisplayName, skill.LatestVersionID)

	// A new version is the skill's complete set of files again.
	if err := writeSkill(dir, "Writes release notes, grouped by area."); err != nil {
		return err
	}
	v2, err := client.Skills.Versions.Create(ctx, skill.ID, skills.CreateVersionParams{Files: skills.Dir(dir)})
	if err != nil {
		return err
	}
	fmt.Printf("Version %s: %s — %s\n", v2.ID, v2.Name, v2.Description)

	// A version downloads as a zip archive under the skill's name.
	d, err := client.Skills.Versions.Download(ctx, skill.ID, v2.ID)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(d)
	d.Close()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	for _, f := range zr.File {
		fmt.Println("  archive:", f.Name)
	}

	// An agent uses the skill, pinned to the version it was given.
	environment, err := client.Environments.Create(ctx, environments.CreateParams{Name: "skills"})
	if err != nil {
		return err
	}
	defer client.Environments.Archive(ctx, environment.ID)
	agent, err := client.Agents.Create(ctx, agents.CreateParams{
		Name: "Release writer", Model: agents.ModelID(models.VendorHaiku55),
		Skills: []agents.Skill{agents.CustomSkill{SkillID: skill.ID, Version: v2.ID}},
	})
	if err != nil {
		return err
	}
	defer client.Agents.Archive(ctx, agent.ID)
	session, err := client.Sessions.Create(ctx, sessions.CreateParams{Agent: agents.AgentID(agent.ID), EnvironmentID: environment.ID})
	if err != nil {
		return err
	}
	defer client.Sessions.Delete(ctx, session.ID)

	stream, err := client.Sessions.Events.Stream(ctx, session.ID, sessions.StreamParams{})
	if err != nil {
		return err
	}
	defer stream.Close()
	if _, err := client.Sessions.Events.Send(ctx, session.ID, sessions.SendParams{
		Events: []sessions.EventParam{sessions.UserMessage("Which skills do you have?")},
	}); err != nil {
		return err
	}
	for ev, err := range stream.Events() {
		if err != nil {
			return err
		}
		switch ev := ev.(type) {
		case *sessions.AgentMessageEvent:
			fmt.Println("agent:", sessions.Text(ev.Content))
		case *sessions.SessionStatusIdleEvent:
			return nil
		}
	}
	return nil
}

// writeSkill writes the skill's files into dir.
func writeSkill(dir, description string) error {
	if err := os.MkdirAll(filepath.Join(dir, "templates"), 0o755); err != nil {
		return err
	}
	manifest := "---\nname: release-notes\ndescription: " + description + "\n---\n" +
		"# Release notes\n\nGroup the changes, then fill templates/notes.md.\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(manifest), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "templates", "notes.md"), []byte("## {{version}}\n\n{{changes}}\n"), 0o644)
}
