// Package sessions is the sessions family of the reference server:
// sessions and their resources (docs/managed-agents-wire.md sections 6
// and 7), their events — send, list and stream — and the engine that runs
// the scripted agent's turns (docs/session-events-wire.md).
//
// # What it serves
//
// Every endpoint needs the beta value managed-agents-2026-04-01 and works
// inside the request's workspace:
//
//   - /v1/sessions: create (an agent reference or agent_with_overrides,
//     an environment, resources, vaults, a budget and initial events that
//     start the first turn), list, retrieve, update (title, metadata, the
//     agent, the budget: raising or removing it resumes a paused turn),
//     archive and delete.
//   - /v1/sessions/{id}/resources: list, add, retrieve, update and delete.
//   - /v1/sessions/{id}/events: send and list; /stream is a
//     text/event-stream of the events recorded after it opened, with
//     previews (event_deltas), pings after the server's ping interval of
//     silence, and its end with the session.
//
// A session holds a snapshot of the agent version it runs (an immutable
// *agents.Version, or a modified copy of one), its resources, budget,
// usage and an append-only event log. Sessions are created by Create
// Session and by deployment runs (Service.CreateSessionLocked).
//
// # The engine
//
// The server has no model: a session's agent is scripted. ScriptSession
// and ScriptAgent compile steps of package script into the turns the
// engine runs; with nothing queued the agent takes package script's
// default turn. The engine turns accepted events into turns and emits what
// docs/session-events-wire.md specifies, in its order: statuses, agent
// messages and thinking, tool calls and their results, child threads of a
// multiagent coordinator, outcomes and their evaluations, budget stops,
// usage, and the errors of a Fail, Reschedule or Terminate step.
//
// It is synchronous and deterministic. Every entry point runs under the
// server's lock, inside the request (or test call) that causes it: a turn
// runs until it ends or must wait — for a client's answer to a tool call,
// a Hold, or a budget stop — and the request that supplies what it waits
// for continues it (ReleaseSession continues a Hold). Nothing runs in the
// background, so the same requests and script always produce the same
// events, and a test needs no sleeps.
//
// With the server's tracing on, the engine emits vendor.session.turn
// spans with their model requests and tool runs (docs/tracing.md),
// parented by the request that made the thread run (ParentTurns).
//
// # Streams
//
// Each session has a feed: its event log as the streams see it, the
// streams subscribed to it, and a channel that wakes them. The feed has a
// lock of its own: the engine writes under the server's lock and holds it
// for a whole turn, while streams read under the feed's lock only, so they
// deliver events while the turn is still running and never compete with
// other requests. Writers take the server's lock, then the feed's. A
// subscriber keeps only its index into the log; previews (not persisted)
// are copied per subscriber, at most 8 MiB of them waiting each. The
// engine never waits for a subscriber: one whose queue is full has its new
// previews shed until it catches up (what it is sent of an event is still
// a prefix); persisted events are never shed. A stream's handler runs on
// its connection's goroutine and starts no other, so nothing outlives the
// connection.
//
// # In the server
//
// New builds the family from Deps; Service.Routes are its endpoints.
// Deps carries the server's clock and ids (kit.Deps), the lock, the ping
// interval, the tracing (package spans), and funcs for what the family
// reads of the rest of the server: agent versions and environments
// (package agents) and memory stores (package memory). The deployments
// family uses the exported parsers (ParseInitialEvents, ParseBudget,
// ParseResources, ParseVaultIDs, CheckBudgetable), CheckResourcesLocked,
// EnvironmentFieldLocked, CreateSessionLocked and ParentTurns. The
// ...ForTest methods are the server's test hooks.
//
// # Lock discipline
//
// The family's state (every session, its engine, and the queued scripts)
// is guarded by Deps.Lock, which is the server's one lock: a turn reads
// agents and memory stores and a deployment run creates a session, all
// under it, so the family cannot have a lock of its own without a new
// concurrency design. Handlers and the exported hooks take the lock
// themselves; methods named ...Locked expect the caller to hold it, and
// every Deps func named ...Locked is called with it held and must not
// take it. Responses are buffered until the handler returns, so answering
// under the lock never waits on a client; streams wait without it. Without
// a Lock (tests), the family uses a mutex of its own.
package sessions
