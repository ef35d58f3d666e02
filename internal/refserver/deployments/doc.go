// Package deployments is the deployments family of the reference server:
// deployments and their runs, following docs/managed-agents-wire.md
// sections 8 and 9 (common rules in its section 1, limits in section 11).
//
// # What it serves
//
// Every endpoint needs the beta value managed-agents-2026-04-01 and works
// inside the request's workspace:
//
//   - /v1/deployments: create, list (newest first; agent_id, status,
//     created_at range, include_archived), retrieve, update (lists
//     replaced whole, metadata patched, a new schedule counts from now),
//     pause, unpause (missed occurrences are not fired), archive (final)
//     and run (Run Now). A deployment is an agent version pinned when it
//     is written, bound to an environment, with resources, vaults, a
//     budget and initial events that it hands to every session it creates.
//   - /v1/deployment_runs: list (newest first; deployment_id, has_error,
//     trigger_type, created_at window) and retrieve. A run is the
//     append-only record of one execution, manual or scheduled: the
//     session it created, or the error that stopped it (environment
//     missing or archived, memory store missing or archived, or the
//     session refused). It records no later fate of the session.
//
// # Schedules
//
// A deployment may carry a cron schedule (package schedule parses it).
// Scheduled firing is driven from outside: the server calls
// Service.FireDueLocked from its tick (before every request, whenever a
// ManualClock moves, and once a second when serving on the system clock).
// Each occurrence fires once, dated at the occurrence, oldest first across
// deployments; a failed scheduled run pauses its deployment. The family
// keeps the earliest next fire time of all, so a tick with nothing due is
// one comparison and allocates nothing.
//
// # In the server
//
// New builds the family from Deps; Service.Routes are its endpoints, which
// the server adds to its route table. Deps carries the server's clock and
// ids (kit.Deps), the lock, and funcs for all the family needs from the
// rest of the server:
//
//   - agents: resolving the body's agent reference to a pinned version
//     (Agent: its id and wire reference, and the server's snapshot, which
//     the family does not look into) and the budget check on it;
//   - environments: the environment_id field and environment lookups
//     (Environment, a copy: workspace, self-hosted, archived);
//   - memory stores: memory.Service.StoreLocked, for a run's checks;
//   - the session parameters a deployment stores (initial events,
//     budget, resources, vault ids), parsed and checked by the sessions
//     code, kept here as their wire forms plus an opaque value;
//   - the session of a run: CreateSessionLocked gets a SessionSpec with
//     those values handed back and creates and starts the session;
//     ParentTurns makes a Run Now's request span the parent of the turns
//     it starts.
//
// The server also calls Service.ArchiveAgentLocked when an agent is
// archived: its deployments are archived in the same operation.
//
// # Lock discipline
//
// The family's state is guarded by Deps.Lock, which is the server's one
// lock: a run creates a session, and both create and update read agents,
// environments and memory stores, all under that lock, so the family
// cannot have a lock of its own without a new concurrency design.
// Handlers take the lock themselves; every Deps func named ...Locked is
// called with it held and must not take it, and the others (the parsers,
// CheckBudgetable, ParentTurns) take no server lock. FireDueLocked and
// ArchiveAgentLocked expect the caller to hold the lock. Responses are
// buffered until the handler returns, so answering under the lock never
// waits on a client. Without a Lock (tests), the family uses a mutex of
// its own.
package deployments
