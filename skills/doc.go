// Package skills manages custom skills: directories of instructions and
// files, named and described by a SKILL.md manifest, that agents load when
// a task needs them. A skill is stored as immutable versions; an agent
// references one by id (agents.CustomSkill) and pins a version or follows
// the latest.
//
//	sk, err := client.Skills.Create(ctx, skills.CreateParams{Files: skills.Dir("./release-notes")})
//	v, err := client.Skills.Versions.Create(ctx, sk.ID, skills.CreateVersionParams{Files: skills.Dir("./release-notes")})
//	d, err := client.Skills.Versions.Download(ctx, sk.ID, v.ID) // a zip archive, streamed
//
// A skill's files come from a directory on disk (Dir), an fs.FS (FS) or a
// zip archive (Zip). The SDK checks them as the API does before it sends
// anything — one top-level directory holding SKILL.md, whose YAML front
// matter has a kebab-case name and a description, at most 8 MiB in all
// (docs/skills-wire.md) — and then streams them: no file is held in
// memory whole, and a retried attempt reads them again.
package skills
