// Package agents is the agents family of the reference server: agents and
// their versions, and environments, following docs/managed-agents-wire.md
// sections 4 and 5 (shared types in section 3, common rules in section 1,
// limits in section 11).
//
// # What it serves
//
// Every endpoint needs the beta value managed-agents-2026-04-01 and works
// inside the request's workspace:
//
//   - /v1/agents: create, list (newest first, created_at range,
//     include_archived), retrieve (the latest version, or ?version=N),
//     update and archive, and /v1/agents/{id}/versions. An agent is
//     versioned: every update that changes its definition stores a new
//     immutable Version (an update that changes nothing stores none), and
//     every earlier version stays readable. A definition holds the model
//     config (id, effort, inference_geo, speed; the model must be in the
//     catalogue of package messages), tools (the agent toolset with
//     per-tool configs, MCP toolsets, custom tools), MCP servers, skills,
//     the execution identity, and a multiagent setting (a coordinator's
//     roster or multiagent_20261001's advisor, subagents and workflows)
//     whose agent references are pinned to versions when written.
//     Archiving is agent-wide and one-way; it archives the agent's
//     deployments too.
//   - /v1/environments: create, list, retrieve, update, archive and
//     delete. An environment is cloud (networking unrestricted or
//     limited, package lists) or self_hosted; its type is fixed at
//     creation. Delete removes it for good.
//
// # In the server
//
// New builds the family from Deps: the server's clock and ids (kit.Deps),
// Lock, and ArchiveDeploymentsLocked, through which archiving an agent
// archives its deployments. Service.Routes are its endpoints, which the
// server adds to its route table.
//
// The rest of the server uses:
//
//   - Service.ResolveRefLocked, for the "agent" field of sessions and
//     deployments. It returns a *Version: the snapshot a session runs and
//     a deployment pins. A Version never changes once stored, so callers
//     keep the pointer instead of a copy, and the session engine reads its
//     exported fields (Model, Tools, Multiagent, Name, System ...) and
//     renders it with ReferenceJSON, SessionAgentJSON and ModelIDs. The
//     exported fields are the part of a definition the engine reads; the
//     rest stays unexported. A caller that needs a changed definition
//     (Update Session replaces tools and MCP servers, ParseTools) copies
//     the Version and changes the copy; it never writes to a stored one.
//     Session create with overrides parses with ParseModelConfig,
//     ParseTools and ParseSkills, and checks custom skills with
//     Service.ResolveSkillsLocked (the lookup is Deps.ResolveSkillLocked,
//     filled from the skills family; Skill.Name is what the scripted
//     agent's reply lists). The engine also builds a Version of its
//     own for an inline child thread (Agent, Name, Model only); such a
//     value is never stored here.
//   - Service.EnvironmentLocked and EnvironmentByIDLocked, which return an
//     EnvironmentInfo: a copy of what sessions and deployments check
//     (existence in the workspace, archived, self_hosted).
//   - Service.LatestLocked, for the scripted agent's per-agent scripts
//     (ScriptAgent), which stay in package refserver.
//
// Model ids and efforts are checked with messages.KnownModel and
// messages.ModelSupportsEffort.
//
// # Lock discipline
//
// The family's state is guarded by Deps.Lock, which is the server's one
// lock: sessions and deployments resolve agents and environments while
// holding that lock for their own state, so the two cannot have separate
// locks without a new concurrency design. Handlers take the lock
// themselves; the only call out of the family under it is
// Deps.ArchiveDeploymentsLocked, which must not take it. The *Locked
// methods expect the caller to hold it and take nothing. Responses are
// buffered until the handler returns, so answering under the lock never
// waits on a client. Without a Lock (tests), the family uses a mutex of
// its own.
package agents
