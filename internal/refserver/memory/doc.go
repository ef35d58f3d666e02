// Package memory is the memory family of the reference server: memory
// stores, the memories in them and their versions, following
// docs/managed-agents-wire.md section 10 (common rules in its section 1,
// limits in section 11).
//
// # What it serves
//
// Every endpoint needs the beta value agent-memory-2026-07-22 or
// managed-agents-2026-04-01 and works inside the request's workspace:
//
//   - /v1/memory_stores: create, list (newest first, created_at range,
//     include_archived), retrieve, update (name, description, metadata
//     patch), archive (one-way, read-only afterwards) and delete (the store
//     goes with its memories and versions).
//   - .../memories: UTF-8 documents at paths inside a store. Paths form a
//     file tree, so a path may be neither the path of another memory nor
//     above or below one (409 memory_path_conflict_error naming the memory
//     in the way). Updates can guard on the content's SHA-256 (409
//     memory_precondition_failed_error). The list is in path order, rolls
//     up deeper memories into memory_prefix items with depth, and pages
//     by path.
//   - .../memory_versions: every write that changes a memory appends an
//     immutable version (created, modified, deleted) recording who wrote
//     it; the list is newest first with filters. Redaction erases a
//     version's path and content for good; a live memory's current
//     version cannot be redacted.
//
// Checks run in this order: the request itself (400), the store and the
// object named in the path (404), then the state they are in (409).
//
// # In the server
//
// New builds the family from Deps: the server's clock and ids (kit.Deps)
// and Lock. Service.Routes are its endpoints, which the server adds to its
// route table.
//
// The rest of the server uses one function: Service.StoreLocked, which a
// session's memory_store resources and a deployment's run checks call to
// learn whether a store exists in the workspace, whether it is archived,
// and what an attachment copies (name, description, default mount path
// /mnt/memory/<slug>).
//
// # Lock discipline
//
// The family's state is guarded by Deps.Lock, which is the server's one
// lock: the sessions and deployments code calls StoreLocked while holding
// that lock for its own state, so the two cannot have separate locks
// without a new concurrency design. Handlers take the lock themselves and
// never call out of the family while holding it; StoreLocked expects the
// caller to hold it and takes nothing. Responses are buffered until the
// handler returns, so answering under the lock never waits on a client.
// Without a Lock (tests), the family uses a mutex of its own.
package memory
