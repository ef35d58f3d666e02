// Package work is the reference server's environment work queue: how the
// platform hands the sessions of a self-hosted environment to the workers
// that run its sandbox tools (docs/environment-work-wire.md).
//
// Each self-hosted environment has a queue of work items, one per session
// that needs a worker. The sessions family tells the queue when that is
// (WorkNeededLocked) and when a session ends (SessionEndedLocked); the
// queue asks back whether a sandbox call still waits when an item stops
// (Deps.SandboxCallWaitingLocked), so that a call is never left without a
// worker. Workers long-poll for items, acknowledge them and keep a lease
// alive with heartbeats; the server's tick (SweepLocked) and every work
// request put items whose lease ran out back in the queue.
//
// The state is guarded by the server's lock (Deps.Lock), like every
// family's. A long poll never holds it while it waits: it waits on a
// channel that is closed whenever an item may have become pollable,
// bounded by block_ms of real time and by the request's context.
//
// Which credential may call which route: an environment key is checked by
// the identity family (the routes it may call) and by the server's façade
// (the environment and session it names); this package applies the rest,
// the routes that accept only the environment key (poll, ack, heartbeat,
// list).
package work
