// Package selfhosted runs the sandbox of a self-hosted environment on this
// machine: a Worker claims the sessions of the environment from its work
// queue and runs their agent toolset (bash, read, write, edit, glob, grep)
// here, answering each call with user.tool_result, exactly once.
//
// A session of a self-hosted environment (environments.SelfHostedConfig)
// asks the client to run its sandbox tools. The platform hands such
// sessions to the environment's workers through a work queue: a worker
// polls, acknowledges an item, holds it with a lease it renews by
// heartbeats, and stops it when it is done (docs/environment-work-wire.md).
// The Worker does all of that:
//
//	key := os.Getenv("VENDOR_ENVIRONMENT_KEY") // the environment's key, from the console
//	w, err := selfhosted.New(client, envID, key,
//		selfhosted.WithDir("/srv/sessions"),
//		selfhosted.WithTools(deployTool)) // the application's custom tools, if any
//	if err != nil { … }
//	go func() {
//		<-shutdown
//		w.Close(context.Background()) // finish running tools, hand the rest over
//	}()
//	err = w.Run(ctx)
//
// # Sessions
//
// Each claimed session is followed by a toolrunner.Runner (its exactly-once
// discipline, reconciliation with the history and retries of answers are
// the toolrunner's: see its documentation) with the agent toolset of
// package agenttoolset confined to the session's own directory,
// <dir>/<session id>, and the application's custom tools. A session is
// served until it ends, until it has sat idle for WithIdleTimeout (its
// item is then stopped; its next turn queues a new one), or until the
// Worker stops. At most WithMaxSessions sessions are served at once; the
// Worker polls for more only below that.
//
// Every call the Worker makes is authorized by the environment key, which
// replaces the client's own credentials for those calls; the key is never
// logged, traced or given to the tools (bash runs with an environment of
// its own: see agenttoolset).
//
// # Leases and failures
//
// The Worker heartbeats each item every third of its lease (WithLeaseTTL).
// When the API says the item is stopping, the Worker ends it. When the lease
// is lost (a heartbeat refused with 412, or none went through for a whole
// lease) the item is the queue's again: the Worker cancels its tools and
// sends nothing more for it, and the worker that takes the item over
// reconciles with the session's history, so each call is answered once.
// A worker that dies (kill -9, a lost machine) holds its items until their
// leases expire; then other workers take them over the same way.
//
// A tool call that ran on a worker that died before its result was recorded
// is run again by the next worker: tools with side effects beyond the
// session's directory should be idempotent, keyed by toolrunner.CallID.
//
// # Many workers
//
// A fleet is more Workers, in as many processes and on as many machines as
// needed, against the same environment: the queue and its leases are the
// only coordinator. Run returns nil after Close, ctx's error when ctx ends,
// or the error that makes polling impossible (a refused key, a deleted
// environment).
//
// # Stopping
//
// Close stops polling, gives the running tools until its context ends to
// finish and have their results recorded, sends the answers still owed,
// and stops every item it holds: a session whose calls still wait is queued
// again at once for another worker. Cancelling Run's context does the same
// without the grace period.
//
// # Observability
//
// Each item is an INTERNAL span "vendor.environment.work" (vendor.environment.id,
// vendor.environment.work.id, vendor.session.id) from its claim to its
// release; each tool run under it is an INTERNAL span "vendor.tool_use <tool>"
// (custom tools: "vendor.custom_tool_use <tool>"), the parent of the
// request that sends its result. Logs go through the client's logger
// (option.WithLogger) unless WithLogger says otherwise, with
// environment_id, worker_id, work_id and session_id.
package selfhosted
